/**
 * HL7 parse throughput on ~1 KB ADT^A01 messages (target: at least 100,000 messages per second on
 * one core). Messages per second = 1e9 / (ns per iteration) for the single-message benches, and
 * 1e12 / (ns per iteration) for the 1,000-message file.
 */
import { getAll, parseMessage, parseMessages, serializeDocument } from "../hl7/mod.ts";
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
