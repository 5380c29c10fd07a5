import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  codePointWidth,
  graphemes,
  nextBoundary,
  prevBoundary,
  stringWidth,
  stripAnsi,
} from "../../../cli/repl/width.ts";

Deno.test("width: ASCII, controls, CJK, fullwidth, Hangul", () => {
  assertEquals(stringWidth("hello"), 5);
  assertEquals(stringWidth("\x07\x1b\n"), 0);
  assertEquals(stringWidth("世界"), 4);
  assertEquals(stringWidth("ＡＢ"), 4); // fullwidth Latin
  assertEquals(stringWidth("한국어"), 6);
  assertEquals(stringWidth("ｱｲ"), 2); // halfwidth katakana
  assertEquals(stringWidth("\u3000"), 2); // ideographic space
  assertEquals(codePointWidth(0x20000), 2); // CJK extension B
});

Deno.test("width: combining marks, variation selectors, ZWJ sequences, flags, keycaps", () => {
  assertEquals(stringWidth("e\u0301"), 1); // é decomposed
  assertEquals(stringWidth("a\u0308\u0323"), 1);
  assertEquals(stringWidth("😀"), 2);
  assertEquals(stringWidth("👩‍💻"), 2); // ZWJ
  assertEquals(stringWidth("👨‍👩‍👧‍👦"), 2);
  assertEquals(stringWidth("👍🏽"), 2); // skin tone modifier
  assertEquals(stringWidth("🇫🇷"), 2); // flag
  assertEquals(stringWidth("❤️"), 2); // text default + VS16
  assertEquals(stringWidth("❤"), 1);
  assertEquals(stringWidth("1️⃣"), 2); // keycap
  assertEquals(stringWidth("\u200b"), 0); // zero width space
  assertEquals(stringWidth("\x1b[2mdim\x1b[22m"), 3); // SGR does not count
  assertEquals(stripAnsi("\x1b[31mred\x1b[39m"), "red");
});

Deno.test("width: graphemes keep clusters whole and offsets right", () => {
  const s = "a👩‍💻e\u0301世x";
  assertEquals([...graphemes(s)].map((g) => [g.index, g.text, g.width]), [
    [0, "a", 1],
    [1, "👩‍💻", 2],
    [6, "e\u0301", 1],
    [8, "世", 2],
    [9, "x", 1],
  ]);
  assertEquals(nextBoundary(s, 1), 6);
  assertEquals(prevBoundary(s, 6), 1);
  assertEquals(prevBoundary(s, 8), 6);
  assertEquals(nextBoundary(s, 10), 10);
  assertEquals(prevBoundary(s, 0), 0);
  // A cluster longer than the first window.
  const long = "x" + "e" + "\u0301".repeat(100) + "y";
  assertEquals(nextBoundary(long, 1), 102);
  assertEquals(prevBoundary(long, 102), 1);
});

Deno.test("width: the fast paths split exactly like Intl.Segmenter (fuzz)", () => {
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const pieces = [
    "a",
    "Z",
    " ",
    "é",
    "e\u0301",
    "世",
    "の",
    "ア",
    "한",
    "ｱ",
    "Ａ",
    "。",
    "👩‍💻",
    "❤️",
    "🇫🇷",
    "\u0308",
    "\n",
    "\t",
    "\u200d",
    "1️⃣",
    "\u3099",
    "ß",
  ];
  let seed = 3;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 300; round++) {
    const n = Math.floor(rand() * 200);
    const s = Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join("");
    const want = [...seg.segment(s)].map((g) => [g.index, g.segment]);
    assertEquals([...graphemes(s)].map((g) => [g.index, g.text]), want, JSON.stringify(s));
  }
});
