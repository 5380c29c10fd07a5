/**
 * Records of the formats an integration engine moves besides HL7 v2 (X12, NCPDP, FHIR JSON, CDA XML,
 * delimited and fixed-width extracts, Tcl keyed lists and engine tool output): one module per format
 * under `phi/`, each a `RecordFormat`, all listed once in `RECORD_FORMATS`.
 *
 * The principle (issue #23): inside a record whose format is known, detection goes by structure, not
 * by pattern. A format's scan reports, in positions of the text it was given:
 *
 * | Part | Meaning | What the engine does with it |
 * |---|---|---|
 * | `structured` | an element the format defines as identifying a person | tokenized whatever its value looks like (audit tier `hl7_pipeline`, context the element's path) |
 * | `free` | an element that is neither known-safe nor known-identifying (notes, narrative, messages) | read by the automatic tiers 1–5, as prose |
 * | `segments` | the extent of each record (or of each segment, row, element) | outside `free`, only tier 1 reads it: codes, amounts and control numbers stay |
 *
 * This is the same shape as the HL7 sanitizer's scan (`Hl7Scan`), so the engine's later stages treat
 * every format alike. Text outside every record goes through the tiers as before.
 */
import type { Hl7Scan } from "./hl7_sanitize.ts";
import { type Span, SpanSet } from "./spans.ts";
import { x12 } from "./x12.ts";
import { ncpdp } from "./ncpdp.ts";
import { fhir } from "./fhir.ts";
import { cda } from "./cda.ts";
import { EXTRACT_FORMAT } from "./extracts.ts";
import { ENGINE_OUTPUT_FORMAT } from "./engine_output.ts";

/** What a format's scan found (the HL7 scan's shape). */
export type RecordScan = Hl7Scan;

/** One format the gate reads by structure. */
export interface RecordFormat {
  /** Short name, for tests and the audit context (`x12`, `fhir`, ...). */
  readonly name: string;
  /**
   * A cheap test that the text may hold a record of this format (a few `indexOf`s or one anchored
   * regex): most texts are none, and every pass asks every format.
   */
  maybe(text: string): boolean;
  /** The records of `text`, or undefined when there are none. Must not throw on any input. */
  scan(text: string): RecordScan | undefined;
  /**
   * True when this text's records declare themselves (an X12 interchange with a readable ISA): then
   * they win over segments the HL7 scan read loosely in the same range (`NM1|...` lines of an X12
   * with `|` elements look like HL7 segments with no field rule).
   */
  overrides?(text: string): boolean;
  /**
   * Its records are whole lines that never hold another format's record (tables, keyed lines): once
   * records are claimed, it reads only the text between them (a dump of HL7 with a few lines of
   * prose costs it the prose, not the dump).
   */
  readonly readsGaps?: boolean;
}

/** Every format the gate reads by structure, in the order they claim text (first claim wins). */
/** Self-declaring formats first; the general ones (extracts, engine output) last. */
export const RECORD_FORMATS: RecordFormat[] = [
  x12,
  ncpdp,
  fhir,
  cda,
  EXTRACT_FORMAT,
  ENGINE_OUTPUT_FORMAT,
];

/**
 * `primary` (the HL7 scan, if any) with the records of every format added. Parts of a format's scan
 * that overlap a record already claimed (by HL7 or an earlier format) are dropped, so each range of
 * the text has one reader. A format whose scan throws is skipped: its text goes through the tiers as
 * prose. Undefined when nothing was found at all.
 *
 * @example
 * ```ts
 * import { scanRecords } from "./records.ts";
 * scanRecords("just prose"); // undefined
 * ```
 */
