/**
 * Property and fuzz tests. Every random case comes from a seeded PRNG: a failure message names the
 * seed and case, and `HL7_SEED=<seed>` reruns exactly that sequence.
 */
import { deepStrictEqual as eq, fail, ok } from "node:assert/strict";
import {
  decodeField,
  type Delimiters,
  delimitersFrom,
  diffMessages,
  encodeSegment,
  extractTable,
  type FieldInput,
  type FieldTree,
  getAll,
  Hl7ParseError,
  isHl7Shaped,
  parseMessage,
  parseMessages,
  renderDocument,
  serializeDocument,
  serializeMessage,
} from "../../hl7/mod.ts";
import { fixture, Rng, seedFrom } from "./_util.ts";

const POOL = "|^~\\&#$*!%@+=:;,?/<>{}[]'\"`".split("");
const TERMS = ["\r", "\n", "\r\n"];

function randomDelimiters(rng: Rng): Delimiters {
  const chars = [...POOL];
  const take = () => chars.splice(rng.int(chars.length), 1)[0];
  const field = take();
  const n = 1 + rng.int(5); // 1..5 encoding characters
  return delimitersFrom(field, Array.from({ length: n }, take));
}

/** A leaf value: delimiters, escape look-alikes, line ends, null, unicode (only what `d` can write). */
function randomLeaf(rng: Rng, d: Delimiters): string {
  const special = [d.field, d.component, d.repetition, d.escape, d.subcomponent, d.truncation, "\r", "\n"]
    .filter((c) => c !== "");
  if (rng.chance(0.05) && (d.escape !== "" || !special.includes('"'))) return '""';
  const plain = ["A", "b", "7", " ", "X0D", "H", ".br", "E", "F", "é", "€", "😀", "\t", '"'];
  const canEscape = d.escape !== "";
  let s = "";
  const len = rng.int(8);
  for (let i = 0; i < len; i++) {
    s += canEscape && rng.chance(0.3) ? rng.pick(special) : rng.pick(plain);
  }
  // Without an escape character a leaf must not contain a delimiter at all.
  return canEscape ? s : [...s].filter((c) => !special.includes(c)).join("");
}

function randomTree(rng: Rng, d: Delimiters): FieldTree {
  const reps = d.repetition === "" ? 1 : 1 + (rng.chance(0.2) ? rng.int(3) : 0);
  return Array.from({ length: reps }, () => {
    const comps = 1 + (rng.chance(0.4) ? rng.int(5) : 0);
    return Array.from({ length: comps }, () => {
      const subs = d.subcomponent === "" ? 1 : 1 + (rng.chance(0.15) ? rng.int(3) : 0);
      return Array.from({ length: subs }, () => randomLeaf(rng, d));
    });
  });
}

/** Raw escape sequences written as is (formatting, hex, highlight): they must survive verbatim. */
function randomRaw(rng: Rng, d: Delimiters): string {
  const e = d.escape;
  if (e === "") return "plain";
  return rng.pick([
    `${e}.br${e}`,
    `${e}H${e}x${e}N${e}`,
    `${e}X0D0A${e}`,
    `${e}C2842${e}`,
    `${e}M2442${e}`,
    `a${e}b`,
  ]);
}

const IDS = ["PID", "PV1", "OBX", "NTE", "ZZ1", "ZPI", "AL1", "IN1", "ORC", "OBR", "NK1", "EVN"];

interface Built {
  text: string;
  trees: Map<string, FieldTree>; // "segmentIndex.field" -> tree
  delimiters: Delimiters;
}

function randomMessage(rng: Rng, endWithTerminator: boolean): Built {
  const d = randomDelimiters(rng);
  const trees = new Map<string, FieldTree>();
  const segs: string[] = [];
  const mshFields: FieldInput[] = [
    undefined,
    undefined,
    "APP",
    "FAC",
    "",
    "",
    "20240101",
    "",
    "ADT" + d.component + "A01",
    "ID" + rng.int(1e6),
    "P",
    "2.5.1",
  ];
  segs.push(encodeSegment("MSH", mshFields, d));
  const count = 1 + rng.int(7);
  for (let s = 1; s <= count; s++) {
    const fields: FieldInput[] = [];
    const nf = rng.int(12);
    for (let f = 1; f <= nf; f++) {
      if (rng.chance(0.25)) {
        fields.push(undefined);
      } else if (rng.chance(0.1)) {
        fields.push(randomRaw(rng, d));
      } else {
        const tree = randomTree(rng, d);
        trees.set(`${s}.${f}`, tree);
        fields.push(tree);
      }
    }
    segs.push(encodeSegment(rng.pick(IDS), fields, d));
  }
  let text = "";
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    text += seg + (last && !endWithTerminator && rng.chance(0.5) ? "" : rng.pick(TERMS));
  });
  return { text, trees, delimiters: d };
}

Deno.test("property: random delimiters and content survive serialize → parse → serialize", () => {
  const seed = seedFrom(20240301);
  const rng = new Rng(seed);
  const CASES = 3000;
  for (let i = 0; i < CASES; i++) {
    const built = randomMessage(rng, false);
    const where = `seed ${seed}, case ${i}: ${JSON.stringify(built.text.slice(0, 120))}`;
    let m;
    try {
      m = parseMessage(built.text);
    } catch (e) {
      fail(`${where}: ${e}`);
    }
    if (serializeMessage(m) !== built.text) fail(`${where}: not byte for byte`);
    eq(m.delimiters, built.delimiters, where);
    for (const [key, tree] of built.trees) {
      const [s, f] = key.split(".").map(Number);
      eq(decodeField(m.segments[s].field(f) ?? "", m.delimiters), tree, `${where} at ${key}`);
    }
  }
});

