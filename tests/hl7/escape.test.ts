import { deepStrictEqual as eq, throws } from "node:assert/strict";
import {
  DEFAULT_DELIMITERS,
  type Delimiters,
  escape,
  HL7_NULL,
  isNull,
  parseMessage,
  unescape,
} from "../../hl7/mod.ts";

const ODD: Delimiters = {
  field: "#",
  component: "$",
  repetition: "*",
  escape: "!",
  subcomponent: "%",
  truncation: "@",
};

Deno.test("unescape: the delimiter sequences", () => {
  eq(unescape("a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f"), "a|b^c&d~e\\f");
  eq(unescape("a!F!b!S!c!T!d!R!e!E!f!P!g", ODD), "a#b$c%d*e!f@g");
  eq(unescape("\\P\\"), "\\P\\", "no truncation character: \\P\\ is not a sequence and is kept");
});

Deno.test("unescape: hex, line breaks and pass-through sequences", () => {
  eq(unescape("a\\X0D\\\\X0A\\b"), "a\r\nb");
  eq(unescape("\\X414243\\"), "ABC");
  eq(unescape("caf\\XC3A9\\"), "café", "multi-byte hex is UTF-8 when valid");
  eq(unescape("caf\\XE9\\"), "café", "else Windows-1252");
  eq(unescape("line 1\\.br\\line 2"), "line 1\nline 2");
  for (
    const kept of [
      "\\H\\bold\\N\\",
      "\\C2842\\",
      "\\M2442\\",
      "\\M244241\\",
      "\\Zfoo\\",
      "\\.sp2\\",
      "\\.in+4\\",
      "\\.ce\\",
    ]
  ) {
    eq(unescape(kept), kept);
  }
});

Deno.test("unescape: a lone escape character is kept, and nothing is invented", () => {
  eq(unescape("C:\\temp"), "C:\\temp");
  eq(unescape("C:\\temp\\in"), "C:\\temp\\in");
  eq(unescape("trailing\\"), "trailing\\");
  eq(unescape("\\"), "\\");
  eq(unescape("\\\\"), "\\\\");
  eq(unescape("a\\X4\\b"), "a\\X4\\b", "odd hex digits: not a sequence");
  eq(unescape("a\\XZZ\\b"), "a\\XZZ\\b");
  // The closing character of a non-sequence can open a real one.
  eq(unescape("C:\\dir\\F\\x"), "C:\\dir|x");
  eq(unescape("x", { ...DEFAULT_DELIMITERS, escape: "" }), "x");
  eq(
    unescape("a\\F\\b", { ...DEFAULT_DELIMITERS, escape: "" }),
    "a\\F\\b",
    "no escape character: nothing to unescape",
  );
});

Deno.test("escape: delimiters, the escape character and line ends", () => {
  eq(escape("O^BRIEN"), "O\\S\\BRIEN");
  eq(escape("a|b~c&d\\e"), "a\\F\\b\\R\\c\\T\\d\\E\\e");
  eq(escape("a\r\nb"), "a\\X0D\\\\X0A\\b");
  eq(escape("#$*%!@", ODD), "!F!!S!!R!!T!!E!!P!");
  eq(escape("plain text 123"), "plain text 123");
  throws(() => escape("a^b", { ...DEFAULT_DELIMITERS, escape: "" }), RangeError);
});

Deno.test("escape/unescape: inverse on every character that matters", () => {
  const samples = ["", "|^~\\&#", "\\E\\", "\\", "\r\n\r", "\\X0D\\", '""', "C:\\a\\b", "a\\.br\\b", "üñí"];
  for (const d of [DEFAULT_DELIMITERS, ODD]) {
    for (const v of samples) eq(unescape(escape(v, d), d), v, JSON.stringify(v));
  }
});

Deno.test('null: "" is HL7 null, distinct from empty, and survives both ways', () => {
  eq(HL7_NULL, '""');
  eq(isNull('""'), true);
  eq(isNull(""), false);
  eq(unescape('""'), '""');
  eq(escape('""'), '""');
  const m = parseMessage('MSH|^~\\&|A\rPID|1||""|');
  eq(m.segments[1].field(3), '""');
  eq(m.segments[1].field(4), "");
  eq(m.segments[1].field(5), undefined);
});
