import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { mulberry32 } from "../../support/prng.ts";
import { chipLabel, Editor, formatSize, isLargePaste } from "../../../cli/repl/editor.ts";
import type { KeyEvent } from "../../../cli/repl/keys.ts";

const key = (name: string, mods: { ctrl?: boolean; alt?: boolean } = {}): KeyEvent => ({
  kind: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: false,
});
const C = (name: string) => key(name, { ctrl: true });
const M = (name: string) => key(name, { alt: true });
const T = (text: string): KeyEvent => ({ kind: "text", text });

function ed(text: string, cursor = text.length, history: string[] = []): Editor {
  const e = new Editor(() => history);
  e.insert(text);
  e.cursor = cursor;
  return e;
}

function press(e: Editor, ...evs: KeyEvent[]): string[] {
  return evs.map((ev) => e.handle(ev));
}

Deno.test("editor: insert, move by grapheme, delete", () => {
  const e = ed("a👩‍💻b");
  press(e, C("b"));
  assertEquals(e.cursor, 6);
  press(e, key("left"));
  assertEquals(e.cursor, 1); // over the whole ZWJ sequence
  press(e, key("delete"));
  assertEquals(e.text, "ab");
  press(e, C("f"), key("backspace"));
  assertEquals([e.text, e.cursor], ["a", 1]);
  press(e, C("h"));
  assertEquals(e.text, "");
  assertEquals(press(e, C("d")), ["eof"]);
  const f = ed("xy", 0);
  assertEquals(press(f, C("d")), ["edited"]);
  assertEquals(f.text, "y");
});

Deno.test("editor: C-a C-e Home End, word moves M-b M-f and Ctrl-arrows", () => {
  const e = ed("hello big world");
  press(e, C("a"));
  assertEquals(e.cursor, 0);
  press(e, M("f"));
  assertEquals(e.cursor, 5);
  press(e, M("f"));
  assertEquals(e.cursor, 9);
  press(e, M("b"));
  assertEquals(e.cursor, 6);
  press(e, key("end"));
  assertEquals(e.cursor, 15);
  press(e, key("left", { ctrl: true }));
  assertEquals(e.cursor, 10);
  press(e, key("home"));
  assertEquals(e.cursor, 0);
  press(e, key("right", { ctrl: true }));
  assertEquals(e.cursor, 5);
});

Deno.test("editor: kills and yank (C-k C-u C-w M-d M-Backspace C-y), consecutive kills append", () => {
  const e = ed("one two three", 4);
  press(e, C("k"));
  assertEquals([e.text, e.kill], ["one ", "two three"]);
  press(e, C("y"));
  assertEquals(e.text, "one two three");
  press(e, C("w"));
  assertEquals([e.text, e.kill], ["one two ", "three"]);
  press(e, C("w"));
  assertEquals([e.text, e.kill], ["one ", "two three"]); // appended (prepended: killing backwards)
  press(e, C("a"), M("d"));
  assertEquals([e.text, e.kill], [" ", "one"]);
  const f = ed("path/to-file.txt");
  press(f, M("backspace"));
  assertEquals(f.text, "path/to-file.");
  press(f, C("u"));
  assertEquals([f.text, f.kill], ["", "path/to-file.txt"]); // a kill right after a kill adds to it
});

Deno.test("editor: C-t transposes, at the end the last two", () => {
  const e = ed("abc");
  press(e, C("t"));
  assertEquals(e.text, "acb");
  const f = ed("abc", 1);
  press(f, C("t"));
  assertEquals([f.text, f.cursor], ["bac", 2]);
  const g = ed("世界x", 1);
  press(g, C("t"));
  assertEquals(g.text, "界世x");
});

