/** hl7/screen.ts: HL7 segments on their own lines for a terminal; other text and CRLF unchanged. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { crToNewlines, hl7ForTerminal, startsLikeHl7 } from "../../hl7/screen.ts";

Deno.test("hl7ForTerminal: bare CRs of HL7 become newlines; CRLF and non-HL7 text stay as they are", () => {
  const msg = "MSH|^~\\&|A|B\rPID|1||4711\rPV1|1|I\r";
  assertEquals(hl7ForTerminal(msg), "MSH|^~\\&|A|B\nPID|1||4711\nPV1|1|I\n");
  assertEquals(hl7ForTerminal(`\x0b${msg}\x1c\r`), `\x0bMSH|^~\\&|A|B\nPID|1||4711\nPV1|1|I\n\x1c\n`);
  assertEquals(hl7ForTerminal(`\uFEFFFHS|^~\\&\rBHS|^~\\&\r`), "\uFEFFFHS|^~\\&\nBHS|^~\\&\n");
  assertEquals(hl7ForTerminal("MSH|^~\\&|A\r\nPID|1\r\n"), "MSH|^~\\&|A\r\nPID|1\r\n");
  assertEquals(hl7ForTerminal("dear vendor\rsee below"), "dear vendor\rsee below");
  assertEquals(crToNewlines("reply\rMSH|x\rPID|1\r\n"), "reply\nMSH|x\nPID|1\r\n");
  assertEquals([startsLikeHl7("MSH|"), startsLikeHl7("PID|1"), startsLikeHl7(" MSH|")], [true, false, false]);
});
