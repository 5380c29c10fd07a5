/**
 * The base64 pass (spec, "Limits": base64 candidate). SMAT samples and some tool outputs carry whole
 * HL7 messages base64-encoded, where no text tier can see them. A candidate is a run of
 * `[A-Za-z0-9+/=]` with a length divisible by 4 (no entropy test), split after an `=` that is not
 * trailing padding; the never-tokenize list protects runs of 200 or more, the pass decodes runs of
 * 32 or more (a short message in a SMAT sample encodes to fewer than 200), or of 16 or more right
 * after `=` or `:` (a `key=` value), and base64 wrapped at
 * 76 (or 64) columns is one run. It is decoded;
 * when it is valid canonical base64 of text, the caller sanitizes the text and the run is replaced by
 * the re-encoded result. Everything else is left untouched. The bytes become text through
 * hl7/charset.ts (the set MSH-18 declares, else UTF-8, else Windows-1252), the one door from bytes to
 * text before the PHI tiers: a Latin-1 `M\xfcller` reaches the lookup table as `Müller`, and the
 * result is written back in the run's own set.
 *
 * Deviation from the original tool: decoding uses the runtime's own base64 (`Uint8Array.fromBase64`),
 * so the pass needs no python3 and is never skipped.
 */
import { decodeBytes, type DecodedText, encodeText } from "../hl7/charset.ts";
import type { Span } from "./spans.ts";

/** Shortest run the never-tokenize list protects (spec: a base64 candidate is at least 200 long). */
export const MIN_RUN = 200;
/**
 * Shortest run the base64 pass decodes: a short HL7 message (MSH and PID, ~150 bytes) encodes to
 * fewer than 200 characters, and SMAT samples carry each message alone. Only runs whose decoded text
 * is HL7-shaped are ever rewritten, so decoding shorter runs costs little.
 */
export const MIN_DECODE = 32;
/**
 * Shortest run decoded when it is a value: right after `=` or `:` (`name=S293YWxjenlrXkJlcm5hZGV0dGU=`,
 * a 20-byte name). Such a run is taken only when its bytes read as text, as every run is, so
 * hashes and keys stay untouched. Texts shorter than this hold no run the pass decodes.
 */
export const MIN_KEYED = 16;
/** Line widths of wrapped base64 (MIME 76, PEM 64) read as one run. */
const WRAP_WIDTHS = [76, 64];
const enc = new TextEncoder();

/** A base64 run; `wrap` when it spans lines of a fixed width (the line breaks are not base64). */
export interface Base64Run extends Span {
  /** `first`: the first line's width when it is shorter (a prefix before the run on its line). */
  wrap?: { width: number; eol: string; first?: number };
  /**
   * Pieces of any length with a separator after each but the last (base64 broken up by spaces or
   * line breaks inside a JSON string): `lens[k]` characters, then `seps[k]`.
   */
  chunks?: { lens: number[]; seps: string[] };
}

/**
 * The base64 candidate runs of `text`: runs of `[A-Za-z0-9+/=]` at least `min` long with a length
 * divisible by 4, split after an `=` that is not trailing padding (`msg=<base64>` is the key, then
 * the run); lines of exactly 76 (or 64) such characters followed by a shorter last line are one run.
 *
 * @example
 * ```ts
 * base64Runs("x " + "QUJD".repeat(60)).length; // 1
 * ```
 */
export function base64Runs(text: string, min: number = MIN_RUN): Base64Run[] {
  // A run of `min` or more characters covers at least one position that is a multiple of
  // min / 2, so only those positions are probed; each probe inside the alphabet is widened to
  // its run.
  const out: Base64Run[] = [];
  const step = Math.max(1, min >> 1);
  let i = step - 1;
  while (i < text.length) {
    if (!isB64(text.charCodeAt(i))) {
      i += step;
      continue;
    }
    let s = i, e = i + 1;
    while (s > 0 && isB64(text.charCodeAt(s - 1))) s--;
    while (e < text.length && isB64(text.charCodeAt(e))) e++;
    const wrapped = wrappedRun(text, s, e, min);
    if (wrapped) {
      out.push(wrapped);
      i = wrapped.end + step;
      continue;
    }
    // Split after each run of "=" that more base64 follows.
    let p = s;
    while (p < e) {
      let q = p;
      while (q < e && text.charCodeAt(q) !== 61) q++;
      while (q < e && text.charCodeAt(q) === 61) q++;
      if (q - p >= min && (q - p) % 4 === 0) out.push({ start: p, end: q });
      p = q;
    }
    i = e + step;
  }
  return out;
}

