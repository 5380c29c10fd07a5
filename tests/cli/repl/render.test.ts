import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { cursorRowAfter, render, type RenderGeometry } from "../../../cli/repl/render.ts";
import { VtScreen } from "../../support/vt.ts";

/** Draws states one after another on one screen, as the editor does. */
class Drawer {
  vt: VtScreen;
  geometry: RenderGeometry | undefined;
  last = "";
  constructor(cols = 60) {
    this.vt = new VtScreen(cols, 30);
  }
  draw(prompt: string, text: string, cursor = text.length): void {
    const r = render({ prompt, text, cursor, columns: this.vt.cols, previous: this.geometry });
    this.geometry = r.geometry;
    this.last = r.output;
    this.vt.write(r.output);
  }
}

const P = "you[sonnet]> "; // 13 columns

Deno.test("render: a long line wraps at 60 columns, cursor placed, redraws leave no trace", () => {
  const d = new Drawer();
  const text = "a".repeat(47) + "b".repeat(60) + "c".repeat(10);
  d.draw(P, text);
  assertEquals(d.vt.lines(), [P + "a".repeat(47), "b".repeat(60), "c".repeat(10)]);
  assertEquals([d.vt.row, d.vt.col], [2, 10]);
  d.draw(P, text, 0);
  assertEquals([d.vt.row, d.vt.col], [0, 13]);
  d.draw(P, text, 50);
  assertEquals([d.vt.row, d.vt.col], [1, 3]);
  d.draw(P, "short", 2);
  assertEquals(d.vt.lines(), [P + "short"]);
  assertEquals([d.vt.row, d.vt.col], [0, 15]);
  // Append-only: no alternate screen, no full-screen clear.
  assert(!d.last.includes("\x1b[?1049h") && !d.last.includes("\x1b[2J"));
});

Deno.test("render: text that exactly fills a row puts the cursor on the next row", () => {
  const d = new Drawer();
  d.draw(P, "x".repeat(47));
  assertEquals(d.vt.lines(), [P + "x".repeat(47)]);
  assertEquals([d.vt.row, d.vt.col], [1, 0]);
  d.draw(P, "x".repeat(46));
  assertEquals([d.vt.row, d.vt.col], [0, 59]);
  assertEquals(d.vt.lines(), [P + "x".repeat(46)]);
});

Deno.test("render: CJK and emoji widths; a wide character at the edge moves to the next row", () => {
  const d = new Drawer();
  // 13 + 46 = 59 columns used: a wide char does not fit in the last column.
  const text = "x".repeat(46) + "世界" + "👩‍💻!";
  d.draw(P, text);
  assertEquals(d.vt.line(0), P + "x".repeat(46));
  assertEquals(d.vt.cells[0][59], " ");
  assertEquals(d.vt.cells[1].slice(0, 7), ["世", "", "界", "", "👩‍💻", "", "!"]);
  assertEquals([d.vt.row, d.vt.col], [1, 7]);
  // Cursor before 界 (offset 47).
  d.draw(P, text, 47);
  assertEquals([d.vt.row, d.vt.col], [1, 2]);
  // Cursor before the wrapped 世 sits at the start of row 1, not past the edge of row 0.
  d.draw(P, text, 46);
  assertEquals([d.vt.row, d.vt.col], [1, 0]);
});

Deno.test("render: multi-line buffer, control characters shown as ^X, SGR prompt measured without colour", () => {
  const d = new Drawer();
  d.draw(P, "first\nsecond\x01x", 3);
  assertEquals(d.vt.lines(), [P + "first", "second^Ax"]);
  assertEquals([d.vt.row, d.vt.col], [0, 16]);
  d.draw("\x1b[1myou>\x1b[22m ", "abc");
  assertEquals(d.vt.lines(), ["you> abc"]);
  assertEquals([d.vt.row, d.vt.col], [0, 8]);
  // A plain prompt gets no colour from the renderer (NO_COLOR is the caller's prompt).
  d.draw(P, "plain");
  assert(d.last.split("\x1b[").slice(1).every((seq) => !/^[0-9;]*m/.test(seq)));
});

