/**
 * What tiers 1 to 3 share (phi/tier1_definite.ts, phi/tier2_contextual.ts, phi/tier3_hl7.ts): the
 * candidate of a text range with its canonical value, and the number shape of tiers 2 and 3.
 * Private to phi/.
 */
import { canonicalize } from "./normalize.ts";
import { type Candidate, candidate, type Tier } from "./candidate.ts";

/** The candidate of `text[start, end)`, or undefined when it canonicalizes to nothing. */
export function cand(
  text: string,
  start: number,
  end: number,
  category: string,
  tier: Tier,
): Candidate | undefined {
  const value = text.slice(start, end);
  const canonical = canonicalize(category, value);
  if (canonical === "") return undefined;
  return candidate(start, end, value, category, canonical, tier);
}

/** A number for tiers 2 and 3: digits with `-`, `/`, `.` inside, optionally 1–3 letters in front. */
export const NUMBER_RE = /(?<![\w\-\/.])(?:[A-Za-z]{1,3}-?)?\d(?:[\d\-\/.]*\d)?(?![\w\-\/]|\.\d)/g;

/** How many ASCII digits `s` holds. */
export function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** The up to `width` (20) characters before `pos` on its line (spec: the tier-2 context window). */
export function contextWindow(text: string, pos: number, width = 20): string {
  let i = pos - 1;
  const stop = Math.max(0, pos - width);
  while (i >= stop) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i--;
  }
  return text.slice(i + 1, pos);
}