/** Joins messages the ways real inputs do. */
function frame(rng: Rng, msgs: string[]): string {
  const utf8 = new TextEncoder();
  return msgs.map((m, i) => {
    switch (rng.int(5)) {
      case 0:
        return `\x0b${m}\x1c\r${rng.chance(0.5) ? "\n" : ""}`;
      case 1:
        return String(utf8.encode(m).length).padStart(10, "0") + m;
      case 2:
        return m + (i < msgs.length - 1 ? "\n\n" : "");
      default:
        return m;
    }
  }).join("");
}

Deno.test("property: documents of framed and unframed messages and batches round-trip", () => {
  const seed = seedFrom(77);
  const rng = new Rng(seed);
  for (let i = 0; i < 1000; i++) {
    const n = 1 + rng.int(5);
    const msgs = Array.from({ length: n }, () => randomMessage(rng, true).text);
    let text = frame(rng, msgs);
    if (rng.chance(0.3)) {
      text = `FHS|^~\\&|A\rBHS|^~\\&|A\r${text}${
        text.endsWith("\n") || text.endsWith("\r") ? "" : "\r"
      }BTS|${n}\rFTS|1\r`;
    }
    const where = `seed ${seed}, case ${i}`;
    const doc = parseMessages(text);
    if (serializeDocument(doc) !== text) fail(`${where}: document not byte for byte`);
    eq(doc.messages.length, n, `${where}: message count`);
    eq(doc.warnings, [], where);
  }
});

const NASTY = [
  "MSH",
  "MSH|^~\\&|",
  "MSH#$*!%#",
  "BHS|^~\\&",
  "FHS|",
  "BTS|",
  "FTS",
  "PID|",
  "OBX|1|",
  "|",
  "^",
  "~",
  "\\",
  "&",
  "#",
  "\r",
  "\n",
  "\r\n",
  "\x0b",
  "\x1c",
  "\x1c\r",
  "0000000042",
  "0000000000",
  "\\X0D\\",
  "\\X",
  "\\.br\\",
  '""',
  " ",
  "\t",
  "é",
  "\ud800",
  "\udc00",
  "😀",
  "\uFEFF",
  "A",
  "Z",
  "9",
  "[",
  "]",
  ".",
  "-",
];

function mutate(rng: Rng, text: string): string {
  let s = text;
  const k = 1 + rng.int(6);
  for (let j = 0; j < k; j++) {
    const at = rng.int(s.length + 1);
    switch (rng.int(5)) {
      case 0: // replace one character
        s = s.slice(0, at) + rng.pick(NASTY) + s.slice(at + 1);
        break;
      case 1: // insert
        s = s.slice(0, at) + rng.pick(NASTY) + s.slice(at);
        break;
      case 2: // delete a run
        s = s.slice(0, at) + s.slice(at + 1 + rng.int(20));
        break;
      case 3: // duplicate a chunk
        s = s.slice(0, at) + s.slice(at, at + rng.int(60)) + s.slice(at);
        break;
      default: // truncate
        s = s.slice(0, at);
    }
  }
  return s;
}

Deno.test("fuzz: 120,000 random and mutated inputs throw nothing but Hl7ParseError", () => {
  const seed = seedFrom(424242);
  const rng = new Rng(seed);
  const seeds = ["adt_a01.hl7", "oru_r01.hl7", "batch.hl7", "odd_delims.hl7"].map(fixture);
  const CASES = 120_000;
  let parsed = 0;
  let rejected = 0;
  for (let i = 0; i < CASES; i++) {
    let input: string;
    const kind = rng.int(3);
    if (kind === 0) {
      input = Array.from({ length: rng.int(40) }, () => rng.pick(NASTY)).join("");
    } else if (kind === 1) {
      input = mutate(rng, rng.pick(seeds));
    } else {
      input = mutate(rng, randomMessage(rng, rng.chance(0.5)).text);
    }
    try {
      const doc = parseMessages(input);
      parsed++;
      if (serializeDocument(doc) !== input) fail(`seed ${seed}, case ${i}: parsed but not byte for byte`);
      if (i % 8 === 0) {
        // The readers must cope with whatever the parser accepted.
        for (const m of doc.messages) {
          getAll(m, "PID.3.1");
          getAll(m, "MSH.2");
          diffMessages(m, doc.messages[0], { ignore: [] });
        }
        renderDocument(doc, { all: true });
        extractTable(doc.messages, ["MSH.9.2", "OBX.5"]);
      }
    } catch (e) {
      if (!(e instanceof Hl7ParseError)) {
        fail(`seed ${seed}, case ${i}: threw ${e} for ${JSON.stringify(input.slice(0, 200))}`);
      }
      rejected++;
    }
    try {
      parseMessage(input);
    } catch (e) {
      if (!(e instanceof Hl7ParseError)) fail(`seed ${seed}, case ${i}: parseMessage threw ${e}`);
    }
    isHl7Shaped(input);
  }
  // The corpus must exercise both outcomes, or the test proves little.
  ok(parsed > CASES / 10, `parsed ${parsed}`);
  ok(rejected > CASES / 100, `rejected ${rejected}`);
});