Deno.test("render: growing then shrinking across rows keeps the screen exact (fuzz)", () => {
  const d = new Drawer();
  const alphabet = ["a", "世", "😀", "e\u0301", " ", "z"];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 200; round++) {
    const n = Math.floor(rand() * 120);
    const parts = Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]);
    const text = parts.join("");
    const cut = Math.floor(rand() * (parts.length + 1));
    const cursor = parts.slice(0, cut).join("").length;
    d.draw("> ", text, cursor);
    // Expected rows by a direct wrap of "> " + text.
    const rows: string[] = [];
    let row = "> ";
    let w = 2;
    let cur: [number, number] | undefined;
    for (let i = 0; i < parts.length; i++) {
      const pw = parts[i] === "世" || parts[i] === "😀" ? 2 : 1;
      if (w + pw > 60) rows.push(row), row = "", w = 0;
      if (i === cut) cur = [rows.length, w];
      row += parts[i] + (pw === 2 ? "" : "");
      w += pw;
      if (w === 60) rows.push(row), row = "", w = 0;
    }
    if (!cur) cur = [rows.length, w];
    rows.push(row);
    const screen = d.vt.lines().map((l) => l.replace(/ +$/, ""));
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    assertEquals(screen, rows.map((r) => r.replace(/ +$/, "")), `round ${round}`);
    assertEquals([d.vt.row, d.vt.col], cur, `cursor, round ${round}`);
  }
});

Deno.test("render: after a resize the erase goes back over the rows the terminal re-wrapped", () => {
  // Drawn at 60 columns: a full prompt row, a full row, then the cursor at column 10 of row 2.
  const text = "a".repeat(47) + "b".repeat(60) + "c".repeat(10);
  const first = render({ prompt: P, text, cursor: text.length, columns: 60 });
  assertEquals(first.geometry.cursorRow, 2);
  // At 40 columns each 60-wide row takes two rows: the cursor is now 4 rows below the start.
  assertEquals(cursorRowAfter(first.geometry, 40), 4);
  const again = render({ prompt: P, text, cursor: text.length, columns: 40, previous: first.geometry });
  assert(again.output.startsWith("\r\x1b[4A\x1b[J"), JSON.stringify(again.output.slice(0, 12)));
  // Wider: hard row ends are not joined, so the rows stay as they were.
  assertEquals(cursorRowAfter(first.geometry, 120), 2);
  // The same width: nothing changes.
  assertEquals(cursorRowAfter(first.geometry, 60), 2);
});

Deno.test("render: a tab shows as spaces to the next 8-column stop, the cursor after it", () => {
  const d = new Drawer(40);
  d.draw("> ", "a\tb");
  // "> a" ends at column 3; the tab fills to column 8.
  assertEquals(d.vt.line(0), "> a     b");
  assertEquals([d.vt.row, d.vt.col], [0, 9]);
  d.draw("> ", "a\tb", 2);
  assertEquals([d.vt.row, d.vt.col], [0, 8]);
  // Near the right edge a tab fills the row and the text goes on at the next one.
  d.draw("> ", "x".repeat(36) + "\tb");
  assertEquals(d.vt.line(1), "b");
  assert(!d.last.includes("^I"));
});

Deno.test("render: a prompt wider than the window wraps softly; growing joins its rows again", () => {
  // 13 + 11 = 24 columns at 12 wide: the prompt's autowrapped row and the text's row are one line.
  const r = render({ prompt: P, text: "hello there", cursor: 11, columns: 12 });
  assertEquals(r.geometry.cursorRow, 2);
  assertEquals(cursorRowAfter(r.geometry, 100), 1);
  // Cursor inside that first line: row 1 at 12 columns, row 0 once it fits.
  const inside = render({ prompt: P, text: "hello there", cursor: 5, columns: 12 });
  assertEquals(inside.geometry.cursorRow, 1);
  assertEquals(cursorRowAfter(inside.geometry, 100), 0);
});
