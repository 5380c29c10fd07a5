/**
 * The free-text regions of an HL7-shaped text, and one text that joins them, for rules that are
 * cheaper run once over everything than once per field: the automatic tiers on HL7 (phi/engine.ts)
 * and tier 5 (phi/tier5.ts). Private to phi/.
 */
import type { Hl7Scan } from "./hl7_sanitize.ts";
import { type Span, SpanSet } from "./spans.ts";

/** Non-segment text (segment terminators and blank runs left out) plus free-text fields, in order. */
export function freeRegions(text: string, scan: Hl7Scan): Span[] {
  const segs = SpanSet.of(scan.segments);
  const out: Span[] = [];
  const gap = (start: number, end: number) => {
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) > 32) {
        out.push({ start, end });
        return;
      }
    }
  };
  let at = 0;
  for (let i = 0; i < segs.size; i++) {
    if (segs.starts[i] > at) gap(at, segs.starts[i]);
    at = segs.ends[i];
  }
  if (at < text.length) gap(at, text.length);
  for (const f of scan.free) out.push(f);
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Regions of a source text joined by blank lines (so no line-based rule crosses from one into the
 * next), with the map from positions in the joined text back to the source.
 *
 * @example
 * ```ts
 * import { JoinedRegions } from "./_regions.ts";
 * const j = new JoinedRegions("ab|cd|ef", [{ start: 0, end: 2 }, { start: 6, end: 8 }]);
 * j.text; // "ab\n\nef"
 * const k = j.regionOf(4, 6); // 1
 * j.toSource(k, 4); // 6
 * ```
 */
export class JoinedRegions {
  /** The regions' text, in order, with "\n\n" between them. */
  readonly text: string;
  readonly #regions: readonly Span[];
  /** Start of region k in the joined text. */
  readonly #at: number[] = [];

  /** `regions`: sorted, disjoint ranges of `source`. */
  constructor(source: string, regions: readonly Span[]) {
    this.#regions = regions;
    const parts: string[] = [];
    let j = 0;
    for (const r of regions) {
      this.#at.push(j);
      parts.push(source.slice(r.start, r.end));
      j += r.end - r.start + 2;
    }
    this.text = parts.join("\n\n");
  }

  /**
   * The region that holds `[start, end)` of the joined text, or -1 when the range is not inside one
   * region (it runs into the separator or the next region).
   */
  regionOf(start: number, end: number): number {
    const at = this.#at;
    if (at.length === 0 || start < 0) return -1;
    let lo = 0, hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= start) lo = mid;
      else hi = mid - 1;
    }
    const r = this.#regions[lo];
    return end <= at[lo] + (r.end - r.start) ? lo : -1;
  }

  /** The source position of joined position `pos` inside region `k`. */
  toSource(k: number, pos: number): number {
    return pos + this.#regions[k].start - this.#at[k];
  }

  /** The parts of `set` (source positions) that lie inside the regions, in joined-text positions. */
  toJoined(set: SpanSet): SpanSet {
    const out = new SpanSet();
    this.#regions.forEach((r, k) => {
      const inside = set.within(r.start, r.end);
      for (let i = 0; i < inside.size; i++) {
        const s0 = Math.max(inside.starts[i], r.start), e0 = Math.min(inside.ends[i], r.end);
        out.add(this.#at[k] + s0 - r.start, this.#at[k] + e0 - r.start);
      }
    });
    return out;
  }
}
