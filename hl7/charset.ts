/**
 * Bytes to text and back for everything assist reads: the one decoder of the program. HL7 input is
 * read in the character set its MSH-18 declares (HL7 table 0211: `ASCII`, `8859/1` to `8859/16`,
 * `UNICODE UTF-8`, `UNICODE`, `GB 18030-2000`, `KS X 1001`, `BIG-5`, `ISO IR87`, ...); input without
 * a declaration is read as UTF-8 when it is valid UTF-8, else as Windows-1252. Every byte maps to a
 * character in every path, and each fallback leaves a one-line note: nothing is lost or replaced
 * silently.
 *
 * - A file of several messages is read message by message when their MSH-18 values differ; bytes
 *   before the first MSH (batch headers, framing) are read with the first message's set.
 * - A UTF-8 byte-order mark is kept in the text (as U+FEFF), so writing the text back gives it back.
 *   UTF-16 input is recognised by its byte-order mark.
 * - `encodeText` writes a text back in the sets it was read in: unchanged text gives the same bytes.
 *   A character the set has no byte for is an error, never a `?`.
 *
 * @module
 */

/** One stretch of the text and the character set its bytes were read in. */
import { AssistError } from "../core/errors.ts";
export interface CharsetRegion {
  /** Character offset in the decoded text where the stretch starts. */
  readonly start: number;
  /** The WHATWG encoding name used (`utf-8`, `windows-1252`, `iso-8859-15`, `utf-16le`, ...). */
  readonly charset: string;
  /** MSH-18 as written (first repetition), when the stretch's message declares one. */
  readonly declared?: string;
  /** Which MSH (0-based, in input order) the stretch starts at; 0 for the first stretch. */
  readonly message: number;
}

/** What {@link decodeBytes} made of some bytes. */
export interface DecodedText {
  readonly text: string;
  /** One region per message whose set differs from the one before; at least one. */
  readonly regions: readonly CharsetRegion[];
  /** One line each: a fallback, an unknown MSH-18, a declaration the bytes contradict. */
  readonly notes: readonly string[];
}

/** A text that cannot be written in the character set asked for. */
export class CharsetError extends AssistError {
  constructor(message: string) {
    super(message, { level: "input" });
    this.name = "CharsetError";
  }
}

/** How an HL7 table 0211 value is read: a WHATWG label, ASCII (7-bit), or a set not supported. */
type Table0211 = { label: string } | { ascii: true } | { unsupported: string };

/** Table 0211 names (and common spellings) after `normalize`: upper case, no spaces, `-` or `_`. */
const TABLE_0211: Record<string, Table0211> = {
  ASCII: { ascii: true },
  ISOIR6: { ascii: true },
  USASCII: { ascii: true },
  UNICODE: { label: "utf-8" },
  UNICODEUTF8: { label: "utf-8" },
  UTF8: { label: "utf-8" },
  ISOIR192: { label: "utf-8" },
  ISOIR100: { label: "iso-8859-1" },
  ISOIR14: { label: "shift_jis" },
  ISOIR87: { label: "iso-2022-jp" },
  ISOIR159: { label: "euc-jp" },
  GB180302000: { label: "gb18030" },
  GB18030: { label: "gb18030" },
  KSX1001: { label: "euc-kr" },
  BIG5: { label: "big5" },
  UNICODEUTF16: { unsupported: "UTF-16" },
  UNICODEUTF32: { unsupported: "UTF-32" },
  CNS116431992: { unsupported: "CNS 11643" },
};

function normalize(name: string): string {
  return name.toUpperCase().replace(/[\s_-]+/g, "");
}

/**
 * The WHATWG label for an MSH-18 value, `"ascii"` for 7-bit ASCII, or undefined for a value that
 * names no set assist can read (an unknown name, UTF-16, UTF-32).
 *
 * @example
 * ```ts
 * charsetFor("8859/1"); // "iso-8859-1"
 * charsetFor("UNICODE UTF-8"); // "utf-8"
 * charsetFor("8859/15"); // "iso-8859-15"
 * ```
 */
export function charsetFor(msh18: string): string | undefined {
  const r = table0211(msh18);
  return r && "label" in r ? r.label : r && "ascii" in r ? "ascii" : undefined;
}

