/**
 * The keymap is the one place keys are written: README's key table is the generated one, /help
 * prints its rows, the editor and the line session name no key of their own, and each chord means
 * one thing.
 */
import assert from "node:assert/strict";
import { keyHelpRows, KEYMAP, keyOp, keyTableMarkdown, parseChord } from "../../cli/keymap.ts";
import { helpText } from "../../cli/commands/table.ts";
import { Editor } from "../../cli/repl/editor.ts";
import { REPO_ROOT } from "../support/run_assist.ts";

Deno.test("README's key table is the keymap's (regenerate it from keyTableMarkdown())", async () => {
  const readme = await Deno.readTextFile(`${REPO_ROOT}README.md`);
  const start = readme.indexOf("| Keys | |");
  assert.ok(start !== -1, "README has no key table");
  const table = readme.slice(start, readme.indexOf("\n\n", start));
  assert.equal(table, keyTableMarkdown());
});

Deno.test("/help's Keys section is the keymap's rows", () => {
  const help = helpText();
  const keys = help.slice(help.indexOf("Keys:\n"), help.indexOf("\n\n", help.indexOf("Keys:\n")));
  const rows = keys.split("\n").slice(1);
  assert.equal(rows.length, KEYMAP.length);
  keyHelpRows().forEach(([label, line], i) => {
    assert.ok(rows[i].trimStart().startsWith(label), `${rows[i]} / ${label}`);
    assert.ok(rows[i].endsWith(line), rows[i]);
  });
});

Deno.test("a chord is bound once; every row's keys look up its operation", () => {
  const seen = new Map<string, string>();
  for (const row of KEYMAP) {
    for (const k of [...row.keys, ...row.also ?? []]) {
      const c = parseChord(k);
      const id = `${c.ctrl}/${c.alt}/${c.name}`;
      assert.ok(!seen.has(id), `${k} is bound to ${seen.get(id)} and ${row.op}`);
      seen.set(id, row.op);
      assert.equal(keyOp(c), row.op, k);
    }
  }
});

Deno.test("the editor and the line session name no key: they ask the keymap", async () => {
  const editor = await Deno.readTextFile(`${REPO_ROOT}cli/repl/editor.ts`);
  assert.ok(!/\bname === "|\bctrl &&|\balt &&/.test(editor), "editor.ts tests a key itself");
  // The line session tells Enter and LF apart only to see how input arrived (a paste or typing).
  const session = await Deno.readTextFile(`${REPO_ROOT}cli/repl/line_session.ts`);
  const named = [...session.matchAll(/isKey\([^,]+, "([^"]+)"(, true)?\)/g)].map((m) => m[1] + (m[2] ?? ""));
  assert.deepEqual([...new Set(named)].sort(), ["enter", "linefeed"]);
});

Deno.test("the editor does what the keymap says: a sample of rows", () => {
  const at = (text: string, cursor: number) => {
    const e = new Editor(() => ["older entry"]);
    e.insert(text);
    e.cursor = cursor;
    return e;
  };
  const key = (spec: string) => ({ kind: "key" as const, ...parseChord(spec), shift: false });
  let e = at("one two", 7);
  e.handle(key("ctrl+a"));
  assert.equal(e.cursor, 0);
  e = at("one two", 7);
  e.handle(key("alt+b"));
  assert.equal(e.cursor, 4);
  e = at("one two", 7);
  e.handle(key("ctrl+w"));
  assert.equal(e.text, "one ");
  e.handle(key("ctrl+y"));
  assert.equal(e.text, "one two");
  assert.equal(at("", 0).handle(key("ctrl+d")), "eof");
  assert.equal(at("x", 1).handle(key("tab")), "complete");
  assert.equal(at("x", 1).handle(key("enter")), "submit");
  e = at("", 0);
  e.handle(key("pageup"));
  assert.equal(e.text, "older entry");
});
