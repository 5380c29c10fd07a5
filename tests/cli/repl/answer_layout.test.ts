import assert from "node:assert/strict";
import { AnswerLayout, layTable, wrapText } from "../../../cli/repl/answer_layout.ts";
import { stringWidth } from "../../../cli/repl/width.ts";
import { VtScreen } from "../../support/vt.ts";

/** Streams `text` in pieces of `chunk` characters into a layout of `columns`. */
function lay(text: string, columns: number, chunk = 3): string {
  const l = new AnswerLayout(() => columns);
  let out = "";
  for (let i = 0; i < text.length; i += chunk) out += l.push(text.slice(i, i + chunk));
  return out + l.end();
}

Deno.test("layout: lines break between words, never inside one, whatever the pieces", () => {
  const text = "The adt_in thread is up, the queue is empty and adt_out has been down since 08:05 today.\n";
  for (const chunk of [1, 2, 5, 100]) {
    const out = lay(text, 30, chunk);
    const lines = out.split("\n");
    for (const l of lines) assert.ok(stringWidth(l) <= 29, `${JSON.stringify(l)} at ${chunk}`);
    assert.equal(out.replace(/\n/g, " ").replace(/ +/g, " ").trim(), text.trim(), `no word lost at ${chunk}`);
    for (const w of text.trim().split(" ")) assert.ok(lines.some((l) => l.includes(w)), w);
  }
});

Deno.test("layout: a list item's continuation is indented under its text; SGR takes no columns", () => {
  const out = lay("- restart \x1b[1madt_in\x1b[22m after the queue drains and tell the team\n", 24);
  assert.equal(
    out,
    "- restart \x1b[1madt_in\x1b[22m after\n  the queue drains and\n  tell the team\n",
  );
});

Deno.test("layout: a word longer than a line is written whole; the text goes on after it", () => {
  const path = "/hci/cis20.1/integrator/adt/NetConfig";
  const out = lay(`see ${path} now\n`, 20);
  // 37 columns on 19: the terminal breaks it, and ends at column 17 of its second row, where " now"
  // does not fit either.
  assert.equal(out, `see\n${path}\nnow\n`);
});

Deno.test("layout: the answer on a virtual 40-column screen keeps every word whole", () => {
  const vt = new VtScreen(40, 30);
  const words = Array.from({ length: 60 }, (_, i) => `word${i}${"x".repeat(i % 7)}`);
  vt.write(lay(words.join(" ") + "\n", 40, 7).replace(/\n/g, "\r\n"));
  const lines = vt.lines().filter((l) => l.trim() !== "");
  for (const l of lines) for (const w of l.trim().split(" ")) assert.match(w, /^word\d+x*$/, l);
});

const TABLE = [
  "| Thread | State | Queued | Last error |",
  "|---|---|--:|---|",
  "| adt_in | up | 12 | none |",
  "| adt_out_to_lab_system | down | 0 | connection refused by the lab system at 08:05 |",
];

Deno.test("table: fits as aligned columns when it can", () => {
  assert.equal(
    layTable(TABLE, 120),
    [
      "Thread                │ State │ Queued │ Last error",
      `${"─".repeat(22)}┼${"─".repeat(7)}┼${"─".repeat(8)}┼${"─".repeat(46)}`,
      "adt_in                │ up    │     12 │ none",
      "adt_out_to_lab_system │ down  │      0 │ connection refused by the lab system at 08:05",
    ].join("\n") + "\n",
  );
});

Deno.test("table: narrowed to the width, the wide columns' cells wrap; no line is wider", () => {
  const out = layTable(TABLE, 59);
  for (const l of out.trimEnd().split("\n")) assert.ok(stringWidth(l) <= 59, l);
  assert.match(out, /^adt_in +│ up +│ +12 │ none$/m);
  assert.ok(out.includes("connection"), out);
  assert.equal(out.split("\n").filter((l) => l.includes("┼")).length, 1);
});

Deno.test("table: too narrow for columns, one header: value block per row", () => {
  const out = layTable(TABLE, 20);
  for (const l of out.trimEnd().split("\n")) assert.ok(stringWidth(l) <= 20, l);
  assert.match(out, /^Thread: adt_in\nState: up\nQueued: 12\nLast error: none\n\nThread:/m);
});

Deno.test("table: streamed, it is held to its last row and drawn once; text around it flows", () => {
  const out = lay(`Here:\n${TABLE.join("\n")}\nThat is all.\n`, 60, 4);
  assert.ok(out.startsWith("Here:\n"), out);
  assert.ok(out.endsWith("\nThat is all.\n"), out);
  assert.equal(out.split("\n").filter((l) => l.includes("─┼─")).length, 1);
  assert.ok(!out.includes("|---"), out);
});

Deno.test("rows without a separator row are not a table: written as they came", () => {
  assert.equal(layTable(["| a | b |", "| c | d |"], 40), "| a | b |\n| c | d |\n");
});

Deno.test("wrapText cuts a word longer than the width", () => {
  assert.deepEqual(wrapText("abcdefghij kl", 4), ["abcd", "efgh", "ij", "kl"]);
});
