import { deepStrictEqual as eq, ok, throws } from "node:assert/strict";
import {
  DEFAULT_DELIMITERS,
  Hl7ParseError,
  parseMessage,
  parseMessages,
  serializeDocument,
  serializeMessage,
} from "../../hl7/mod.ts";
import { fixture } from "./_util.ts";

const MSH = "MSH|^~\\&|APP|FAC|RAPP|RFAC|20240101120000||ADT^A01|C1|P|2.5.1";

Deno.test("parse: delimiters come from MSH-1 and MSH-2", async (t) => {
  await t.step("standard delimiters are the shared default object", () => {
    eq(parseMessage(MSH).delimiters, DEFAULT_DELIMITERS);
  });
  await t.step("any characters, including a v2.7 truncation character", () => {
    const m = parseMessage("MSH#$*!%@#APP#FAC\rPID#1##A$B*C$D%E");
    eq(m.delimiters, {
      field: "#",
      component: "$",
      repetition: "*",
      escape: "!",
      subcomponent: "%",
      truncation: "@",
    });
    eq(m.segments[1].fields(), ["PID", "1", "", "A$B*C$D%E"]);
  });
  await t.step("a missing subcomponent character is tolerated: & is then data", () => {
    const m = parseMessage("MSH|^~\\|APP\rPID|1||SMITH & SONS^X");
    eq(m.delimiters.subcomponent, "");
    eq(m.delimiters.escape, "\\");
  });
  await t.step("only a component character: no repetitions, no escapes", () => {
    const m = parseMessage("MSH|^|APP\rPID|1||A~B\\F\\");
    eq([m.delimiters.repetition, m.delimiters.escape, m.delimiters.subcomponent], ["", "", ""]);
  });
  await t.step("an empty MSH-2 is a parse error with line and column", () => {
    throws(() => parseMessage("MSH||APP"), Hl7ParseError);
    try {
      parseMessage("PID|1\rMSH||APP");
      ok(false, "expected an error");
    } catch (err) {
      ok(err instanceof Hl7ParseError);
      eq([err.line, err.column, err.offset], [2, 5, 10]);
      ok(err.message.startsWith("line 2, column 5: MSH-2 (encoding characters) is empty"));
    }
  });
  await t.step("a repeated encoding character is a parse error", () => {
    throws(
      () => parseMessage("MSH|^^\\&|APP"),
      (e: unknown) => e instanceof Hl7ParseError && /twice/.test(e.message),
    );
  });
});

Deno.test("parse: MSH field numbering (MSH.1 is the separator, MSH.2 the encoding characters)", () => {
  const s = parseMessage(MSH).segments[0];
  eq(s.field(1), "|");
  eq(s.field(2), "^~\\&");
  eq(s.field(3), "APP");
  eq(s.field(9), "ADT^A01");
  eq(s.field(12), "2.5.1");
  eq(s.fieldCount, 12);
  eq(parseMessage("MSH|^~\\&").segments[0].fields(), ["MSH", "|", "^~\\&"]);
  eq(parseMessage("MSH|^~\\&|").segments[0].fields(), ["MSH", "|", "^~\\&", ""]);
});

Deno.test("parse: each segment keeps its own terminator", () => {
  const text = `${MSH}\rEVN|A01\nPID|1\r\nPV1|1`;
  const m = parseMessage(text);
  eq(m.segments.map((s) => s.terminator), ["\r", "\n", "\r\n", ""]);
  eq(serializeMessage(m), text);
  const withTrailer = `${MSH}\rPID|1\r`;
  eq(serializeMessage(parseMessage(withTrailer)), withTrailer);
});

Deno.test("parse: round trip of every fixture, byte for byte", () => {
  for (
    const name of [
      "adt_a01.hl7",
      "adt_a01_v2.hl7",
      "oru_r01.hl7",
      "batch.hl7",
      "batch_v2.hl7",
      "odd_delims.hl7",
    ]
  ) {
    const text = fixture(name);
    eq(serializeDocument(parseMessages(text)), text, name);
  }
});

Deno.test("parse: parseMessage is strict about what surrounds the one message", async (t) => {
  const reason = (text: string) => {
    try {
      parseMessage(text);
    } catch (e) {
      if (e instanceof Hl7ParseError) return e.reason;
      throw e;
    }
    return "no error";
  };
  await t.step("two messages", () => ok(/second message/.test(reason(`${MSH}\r${MSH}\r`))));
  await t.step("blank line after", () => ok(/text outside the message/.test(reason(`${MSH}\r\n\r\n`))));
  await t.step("framing", () => ok(/framing/.test(reason(`\x0b${MSH}\r\x1c\r`))));
  await t.step("batch", () => ok(/batch segment/.test(reason(`BHS|^~\\&\r${MSH}\r`))));
  await t.step("nothing", () => ok(/no HL7 message/.test(reason("hello world\n"))));
  await t.step("a headless fragment is one message", () => {
    const m = parseMessage("PID|1||123^^^MRN||DOE^JOHN");
    ok(m.headless);
    eq(m.delimiters, DEFAULT_DELIMITERS);
  });
});

