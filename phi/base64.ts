/**
 * The base64 pass (spec, "Limits": base64 candidate). SMAT samples and some tool outputs carry whole
 * HL7 messages base64-encoded, where no text tier can see them. A candidate is a run of
 * `[A-Za-z0-9+/=]` at least 200 long with a length divisible by 4 (no entropy test). It is decoded;
 * when it is valid canonical base64 of UTF-8 text and that text is HL7-shaped, the caller sanitizes
 * the text and the run is replaced by the re-encoded result. Everything else is left untouched.
 *
 * Deviation from the original tool: decoding uses the runtime's own base64 (`Uint8Array.fromBase64`),
 * so the pass needs no python3 and is never skipped.
 */
import type { Span } from "./spans.ts";

/** Shortest candidate run (spec: at least 200). */
export const MIN_RUN = 200;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const enc = new TextEncoder();

/**
 * The base64 candidate runs of `text`.
 *
 * @example
 * base64Runs("x " + "QUJD".repeat(60)).length; // 1
 */
export function base64Runs(text: string): Span[] {
  // A run of MIN_RUN or more characters covers at least one position that is a multiple of
  // MIN_RUN / 2, so only those positions are probed; each probe inside the alphabet is widened to
  // its run. Ordinary text costs about length / 100 character tests.
  const out: Span[] = [];
  const step = MIN_RUN >> 1;
  let i = step - 1;
  while (i < text.length) {
    if (!isB64(text.charCodeAt(i))) {
      i += step;
      continue;
    }
    let s = i, e = i + 1;
    while (s > 0 && isB64(text.charCodeAt(s - 1))) s--;
    while (e < text.length && isB64(text.charCodeAt(e))) e++;
    if (e - s >= MIN_RUN && (e - s) % 4 === 0) out.push({ start: s, end: e });
    i = e + step;
  }
  return out;
}

function isB64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 ||
    c === 61;
}

/**
 * The UTF-8 text a run encodes, or undefined when it is not canonical base64 of valid UTF-8 (so
 * re-encoding an unchanged text gives the run back exactly).
 */
export function decodeBase64Text(run: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(run);
  } catch {
    return undefined;
  }
  if (bytes.toBase64() !== run) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Base64 of the UTF-8 bytes of `text`. */
export function encodeBase64Text(text: string): string {
  return enc.encode(text).toBase64();
}

/**
 * Rewrites every decodable run for which `fn` returns a new text (sync).
 *
 * @example
 * mapBase64Runs(text, (decoded) => decoded.includes("[[") ? detokenize(decoded) : undefined);
 */
export function mapBase64Runs(text: string, fn: (decoded: string) => string | undefined): string {
  const runs = base64Runs(text);
  if (runs.length === 0) return text;
  let out = "";
  let at = 0;
  for (const r of runs) {
    const decoded = decodeBase64Text(text.slice(r.start, r.end));
    if (decoded === undefined) continue;
    const next = fn(decoded);
    if (next === undefined || next === decoded) continue;
    out += text.slice(at, r.start) + encodeBase64Text(next);
    at = r.end;
  }
  return at === 0 ? text : out + text.slice(at);
}
