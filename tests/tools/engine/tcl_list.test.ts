import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import {
  joinList,
  newElem,
  quoteElement,
  splitList,
  substitute,
  TclListError,
  TclSource,
} from "../../../tools/engine/netconfig/tcl_list.ts";

Deno.test("splitList: Tcl_SplitList's rules", async (t) => {
  const cases: Array<[string, string, string[]]> = [
    ["bare words and any white space", " a\tb\n c\r\n", ["a", "b", "c"]],
    ["braces are verbatim, nested", "{a {b c}} d", ["a {b c}", "d"]],
    ["empty braces", "{} x {}", ["", "x", ""]],
    ["escaped brace does not count inside braces", "{a \\} b} c", ["a \\} b", "c"]],
    ["backslash sequences are kept inside braces", "{a\\tb}", ["a\\tb"]],
    ["quotes substitute backslashes", '"a\\tb" "c d"', ["a\tb", "c d"]],
    ["quotes hide braces", '"a{b" c', ["a{b", "c"]],
    ["bare word substitution", "a\\ b c\\{", ["a b", "c{"]],
    ["brace inside a bare word is plain", "a{b c}d", ["a{b", "c}d"]],
    ["dollar and brackets are plain text", "$x [exec rm] ;", ["$x", "[exec", "rm]", ";"]],
    ["backslash-newline in a bare word is a space", "a\\\n   b", ["a b"]],
    ["hex, unicode, octal", "\\x41\\u00e9\\101", ["Aé" + "A"]],
    ["trailing backslash stays", "a\\", ["a\\"]],
    ["nothing", "   \n ", []],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => assertEquals(splitList(text), want));
  }
});

Deno.test("splitList: syntax errors name the reason and the offset", async (t) => {
  const cases: Array<[string, string, string, number]> = [
    ["unmatched brace", "a {b c", "unmatched open brace in list", 2],
    ["unmatched nested brace", "{a {b}", "unmatched open brace in list", 0],
    ["unmatched quote", 'a "b c', "unmatched open quote in list", 2],
    ["text after a closing brace", "{a}b c", 'list element in braces followed by "b" instead of space', 3],
    ["text after a closing quote", '"a"b', 'list element in quotes followed by "b" instead of space', 3],
  ];
  for (const [name, text, reason, offset] of cases) {
    await t.step(name, () => {
      throws(() => splitList(text), (e: unknown) => {
        assert(e instanceof TclListError);
        assertEquals([e.reason, e.offset], [reason, offset]);
        return true;
      });
    });
  }
});

Deno.test("TclSource: ranges read in place agree with splitting the extracted text", () => {
  const text = 'x {a {b {c d}} "e f"} y';
  const src = new TclSource(text);
  const e = newElem();
  assert(src.next(0, text.length, e));
  assert(src.next(e.next, text.length, e));
  const inner = src.value(e);
  assertEquals(inner, 'a {b {c d}} "e f"');
  // The content of the braced element, read in place, gives what splitting its copy gives.
  const inPlace: string[] = [];
  const f = newElem();
  for (let p = e.start; src.next(p, e.end, f); p = f.next) inPlace.push(src.value(f));
  assertEquals(inPlace, splitList(inner));
});

Deno.test("TclSource.next with stopAtNewline reads one record (lgets)", () => {
  const text = "protocol a {\n x\n}\nprocess b {}\n";
  const src = new TclSource(text);
  const e = newElem();
  const words: string[] = [];
  let p = 0;
  while (src.next(p, text.length, e, true)) words.push(src.value(e)), p = e.next;
  assertEquals(words, ["protocol", "a", "\n x\n"]);
});

Deno.test("substitute: the backslash table", () => {
  assertEquals(substitute("\\a\\b\\f\\n\\r\\t\\v\\\\\\q", 0, 20), "\x07\b\f\n\r\t\v\\q");
  assertEquals(substitute("\\xZZ", 0, 4), "xZZ");
  assertEquals(substitute("\\U0001F600", 0, 10), "😀");
});

Deno.test("quoteElement/joinList round-trip through splitList (seeded random strings)", () => {
  let seed = 20241120;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = ["a", "b", " ", "\t", "\n", "{", "}", '"', "\\", "$", "[", "]", ";", "é", "x"];
  for (let i = 0; i < 3000; i++) {
    const items = Array.from({ length: Math.floor(rand() * 5) }, () => {
      let s = "";
      const n = Math.floor(rand() * 8);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      return s;
    });
    assertEquals(splitList(joinList(items)), items, JSON.stringify(items));
  }
  assertEquals(quoteElement(""), "{}");
  assertEquals(quoteElement("plain"), "plain");
  assertEquals(quoteElement("a b"), "{a b}");
});