Deno.test("split: many messages in one input", async (t) => {
  await t.step("newline-separated, with blank lines between", () => {
    const text = `${MSH}\nPID|1\n\n\n${MSH}\nPID|2\n`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 2);
    eq(doc.parts.map((p) => p.kind), ["message", "text", "message"]);
    eq(serializeDocument(doc), text);
  });
  await t.step("Cloverleaf nl files: segments end with \\r, messages with \\n", () => {
    const text = `${MSH}\rPID|1\r\n${MSH}\rPID|2\r\n`;
    const doc = parseMessages(text);
    eq(doc.messages.map((m) => m.segments.length), [2, 2]);
    eq(doc.messages[0].segments[1].terminator, "\r\n");
  });
  await t.step("whole file of \\r-separated messages", () => {
    const doc = parseMessages(`${MSH}\rPID|1\r${MSH}\rPID|2\r${MSH}\rPID|3\r`);
    eq(doc.messages.length, 3);
    eq(doc.parts.length, 3);
  });
  await t.step("len10 framing, back to back", () => {
    const a = `${MSH}\rPID|1\r`;
    const b = `${MSH}\rPID|2 é\r`; // é is 2 bytes in UTF-8
    const len = (s: string) => String(new TextEncoder().encode(s).length).padStart(10, "0");
    const text = len(a) + a + len(b) + b;
    const doc = parseMessages(text);
    eq(doc.messages.length, 2);
    eq(doc.parts.map((p) => p.kind), ["framing", "message", "framing", "message"]);
    eq(doc.messages[1].segments[1].raw, "PID|2 é");
    eq(doc.warnings, []);
    eq(serializeDocument(doc), text);
  });
  await t.step("len10 that overruns the input is read to the end with a warning", () => {
    const text = `0000009999${MSH}\rPID|1\r`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 1);
    eq(doc.warnings.length, 1);
    ok(/len10 prefix declares 9999 bytes/.test(doc.warnings[0].message));
    eq(serializeDocument(doc), text);
  });
  await t.step("MLLP framing 0x0B ... 0x1C 0x0D", () => {
    const text = `\x0b${MSH}\rPID|1\r\x1c\r\x0b${MSH}\rPID|2\x1c\r`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 2);
    eq(doc.parts.map((p) => p.kind), ["framing", "message", "framing", "framing", "message", "framing"]);
    eq(doc.messages[1].segments[1].terminator, "");
    eq(serializeDocument(doc), text);
  });
  await t.step("MLLP frames separated by newlines (capture files)", () => {
    const text = `\x0b${MSH}\rPID|1\r\x1c\r\n\x0b${MSH}\rPID|2\r\x1c\r\n`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 2);
    eq(serializeDocument(doc), text);
  });
  await t.step("an unterminated MLLP frame is read with a warning", () => {
    const text = `\x0b${MSH}\rPID|1\r`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 1);
    ok(/no end block/.test(doc.warnings[0].message));
    eq(serializeDocument(doc), text);
  });
  await t.step("FHS/BHS/BTS/FTS batch: headers and trailers are batch parts", () => {
    const text = fixture("batch.hl7");
    const doc = parseMessages(text);
    eq(doc.messages.length, 3);
    eq(
      doc.parts.filter((p) => p.kind === "batch").map((p) => p.kind === "batch" ? p.segment.id : ""),
      ["FHS", "BHS", "BTS", "FTS"],
    );
    const fhs = doc.parts[0];
    ok(fhs.kind === "batch" && fhs.segment.isHeader && fhs.segment.field(2) === "^~\\&");
    eq(doc.messages.map((m) => m.segments.length), [4, 4, 4]);
  });
  await t.step("a BOM and junk lines outside messages are kept as text", () => {
    const text = `\uFEFF# exported 2024-01-01\n${MSH}\rPID|1\r\n\n-- end --\n`;
    const doc = parseMessages(text);
    eq(doc.messages.length, 1);
    eq(doc.parts.map((p) => p.kind), ["text", "message", "text"]);
    eq(serializeDocument(doc), text);
  });
  await t.step("inside a message every line is a segment (a broken OBX-5 line stays in its message)", () => {
    const doc = parseMessages(`${MSH}\rOBX|1|TX|X||line one\nline two||F\rOBX|2|TX|X||ok\r`);
    eq(doc.messages.length, 1);
    eq(doc.messages[0].segments.map((s) => s.id), ["MSH", "OBX", "line two", "OBX"]);
  });
  await t.step("headless segments take the batch header's delimiters", () => {
    const doc = parseMessages("BHS#$*!%#APP\rPID#1##A$B\rBTS#1\r");
    eq(doc.messages.length, 1);
    ok(doc.messages[0].headless);
    eq(doc.messages[0].segments[0].field(3), "A$B");
  });
});

Deno.test("split: offsets and lines of errors deep in a file", () => {
  const text = `${MSH}\nPID|1\n\nMSH|^^|X\n`;
  try {
    parseMessages(text);
    ok(false, "expected an error");
  } catch (e) {
    ok(e instanceof Hl7ParseError);
    eq(e.line, 4);
    eq(e.column, 6);
  }
});