export function scanRecords(
  text: string,
  primary?: Hl7Scan,
  formats: readonly RecordFormat[] = RECORD_FORMATS,
): Hl7Scan | undefined {
  let out = primary;
  let claimed: SpanSet | undefined;
  for (const f of formats) {
    let got: RecordScan | undefined;
    try {
      if (!f.maybe(text)) continue;
      got = f.readsGaps && out && out.segments.length > 0 && startLines(text, out.segments)
        ? scanGaps(f, text, out.segments)
        : f.scan(text);
    } catch {
      continue;
    }
    if (!got || got.segments.length === 0) continue;
    if (out && f.overrides?.(text)) {
      const theirs = SpanSet.of(got.segments);
      const keep = (x: Span) => !theirs.overlaps(x.start, x.end);
      out = {
        structured: out.structured.filter(keep),
        free: out.free.filter(keep),
        segments: out.segments.filter(keep),
      };
      claimed = undefined;
    }
    claimed ??= SpanSet.of(out?.segments ?? []);
    const c = claimed;
    const free = (x: Span) => !c.overlaps(x.start, x.end);
    // A record that holds one already claimed (an HL7 message in a CSV cell) keeps the rest of
    // itself: its parts outside the claimed ranges.
    const segments = got.segments.flatMap((x) => free(x) ? [x] : outside(c, x));
    if (segments.length === 0) continue;
    const mine = SpanSet.of(segments);
    const inside = (x: Span) => mine.overlaps(x.start, x.end);
    const structured = got.structured.filter((x) => free(x) && inside(x));
    const freeParts = got.free.filter((x) => free(x) && inside(x));
    for (const s of segments) c.add(s.start, s.end);
    const bySpan = (a: Span, b: Span) => a.start - b.start;
    out = {
      structured: [...(out?.structured ?? []), ...structured].sort(bySpan),
      free: [...(out?.free ?? []), ...freeParts].sort(bySpan),
      segments: [...(out?.segments ?? []), ...segments].sort(bySpan),
    };
  }
  return out;
}

/** The parts of `x` outside `set`'s ranges. */
function outside(set: SpanSet, x: Span): Span[] {
  const out: Span[] = [];
  const w = set.within(x.start, x.end);
  let at = x.start;
  for (let i = 0; i < w.size; i++) {
    if (w.starts[i] > at) out.push({ start: at, end: Math.min(w.starts[i], x.end) });
    at = Math.max(at, w.ends[i]);
  }
  if (at < x.end) out.push({ start: at, end: x.end });
  return out;
}

/**
 * True when every claimed record starts a line (after a line break or MLLP's start byte): then the
 * text between them is whole lines, and a table there has its header with it. A record inside a line
 * (an HL7 message in a CSV cell) means the table runs across it: read the text whole.
 */
function startLines(text: string, claimed: readonly Span[]): boolean {
  for (const c of claimed) {
    const p = c.start === 0 ? 10 : text.charCodeAt(c.start - 1);
    if (p !== 10 && p !== 13 && p !== 11) return false;
  }
  return true;
}

/**
 * `f`'s scan of each stretch of `text` between `claimed` (sorted) that holds more than white space,
 * shifted back to positions in `text`.
 */
function scanGaps(f: RecordFormat, text: string, claimed: readonly Span[]): RecordScan | undefined {
  const out: RecordScan = { structured: [], free: [], segments: [] };
  const gap = (a: number, b: number) => {
    if (b - a < 8 || text.slice(a, b).trim() === "") return;
    const got = f.scan(text.slice(a, b));
    if (!got) return;
    for (const c of got.structured) c.start += a, c.end += a, out.structured.push(c);
    for (const x of got.free) out.free.push({ start: x.start + a, end: x.end + a });
    for (const x of got.segments) out.segments.push({ start: x.start + a, end: x.end + a });
  };
  const set = SpanSet.of(claimed);
  let at = 0;
  for (let i = 0; i < set.size; i++) {
    if (set.starts[i] > at) gap(at, set.starts[i]);
    at = Math.max(at, set.ends[i]);
  }
  if (at < text.length) gap(at, text.length);
  return out.segments.length ? out : undefined;
}
