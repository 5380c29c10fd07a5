/** One test per pitfall of research/anchors.md section 3 ("Pitfalls to encode as tests"). */
import { deepStrictEqual as eq, ok } from "node:assert/strict";
import {
  diffMessages,
  extractTable,
  getAll,
  getValue,
  parseMessage,
  parseMessages,
  renderMessage,
  serializeDocument,
  serializeMessage,
  setValue,
  unescape,
} from "../../hl7/mod.ts";
import { fixture } from "./_util.ts";

Deno.test("pitfall 1: MSH-1 and MSH-2 are not delimited like other fields; MSH-3 is the first after ^~\\&", () => {
  const m = parseMessage("MSH|^~\\&|SENDAPP|SENDFAC|RECVAPP|RECVFAC|20240101||ORU^R01|CTRL1|P|2.5.1\r");
  eq(getValue(m, "MSH.1"), "|");
  eq(getValue(m, "MSH.2"), "^~\\&", "MSH-2 is not split at ~ or ^ and not unescaped at \\");
  eq(getValue(m, "MSH.3"), "SENDAPP");
  eq(getValue(m, "MSH.9.1"), "ORU");
  eq(getValue(m, "MSH.10"), "CTRL1");
  eq(getValue(m, "MSH.12"), "2.5.1");
  // The same numbering holds in the table, the viewer and the diff.
  eq(extractTable([m], ["MSH.3", "MSH.10"]), "MSH.3\tMSH.10\nSENDAPP\tCTRL1\n");
  ok(renderMessage(m).includes("\n  MSH.3      Sending Application    SENDAPP\n"));
  const other = parseMessage("MSH|^~\\&|OTHERAPP|SENDFAC|RECVAPP|RECVFAC|20240101||ORU^R01|CTRL1|P|2.5.1\r");
  eq(diffMessages(m, other).map((c) => c.path), ["MSH.3"]);
  // FHS and BHS number the same way.
  const doc = parseMessages("FHS|^~\\&|FILEAPP\rBHS|^~\\&|BATCHAPP\r");
  const [fhs, bhs] = doc.parts.map((p) => p.kind === "batch" ? p.segment : undefined);
  eq([fhs?.field(1), fhs?.field(2), fhs?.field(3), bhs?.field(3)], ["|", "^~\\&", "FILEAPP", "BATCHAPP"]);
});

Deno.test("pitfall 2: delimiters are read from the message; the subcomponent character may be absent", () => {
  const doc = parseMessages(fixture("odd_delims.hl7"));
  const [odd, nosub] = doc.messages;
  eq(getValue(odd, "MSH.3"), "ODDAPP");
  eq(getValue(odd, "MSH.9.2"), "A08");
  eq(
    getAll(odd, "PID.3.1").map((v) => v.raw),
    ["MRN300001", "ALT300001"],
    "* repeats, $ separates components",
  );
  eq(getValue(odd, "PID.5.2"), "GAMMA$X", "!S! is that message's component character");
  eq(getValue(odd, "PID.11.1"), "1 HASH ST#2", "!F! is that message's field separator");
  eq(getValue(odd, "PV1.3.4.2"), "2.16.840.99", "% separates subcomponents");
  eq(nosub.delimiters.subcomponent, "");
  eq(getValue(nosub, "PID.5.1"), "SMITH & SONS", "without a subcomponent character & is data");
  eq(getAll(nosub, "PID.5.1.2").map((v) => v.present), [false]);
});

Deno.test("pitfall 3: segment terminators \\r, \\n and \\r\\n, all in one input", () => {
  const text = "MSH|^~\\&|A\rPID|1||CR\nPV1|1|LF\r\nOBX|1|CRLF\r" + "\r\n" + "MSH|^~\\&|B\nPID|2\n";
  const doc = parseMessages(text);
  eq(doc.messages.map((m) => m.segments.map((s) => s.id)), [["MSH", "PID", "PV1", "OBX"], ["MSH", "PID"]]);
  eq(doc.messages[0].segments.map((s) => s.terminator), ["\r", "\n", "\r\n", "\r"]);
  eq(serializeDocument(doc), text);
  eq(serializeDocument(parseMessages(fixture("batch.hl7"))), fixture("batch.hl7"), "a CRLF file");
});

