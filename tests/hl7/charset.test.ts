/**
 * hl7/charset.ts: bytes read in the set MSH-18 declares, else UTF-8, else Windows-1252, with a note
 * for every fallback; text written back in the same set, byte for byte.
 */
import { deepStrictEqual as eq, ok, throws } from "node:assert/strict";
import {
  CharsetError,
  charsetFor,
  decodeBytes,
  encodeText,
  getValue,
  len10Counting,
  parseMessages,
  serializeDocument,
} from "../../hl7/mod.ts";
import { Rng, seedFrom } from "./_util.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
/** Bytes from ASCII text and raw byte values, in order. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) out.push(...(typeof p === "string" ? utf8(p) : p));
  return new Uint8Array(out);
}
/** An MSH with MSH-18 set to `cs` ("" leaves MSH-18 out). */
function msh(cs: string, id = "1"): string {
  return `MSH|^~\\&|ZIS|HOSP|||20240101||ADT^A08|${id}|P|2.4|||AL|NE|NLD${cs === "" ? "" : `|${cs}`}\r`;
}

Deno.test("charsetFor: HL7 table 0211 names and common spellings", () => {
  eq(charsetFor("8859/1"), "iso-8859-1");
  eq(charsetFor("8859/15"), "iso-8859-15");
  eq(charsetFor("8859/2"), "iso-8859-2");
  eq(charsetFor("UNICODE UTF-8"), "utf-8");
  eq(charsetFor("UNICODE"), "utf-8");
  eq(charsetFor("ASCII"), "ascii");
  eq(charsetFor("ISO IR6"), "ascii");
  eq(charsetFor("GB 18030-2000"), "gb18030");
  eq(charsetFor("KS X 1001"), "euc-kr");
  eq(charsetFor("BIG-5"), "big5");
  eq(charsetFor("ISO-8859-1"), "iso-8859-1", "a charset name a sender wrote instead");
  eq(charsetFor("windows-1252"), "windows-1252");
  eq(charsetFor("UNICODE UTF-16"), undefined);
  eq(charsetFor("utf-16"), undefined, "MSH-18 itself was read as ASCII-compatible bytes");
  eq(charsetFor("KLINGON"), undefined);
  eq(charsetFor(""), undefined);
});

Deno.test("Latin-1 declared by MSH-18 8859/1: read right, written back byte for byte", () => {
  const raw = bytes(msh("8859/1"), "PID|1||7||M", [0xfc], "LLER^J", [0xf6], "RG\r");
  const d = decodeBytes(raw);
  eq(d.notes, []);
  eq(d.regions, [{ start: 0, charset: "windows-1252", declared: "8859/1", message: 0 }]);
  const doc = parseMessages(d.text);
  eq(getValue(doc.messages[0], "PID.5.1"), "MüLLER");
  eq(getValue(doc.messages[0], "PID.5.2"), "JöRG");
  eq(encodeText(serializeDocument(doc), d), raw);
  // A changed value goes back in Latin-1 too: exact bytes.
  const changed = d.text.replace("MüLLER", "[[NAME_1]]").replace("JöRG", "Zoë");
  eq(encodeText(changed, d), bytes(msh("8859/1"), "PID|1||7||[[NAME_1]]^Zo", [0xeb], "\r"));
});

Deno.test("Windows-1252 without MSH-18: invalid UTF-8 falls back with a note, every byte kept", () => {
  // 0x96 en dash, 0x80 euro, 0x81 (unassigned in Windows-1252: kept as U+0081).
  const raw = bytes("MSH|^~\\&|GHH LAB|ELAB", [0x96], "3|", [0x80, 0x81], "\r");
  const d = decodeBytes(raw);
  eq(d.text, "MSH|^~\\&|GHH LAB|ELAB\u20133|\u20ac\u0081\r");
  eq(d.notes, ["not valid UTF-8 and MSH-18 names no character set; read as Windows-1252"]);
  eq(encodeText(d.text, d), raw);
  // Not HL7 at all: the note does not talk about MSH-18.
  eq(decodeBytes(bytes("Zo", [0xeb])).notes, ["not valid UTF-8; read as Windows-1252"]);
  // Valid UTF-8 without MSH-18 is UTF-8, silently.
  const u = decodeBytes(utf8(`${msh("")}PID|1||7||Müller\r`));
  eq(u.notes, []);
  ok(u.text.includes("Müller"));
});

