/**
 * Tier 2 (contextual) of the spec's "Auto-PHI detection model": a number (4+ digits; may be
 * `E1234567`, `03/15/1980`, `1980-03-15`) with MRN, Patient, DOB, Account, Visit, Acct, Record or
 * Birth in the 20 characters before it on its line. Numbers get category DOB when date-shaped,
 * else MRN.
 */
import { isDateShaped } from "./normalize.ts";
import { lineStart } from "./exclusions.ts";
import type { Candidate } from "./candidate.ts";
import { cand, digitCount, NUMBER_RE } from "./_tier_common.ts";

const CONTEXT_RE = /(?<![A-Za-z])(?:mrn|patient|dob|account|visit|acct|record|birth)/i;

function lineStartOf(text: string, pos: number): number {
  for (let i = pos - 1; i >= 0 && i >= pos - 21; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return Math.max(0, pos - 20);
}

/**
 * Tier 2 (contextual) candidates: numbers with a PHI keyword in the 20 characters before them.
 *
 * @example
 * ```ts
 * import { findContextual } from "./tier2_contextual.ts";
 * findContextual("MRN: 12345678").map((c) => c.value); // ["12345678"]
 * ```
 */
export function findContextual(text: string, byLine = true): Candidate[] {
  const out: Candidate[] = [];
  if (!byLine) {
    contextualIn(text, 0, text.length, out);
    return out;
  }
  // The window never leaves the number's line, and numbers never span lines: only lines with a
  // keyword can hold a match (the same matches as a scan of the whole text).
  CONTEXT_ANY.lastIndex = 0;
  for (let k = CONTEXT_ANY.exec(text); k; k = CONTEXT_ANY.exec(text)) {
    const ls = lineStart(text, k.index);
    let le = k.index;
    while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    contextualIn(text, ls, le, out);
    CONTEXT_ANY.lastIndex = le;
  }
  return out;
}

// The keywords anywhere (no look-behind: a window may begin right at a keyword inside a word).
const CONTEXT_ANY = /mrn|patient|dob|account|visit|acct|record|birth/gi;

/** Tier-2 candidates in `[start, end)` of `text` (a line, or the whole text). */
function contextualIn(text: string, start: number, end: number, out: Candidate[]): void {
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  NUMBER_RE.lastIndex = 0;
  for (let m = NUMBER_RE.exec(part); m; m = NUMBER_RE.exec(part)) {
    if (digitCount(m[0]) < 4) continue;
    const at = start + m.index;
    const from = Math.max(lineStartOf(text, at), at - 20);
    if (!CONTEXT_RE.test(text.slice(from, at))) continue;
    const category = isDateShaped(m[0]) ? "DOB" : "MRN";
    const c = cand(text, at, at + m[0].length, category, "contextual");
    if (c) out.push(c);
  }
}