function table0211(msh18: string): Table0211 | undefined {
  const n = normalize(msh18.trim());
  if (n === "") return undefined;
  const known = TABLE_0211[n];
  if (known) return known;
  const iso = /^(?:8859|ISO8859)\/?(\d{1,2})$/.exec(n);
  if (iso) {
    const label = `iso-8859-${Number(iso[1])}`;
    return supported(label) ? { label } : undefined;
  }
  // Not a table 0211 name, but a charset name a sender may have written (ISO-8859-1, windows-1252).
  // Not UTF-16 (MSH-18 was read from ASCII-compatible bytes) nor "ascii" (a Windows-1252 label).
  const label = msh18.trim();
  const enc = decoderFor(label)?.encoding;
  if (enc === undefined || enc.startsWith("utf-16") || /^(us-)?ascii$/i.test(label)) return undefined;
  return { label };
}

const decoders = new Map<string, TextDecoder | null>();

/** A fatal decoder for `label` (cached), or null when the runtime does not know it. */
function decoderFor(label: string): TextDecoder | null {
  let d = decoders.get(label);
  if (d === undefined) {
    try {
      d = new TextDecoder(label, { fatal: true, ignoreBOM: true });
    } catch {
      d = null;
    }
    decoders.set(label, d);
  }
  return d;
}

function supported(label: string): boolean {
  return decoderFor(label) !== null;
}

/** Display name of a WHATWG encoding for notes. */
function displayName(charset: string): string {
  return charset.startsWith("windows-") ? `Windows-${charset.slice(8)}` : charset.toUpperCase();
}

const CR = 13, LF = 10, VT = 11;

function separatorByte(c: number): boolean {
  return c > 32 && c < 127 && !(c >= 48 && c <= 57) && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122);
}

/** True when every byte is 7-bit (Windows-1252 maps each byte to one character, ASCII to itself). */
function isAscii(probe: string): boolean {
  return !NON_ASCII.test(probe);
}

/** A character at or above U+0080 (in a Windows-1252 probe: a byte at or above 0x80). */
const NON_ASCII = new RegExp("[\\u0080-\\uffff]");
const NON_ASCII_ALL = new RegExp("[\\u0080-\\uffff]", "g");

/**
 * True when `bytes` are valid UTF-8 holding at least one multi-byte character. Only the sequences
 * at non-ASCII bytes are checked (found in the probe by the runtime's regex), so Latin-1 text is
 * usually refused at its first accented letter.
 */
function validUtf8Multibyte(bytes: Uint8Array, probe: string): boolean {
  NON_ASCII_ALL.lastIndex = 0;
  let any = false;
  for (let m = NON_ASCII_ALL.exec(probe); m !== null; m = NON_ASCII_ALL.exec(probe)) {
    const n = utf8SequenceAt(bytes, m.index);
    if (n === 0) return false;
    any = true;
    NON_ASCII_ALL.lastIndex = m.index + n;
  }
  return any;
}

