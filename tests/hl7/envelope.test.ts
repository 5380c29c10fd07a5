/** hl7/envelope.ts: each message's FHS/BHS/BTS/FTS, and field tables that read them. */
import { deepStrictEqual as eq } from "node:assert/strict";
import {
  envelopes,
  extractTable,
  getValue,
  parseMessages,
  renderDocument,
  withEnvelopes,
} from "../../hl7/mod.ts";

const FILE = [
  "FHS|^~\\&|SENDAPP|SENDFAC|||20240303||file.hl7||FILE01",
  "BHS|^~\\&|SENDAPP|BATCHFAC1|||20240303||||B1",
  "MSH|^~\\&|A||||||ADT^A08|M1|P|2.5",
  "PID|1||111",
  "MSH|^~\\&|A||||||ADT^A08|M2|P|2.5",
  "PID|1||222",
  "BTS|2",
  "BHS|^~\\&|SENDAPP|BATCHFAC2|||20240303||||B2",
  "MSH|^~\\&|A||||||ADT^A08|M3|P|2.5",
  "PID|1||333",
  "BTS|1",
  "FTS|2|end of file",
  "",
].join("\r");

Deno.test("envelopes: each message gets the headers before it and the trailers that close them", () => {
  const doc = parseMessages(FILE);
  const env = envelopes(doc);
  eq(env.map((e) => e.fhs?.field(4)), ["SENDFAC", "SENDFAC", "SENDFAC"]);
  eq(env.map((e) => e.bhs?.field(11)), ["B1", "B1", "B2"]);
  eq(env.map((e) => e.bts?.field(1)), ["2", "2", "1"]);
  eq(env.map((e) => e.fts?.field(2)), ["end of file", "end of file", "end of file"]);
  // No envelope: nothing attached, and the rows are the messages themselves.
  const plain = parseMessages("MSH|^~\\&|A\rPID|1\r");
  eq(envelopes(plain), [{}]);
  eq(withEnvelopes(plain), [...plain.messages]);
});

Deno.test("extractTable: envelope fields per message; a whole-segment path reads the message", () => {
  const doc = parseMessages(FILE);
  const table = extractTable(doc.messages, ["MSH.10", "FHS.4", "BHS.11", "BTS.1", "FTS.1", "BHS"], {
    index: true,
    envelopes: withEnvelopes(doc),
  });
  eq(
    table,
    "#\tMSH.10\tFHS.4\tBHS.11\tBTS.1\tFTS.1\tBHS\n" +
      "1\tM1\tSENDFAC\tB1\t2\t2\t\n" +
      "2\tM2\tSENDFAC\tB1\t2\t2\t\n" +
      "3\tM3\tSENDFAC\tB2\t1\t2\t\n",
  );
});

Deno.test("an envelope with its own delimiters: FHS-1 and FHS-2 are read like MSH-1 and MSH-2", () => {
  const doc = parseMessages("FHS#*!@%#APP#FAC##REST*1*2\rMSH|^~\\&|A\rPID|1\rFTS#1\r");
  const [row] = withEnvelopes(doc);
  eq(getValue(row, "FHS.1"), "#");
  eq(getValue(row, "FHS.2"), "*!@%");
  eq(getValue(row, "FHS.4"), "FAC");
  eq(getValue(row, "FHS.6.2"), "1");
  eq(getValue(row, "FTS.1"), "1");
});

Deno.test("a file of only an envelope is one row, and hl7_show's view says no message is inside", () => {
  const doc = parseMessages("BHS|^~\\&|||||20081231\rBTS|0");
  eq(doc.messages.length, 0);
  const rows = withEnvelopes(doc);
  eq(rows.length, 1);
  eq(extractTable(rows, ["BHS.7", "BTS.1"], { envelopes: rows }), "BHS.7\tBTS.1\n20081231\t0\n");
  const shown = renderDocument(doc);
  eq(shown.split("\n")[0], "BHS  Batch Header");
  eq(shown.split("\n").at(-1), "no messages inside the batch envelope");
  eq(withEnvelopes(parseMessages("just text\n")), []);
});
