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
