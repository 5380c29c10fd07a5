/**
 * decodeField's fast path (a field with no encoding character is one leaf as written) and its loop
 * form must decode exactly as the definition does: split repetitions, components, subcomponents,
 * unescape each leaf. A property test over generated fields and delimiter sets (the usual ones,
 * unusual characters, and sets that lack a repetition, subcomponent, escape or even component
 * character).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DEFAULT_DELIMITERS, type Delimiters } from "../../hl7/delimiters.ts";
import { unescape } from "../../hl7/escape.ts";
import { splitComponents, splitRepetitions, splitSubcomponents } from "../../hl7/segment.ts";
import { decodeField } from "../../hl7/serialize.ts";

/** The definition, written as plainly as possible. */
function reference(raw: string, d: Delimiters): string[][][] {
  return splitRepetitions(raw, d).map((rep) =>
    splitComponents(rep, d).map((comp) => splitSubcomponents(comp, d).map((leaf) => unescape(leaf, d)))
  );
}

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SETS: Delimiters[] = [
  DEFAULT_DELIMITERS,
  { field: "|", component: "$", repetition: "*", escape: "/", subcomponent: "%", truncation: "" },
  { field: "|", component: "^", repetition: "", escape: "", subcomponent: "", truncation: "" },
  { field: "|", component: "^", repetition: "~", escape: "\\", subcomponent: "", truncation: "#" },
  { field: "|", component: "", repetition: "~", escape: "\\", subcomponent: "&", truncation: "" },
  { field: "|", component: ".", repetition: "?", escape: "\\", subcomponent: "]", truncation: "" },
];

/** Text mixing plain letters, every delimiter of `d`, escape sequences and a few odd characters. */
function field(next: () => number, d: Delimiters): string {
  const e = d.escape || "\\";
  const pieces = [
    "A",
    "DOE",
    "123",
    "",
    " ",
    "é",
    "\u{1F600}",
    d.component,
    d.repetition,
    d.subcomponent,
    d.escape,
    `${e}F${e}`,
    `${e}S${e}`,
    `${e}T${e}`,
    `${e}R${e}`,
    `${e}E${e}`,
    `${e}X0D0A${e}`,
    `${e}H${e}`,
    `${e}Zxx${e}`,
    "^",
    "~",
    "&",
    "\\",
  ];
  let s = "";
  const n = Math.floor(next() * 7);
  for (let i = 0; i < n; i++) s += pieces[Math.floor(next() * pieces.length)];
  return s;
}

Deno.test("decodeField equals the split-and-unescape definition on generated fields", () => {
  const next = rng(14);
  for (const d of SETS) {
    for (let i = 0; i < 5000; i++) {
      const raw = field(next, d);
      assertEquals({ raw, d, got: decodeField(raw, d) }, { raw, d, got: reference(raw, d) });
    }
  }
});

Deno.test("decodeField: plain fields are one leaf; the others split and unescape", () => {
  assertEquals(decodeField("20240301083000"), [[["20240301083000"]]]);
  assertEquals(decodeField(""), [[[""]]]);
  assertEquals(decodeField("DOE^JOHN~ROE"), [[["DOE"], ["JOHN"]], [["ROE"]]]);
  assertEquals(decodeField("A&B^O\\S\\BRIEN"), [[["A", "B"], ["O^BRIEN"]]]);
  // The same set of characters in a new object (delimiters of another message) decodes alike.
  assertEquals(decodeField("A$B", { ...SETS[1] }), [[["A"], ["B"]]]);
  assertEquals(decodeField("A^B", { ...SETS[1] }), [[["A^B"]]]);
});
