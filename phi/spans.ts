/** Half-open character ranges `[start, end)` kept sorted and disjoint, with overlap queries. */

export interface Span {
  start: number;
  end: number;
}

/**
 * A sorted set of disjoint ranges. `overlaps` is a binary search; `add` keeps the order (callers add
 * only ranges that do not overlap, or use `union` for a set built from overlapping ranges).
 *
 * @example
 * ```ts
 * const s = SpanSet.union([{ start: 0, end: 4 }, { start: 2, end: 6 }]);
 * s.overlaps(5, 7); // true
 * ```
 */
export class SpanSet {
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  /** Builds a set from ranges that may overlap (merged). Sorts `spans` in place. */
  static union(spans: Span[]): SpanSet {
    spans.sort((a, b) => a.start - b.start || a.end - b.end);
    return SpanSet.#merge(spans);
  }

  /**
   * Builds a set from ranges that may overlap, without touching `spans`: ranges already in order
   * (the usual case: scan results) are merged in one pass with no copy or sort.
   */
  static of(spans: readonly Span[]): SpanSet {
    for (let i = 1; i < spans.length; i++) {
      if (spans[i].start < spans[i - 1].start) {
        return SpanSet.union(spans.map((s) => ({ start: s.start, end: s.end })));
      }
    }
    return SpanSet.#merge(spans);
  }

  /** Ranges ordered by start, merged where they overlap or touch; empty ranges skipped. */
  static #merge(sorted: readonly Span[]): SpanSet {
    const set = new SpanSet();
    for (const s of sorted) {
      if (s.end <= s.start) continue;
      const n = set.starts.length;
      if (n > 0 && s.start <= set.ends[n - 1]) {
        if (s.end > set.ends[n - 1]) set.ends[n - 1] = s.end;
      } else {
        set.starts.push(s.start);
        set.ends.push(s.end);
      }
    }
    return set;
  }

  get size(): number {
    return this.starts.length;
  }

  /** Index of the first range whose end is after `pos`. */
  #firstEndingAfter(pos: number): number {
    let lo = 0, hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid] <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when `[start, end)` shares at least one character with a range of the set. */
  overlaps(start: number, end: number): boolean {
    const i = this.#firstEndingAfter(start);
    return i < this.starts.length && this.starts[i] < end;
  }

  /** True when one range of the set holds all of `[start, end)`. */
  covers(start: number, end: number): boolean {
    const i = this.#firstEndingAfter(start);
    return i < this.starts.length && this.starts[i] <= start && end <= this.ends[i];
  }

  /** A new set with the ranges of this one that overlap `[start, end)`. */
  within(start: number, end: number): SpanSet {
    const out = new SpanSet();
    for (let i = this.#firstEndingAfter(start); i < this.starts.length && this.starts[i] < end; i++) {
      out.starts.push(this.starts[i]);
      out.ends.push(this.ends[i]);
    }
    return out;
  }

  /** Adds a range that overlaps nothing in the set (returns false, adding nothing, if it does). */
  add(start: number, end: number): boolean {
    const n = this.starts.length;
    if (n === 0 || start >= this.ends[n - 1]) {
      this.starts.push(start);
      this.ends.push(end);
      return true;
    }
    const i = this.#firstEndingAfter(start);
    if (i < n && this.starts[i] < end) return false;
    this.starts.splice(i, 0, start);
    this.ends.splice(i, 0, end);
    return true;
  }
}
