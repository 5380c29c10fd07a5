/**
 * HL7-shape detection speed (target: at least 200 MB/s on non-HL7 text). Each of the 4 MB
 * benches scans 4,000,000 characters, so MB/s = 4,000 / (ms per iteration).
 */
import { isHl7Shaped } from "../hl7/mod.ts";
import { adtFile, nonHl7Text } from "./_gen_hl7.ts";

const MB = 1_000_000;
const PROSE = nonHl7Text(4 * MB);
const TAIL = PROSE + adtFile(1); // HL7 only at the very end: a full scan that then hits
const PIPES = "a | b | c | d | e | f | g | h |\n".repeat((4 * MB) / 32); // worst case: a | every 4 bytes
if (isHl7Shaped(PROSE) || !isHl7Shaped(TAIL) || isHl7Shaped(PIPES)) throw new Error("bench inputs are wrong");

Deno.bench("isHl7Shaped: 4 MB of non-HL7 tool output", { group: "shape", baseline: true }, () => {
  isHl7Shaped(PROSE);
});

Deno.bench("isHl7Shaped: 4 MB with one message at the very end", { group: "shape" }, () => {
  isHl7Shaped(TAIL);
});

Deno.bench("isHl7Shaped: 4 MB of pipe-separated text (a | every 4 bytes)", { group: "shape" }, () => {
  isHl7Shaped(PIPES);
});

Deno.bench("isHl7Shaped: 1 KB message (hit on the first segment)", { group: "small" }, () => {
  isHl7Shaped("MSH|^~\\&|SYNTHADT|SYNTH HOSP|CLOVERLEAF|SYNTH HOSP|20240301083015||ADT^A01|1|P|2.5.1\r");
});
