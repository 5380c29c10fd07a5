/**
 * The base64 pass (spec, "Limits": base64 candidate). SMAT samples and some tool outputs carry whole
 * HL7 messages base64-encoded, where no text tier can see them. A candidate is a run of
 * `[A-Za-z0-9+/=]` with a length divisible by 4 (no entropy test), split after an `=` that is not
 * trailing padding; the never-tokenize list protects runs of 200 or more, the pass decodes runs of
 * 32 or more (a short message in a SMAT sample encodes to fewer than 200), and base64 wrapped at
 * 76 (or 64) columns is one run. It is decoded;
 * when it is valid canonical base64 and its text is HL7-shaped, the caller sanitizes the text and
 * the run is replaced by the re-encoded result. Everything else is left untouched. The bytes become
 * text through hl7/charset.ts (the set MSH-18 declares, else UTF-8, else Windows-1252), the one door
 * from bytes to text before the PHI tiers: a Latin-1 `M\xfcller` reaches the lookup table as
 * `Müller`, and the result is written back in the message's own set.
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
/** Line widths of wrapped base64 (MIME 76, PEM 64) read as one run. */
const WRAP_WIDTHS = [76, 64];
const enc = new TextEncoder();

/** A base64 run; `wrap` when it spans lines of a fixed width (the line breaks are not base64). */
export interface Base64Run extends Span {
  wrap?: { width: number; eol: string };
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
  return run.wrap ? raw.split(run.wrap.eol).join("") : raw;
}

/** `b64` laid out like `run` (wrapped at its width with its line break when it was wrapped). */
export function layoutLike(b64: string, run: Base64Run): string {
  if (!run.wrap) return b64;
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += run.wrap.width) lines.push(b64.slice(i, i + run.wrap.width));
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
 * Rewrites every decodable run for which `fn` returns a new text (sync).
 *
 * @example
 * ```ts
 * declare const text: string;
 * declare const detokenize: (s: string) => string;
 * mapBase64Runs(text, (decoded) => decoded.includes("[[") ? detokenize(decoded) : undefined);
 * ```
 */
export function mapBase64Runs(text: string, fn: (decoded: string) => string | undefined): string {
  const runs = base64Runs(text, MIN_DECODE);
  if (runs.length === 0) return text;
  let out = "";
  let at = 0;
  for (const r of runs) {
    const decoded = decodeBase64(runBase64(text, r));
    if (decoded === undefined) continue;
    const next = fn(decoded.text);
    if (next === undefined || next === decoded.text) continue;
    const b64 = encodeBase64Text(next, decoded);
    if (b64 === undefined) continue;
    out += text.slice(at, r.start) + layoutLike(b64, r);
    at = r.end;
  }
  return at === 0 ? text : out + text.slice(at);
}