/** Length of the well-formed UTF-8 multi-byte sequence at `i` (RFC 3629 ranges), or 0. */
function utf8SequenceAt(b: Uint8Array, i: number): number {
  const c = b[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** Used only on bytes already checked to be valid UTF-8. */
const utf8Lenient = new TextDecoder("utf-8", { ignoreBOM: true });
const cp1252 = new TextDecoder("windows-1252", { ignoreBOM: true });

/** UTF-8 when valid, else Windows-1252 (which maps every byte). */
function detect(bytes: Uint8Array, probe: string): { text: string; charset: string; fellBack: boolean } {
  if (isAscii(probe)) return { text: probe, charset: "utf-8", fellBack: false };
  if (validUtf8Multibyte(bytes, probe)) {
    return { text: utf8Lenient.decode(bytes), charset: "utf-8", fellBack: false };
  }
  return { text: probe, charset: "windows-1252", fellBack: true };
}

interface Piece {
  text: string;
  charset: string;
  declared?: string;
}

/** Decodes one message's bytes by its MSH-18 (`declared`, "" for none); notes go to `notes`. */
function decodePiece(
  bytes: Uint8Array,
  probe: string,
  declared: string,
  where: string,
  notes: string[],
  hl7: boolean,
): Piece {
  const d = declared === "" ? undefined : table0211(declared);
  const keep = declared === "" ? {} : { declared };
  if (d !== undefined && "label" in d) {
    const dec = decoderFor(d.label)!;
    // Engines that convert to UTF-8 often leave MSH-18 as it was: bytes that are valid UTF-8 with
    // multi-byte characters are almost never meant as a single-byte set (that takes pairs like "Ã«").
    if (singleByte(d.label) && validUtf8Multibyte(bytes, probe)) {
      notes.push(`${where}MSH-18 declares ${declared} but the bytes are UTF-8; read as UTF-8`);
      return { text: utf8Lenient.decode(bytes), charset: "utf-8", ...keep };
    }
    if (dec.encoding === "windows-1252") return { text: probe, charset: dec.encoding, ...keep };
    try {
      return { text: dec.decode(bytes), charset: dec.encoding, ...keep };
    } catch {
      const r = detect(bytes, probe);
      notes.push(
        `${where}MSH-18 declares ${declared} but the bytes are not valid ${declared}; read as ${
          displayName(r.charset)
        }`,
      );
      return { text: r.text, charset: r.charset, ...keep };
    }
  }
  if (d !== undefined && isAscii(probe)) return { text: probe, charset: "utf-8", ...keep };
  const r = detect(bytes, probe);
  if (d !== undefined && "ascii" in d) {
    notes.push(`${where}MSH-18 says ASCII but the bytes are not 7-bit; read as ${displayName(r.charset)}`);
  } else if (d !== undefined) {
    notes.push(
      `${where}MSH-18 "${declared}" is ${d.unsupported}, which assist cannot read; read as ${
        displayName(r.charset)
      }`,
    );
  } else if (declared !== "") {
    notes.push(
      `${where}MSH-18 "${declared}" is not an HL7 character set (table 0211); read as ${
        displayName(r.charset)
      }`,
    );
  } else if (r.fellBack) {
    notes.push(
      `${where}not valid UTF-8${hl7 ? " and MSH-18 names no character set" : ""}; read as Windows-1252`,
    );
  }
  return { text: r.text, charset: r.charset, ...keep };
}

/** Options of {@link decodeBytes}. */
export interface DecodeOptions {
  /**
   * MSH-18 to assume when the bytes hold no MSH: a part of a file (read_file's line range) whose
   * message header came earlier (see {@link firstDeclared}).
   */
  declared?: string;
}

/**
 * MSH-18 of the first MSH in `bytes` (the head of a file), or "" when there is none.
 *
 * @example
 * ```ts
 * firstDeclared(new TextEncoder().encode("MSH|^~\\&|A||||||||||||||||8859/1\rPID|1")); // "8859/1"
 * ```
 */
export function firstDeclared(bytes: Uint8Array): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const probe = cp1252.decode(bytes);
  const [first] = mshStartsText(probe, bom ? 3 : 0);
  return first === undefined ? "" : msh18InText(probe, first);
}

/**
 * Reads `bytes` as text: by each message's MSH-18, else UTF-8, else Windows-1252 (see the module
 * notes). Never throws; every byte becomes a character.
 *
 * @example
 * ```ts
 * const bytes = new Uint8Array([...new TextEncoder().encode("MSH|^~\\&|A||||||||||||||||8859/1\rPID|1||||M"), 0xfc, 0x6c]);
 * const d = decodeBytes(bytes);
 * d.text.endsWith("Mül"); // true
 * d.regions[0].charset; // "windows-1252" (the WHATWG decoder of iso-8859-1)
 * ```
 */
export function decodeBytes(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const notes: string[] = [];
  // Byte-order marks: UTF-8 (kept as U+FEFF), UTF-16 LE and BE.
  if (
    bytes.length >= 2 && (bytes[0] === 0xff && bytes[1] === 0xfe || bytes[0] === 0xfe && bytes[1] === 0xff)
  ) {
    const charset = bytes[0] === 0xff ? "utf-16le" : "utf-16be";
    const text = new TextDecoder(charset, { ignoreBOM: true }).decode(bytes);
    if (text.includes("\ufffd")) {
      notes.push(`the ${charset.toUpperCase()} text holds invalid sequences (shown as U+FFFD)`);
    }
    return { text, regions: [{ start: 0, charset, message: 0 }], notes };
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (!bom) {
    const fast = utf8Throughout(bytes, options);
    if (fast) return fast;
  }
  const from = bom ? 3 : 0;
  // Windows-1252 maps each byte to one UTF-16 unit, so offsets in `probe` are byte offsets.
  const probe = cp1252.decode(bytes);
  const starts = mshStartsText(probe, from);
  const declared = starts.map((s) => msh18InText(probe, s));
  if (bom) {
    const r = detect(bytes, probe);
    if (r.fellBack) {
      notes.push("starts with a UTF-8 byte-order mark but is not valid UTF-8; read as Windows-1252");
    }
    const other = declared.find((x) => x !== "" && charsetFor(x) !== "utf-8" && charsetFor(x) !== "ascii");
    if (other !== undefined) {
      notes.push(
        `MSH-18 declares ${other} but a UTF-8 byte-order mark comes first; read as ${displayName(r.charset)}`,
      );
    }
    return { text: r.text, regions: [{ start: 0, charset: r.charset, message: 0 }], notes };
  }
  if (starts.length <= 1 || declared.every((x) => x === declared[0])) {
    const assumed = starts.length === 0 ? options.declared ?? "" : declared[0];
    const piece = decodePiece(bytes, probe, assumed, "", notes, starts.length > 0 || assumed !== "");
    return { text: piece.text, regions: [region(0, 0, piece)], notes };
  }
  // Messages that declare different sets: each read in its own.
  const regions: CharsetRegion[] = [];
  let text = "";
  for (let k = 0; k < starts.length; k++) {
    const s = k === 0 ? 0 : starts[k];
    const e = k + 1 < starts.length ? starts[k + 1] : bytes.length;
    const piece = decodePiece(
      bytes.subarray(s, e),
      probe.slice(s, e),
      declared[k],
      `message ${k + 1}: `,
      notes,
      true,
    );
    const last = regions[regions.length - 1];
    if (!last || last.charset !== piece.charset || last.declared !== piece.declared) {
      regions.push(region(text.length, k, piece));
    }
    text += piece.text;
  }
  return { text, regions, notes };
}

function region(start: number, message: number, p: Piece): CharsetRegion {
  return p.declared === undefined
    ? { start, charset: p.charset, message }
    : { start, charset: p.charset, declared: p.declared, message };
}

/**
 * The common case at the runtime decoder's speed: valid UTF-8 (the lenient decoder puts U+FFFD
 * for every invalid sequence, so a text without one came from valid UTF-8) whose messages all
 * declare UTF-8, ASCII (and are 7-bit) or nothing. Undefined sends the bytes the long way.
 */
function utf8Throughout(bytes: Uint8Array, options: DecodeOptions): DecodedText | undefined {
  const text = utf8Lenient.decode(bytes);
  if (text.indexOf("\ufffd") !== -1) return undefined;
  const starts = mshStartsText(text);
  const first = starts.length === 0 ? options.declared ?? "" : msh18InText(text, starts[0]);
  for (let k = 1; k < starts.length; k++) if (msh18InText(text, starts[k]) !== first) return undefined;
  const cs = first === "" ? "utf-8" : charsetFor(first);
  if (cs !== "utf-8" && !(cs === "ascii" && text.length === bytes.length)) return undefined;
  const region = first === "" ? { start: 0, charset: "utf-8", message: 0 } : {
    start: 0,
    charset: "utf-8",
    declared: first,
    message: 0,
  };
  return { text, regions: [region], notes: [] };
}

/** MSH-18 (first repetition, trimmed) of the MSH at `at` in `text`, or "" when absent. */
function msh18InText(text: string, at: number): string {
  const fs = text[at + 3];
  // Field n starts after the (n-1)th separator; the one after "MSH" opens MSH-2. Each search is
  // local: it stops at the 17th separator after the header.
  let i = at + 3;
  for (let field = 3; field <= 18; field++) {
    i = text.indexOf(fs, i + 1);
    if (i === -1) return "";
  }
  if (lineBreak(text.slice(at, i)) !== -1) return ""; // the segment ended before MSH-18
  let end = text.indexOf(fs, i + 1);
  if (end === -1) end = text.length;
  let value = text.slice(i + 1, end);
  const br = lineBreak(value);
  if (br !== -1) value = value.slice(0, br);
  const rep = text[at + 5];
  const cut = rep !== undefined && rep !== fs ? value.indexOf(rep) : -1;
  return (cut === -1 ? value : value.slice(0, cut)).trim();
}

/** The first CR, LF or MLLP end byte in `s`, or -1. */
function lineBreak(s: string): number {
  let end = -1;
  for (const c of ["\r", "\n", "\x1c"]) {
    const i = s.indexOf(c);
    if (i !== -1 && (end === -1 || i < end)) end = i;
  }
  return end;
}

/** Character offsets where an MSH segment starts in `text` (the rule `decodeBytes` uses on bytes). */
function mshStartsText(text: string, from = 0): number[] {
  const out: number[] = [];
  let i = text.indexOf("MSH", from);
  while (i !== -1 && i + 3 < text.length) {
    const p = i === from ? -1 : text.charCodeAt(i - 1);
    if (
      separatorByte(text.charCodeAt(i + 3)) &&
      (p === -1 || p === CR || p === LF || p === VT || p === 0xfeff || (p >= 48 && p <= 57))
    ) out.push(i);
    i = text.indexOf("MSH", i + 1);
  }
  return out;
}

/**
 * Writes `text` in the character sets `like` was read in: one set for the whole text, or, for text
 * read message by message, each message (found again by its MSH) in its own. Text that came from
 * `like` unchanged gives its bytes back exactly. Throws a CharsetError naming the first character
 * the set cannot hold.
 *
 * @example
 * ```ts
 * const bytes = new Uint8Array([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]); // "Müller" in Latin-1
 * const d = decodeBytes(bytes);
 * encodeText(d.text.replace("ller", "LLER"), d); // the Latin-1 bytes of "MüLLER"
 * ```
 */
export function encodeText(text: string, like: DecodedText | string): Uint8Array {
  if (typeof like === "string") return encodeIn(text, like, 0);
  if (like.regions.length === 1) return encodeIn(text, like.regions[0].charset, 0);
  // Each region after the first starts at an MSH: cut the text at the same MSH (by its order).
  const cuts = mshStartsText(text);
  const parts: Uint8Array[] = [];
  let at = 0;
  let charset = like.regions[0].charset;
  for (const r of like.regions.slice(1)) {
    const cut = cuts[r.message];
    if (cut === undefined || cut < at) continue;
    parts.push(encodeIn(text.slice(at, cut), charset, at));
    at = cut;
    charset = r.charset;
  }
  parts.push(encodeIn(text.slice(at), charset, at));
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const utf8Encoder = new TextEncoder();
const reverseTables = new Map<string, Map<number, number>>();

/** Character code to byte for a single-byte WHATWG encoding, or undefined for a multi-byte one. */
function reverseTable(charset: string): Map<number, number> | undefined {
  let t = reverseTables.get(charset);
  if (t) return t;
  if (!singleByte(charset)) return undefined;
  const dec = new TextDecoder(charset);
  t = new Map();
  for (let b = 0; b < 256; b++) {
    const s = dec.decode(new Uint8Array([b]));
    if (s !== "\ufffd" && s.length === 1 && !t.has(s.charCodeAt(0))) t.set(s.charCodeAt(0), b);
  }
  reverseTables.set(charset, t);
  return t;
}

const MULTI_BYTE = new Set([
  "utf-8",
  "utf-16le",
  "utf-16be",
  "gb18030",
  "gbk",
  "big5",
  "euc-kr",
  "euc-jp",
  "shift_jis",
  "iso-2022-jp",
]);

function singleByte(charset: string): boolean {
  const d = decoderFor(charset);
  return d !== null && !MULTI_BYTE.has(d.encoding);
}

function encodeIn(text: string, charset: string, offset: number): Uint8Array {
  if (charset === "utf-8") return utf8Encoder.encode(text);
  if (charset === "utf-16le" || charset === "utf-16be") {
    const out = new Uint8Array(text.length * 2);
    const le = charset === "utf-16le";
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 * i + (le ? 0 : 1)] = c & 0xff;
      out[2 * i + (le ? 1 : 0)] = c >> 8;
    }
    return out;
  }
  const table = reverseTable(charset);
  if (!table) {
    throw new CharsetError(`assist cannot write ${displayName(charset)}; the text was not written`);
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const b = c < 0x80 ? c : table.get(c);
    if (b === undefined) {
      const cp = text.codePointAt(i)!;
      throw new CharsetError(
        `character U+${cp.toString(16).toUpperCase().padStart(4, "0")} ("${String.fromCodePoint(cp)}") at ` +
          `offset ${offset + i} has no byte in ${displayName(charset)}; the text was not written`,
      );
    }
    out[i] = b;
  }
  return out;
}

/**
 * A one-line description of how text was read, for a tool's output: `"ISO-8859-15 (MSH-18 8859/15)"`,
 * `"UTF-8"`, or the sets of a mixed file.
 *
 * @example
 * ```ts
 * describeCharset(decodeBytes(new TextEncoder().encode("MSH|^~\\&|A"))); // "UTF-8"
 * ```
 */
export function describeCharset(d: DecodedText): string {
  const seen = new Set<string>();
  for (const r of d.regions) {
    seen.add(`${displayName(r.charset)}${r.declared ? ` (MSH-18 ${r.declared})` : ""}`);
  }
  return [...seen].join(", ");
}

/**
 * How len10 prefixes count characters of text `d` decoded (`ParseOptions.len10` of parseMessages):
 * one byte each when every region was read in a single-byte set, else as UTF-8 bytes.
 *
 * @example
 * ```ts
 * len10Counting(decodeBytes(new Uint8Array([0x4d, 0xfc]))); // "single-byte" (read as Windows-1252)
 * ```
 */
export function len10Counting(d: DecodedText): "utf-8" | "single-byte" {
  return d.regions.every((r) => singleByte(r.charset)) ? "single-byte" : "utf-8";
}