Deno.test("editor: up/down move between rows before walking history; draft kept", () => {
  const e = ed("", 0, ["first", "second"]);
  press(e, T("draft"));
  press(e, key("up"));
  assertEquals(e.text, "second");
  press(e, key("up"));
  assertEquals(e.text, "first");
  assertEquals(press(e, key("up")), ["none"]);
  press(e, key("down"), key("down"));
  assertEquals([e.text, e.cursor], ["draft", 5]);
  // A multi-line buffer: rows first.
  const m = ed("ab\ncdef\ng", 6, ["old"]);
  press(m, key("up"));
  assertEquals(m.cursor, 2); // column 3 clamped to the end of "ab"
  press(m, key("down"));
  assertEquals(m.cursor, 5);
  press(m, key("down"));
  assertEquals(m.cursor, 9);
  press(m, key("up"), key("up"), key("up"));
  assertEquals(m.text, "old");
  press(m, key("down"));
  assertEquals(m.text, "ab\ncdef\ng");
  assertEquals(m.cursor, 1); // the draft's cursor
  m.cursor = 9;
  press(m, C("a"));
  assertEquals(m.cursor, 8); // start of the row "g"
  press(m, key("up"), C("e"));
  assertEquals(m.cursor, 7);
});

Deno.test("editor: Ctrl-R reverse search, again for older, Enter accepts, C-g cancels", () => {
  const hist = ["ssh eng1", "status", "ssh eng2", "help"];
  const e = ed("typed", 5, hist);
  press(e, C("r"), T("ssh"));
  assert(e.searching);
  assertEquals(e.text, "ssh eng2");
  assertEquals(e.view().prompt, "(reverse-i-search)'ssh': ");
  press(e, C("r"));
  assertEquals(e.text, "ssh eng1");
  press(e, C("r"));
  assertEquals(e.view().prompt, "(failed reverse-i-search)'ssh': ");
  assertEquals(e.text, "ssh eng1");
  assertEquals(press(e, key("enter")), ["edited"]);
  assert(!e.searching);
  assertEquals(e.text, "ssh eng1");
  // Walking down from the accepted entry reaches the next ones.
  press(e, key("down"));
  assertEquals(e.text, "status");
  const g = ed("typed", 2, hist);
  press(g, C("r"), T("hel"), C("g"));
  assertEquals([g.text, g.cursor, g.searching], ["typed", 2, false]);
  const h = ed("", 0, hist);
  press(h, C("r"), T("stat"), C("e"));
  assertEquals([h.text, h.cursor, h.searching], ["status", 6, false]); // other keys accept and act
  const b = ed("", 0, hist);
  press(b, C("r"), T("sx"), key("backspace"));
  assertEquals(b.text, "ssh eng2");
});

Deno.test("editor: a large paste is one chip, kept whole, removed whole by Backspace", () => {
  const big = Array.from({ length: 240 }, (_, i) => `line ${i} ${"x".repeat(70)}`).join("\n");
  assert(isLargePaste(big));
  assert(!isLargePaste("a\nb"));
  assert(isLargePaste("x".repeat(1001)));
  assert(isLargePaste("\n".repeat(10)));
  const e = ed("say ");
  e.handle({ kind: "paste", text: big });
  e.handle(T(" end"));
  assertEquals(e.text, "say " + big + " end");
  const v = e.view();
  assertEquals(v.text, `say ${chipLabel(big)} end`);
  assert(/^\[pasted 240 lines, 1[78]\.\d KB\]$/.test(chipLabel(big)), chipLabel(big));
  assertEquals(v.cursor, v.text.length);
  // The cursor steps over the chip as one unit.
  press(e, C("b"), C("b"), C("b"), C("b"));
  assertEquals(e.cursor, 4 + big.length);
  press(e, C("b"));
  assertEquals(e.cursor, 4);
  press(e, C("f"));
  assertEquals(e.cursor, 4 + big.length);
  press(e, key("backspace"));
  assertEquals(e.text, "say  end");
  assertEquals(e.chips, []);
  assertEquals(formatSize(812), "812 B");
  assertEquals(formatSize(18637), "18.2 KB");
  assertEquals(chipLabel("a\nb\n"), "[pasted 2 lines, 4 B]");
});