/** Length of the line break at `i` (`\n` or `\r\n`), or 0. */
function eolAt(text: string, i: number): number {
  if (text.charCodeAt(i) === 10) return 1;
  if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) return 2;
  return 0;
}

/** Lines of exactly a wrap width from `[s, e)`, then a last line no longer, as one run. */
function wrappedRun(text: string, s: number, e: number, min: number): Base64Run | undefined {
  const width = e - s;
  if (!WRAP_WIDTHS.includes(width) || eolAt(text, e) === 0) return undefined;
  const eolLen = eolAt(text, e);
  const eol = text.slice(e, e + eolLen);
  let end = e;
  let total = width;
  let lines = 1;
  for (;;) {
    if (text.slice(end, end + eolLen) !== eol) break;
    const ls = end + eolLen;
    let le = ls;
    while (le < text.length && isB64(text.charCodeAt(le))) le++;
    const len = le - ls;
    if (len === 0 || len > width || (le < text.length && eolAt(text, le) === 0)) break;
    end = le;
    total += len;
    lines++;
    if (len < width) break;
  }
  if (lines < 2 || total < min || total % 4 !== 0) return undefined;
  const body = text.slice(s, end).split(eol).join("");
  const pad = body.indexOf("=");
  if (pad !== -1 && !/^=+$/.test(body.slice(pad))) return undefined;
  return { start: s, end, wrap: { width, eol } };
}

/** The base64 characters of a run (line breaks of a wrapped run left out). */
export function runBase64(text: string, run: Base64Run): string {
  const raw = text.slice(run.start, run.end);
  if (run.chunks) {
    let out = "";
    let at = 0;
    const { lens, seps } = run.chunks;
    for (let k = 0; k < lens.length; k++) {
      out += raw.slice(at, at + lens[k]);
      at += lens[k] + (seps[k]?.length ?? 0);
    }
    return out;
  }
  return run.wrap ? raw.split(run.wrap.eol).join("") : raw;
}

/** `b64` laid out like `run` (wrapped at its width with its line break when it was wrapped). */
export function layoutLike(b64: string, run: Base64Run): string {
  if (run.chunks) {
    const { lens, seps } = run.chunks;
    // Pieces of one width with one separator: the same width and separator all along.
    if (
      lens.length > 1 && lens.slice(0, -1).every((l) => l === lens[0]) && seps.every((x) => x === seps[0])
    ) {
      const parts: string[] = [];
      for (let i = 0; i < b64.length; i += lens[0]) parts.push(b64.slice(i, i + lens[0]));
      return parts.join(seps[0]);
    }
    // Else the same pieces and separators; the last piece takes what is left.
    let out = "";
    let at = 0;
    for (let k = 0; k < lens.length - 1 && at + lens[k] < b64.length; k++) {
      out += b64.slice(at, at + lens[k]) + seps[k];
      at += lens[k];
    }
    return out + b64.slice(at);
  }
  if (!run.wrap) return b64;
  const lines: string[] = [];
  const first = run.wrap.first ?? run.wrap.width;
  lines.push(b64.slice(0, first));
  for (let i = first; i < b64.length; i += run.wrap.width) lines.push(b64.slice(i, i + run.wrap.width));
  return lines.join(run.wrap.eol);
}

function isB64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 ||
    c === 61;
}

/**
 * The text a run encodes and how its bytes were read (hl7/charset.ts), or undefined when it is not
 * canonical base64 (so re-encoding an unchanged text in the same set gives the run back exactly).
 */
export function decodeBase64(run: string): DecodedText | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(run);
  } catch {
    return undefined;
  }
  if (bytes.toBase64() !== run) return undefined;
  return decodeBytes(bytes);
}

/** The text of {@link decodeBase64} alone. */
export function decodeBase64Text(run: string): string | undefined {
  return decodeBase64(run)?.text;
}

/**
 * Base64 of `text` written in the sets `like` was read in (UTF-8 without it). Undefined when a
 * character has no byte in that set: the caller then leaves the run as it was.
 */