Deno.test("every byte survives a Windows-1252 or ISO-8859-x round trip", () => {
  const all = new Uint8Array(256).map((_, i) => i);
  for (const cs of ["", "8859/1", "8859/2", "8859/4", "8859/5", "8859/9", "8859/13", "8859/15", "8859/16"]) {
    // Skip CR, LF, VT and the field separator inside the payload so MSH-18 stays readable.
    const payload = [...all].filter((b) => b !== 13 && b !== 10 && b !== 11 && b !== 0x7c && b !== 0);
    const raw = bytes(msh(cs), "NTE|1||", payload, "\r");
    const d = decodeBytes(raw);
    ok(!d.text.includes("\ufffd"), `${cs}: no replacement character`);
    eq(encodeText(d.text, d), raw, `${cs}: round trip`);
  }
});

Deno.test("ISO-8859-15: 0xA4 is the euro sign (it is ¤ in Latin-1)", () => {
  const raw = bytes(msh("8859/15"), "NTE|1||Preis 12", [0xa4], "\r");
  const d = decodeBytes(raw);
  eq(d.notes, []);
  ok(d.text.endsWith("Preis 12€\r"));
  eq(d.regions[0].charset, "iso-8859-15");
  eq(encodeText(d.text, d), raw);
  const latin1 = decodeBytes(bytes(msh("8859/1"), "NTE|1||Preis 12", [0xa4], "\r"));
  ok(latin1.text.endsWith("Preis 12¤\r"));
  throws(() => encodeText(d.text.replace("€", "→"), d), CharsetError);
});

Deno.test("UTF-8 with a byte-order mark: the mark is kept, so the bytes come back exactly", () => {
  const raw = bytes([0xef, 0xbb, 0xbf], msh("UNICODE UTF-8"), "PID|1||7||Zoë\r");
  const d = decodeBytes(raw);
  eq(d.notes, []);
  eq(d.text.charCodeAt(0), 0xfeff);
  const doc = parseMessages(d.text);
  eq(doc.messages.length, 1);
  eq(getValue(doc.messages[0], "PID.5"), "Zoë");
  eq(encodeText(serializeDocument(doc), d), raw);
});

Deno.test("declarations the bytes contradict: read so nothing is lost, and said", () => {
  // Declared UTF-8, written in Latin-1.
  let d = decodeBytes(bytes(msh("UNICODE UTF-8"), "PID|1||7||M", [0xfc], "ller\r"));
  ok(d.text.includes("Müller"));
  eq(d.notes, [
    "MSH-18 declares UNICODE UTF-8 but the bytes are not valid UNICODE UTF-8; read as Windows-1252",
  ]);
  // Declared 8859/1, written in UTF-8 (an engine converted and left MSH-18): read as UTF-8.
  d = decodeBytes(utf8(`${msh("8859/1")}PID|1||7||Testpatiënt\r`));
  ok(d.text.includes("Testpatiënt"));
  eq(d.notes, ["MSH-18 declares 8859/1 but the bytes are UTF-8; read as UTF-8"]);
  eq(encodeText(d.text, d), utf8(`${msh("8859/1")}PID|1||7||Testpatiënt\r`));
  // Declared ASCII with 8-bit bytes.
  d = decodeBytes(bytes(msh("ASCII"), "PID|1||7||M", [0xfc], "ller\r"));
  ok(d.text.includes("Müller"));
  eq(d.notes, ["MSH-18 says ASCII but the bytes are not 7-bit; read as Windows-1252"]);
  // Not a table 0211 name.
  d = decodeBytes(bytes(msh("LATIN-ONE"), "PID|1\r"));
  eq(d.notes, ['MSH-18 "LATIN-ONE" is not an HL7 character set (table 0211); read as UTF-8']);
  // The first repetition of MSH-18 is the message's default set.
  d = decodeBytes(bytes(msh("8859/15~ISO IR87"), "NTE|1||", [0xa4], "\r"));
  eq([d.notes, d.regions[0].charset], [[], "iso-8859-15"]);
});

