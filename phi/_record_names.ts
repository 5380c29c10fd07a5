/**
 * The names and places of a record's persons where its own narrative mentions them (a FHIR
 * `text.div`, a CDA section's text): each word of a NAME the record's structure gave, and each
 * one-word ADDRESS value (a city, a county), written capitalized in a free span of the same record,
 * is that value. The tiers read the free spans too, but they know a family and a given name only as
 * two one-word values, and a one-word known value is not looked for in prose. Private to phi/.
 */
import { candidate } from "./candidate.ts";
import { canonicalize } from "./normalize.ts";
import type { RecordScan } from "./records.ts";
import { SpanSet } from "./spans.ts";
import { nameVocabulary } from "./name_words.ts";

const WORD = /\p{L}[\p{L}'\u2019-]*/gu;

/**
 * Words that are names and ordinary words of a narrative alike (`Primary Care`, `Will`, `May`): a
 * record's name word that is one of these, or of the HL7 and vendor vocabulary, is not looked for.
 */
const ORDINARY = new Set(
  ("january february march april may june july august september october november december monday " +
    "tuesday wednesday thursday friday saturday sunday will grant bill mark rose hope faith joy chase page " +
    "bell ray dean art pat sue don patient doctor nurse test new old west east north south young long " +
    "little brown green white black gray grey price case lane street hall wood field stone king summer " +
    "winter spring primary care home work family daughter son mother father wife husband").split(" "),
);
const isUpper = (ch: string) => ch !== ch.toLowerCase() && ch === ch.toUpperCase();

/**
 * Adds to `scan.structured` (kept in text order) each capitalized word of a free span that is a word
 * of a NAME of the same segment. `label` names the format in the audit context (`FHIR`, `CDA`).
 */
export function addNarrativeNames(text: string, scan: RecordScan, label: string): void {
  if (scan.free.length === 0) return;
  const added = [];
  let vocab: ReadonlySet<string> | undefined;
  let si = 0, fi = 0;
  for (const seg of scan.segments) {
    const words = new Map<string, string>();
    while (si < scan.structured.length && scan.structured[si].start < seg.start) si++;
    for (let k = si; k < scan.structured.length && scan.structured[k].end <= seg.end; k++) {
      const c = scan.structured[k];
      if (c.category === "ADDRESS" && /^\p{Lu}[\p{L}'\u2019-]{2,}$/u.test(c.value)) {
        words.set(c.value.toLowerCase(), "ADDRESS");
      }
      if (c.category !== "NAME") continue;
      for (const w of c.canonical.split(" ")) {
        if (w.length >= 3 && /^\p{L}/u.test(w) && !ORDINARY.has(w) && !(vocab ??= nameVocabulary()).has(w)) {
          words.set(w, "NAME");
        }
      }
    }
    while (fi < scan.free.length && scan.free[fi].start < seg.start) fi++;
    if (words.size === 0) continue;
    for (let k = fi; k < scan.free.length && scan.free[k].end <= seg.end; k++) {
      const f = scan.free[k];
      const part = text.slice(f.start, f.end);
      WORD.lastIndex = 0;
      for (let m = WORD.exec(part); m; m = WORD.exec(part)) {
        const w = m[0];
        if (w.length < 3 || !isUpper(w[0]) || !words.has(w.toLowerCase())) continue;
        const s = f.start + m.index;
        added.push(
          candidate(
            s,
            s + w.length,
            w,
            "NAME",
            canonicalize("NAME", w),
            "hl7_pipeline",
            `${label} narrative`,
          ),
        );
      }
    }
  }
  if (added.length === 0) return;
  const taken = SpanSet.of(scan.structured);
  const keep = added.filter((c) => !taken.overlaps(c.start, c.end));
  scan.structured = [...scan.structured, ...keep].sort((a, b) => a.start - b.start);
}

/**
 * The canonical value of a structured record value: `canonicalize`, except that a date with a time
 * (`2026-10-28T10:00:00+13:00`, `202610150815-0500`) keeps its whole text. Two times of one day are
 * two values (an encounter's start and end): one shared token would give one of them back for both.
 */
export function canonOf(category: string, value: string): string {
  if (category === "DATE" || category === "DOB") {
    const t = value.trim();
    if (t.length > 10 && /^\d{4}-?\d{2}-?\d{2}[T\d]/.test(t)) return t;
  }
  return canonicalize(category, value);
}

/**
 * Cuts each segment of `scan` at the bounds of the free spans inside it, so a free span stands as a
 * segment of its own: when an earlier reader claims part of a record (an HL7 message inside a FHIR
 * `valueString` or a CDA narrative, found by the HL7 scan first), only the piece it overlaps is given
 * up (phi/records.ts drops overlapping segments whole), not the record's other values.
 */
export function cutSegmentsAtFree(scan: RecordScan): void {
  if (scan.free.length === 0) return;
  const out: { start: number; end: number }[] = [];
  let fi = 0;
  for (const seg of scan.segments) {
    while (fi < scan.free.length && scan.free[fi].end <= seg.start) fi++;
    let at = seg.start;
    for (let k = fi; k < scan.free.length && scan.free[k].start < seg.end; k++) {
      const f = scan.free[k];
      const s = Math.max(f.start, seg.start), e = Math.min(f.end, seg.end);
      if (s < at) continue; // nested in a free span already cut
      if (s > at) out.push({ start: at, end: s });
      out.push({ start: s, end: e });
      at = e;
    }
    if (at < seg.end) out.push({ start: at, end: seg.end });
  }
  scan.segments = out;
}

/**
 * The end of a document format's scan (FHIR, CDA): its parts in text order, the record's own name
 * words found in its narrative, and its records cut at their free spans. Undefined when it found no
 * record.
 */
export function finishScan(text: string, out: RecordScan, label: string): RecordScan | undefined {
  if (out.segments.length === 0) return undefined;
  const by = (a: { start: number }, b: { start: number }) => a.start - b.start;
  out.structured.sort(by);
  out.free.sort(by);
  out.segments.sort(by);
  addNarrativeNames(text, out, label);
  cutSegmentsAtFree(out);
  return out;
}
