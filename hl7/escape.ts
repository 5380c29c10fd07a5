/**
 * HL7 escape sequences. Inside a value the delimiters are written as `\F\` (field), `\S\`
 * (component), `\T\` (subcomponent), `\R\` (repetition), `\E\` (escape) and, from v2.7, `\P\`
 * (truncation); `\Xhh..\` carries raw bytes (`\X0D\` is a carriage return) and `\.br\` a line break.
 * The escape character is whatever MSH-2 declares, not necessarily `\`.
 *
 * `unescape` turns those into the characters they stand for. Sequences that describe formatting or
 * character sets (`\H\`, `\N\`, `\Cxxyy\`, `\Mxxyyzz\`, `\Zxx\`, `\.sp\`, `\.in\` and the other `\.`
 * commands) are passed through unchanged, and an escape character that opens no sequence (a lone
 * `\` as in `C:\dir`) is kept as it is: a value is never lost or invented.
 *
 * `""` (two double quotes) is HL7's null, "delete this value", and is distinct from an empty field;
 * neither function changes it.
 *
 * @module
 */
import { DEFAULT_DELIMITERS, type Delimiters } from "./delimiters.ts";

/**
 * The HL7 null value: a field holding exactly `""` tells the receiver to delete its stored value.
 *
 * @example
 * ```ts
 * isNull('""'); // true
 * ```
 */
export const HL7_NULL = '""';

/**
 * True when `raw` is the HL7 null `""` (not the same as an empty value).
 *
 * @example
 * ```ts
 * isNull('""'); // true
 * isNull(""); // false
 * ```
 */
export function isNull(raw: string): boolean {
  return raw === HL7_NULL;
}

const HEX = /^X(?:[0-9A-Fa-f]{2})+$/;
// WHATWG "latin1" is Windows-1252, the usual fallback for legacy 8-bit HL7 text.
const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The text a `\X..\` body stands for: ASCII as is, else UTF-8 when valid, else Windows-1252. */
function decodeHex(body: string): string {
  const bytes = new Uint8Array((body.length - 1) / 2);
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = parseInt(body.substr(1 + 2 * i, 2), 16);
    bytes[i] = b;
    if (b >= 0x80) ascii = false;
  }
  if (ascii) return latin1.decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/**
 * What the escape sequence with this body (the text between the two escape characters) stands
 * for: the character or text, `null` to pass the sequence through unchanged, or `undefined` when
 * it is not an escape sequence (then the opening escape character is a lone one).
 */
function decodeSequence(body: string, d: Delimiters): string | null | undefined {
  if (body.length === 1) {
    switch (body) {
      case "F":
        return d.field;
      case "S":
        return d.component;
      case "E":
        return d.escape;
      case "T":
        return d.subcomponent || undefined;
      case "R":
        return d.repetition || undefined;
      case "P":
        return d.truncation || undefined;
      case "H":
      case "N":
        return null;
    }
    return undefined;
  }
  const c = body.charCodeAt(0);
  if (c === 88 /* X */ && HEX.test(body)) return decodeHex(body);
  if (c === 46 /* . */) return body === ".br" ? "\n" : /^\.[a-z]{2}[+-]?\d*$/.test(body) ? null : undefined;
  if (c === 67 /* C */ && /^C[0-9A-Fa-f]{4}$/.test(body)) return null;
  if (c === 77 /* M */ && /^M[0-9A-Fa-f]{4}(?:[0-9A-Fa-f]{2})?$/.test(body)) return null;
  if (c === 90 /* Z */ && body.length > 1) return null;
  return undefined;
}

/**
 * Replaces the escape sequences of one value (a subcomponent, or any element with no delimiters
 * in it) by what they stand for. See the module notes for what is kept as is.
 *
 * @example
 * ```ts
 * unescape("O\\S\\BRIEN"); // "O^BRIEN"
 * unescape("line 1\\.br\\line 2"); // "line 1\nline 2"
 * unescape("C:\\dir"); // "C:\\dir" (a lone escape character is kept)
 * ```
 */
export function unescape(raw: string, d: Delimiters = DEFAULT_DELIMITERS): string {
  const e = d.escape;
  if (e === "" || raw.indexOf(e) === -1) return raw;
  let out = "";
  let copied = 0;
  let from = 0;
  for (;;) {
    const open = raw.indexOf(e, from);
    if (open === -1) break;
    const close = raw.indexOf(e, open + 1);
    if (close === -1) break; // a lone escape character at the end: kept
    const meaning = decodeSequence(raw.slice(open + 1, close), d);
    if (meaning === undefined) {
      // Not a sequence: the opening character is a lone one; the closing one may open the next.
      from = open + 1;
      continue;
    }
    if (meaning !== null) {
      out += raw.slice(copied, open) + meaning;
      copied = close + 1;
    }
    from = close + 1;
  }
  return copied === 0 ? raw : out + raw.slice(copied);
}

/**
 * Writes a value so that it can stand in a message with delimiters `d`: the escape character
 * first, then every delimiter, as their escape sequences; a carriage return or line feed (which
 * would end the segment) as `\X0D\` and `\X0A\`. `unescape(escape(v, d), d) === v` for every `v`.
 * Throws a RangeError when `v` needs escaping but `d` has no escape character.
 *
 * @example
 * ```ts
 * escape("O^BRIEN"); // "O\\S\\BRIEN"
 * escape("a\r\nb"); // "a\\X0D\\\\X0A\\b"
 * ```
 */
export function escape(value: string, d: Delimiters = DEFAULT_DELIMITERS): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    let code: string | undefined;
    if (ch === d.escape) code = "E";
    else if (ch === d.field) code = "F";
    else if (ch === d.component) code = "S";
    else if (ch === d.subcomponent) code = "T";
    else if (ch === d.repetition) code = "R";
    else if (ch === d.truncation) code = "P";
    else if (ch === "\r") code = "X0D";
    else if (ch === "\n") code = "X0A";
    else continue;
    if (d.escape === "") {
      throw new RangeError(
        `cannot write ${JSON.stringify(ch)} in this message: its MSH-2 declares no escape character`,
      );
    }
    out += value.slice(copied, i) + d.escape + code + d.escape;
    copied = i + 1;
  }
  return copied === 0 ? value : out + value.slice(copied);
}
