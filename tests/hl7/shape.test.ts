import { equal } from "node:assert/strict";
import { isHl7Shaped } from "../../hl7/mod.ts";
import { fixture } from "./_util.ts";

const yes: [string, string][] = [
  ["a whole ADT message", fixture("adt_a01.hl7")],
  ["a batch file", fixture("batch.hl7")],
  ["odd delimiters at the start", fixture("odd_delims.hl7")],
  ["a single PID line", "PID|1||123^^^MRN||DOE^JOHN"],
  ["a segment after a newline", "Here is the message:\nPID|1||123"],
  ["a segment after CRLF", "header\r\nOBX|1|NM|GLU||98"],
  ["an indented segment", "    PID|1||123"],
  ["an indented segment after a newline", "text\n\t  NK1|1|DOE^JANE"],
  ["after an MLLP start block", "\x0bMSH|^~\\&|APP|FAC"],
  ["after a len10 prefix", "0000000123MSH|^~\\&|APP"],
  ["a len10 prefix before a PID", "1234567890PID|1"],
  ["MSH|^~ inside a log line", "2024-03-01 12:00:01 INFO inbound msg=MSH|^~\\&|LAB|H"],
  ["MSH inside a JSON string", '{"message":"MSH|^~\\\\&|LAB|H\\rPID|1||123"}'],
  ["a segment after an escaped \\r in JSON", '{"m":"x\\rPID|1||123"}'],
  ["grep-style prefix", "archive/adt.hl7:12:PID|1||123"],
  ["a Z-segment", "ZPI|1|SITE"],
  ["other header delimiters", "MSH#$*!%#APP#FAC"],
  ["a batch header with other delimiters after a newline", "x\nBHS!@#$%!A"],
  ["NTE at the start", "NTE|1||comment"],
  [
    "an added segment in hl7_diff output",
    "  + NK1  NK1|1|QUIMBY^OSWALDO^^^^^L|SPO^Spouse|12 ELM RD^^OGDEN^UT^84401",
  ],
  ["a removed segment in hl7_diff output", "message 1 vs message 1\n  - ZPI  ZPI|1|BARNABY^ELSPETH|X"],
  [
    "a segment in a log line",
    "2024-11-20 08:11:00 [adt_in] PID|1||88877766^^^GENHOSP^MR||FENWICK^ROSALIND^Q||19620412|F",
  ],
  ["a segment after a debug prefix", "tps_debug: got NK1|1|GARRICK^OTTILIE|SPO"],
  ["a segment after =>", "hl7 => IN1|1|BC|123|ACME||||||||||||MARPLE^JANE|SEL|19500101"],
  ["a segment after a quote", '{"seg":"PID|1||123^^^H^MR||DOE^JANE"}'],
  ["an odd-delimiter header in a JSON string", '{"m":"MSH#^~\\\\&#A#B#C#D#20240101##ADT^A01"}'],
];

const no: [string, string][] = [
  ["empty", ""],
  ["prose mentioning PID|", "Check the PID| segment for the MRN."],
  ["prose with MSH| mid-sentence", "The MSH| header comes first."],
  ["a path", "PID.5 is the patient name; MSH.9 the message type"],
  ["a dash path", "PID-3 holds identifiers"],
  ["lower case", "pid|1||123"],
  ["an unknown three-letter id", "ABC|def|ghi"],
  ["a markdown table", "| PID | Patient Identification |\n|-----|------|"],
  ["pipe-separated data", "NAME|AGE\nBOB|42\nALICE|37"],
  ["a segment id after a space mid-line", "see FOO PID|1 for details"],
  ["a segment id after a space with two pipes", "see PID|1|2 for details"],
  ["a pipe table mentioning a segment", "| PID | x |\n| NK1 | y |"],
  ["nine digits are not a len10 prefix", "000000123PID|1"],
  ["MSH without a separator", "MSH\nMSH.9\nMSH 9"],
  ["HS words", "NHS|x\nthe MSH#x of it"],
  ["a header-like word with letters after it", "MSHX|a"],
  ["plain JSON", '{"path":"/hci/site/exec","status":"ok"}'],
];

Deno.test("isHl7Shaped: accepted shapes", () => {
  for (const [what, text] of yes) equal(isHl7Shaped(text), true, what);
});

Deno.test("isHl7Shaped: rejected shapes", () => {
  for (const [what, text] of no) equal(isHl7Shaped(text), false, what);
});

Deno.test("isHl7Shaped: HL7 deep inside a large non-HL7 text is found", () => {
  const filler = "lorem ipsum dolor | sit amet\n".repeat(20_000);
  equal(isHl7Shaped(filler), false);
  equal(isHl7Shaped(filler + "PV1|1|I|4N^401^A\n" + filler), true);
});
