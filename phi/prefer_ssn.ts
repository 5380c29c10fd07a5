/**
 * The stronger evidence decides a value's category within one text: nine digits read as an MRN
 * (after `MRN`, `Patient`, in an id field) that the same text also shows as an SSN (written
 * `123-45-6789`, or after an SSN cue) are an SSN, so every mention gets one `SSN` token.
 *
 * Across texts the lookup table decides: a value that already has a token keeps it (the spec's
 * table has one row per canonical value, and lookups key on it), so this only applies to values
 * not yet in the table.
 */
import type { Candidate } from "./candidate.ts";

/** An SSN cue right before a place (`SSN`, `SS#`, `social security number:`). */
const SSN_CUE_BEFORE =
  /(?:\bssn|\bss#|\bsocial[ \t]+security(?:[ \t]+(?:number|no\.?|#))?)[ \t]*[:#=]?[ \t]*$/i;

/** The identifier categories tier 2 reads a number as (by its keyword): an SSN shown elsewhere wins. */
const ID_CATEGORIES = new Set(["MRN", "ACCOUNT", "VISIT", "MEMBER"]);

/** Nine digits of an MRN candidate's canonical value (bare, or 3-2-4 with one separator). */
function nineDigits(canonical: string): string | undefined {
  const m = /^(\d{3})([- .\u2013]?)(\d{2})\2(\d{4})$/.exec(canonical);
  return m ? m[1] + m[3] + m[4] : undefined;
}

/** Nine digits anywhere, bare or 3-2-4 with one separator. */
const NINE = /(?<![\d\w-])(\d{3})([- .\u2013]?)(\d{2})\2(\d{4})(?![\d\w]|-\d)/g;

/** The nine-digit values `text` shows as an SSN: in the dashed shape, or after an SSN cue. */
function shownAsSsn(text: string): Set<string> {
  const out = new Set<string>();
  NINE.lastIndex = 0;
  for (let m = NINE.exec(text); m; m = NINE.exec(text)) {
    if (m[2] === "-" || SSN_CUE_BEFORE.test(text.slice(Math.max(0, m.index - 32), m.index))) {
      out.add(m[1] + m[3] + m[4]);
    }
  }
  return out;
}

/**
 * Re-files as SSN the MRN candidates of `list` without a token whose nine digits are an SSN in
 * `text` (another candidate of `list` is an SSN with those digits, or the text shows them as one).
 * `known(canonical)`: a value that has a row already keeps its category. `readText`: false once the
 * tiers ran (their SSN candidates are the text's evidence; no need to read it again).
 */
export function preferSsn(
  text: string,
  list: Candidate[],
  known: (canonical: string) => boolean,
  readText = true,
): void {
  let ssn: Set<string> | undefined;
  for (const c of list) {
    if (c.category !== "SSN" && c.category !== "presidio_US_SSN") continue;
    const d = c.canonical.replace(/\D/g, "");
    if (d.length === 9) (ssn ??= new Set()).add(d);
  }
  let shown: Set<string> | undefined; // one pass over the text, when there is an MRN to test
  for (const c of list) {
    if (!ID_CATEGORIES.has(c.category) || c.token !== undefined) continue;
    const d = nineDigits(c.canonical);
    if (d === undefined || known(c.canonical) || known(d)) continue;
    if (ssn?.has(d) || (readText && (shown ??= shownAsSsn(text)).has(d))) {
      c.category = "SSN";
      c.canonical = d;
    }
  }
}
