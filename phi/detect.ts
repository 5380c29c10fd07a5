/**
 * Automatic detection, tiers 1 to 4 of the spec's "Auto-PHI detection model" (tier 5 is the sidecar,
 * phi/sidecar/client.ts). First match wins per value: candidates are taken tier by tier, in text order,
 * and one that overlaps a protected span (phi/exclusions.ts) or an earlier match is dropped.
 *
 * | Tier | Name | What matches |
 * |---|---|---|
 * | 1 | definite | SSN (dashed; spaces, dots, en dashes; 9 digits after an SSN cue); e-mail (also inside a URL, `%40`); phones: NANP formatted with an optional `+1`/`1-`/`001-` and extension, `+CC` international, spaced or bare after a phone cue; NPI after `NPI:` (or after `NPI` with a valid check digit); payment cards (`CARD`, Luhn) after a card cue or in a card layout with a network prefix: phi/tier1_definite.ts |
 * | 2 | contextual | a value after MRN, Patient, DOB, Account, Visit, Acct, Record, Birth, born (whole words, either case; joined, camel-case, on the next line, alphanumeric ids, lists); birth dates in every written form after a birth cue; ordinary dates and counts with a unit are not ids: phi/tier2_contextual.ts |
 * | 2 | prose ids | Safe Harbor identifiers in prose (ADDRESS, IP, AGE, LICENSE, DEVICE, MEMBER, and patient ids in URLs and scan paths), after the tier-2 rules and never over a value tier 4 knows: phi/prose_ids.ts |
 * | 3 | hl7 | field listings (a value printed after its path, phi/hl7_listing.ts) by the HL7 field policy; and on a line mentioning PID.3/5/7/11/13/18, NK1.*, GT1.* or IN1.16–20: caret values (`SMITH^JOHN`), numbers of 4+ digits, dates, and the value after `<ref>:` or `<ref> =` |
 * | 4 | known | a value already in the lookup table (original or canonical form), in any case; names as a run of 2–4 words in any order with spaces (one line break at most), `, `, `^`, `/` or `_` between them (`Jane Q Doe`, `Doe, Jane`, `DOE^JANE^Q`, `Doe/Jane`, `Jane_Doe`; also without the initials, and without a possessive `'s`); one name word after a title (`Mr. Doe`) or an initial (`J. Doe`); a known date in any written form (`January 5, 1950` for `1950-01-05`); single alphabetic words only for MANUAL and custom categories; numbers of 6 or more digits. A known name wins over a protected range (a path) that holds nothing but it |
 *
 * Phones written with spaces only (`555 123 4567`) are tier 1 only after `+1` or a phone cue: too
 * many tables of numbers look like that. Bare 13-19 digit runs are cards only after a card cue.
 *
 * Each tier has its own file: phi/tier1_definite.ts, phi/tier2_contextual.ts, phi/tier3_hl7.ts and
 * phi/tier4_known.ts with its index phi/known_index.ts (case folding: phi/fold.ts). This module
 * resolves them into one list, and is the entry point the rest of the program uses.
 */
import { hasDobContext } from "./exclusions.ts";
import { SpanSet } from "./spans.ts";
import type { Candidate } from "./candidate.ts";
import { findDefinite } from "./tier1_definite.ts";
import { findContextual } from "./tier2_contextual.ts";
import { findProseIds } from "./prose_ids.ts";
import { findHl7Lines } from "./tier3_hl7.ts";
import type { KnownIndex } from "./known_index.ts";

export type { Candidate, Tier } from "./candidate.ts";
export { findDefinite } from "./tier1_definite.ts";
export { findContextual } from "./tier2_contextual.ts";
export { findHl7Lines } from "./tier3_hl7.ts";
export { KnownIndex } from "./known_index.ts";

export interface DetectOptions {
  /** Ranges nothing may overlap (the never-tokenize list). */
  protect: SpanSet;
  /** Tier 4 index; omitted: no tier 4. */
  known?: KnownIndex;
  /** Ranges already taken (manual markers); they win over every tier. */
  taken?: SpanSet;
  /** Tiers to run. @default all four */
  tiers?: ReadonlySet<"definite" | "contextual" | "hl7" | "known">;
  /**
   * Where `text` starts in the whole text: returned candidates, `taken` and `accept` use whole-text
   * positions; `protect` uses positions in `text`. @default 0
   */
  offset?: number;
  /** A last say over each candidate before it is taken (e.g. only tier 1 inside HL7 segments). */
  accept?: (c: Candidate) => boolean;
}

/**
 * Tiers 1–4 over `text`, in tier order; first match wins, protected spans excluded. The result is
 * sorted by position and never overlaps.
 *
 * @example
 * ```ts
 * import { detectAuto } from "./detect.ts";
 * import { protectedSpans } from "./exclusions.ts";
 * const text = "MRN 12345678, call 555-123-4567";
 * const found = detectAuto(text, { protect: protectedSpans(text) });
 * ```
 */
export function detectAuto(text: string, options: DetectOptions): Candidate[] {
  const tiers = options.tiers;
  const off = options.offset ?? 0;
  const taken = options.taken ?? new SpanSet();
  const out: Candidate[] = [];
  // A known name wins over protected ranges that hold nothing but it (`Vanderhoeven/Horatio` is
  // read as a relative path, `Last/First` is how names are often written): only punctuation of
  // such a range may lie outside the name.
  const knownNameWins = (c: Candidate) => {
    if (c.tier !== "known" || (c.category !== "NAME" && c.category !== "presidio_PERSON")) return false;
    const w = options.protect.within(c.start, c.end);
    for (let i = 0; i < w.size; i++) {
      const outside = text.slice(w.starts[i], Math.max(w.starts[i], c.start)) +
        text.slice(Math.min(c.end, w.ends[i]), w.ends[i]);
      if (/[\p{L}\p{N}]/u.test(outside)) return false;
    }
    return true;
  };
  const take = (list: Candidate[]) => {
    for (const c of list) {
      if (c.exact ? c.value.includes("[[") : options.protect.overlaps(c.start, c.end) && !knownNameWins(c)) {
        continue;
      }
      // ISO dates are only PHI with DOB context; dates elsewhere are left to the protection rules.
      // A field-policy decision (`PID.7 <- 1964-10-28`, exact) is a DOB by its field.
      if (
        !c.exact && c.category === "DOB" && /^\d{4}-\d{2}-\d{2}/.test(c.value) &&
        !hasDobContext(text, c.start)
      ) {
        continue;
      }
      if (off !== 0) c.start += off, c.end += off;
      if (options.accept && !options.accept(c)) continue;
      if (taken.add(c.start, c.end)) out.push(c);
    }
  };
  if (!tiers || tiers.has("definite")) take(findDefinite(text));
  if (!tiers || tiers.has("contextual")) take(findContextual(text));
  const known = options.known && (!tiers || tiers.has("known")) ? options.known.find(text) : [];
  // Safe Harbor identifiers in prose (phi/prose_ids.ts), with tier 2 (before the tier-3 line rule,
  // which would take a street's house number alone), but never over a known value (a known street
  // written another way keeps its token).
  if (!tiers || tiers.has("contextual")) {
    const ids = findProseIds(text);
    if (ids.length > 0) {
      const k = SpanSet.union(known.map((c) => ({ start: c.start, end: c.end })));
      take(ids.filter((c) => c.exact || !k.overlaps(c.start, c.end)));
    }
  }
  if (!tiers || tiers.has("hl7")) take(findHl7Lines(text));
  take(known);
  return out.sort((a, b) => a.start - b.start);
}
