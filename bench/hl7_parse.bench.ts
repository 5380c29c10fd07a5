/**
 * HL7 parse throughput on ~1 KB ADT^A01 messages (target: at least 100,000 messages per second on
 * one core). Messages per second = 1e9 / (ns per iteration) for the single-message benches, and
 * 1e12 / (ns per iteration) for the 1,000-message file.
 */
import { decodeField, getAll, parseMessage, parseMessages, serializeDocument } from "../hl7/mod.ts";
import { Hl7Message } from "@medplum/core";
import simpleHl7 from "simple-hl7";
import { adtA01, adtFile } from "./_gen_hl7.ts";

const MESSAGES = Array.from({ length: 256 }, (_, i) => adtA01(i));
const FILE = adtFile(1000);
let n = 0;

Deno.bench("parseMessage: one ~1 KB ADT^A01 (lazy fields)", { group: "message", baseline: true }, () => {
  parseMessage(MESSAGES[n++ & 255]);
});

Deno.bench("parseMessage + split every field", { group: "message" }, () => {
  const m = parseMessage(MESSAGES[n++ & 255]);
  for (const s of m.segments) s.fields();
});

Deno.bench("parseMessage + getAll PID.3.1, PID.5.1, PV1.3.1, MSH.10", { group: "message" }, () => {
  const m = parseMessage(MESSAGES[n++ & 255]);
  getAll(m, "PID.3.1");
  getAll(m, "PID.5.1");
  getAll(m, "PV1.3.1");
  getAll(m, "MSH.10");
});

Deno.bench("parseMessages: a file of 1,000 ADT^A01 (~1 MB)", { group: "file" }, () => {
  parseMessages(FILE);
});

Deno.bench("parseMessages + serializeDocument round trip (1,000 messages)", { group: "file" }, () => {
  serializeDocument(parseMessages(FILE));
});

// Full decode against the peers (issue 17 item 14): one iteration is the same 256 messages, each
// parsed on its own, every field of every segment walked down to its subcomponents, the leaves'
// lengths summed (so no side can skip work). Ours also unescapes every leaf (decodeField), which
// neither peer does. Target: at least 1.5x @medplum/core.
// The peers are bench-only npm dependencies (deno.json); the program never loads them.

const SIMPLE = new simpleHl7.Parser();
export let sink = 0;

Deno.bench("full decode: assist parseMessage + decodeField", { group: "decode", baseline: true }, () => {
  for (const text of MESSAGES) {
    const m = parseMessage(text);
    let total = 0;
    for (const s of m.segments) {
      const fields = s.fields();
      for (let i = 1; i < fields.length; i++) {
        for (const rep of decodeField(fields[i], s.delimiters)) {
          for (const comp of rep) for (const leaf of comp) total += leaf.length;
        }
      }
    }
    sink += total;
  }
});

Deno.bench("full decode: @medplum/core Hl7Message.parse", { group: "decode" }, () => {
  for (const text of MESSAGES) {
    const m = Hl7Message.parse(text);
    const sub = m.context.subcomponentSeparator;
    let total = 0;
    for (const s of m.segments) {
      for (let i = 1; i < s.fields.length; i++) {
        for (const rep of s.fields[i].components) {
          for (const comp of rep) for (const leaf of comp.split(sub)) total += leaf.length;
        }
      }
    }
    sink += total;
  }
});

// simple-hl7 splits to subcomponents itself: a field's value is its repetitions (or, without
// repetitions, one list of components); a component's value holds a string or a list of them.
type SimpleNode = { value: unknown[] };
function simpleLeaves(v: unknown): number {
  if (typeof v === "string") return v.length;
  if (Array.isArray(v)) {
    let t = 0;
    for (const x of v) t += simpleLeaves(x);
    return t;
  }
  return simpleLeaves((v as SimpleNode).value);
}

Deno.bench("full decode: simple-hl7 Parser.parse", { group: "decode" }, () => {
  for (const text of MESSAGES) {
    const m = SIMPLE.parse(text);
    let total = simpleLeaves(m.header.fields);
    for (const s of m.segments) total += simpleLeaves(s.fields);
    sink += total;
  }
});