Deno.test("messages that declare different sets are read and written each in its own", () => {
  const raw = bytes(
    msh("8859/1", "A"),
    "PID|1||7||M",
    [0xfc],
    "ller\n",
    msh("UNICODE UTF-8", "B"),
    "PID|1||8||Müller\n",
    msh("8859/15", "C"),
    "NTE|1||",
    [0xa4],
    "\n",
  );
  const d = decodeBytes(raw);
  eq(d.notes, []);
  eq(d.regions.map((r) => [r.charset, r.message]), [["windows-1252", 0], ["utf-8", 1], ["iso-8859-15", 2]]);
  const doc = parseMessages(d.text);
  eq(doc.messages.map((m) => getValue(m, "PID.5") ?? getValue(m, "NTE.3")), ["Müller", "Müller", "€"]);
  eq(encodeText(d.text, d), raw);
  // Tokenized (lengths change): each message still goes back in its own set.
  const tokenized = d.text.replaceAll("Müller", "[[NAME_1]]");
  eq(
    encodeText(tokenized, d),
    bytes(
      msh("8859/1", "A"),
      "PID|1||7||[[NAME_1]]\n",
      msh("UNICODE UTF-8", "B"),
      "PID|1||8||[[NAME_1]]\n",
      msh("8859/15", "C"),
      "NTE|1||",
      [0xa4],
      "\n",
    ),
  );
});

Deno.test("batch headers before the first MSH are read with its set", () => {
  const raw = bytes("FHS|^~\\&|A|H", [0xf6], "\rBHS|^~\\&|A|H\r", msh("8859/1"), "PID|1\rBTS|1\rFTS|1\r");
  const d = decodeBytes(raw);
  ok(d.text.startsWith("FHS|^~\\&|A|Hö\r"));
  eq(d.notes, []);
  eq(encodeText(d.text, d), raw);
});

Deno.test("len10 framing counts bytes of the set the text was read in", () => {
  const m1 = bytes(msh("8859/1", "A"), "PID|1||7||M", [0xfc], "ller\r");
  const m2 = bytes(msh("8859/1", "B"), "PID|1||8||J", [0xf6], "rg\r");
  const len = (m: Uint8Array) => String(m.length).padStart(10, "0");
  const raw = bytes(len(m1), [...m1], len(m2), [...m2]);
  const d = decodeBytes(raw);
  eq(len10Counting(d), "single-byte");
  const doc = parseMessages(d.text, { len10: len10Counting(d) });
  eq(doc.warnings, []);
  eq(doc.messages.map((m) => getValue(m, "PID.5")), ["Müller", "Jörg"]);
  eq(encodeText(serializeDocument(doc), d), raw);
  // UTF-8 text keeps counting UTF-8 bytes.
  eq(len10Counting(decodeBytes(utf8("Zoë"))), "utf-8");
});

Deno.test("UTF-8 validity agrees with the runtime's strict decoder on random and tricky bytes", () => {
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const rng = new Rng(seedFrom(1811));
  const tricky = [
    [0xc0, 0x80], // overlong NUL
    [0xe0, 0x80, 0x80], // overlong
    [0xed, 0xa0, 0x80], // a surrogate
    [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
    [0xf0, 0x9f, 0x98, 0x80], // an emoji: valid
    [0xef, 0xbf, 0xbd], // U+FFFD itself: valid
    [0xe2, 0x82], // cut short
  ];
  const cases: Uint8Array[] = tricky.map((t) => bytes("A ", t, " Z"));
  for (let n = 0; n < 400; n++) {
    const len = 1 + rng.int(12);
    cases.push(
      bytes(
        "x",
        Array.from({ length: len }, () => rng.chance(0.5) ? 0x80 + rng.int(0x80) : rng.int(0x80) || 0x41),
      ),
    );
  }
  for (const b of cases) {
    let expected: string | undefined;
    try {
      expected = strict.decode(b);
    } catch {
      expected = undefined;
    }
    const d = decodeBytes(b);
    eq(d.regions[0].charset, expected === undefined ? "windows-1252" : "utf-8", [...b].join(","));
    if (expected !== undefined) eq(d.text, expected);
    eq(encodeText(d.text, d), b);
  }
});