Deno.test("editor: edits next to a chip never cut it", () => {
  const big = "y\n".repeat(20);
  const e = ed("ab");
  e.cursor = 1;
  e.insertPaste(big);
  const ranges = () => e.chips.map((c) => [c.start, c.end]);
  assertEquals(ranges(), [[1, 1 + big.length]]);
  press(e, C("k"));
  assertEquals(e.text, "a" + big);
  press(e, C("a"));
  assertEquals(e.cursor, 0);
  press(e, key("delete"));
  assertEquals(ranges(), [[0, big.length]]);
  press(e, C("k"));
  assertEquals([e.text, e.chips], ["", []]);
  assertEquals(e.kill, big);
});

Deno.test("editor: Enter, Tab, Ctrl-C/L/Z and Ctrl-J map to actions", () => {
  const e = ed("x");
  assertEquals(press(e, key("enter"), key("tab"), C("c"), C("l"), C("z")), [
    "submit",
    "complete",
    "interrupt",
    "clear",
    "suspend",
  ]);
  press(e, C("j"), M("enter"));
  assertEquals(e.text, "x\n\n");
});

Deno.test("editor: Down past the newest entry after taking a Ctrl-R match restores the draft", () => {
  const hist = ["ssh eng1", "status", "help"];
  // Enter takes the match; Down walks to newer entries, then back to the buffer before the search.
  const e = ed("typed", 3, hist);
  press(e, C("r"), T("stat"), key("enter"));
  assertEquals(e.text, "status");
  assertEquals(press(e, key("down")), ["edited"]);
  assertEquals(e.text, "help");
  assertEquals(press(e, key("down")), ["edited"]);
  assertEquals([e.text, e.cursor], ["typed", 3]);
  assertEquals(press(e, key("down")), ["none"]);
  // The match taken by another key (which then acts); the newest entry; an empty draft.
  const f = ed("", 0, hist);
  press(f, C("r"), T("hel"), C("e"));
  assertEquals([f.text, f.searching], ["help", false]);
  assertEquals(press(f, key("down"), key("down")), ["edited", "none"]);
  assertEquals([f.text, f.cursor], ["", 0]);
  press(f, key("up"));
  assertEquals(f.text, "help"); // walking still works from the draft
  // A search begun while already walking keeps the draft taken when walking began.
  const g = ed("mine", 4, hist);
  press(g, key("up"), key("up"));
  assertEquals(g.text, "status");
  press(g, C("r"), T("eng1"), key("enter"), key("down"), key("down"), key("down"));
  assertEquals(g.text, "mine");
  // PageDown too, and Ctrl-N.
  const h = ed("draft", 5, hist);
  press(h, C("r"), T("help"), key("enter"));
  assertEquals(press(h, key("pagedown")), ["edited"]);
  assertEquals(h.text, "draft");
  const n = ed("", 0, hist);
  press(n, C("r"), T("help"), key("enter"), C("n"));
  assertEquals(n.text, "");
});

Deno.test("editor: a first line that is empty: C-u, C-a, Home stay on their line; Up reaches history", () => {
  // C-j, abc, Up, C-u, Z: the kill on the empty first line removes nothing.
  const e = ed("", 0, ["old"]);
  press(e, C("j"), T("abc"), key("up"));
  assertEquals(e.cursor, 0);
  press(e, C("u"), T("Z"));
  assertEquals([e.text, e.cursor], ["Z\nabc", 1]);
  // C-j, second, Up, C-a / Home: the start of line 1, not of line 2.
  for (const k of [C("a"), key("home")]) {
    const f = ed("", 0, ["old"]);
    press(f, C("j"), T("second"), key("up"));
    assertEquals(f.cursor, 0);
    press(f, k);
    assertEquals(f.cursor, 0);
    press(f, C("e"));
    assertEquals(f.cursor, 0); // line 1 is empty
  }
  // From line 2: C-a goes to its start (offset 1), C-u kills back to it.
  const g = ed("\nabc", 3);
  press(g, C("a"));
  assertEquals(g.cursor, 1);
  g.cursor = 3;
  press(g, C("u"));
  assertEquals([g.text, g.cursor, g.kill], ["\nc", 1, "ab"]);
  // Up from the empty first line goes to history; Down brings the buffer back.
  const h = ed("", 0, ["old"]);
  press(h, C("j"), C("j"), T("xyz"));
  press(h, key("up"));
  assertEquals(h.cursor, 1);
  press(h, key("up"));
  assertEquals(h.cursor, 0);
  assertEquals(press(h, key("up")), ["edited"]);
  assertEquals(h.text, "old");
  press(h, key("down"));
  assertEquals([h.text, h.cursor], ["\n\nxyz", 0]);
  press(h, key("down"), key("down"));
  assertEquals(h.cursor, 2); // column 0 of the last line
});