Deno.test("pitfall 4: a lone escape character that starts no sequence is preserved", () => {
  const m = parseMessage(fixture("adt_a01.hl7"));
  eq(getAll(m, "ZPI.5").map((v) => v.raw), ["C:\\temp\\in"]);
  eq(getValue(m, "ZPI.5"), "C:\\temp\\in");
  eq(unescape("50\\ off"), "50\\ off");
  eq(unescape("ends with \\"), "ends with \\");
  // Writing another field leaves it alone, byte for byte.
  setValue(m, "ZPI.2", "CHANGED");
  ok(serializeMessage(m).includes("|C:\\temp\\in\r"));
});

Deno.test("pitfall 5: \\X0D\\, \\X0A\\ and \\.br\\ in OBX-5", () => {
  const m = parseMessage(fixture("oru_r01.hl7"));
  const raw = getAll(m, "OBX[13].5")[0].raw;
  eq(raw, "Specimen hemolyzed.\\.br\\Potassium may be falsely elevated.\\X0D\\\\X0A\\Repeat advised.");
  eq(getValue(m, "OBX[13].5"), "Specimen hemolyzed.\nPotassium may be falsely elevated.\r\nRepeat advised.");
  eq(m.segments.length, 19, "the escaped line breaks do not split the segment");
  // Table cells keep the escapes, so one message stays one row.
  const table = extractTable([m], ["OBX[13].5"]);
  eq(table.split("\n").length, 3);
});

Deno.test('pitfall 6: "" is HL7 null, distinct from empty and from absent', () => {
  const m = parseMessage(fixture("adt_a01.hl7"));
  eq(getValue(m, "ZPI.3"), '""', "null");
  eq(getValue(m, "PID.2"), "", "empty");
  eq(getAll(m, "PID.2")[0].present, true);
  eq(getAll(m, "ZPI.9")[0].present, false, "absent");
  eq(getValue(m, "PID.29"), '""', "a null: clear the death date");
  const v2 = parseMessage(fixture("adt_a01_v2.hl7"));
  ok(
    diffMessages(m, v2).some((c) =>
      c.kind === "field" && c.path === "ZPI.3" && c.left === '""' && c.right === ""
    ),
  );
  ok(/\n {2}ZPI\.3 +""\n/.test(renderMessage(m)), "the viewer shows a null (it hides empty fields)");
});

Deno.test("pitfall 7: batches are wrapped in FHS/BHS ... BTS/FTS", () => {
  const text = fixture("batch.hl7");
  const doc = parseMessages(text);
  eq(doc.messages.length, 3, "batch segments are not messages");
  eq(doc.messages.map((m) => getValue(m, "PID.3.1")), ["MRN200001", "MRN200002", "MRN200003"]);
  eq(
    doc.messages.map((m) => m.segments.at(-1)?.id),
    ["PV1", "PV1", "PV1"],
    "BTS is not part of the last message",
  );
  const kinds = doc.parts.map((p) => p.kind === "batch" ? p.segment.id : p.kind);
  eq(kinds, ["FHS", "BHS", "message", "message", "message", "BTS", "FTS"]);
  eq(serializeDocument(doc), text);
  // Batches inside MLLP frames too.
  const framed = `\x0b${text}\x1c\r`;
  eq(parseMessages(framed).messages.length, 3);
  eq(serializeDocument(parseMessages(framed)), framed);
});

Deno.test("pitfall 8: \\Cxxyy\\ and \\Mxxyyzz\\ character-set escapes pass through unchanged", () => {
  const m = parseMessage("MSH|^~\\&|A\rPID|1||1||\\C2842\\YAMADA\\C2B42\\^\\M2442\\TARO\\M284A\\\r");
  eq(getValue(m, "PID.5.1"), "\\C2842\\YAMADA\\C2B42\\");
  eq(getValue(m, "PID.5.2"), "\\M2442\\TARO\\M284A\\");
  eq(unescape("\\M244241\\x"), "\\M244241\\x", "the three-byte form too");
  eq(unescape("\\C2842\\a\\F\\b"), "\\C2842\\a|b", "other sequences still decode around them");
});