export function encodeBase64Text(text: string): string;
export function encodeBase64Text(text: string, like: DecodedText): string | undefined;
export function encodeBase64Text(text: string, like?: DecodedText): string | undefined {
  if (!like) return enc.encode(text).toBase64();
  try {
    return encodeText(text, like).toBase64();
  } catch {
    return undefined;
  }
}

/**
 * Rewrites every decodable run for which `fn` returns a new text (sync), in the run's own alphabet,
 * padding, character set and layout.
 *
 * @example
 * ```ts
 * declare const text: string;
 * declare const detokenize: (s: string) => string;
 * mapBase64Runs(text, (decoded) => decoded.includes("[[") ? detokenize(decoded) : undefined);
 * ```
 */
export function mapBase64Runs(text: string, fn: (decoded: string) => string | undefined): string {
  const runs = decodedRuns(text);
  if (runs.length === 0) return text;
  let out = "";
  let at = 0;
  for (const r of runs) {
    const next = fn(r.text);
    if (next === undefined || next === r.text) continue;
    const encoded = encodeRunText(next, r.encoding);
    if (encoded === undefined) continue;
    out += text.slice(at, r.run.start) + layoutLike(encoded, r.run);
    at = r.run.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

// ---- the variants the pass reads (issue #14, class 2) ----------------------------------------------

/** How a run was written: alphabet, padding, and the character set of the text inside. */
export interface RunEncoding {
  /** The URL-safe alphabet (`-` and `_` for `+` and `/`). */
  url: boolean;
  /** Written with `=` padding (a standard run of a length divisible by 4 counts as padded). */
  padded: boolean;
  /** The bytes are not UTF-8 (read in the set MSH-18 declares, else Windows-1252). */
  latin1: boolean;
  /** How hl7/charset.ts read the bytes; the text is written back the same way. */
  charset?: DecodedText;
}

/** A run the pass decoded to text, with how to write a new text back the same way. */
export interface DecodedRun {
  run: Base64Run;
  text: string;
  encoding: RunEncoding;
}

/** Shortest line of a wrapped run (any width from here on is a wrap width). */
const MIN_WRAP = 16;
function isB64Ext(c: number): boolean {
  return isB64(c) || c === 45 || c === 95;
}

/** A line break at `i`: `\n`, `\r\n`, or one written out as in a JSON string (`\\n`, `\\r\\n`). */
function anyEolAt(text: string, i: number): string {
  const c = text.charCodeAt(i);
  if (c === 10) return "\n";
  if (c === 13 && text.charCodeAt(i + 1) === 10) return "\r\n";
  if (c === 92) {
    if (text.startsWith("\\n", i)) return "\\n";
    if (text.startsWith("\\r\\n", i)) return "\\r\\n";
  }
  return "";
}

/** The end of the base64 characters from `i`. */
function b64End(text: string, i: number): number {
  while (i < text.length && isB64Ext(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Lines of one width (any width of 16 or more) then a last line no longer, from the line `[s, e)`,
 * joined by one kind of line break (written out as in JSON strings too); undefined when there is
 * not a second line.
 */
function anyWrap(text: string, s: number, e: number): Base64Run | undefined {
  return anyWrapUntil(text, s, e, text.length);
}

/** `anyWrap` with lines ending no later than `limit`. */
function anyWrapUntil(text: string, s: number, e: number, limit: number): Base64Run | undefined {
  const brk = anyEolAt(text, e);
  if (brk === "") return undefined;
  // The line break with the indentation after it (XML, YAML) is the separator of every line.
  let p = e + brk.length;
  while (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9) p++;
  const eol = text.slice(e, p);
  // The first line may be shorter than the others (`data: ` before it on its line).
  const firstWidth = e - s;
  const secondWidth = b64End(text, p) - p;
  const width = Math.max(firstWidth, secondWidth);
  if (width < MIN_WRAP || firstWidth < 4) return undefined;
  let end = e;
  let lines = 1;
  for (;;) {
    if (!text.startsWith(eol, end)) break;
    const ls = end + eol.length;
    const le = b64End(text, ls);
    const len = le - ls;
    if (len === 0 || len > width || le > limit) break;
    end = le;
    lines++;
    if (len < width) break;
  }
  if (lines < 2) return undefined;
  return { start: s, end, wrap: firstWidth < width ? { width, eol, first: firstWidth } : { width, eol } };
}

/**
 * The base64 run ending the line before position `s` (a line break, then only indentation before
 * `s`), after its last `key=`; undefined when there is none of at least 4 characters.
 */
function previousLine(text: string, s: number): Span | undefined {
  let p = s;
  while (p > 0 && (text.charCodeAt(p - 1) === 32 || text.charCodeAt(p - 1) === 9)) p--;
  if (text.charCodeAt(p - 1) === 10) p -= text.charCodeAt(p - 2) === 13 ? 2 : 1;
  else if (text.charCodeAt(p - 1) === 110 && text.charCodeAt(p - 2) === 92) {
    p -= text.startsWith("\\r\\n", p - 4) ? 4 : 2;
  } else return undefined;
  const e = p;
  let b = e;
  while (b > 0 && isB64Ext(text.charCodeAt(b - 1))) b--;
  for (let k = e - 1; k > b; k--) {
    if (text.charCodeAt(k - 1) === 61 && text.charCodeAt(k) !== 61) {
      b = k;
      break;
    }
  }
  return e - b >= 4 ? { start: b, end: e } : undefined;
}

/**
 * A run starting at `s` is a value: `=` or `:` right before it, then at most one space and one
 * quote (`key=X`, `key: X`, `"key": "X"`).
 */
function keyedAt(text: string, s: number): boolean {
  let p = s - 1;
  if (text.charCodeAt(p) === 34 || text.charCodeAt(p) === 39) p--;
  if (text.charCodeAt(p) === 32) p--;
  const c = text.charCodeAt(p);
  return c === 61 || c === 58;
}

/** Splits `[s, e)` after each run of `=` that more base64 follows. */
function splitPadding(text: string, s: number, e: number, min: number, out: Base64Run[]): void {
  let p = s;
  while (p < e) {
    let q = p;
    while (q < e && text.charCodeAt(q) !== 61) q++;
    while (q < e && text.charCodeAt(q) === 61) q++;
    if (q - p >= min) out.push({ start: p, end: q });
    p = q;
  }
}

const latin1Ok = (c: number) => c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 160;

/**
 * True when decoded bytes read as text: no control characters but tab, line breaks, the MLLP
 * frame bytes and NCPDP's separators; Latin-1 also mostly printable ASCII (random bytes, hashes and keys fail this).
 */
function isText(s: string, latin1: boolean, keyed = false): boolean {
  let ascii = 0;
  let letters = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // MLLP's VT and FS, and NCPDP's GS and RS (FS is its field separator) are part of the text.
    const framing = c === 11 || (c >= 28 && c <= 30);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && !framing) return false;
    if (c === 127 || (c >= 128 && c < 160)) return false;
    if (latin1 && !latin1Ok(c) && !framing) return false;
    if (c >= 32 && c < 127) ascii++;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    else if (c >= 48 && c <= 57) digits++;
  }
  // A short `key=` value may be mostly digits (`SSN 123-45-6789`).
  return (letters >= 4 || (keyed && letters + digits >= 6)) && (!latin1 || ascii >= s.length * 0.8);
}

/**
 * The text a run of either alphabet encodes, padded or not, UTF-8 or Latin-1, with how it was
 * written; undefined when it is not canonical base64 (re-encoding must give the run back exactly)
 * or not text (four letters or more; `keyed`, a short `key=` value: six letters and digits).
 *
 * @example
 * ```ts
 * import { decodeRunText } from "./base64.ts";
 * decodeRunText("Sm9obiBEb2UncyBub3Rl")?.text; // "John Doe's note"
 * ```
 */
export function decodeRunText(
  b64: string,
  keyed = false,
): { text: string; encoding: RunEncoding } | undefined {
  const url = b64.indexOf("-") !== -1 || b64.indexOf("_") !== -1;
  if (url && (b64.indexOf("+") !== -1 || b64.indexOf("/") !== -1)) return undefined;
  // Without any `=` a length divisible by 4 does not say: URL-safe runs are taken as unpadded
  // (their usual form), standard ones as padded.
  const padded = b64.indexOf("=") !== -1 || (b64.length % 4 === 0 && !url);
  if (b64.length % 4 === 1 || (b64.indexOf("=") !== -1 && b64.length % 4 !== 0)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(b64, { alphabet: url ? "base64url" : "base64" });
  } catch {
    return undefined;
  }
  const again = bytes.toBase64({ alphabet: url ? "base64url" : "base64", omitPadding: !padded });
  if (again !== b64) return undefined;
  const decoded = utf16WithoutBom(bytes) ?? decodeBytes(bytes);
  const text = decoded.text;
  // UTF-16 (with a byte-order mark, or read from its zero bytes) is judged as the text it is.
  const utf16 = decoded.regions[0]?.charset.startsWith("utf-16") ?? false;
  const latin1 = !utf16 && decoded.regions.some((r) => r.charset !== "utf-8");
  // Not UTF-8: judged byte by byte as Latin-1 (C1 bytes mean random data, not a Windows-1252
  // letter), so the pieces of a wrapped run never pass for text on their own.
  let probe = text;
  if (latin1) {
    probe = "";
    for (let i = 0; i < bytes.length; i++) probe += String.fromCharCode(bytes[i]);
  }
  if (!isText(probe, latin1, keyed)) return undefined;
  if (utf16 && text.includes("\ufffd")) return undefined;
  return { text, encoding: { url, padded, latin1, charset: decoded } };
}

/**
 * UTF-16 text without a byte-order mark (a Windows tool's output, base64-encoded): an even number of
 * bytes, at least 8, where nearly every byte of one parity is zero and nearly none of the other
 * (ASCII text in UTF-16LE is `P\0I\0D\0`). Undefined otherwise (decodeBytes reads the bytes).
 */
function utf16WithoutBom(bytes: Uint8Array): DecodedText | undefined {
  const n = bytes.length;
  if (n < 8 || n % 2 !== 0) return undefined;
  let evenZero = 0, oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const half = n / 2;
  const charset = oddZero >= half * 0.9 && evenZero <= half * 0.1
    ? "utf-16le"
    : evenZero >= half * 0.9 && oddZero <= half * 0.1
    ? "utf-16be"
    : undefined;
  if (charset === undefined) return undefined;
  const text = new TextDecoder(charset, { ignoreBOM: true }).decode(bytes);
  return { text, regions: [{ start: 0, charset, message: 0 }], notes: [] };
}

/** `text` written as a run was (alphabet, padding, character set); undefined if it cannot be. */
export function encodeRunText(text: string, e: RunEncoding): string | undefined {
  let bytes: Uint8Array;
  if (e.charset) {
    try {
      bytes = encodeText(text, e.charset);
    } catch {
      return undefined;
    }
  } else bytes = enc.encode(text);
  return bytes.toBase64({ alphabet: e.url ? "base64url" : "base64", omitPadding: !e.padded });
}

/**
 * The base64 runs of `text` that decode to text, in order: either alphabet (standard or URL-safe),
 * padded or not, on one line or wrapped at any width of 16 or more (line breaks real, or written
 * `\n` as in a JSON string) or in pieces of any length inside a JSON string (split by spaces or line
 * breaks), holding UTF-8, Latin-1 or UTF-16 (with or without a byte-order mark) text; `min` (32) or more characters long, or
 * 16 or more right after `=` or `:`. Hashes, keys and other random bytes do not decode to text and
 * are left out.
 *
 * @example
 * ```ts
 * import { decodedRuns } from "./base64.ts";
 * decodedRuns("note=Sm9obiBEb2UncyBub3RlIGZvciB0b2RheQ").map((r) => r.text); // ["John Doe's note for today"]
 * ```
 */
export function decodedRuns(text: string, min: number = MIN_DECODE): DecodedRun[] {
  const out: DecodedRun[] = [];
  // Every run of MIN_WRAP or more characters covers a multiple of MIN_WRAP / 2: only those
  // positions are probed, each hit widened to its run (as base64Runs does).
  const step = MIN_WRAP >> 1;
  let i = step - 1;
  while (i < text.length) {
    if (!isB64Ext(text.charCodeAt(i))) {
      i += step;
      continue;
    }
    let s = i;
    while (s > 0 && isB64Ext(text.charCodeAt(s - 1))) s--;
    const e = b64End(text, i);
    // `key=<base64>`: the run starts after the last `=` that more base64 follows.
    for (let k = e - 1; k > s; k--) {
      if (text.charCodeAt(k - 1) === 61 && text.charCodeAt(k) !== 61) {
        s = k;
        break;
      }
    }
    let next = e + 1;
    // A shorter first line the probes missed (`data: QUJD` then full lines): start there.
    const prev = previousLine(text, s);
    if (prev && !(out.length && out[out.length - 1].run.end > prev.start)) {
      const w = anyWrap(text, prev.start, prev.end);
      const got = w && w.end >= e && w.end - w.start >= min ? decodeRunText(runBase64(text, w)) : undefined;
      if (w && got) {
        out.push({ run: w, text: got.text, encoding: got.encoding });
        i = Math.max(i + step, Math.ceil((w.end + 2) / step) * step - 1);
        continue;
      }
    }
    if (e - s >= MIN_WRAP) {
      let wrap = anyWrap(text, s, e);
      let got = wrap && wrap.end - wrap.start >= min ? decodeRunText(runBase64(text, wrap)) : undefined;
      if (wrap && !got) {
        // The last "line" may be a word after the run (`end of attachment`): without it.
        const cut = text.lastIndexOf(wrap.wrap!.eol, wrap.end - 1);
        const shorter = anyWrapUntil(text, s, e, cut);
        got = shorter && shorter.end - shorter.start >= min
          ? decodeRunText(runBase64(text, shorter))
          : undefined;
        if (got) wrap = shorter;
      }
      if (wrap && got) {
        out.push({ run: wrap, text: got.text, encoding: got.encoding });
        next = wrap.end + 1;
      } else if (e - s >= min) {
        const parts: Base64Run[] = [];
        splitPadding(text, s, e, min, parts);
        for (const p of parts) {
          const one = decodeRunText(text.slice(p.start, p.end));
          if (one) out.push({ run: p, text: one.text, encoding: one.encoding });
        }
      } else if (min > MIN_KEYED && keyedAt(text, s)) {
        // A short value after `key=` or `key:`: one run, taken when it decodes to text.
        const one = decodeRunText(text.slice(s, e), true);
        if (one) out.push({ run: { start: s, end: e }, text: one.text, encoding: one.encoding });
      }
    }
    // The first probe position (one before a multiple of step, as the first) at or after `next`.
    i = Math.max(i + step, Math.ceil((next + 1) / step) * step - 1);
  }
  if (text.indexOf('"') !== -1) return withPieces(text, out, min);
  return out;
}

/**
 * A JSON string of base64 pieces (`"TVNI fF5+ XCZ8..."`, or pieces of any length on lines of their
 * own, the breaks real or written `\n`): when the pieces joined decode to text, one run over the
 * whole string replaces any piece decoded alone.
 */
const PIECES = /"([A-Za-z0-9+/=_-]+(?:(?:[ \t]+|\\r\\n|\\n|\r?\n[ \t]*)[A-Za-z0-9+/=_-]+)+)[ \t]*"/g;
const PIECE_SEP = /[ \t]+|\\r\\n|\\n|\r?\n[ \t]*/g;

function withPieces(text: string, out: DecodedRun[], min: number): DecodedRun[] {
  let added = false;
  PIECES.lastIndex = 0;
  for (let m = PIECES.exec(text); m; m = PIECES.exec(text)) {
    const body = m[1];
    const start = m.index + 1;
    const lens: number[] = [];
    const seps: string[] = [];
    let at = 0;
    PIECE_SEP.lastIndex = 0;
    for (let sm = PIECE_SEP.exec(body); sm; sm = PIECE_SEP.exec(body)) {
      lens.push(sm.index - at);
      seps.push(sm[0]);
      at = sm.index + sm[0].length;
    }
    lens.push(body.length - at);
    const run: Base64Run = { start, end: start + body.length, chunks: { lens, seps } };
    const joined = runBase64(text, run);
    if (joined.length < min) continue;
    // Lines of one width are a wrapped run the main scan read already.
    if (out.some((r) => r.run.start <= run.start && r.run.end >= run.end)) continue;
    const got = decodeRunText(joined);
    if (!got) continue;
    for (let k = out.length - 1; k >= 0; k--) {
      if (out[k].run.start < run.end && run.start < out[k].run.end) out.splice(k, 1);
    }
    out.push({ run, text: got.text, encoding: got.encoding });
    added = true;
  }
  return added ? out.sort((a, b) => a.run.start - b.run.start) : out;
}