Deno.test("editor: fuzz history walking, Ctrl-R search and editing keys: no throw, cursor in bounds", () => {
  const hist = [
    "ssh eng1",
    "status",
    "\nleading blank line",
    "multi\nline\nentry",
    "big " + "x".repeat(1200), // shown as a chip
    "世界 👩‍💻 wide",
    "ssh eng2",
  ];
  const pool: KeyEvent[] = [
    T("s"),
    T("sh"),
    T("e"),
    T("t"),
    T("1"),
    T(" "),
    T("世"),
    T("👩‍💻"),
    { kind: "paste", text: "p\n".repeat(12) },
    { kind: "paste", text: "a\nb" },
    ...["up", "down", "left", "right", "home", "end", "pageup", "pagedown", "backspace", "delete", "escape"]
      .map((n) => key(n)),
    key("enter"),
    key("linefeed"),
    ...["r", "r", "r", "g", "a", "e", "u", "k", "w", "y", "t", "j", "p", "n", "b", "f", "h", "d", "c"].map(C),
    ...["up", "down", "left", "right", "home", "end"].map((n) => key(n, { ctrl: true })),
    ...["b", "f", "d", "backspace", "enter"].map(M),
  ];
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const boundaries = (s: string) => new Set([...Array.from(seg.segment(s), (g) => g.index), s.length]);
  for (let seed = 1; seed <= 400; seed++) {
    const next = mulberry32(seed);
    const e = new Editor(() => hist);
    const trail: string[] = [];
    for (let i = 0; i < 60; i++) {
      const ev = pool[Math.floor(next() * pool.length)];
      trail.push(
        ev.kind === "key" ? `${ev.ctrl ? "C-" : ""}${ev.alt ? "M-" : ""}${ev.name}` : JSON.stringify(ev.text),
      );
      const where = () => `seed ${seed}: ${trail.join(" ")}`;
      let action: string;
      try {
        action = e.handle(ev);
      } catch (err) {
        throw new Error(`${where()} threw ${err}`);
      }
      // What the session does next: a submitted or interrupted entry starts a fresh buffer.
      if (action === "submit" || action === "interrupt") e.reset();
      assert(
        e.cursor >= 0 && e.cursor <= e.text.length,
        `${where()}: cursor ${e.cursor} of ${e.text.length}`,
      );
      assert(boundaries(e.text).has(e.cursor), `${where()}: cursor ${e.cursor} inside a grapheme`);
      for (const c of e.chips) {
        assert(0 <= c.start && c.start < c.end && c.end <= e.text.length, `${where()}: chip out of range`);
        assert(!(e.cursor > c.start && e.cursor < c.end), `${where()}: cursor inside a chip`);
      }
      const v = e.view();
      assert(v.cursor >= 0 && v.cursor <= v.text.length, `${where()}: view cursor ${v.cursor}`);
    }
  }
});

Deno.test("editor: C-u at a row start joins the row above, so repeated C-u empties a multi-line buffer", () => {
  // A pasted block ending in a newline: the cursor is on the empty last row.
  const e = ed("line one\nline two\n");
  press(e, C("u"));
  assertEquals([e.text, e.cursor], ["line one\nline two", 17]);
  press(e, C("u"));
  assertEquals([e.text, e.cursor], ["line one\n", 9]);
  press(e, C("u"), C("u"));
  assertEquals([e.text, e.cursor], ["", 0]);
  // Consecutive kills append: C-y brings the whole block back.
  press(e, C("y"));
  assertEquals(e.text, "line one\nline two\n");
  // At the very start nothing happens.
  const f = ed("abc", 0);
  press(f, C("u"));
  assertEquals([f.text, f.cursor], ["abc", 0]);
});
