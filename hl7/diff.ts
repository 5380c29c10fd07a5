/**
 * Field-level differences between messages.
 *
 * Segments are paired by id and occurrence (the second OBX with the second OBX), so an inserted
 * NTE does not shift the OBX comparisons. Within a pair, fields are compared down to the level
 * where both sides hold a single value: `PID.8` when neither side has components, `PID.5.1`
 * when either has, `PID.3[2].1` when either side repeats the field, `PID.3.4.1` below a
 * subcomponent delimiter. Values are compared unescaped (so `\X41\` equals `A`, and two messages
 * with different delimiters compare by content) and reported as written.
 *
 * Lists of messages are paired by position, or by the value at a key path (`MSH.10`, `PID.3.1`;
 * equal keys pair in order). The ignore list (default MSH.7 and MSH.10, which differ in every
 * resend) suppresses differences inside any path it covers: `PID.5` ignores all of PID-5, `OBX`
 * ignores every OBX including added or removed ones, `OBX[2].5` only the second OBX's field 5.
 *
 * @module
 */
import type { Delimiters } from "./delimiters.ts";
import { unescape } from "./escape.ts";
import { getValue } from "./get.ts";
import type { Message } from "./message.ts";
import { formatPath, type Hl7Path, parsePath, pathCovers } from "./path.ts";
import { type Segment, splitComponents, splitRepetitions, splitSubcomponents } from "./segment.ts";

/**
 * Paths ignored unless the caller says otherwise: they differ in every message.
 *
 * @example
 * ```ts
 * import type { Message } from "./message.ts";
 * declare const a: Message, b: Message;
 * diffMessages(a, b, { ignore: [...DEFAULT_IGNORE, "PV1.19"] });
 * ```
 */
export const DEFAULT_IGNORE: readonly string[] = ["MSH.7", "MSH.10"];

/** Options of the diff functions. */
export interface DiffOptions {
  /** Pair messages by the value at this path (lists only). @default by position */
  key?: string | Hl7Path;
  /** Differences inside these paths are not reported; `[]` ignores nothing. @default DEFAULT_IGNORE */
  ignore?: readonly (string | Hl7Path)[];
}

/** One difference within a message pair. */
export type Hl7Change =
  /** A value that differs; `left`/`right` as written in each message, "" when absent or empty. */
  | {
    readonly kind: "field";
    readonly path: string;
    readonly left: string;
    readonly right: string;
    /**
     * How the two values differ when they are one value written two ways (`howDiffer`): said before
     * the PHI gate, where tokens would hide it.
     */
    how?: string;
  }
  /** A segment only on one side: "right" is an added segment, "left" a removed one. */
  | {
    readonly kind: "segment";
    readonly path: string;
    readonly side: "left" | "right";
    readonly raw: string;
  };

/** Two paired messages (1-based positions in their lists) and their differences. */
export interface MessagePair {
  readonly left: number;
  readonly right: number;
  /** The key value the pair was matched on, when pairing by key. */
  readonly key?: string;
  readonly changes: readonly Hl7Change[];
}

/** A message with no partner, by position and (when pairing by key) key value. */
export interface Unpaired {
  readonly index: number;
  readonly key?: string;
}

/** The result of comparing two lists of messages. */
export interface Hl7DiffResult {
  readonly pairs: readonly MessagePair[];
  readonly onlyLeft: readonly Unpaired[];
  readonly onlyRight: readonly Unpaired[];
  /** The key path, canonical, when pairing by key. */
  readonly key?: string;
  /** The ignore paths in effect, canonical. */
  readonly ignored: readonly string[];
}

const toPath = (p: string | Hl7Path) => typeof p === "string" ? parsePath(p) : p;

/**
 * The differences between two messages, in left segment order, then the added segments.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const a = parseMessage("MSH|^~\\&|A\rPID|1||1||SMITH^JO\r");
 * const b = parseMessage("MSH|^~\\&|A\rPID|1||1||SMYTH^JO\r");
 * diffMessages(a, b); // [{ kind: "field", path: "PID.5.1", left: "SMITH", right: "SMYTH" }]
 * ```
 */
export function diffMessages(left: Message, right: Message, options: DiffOptions = {}): Hl7Change[] {
  const ignore = (options.ignore ?? DEFAULT_IGNORE).map(toPath);
  const changes: Hl7Change[] = [];
  const lOcc = occurrences(left.segments);
  const rOcc = occurrences(right.segments);
  const rByKey = new Map(rOcc.map((o) => [`${o.segment.id}#${o.n}`, o]));
  const repeated = (id: string) => (countOf(lOcc, id) > 1 || countOf(rOcc, id) > 1);
  const segPath = (id: string, n: number) => repeated(id) ? `${id}[${n}]` : id;
  const segIgnored = (id: string, n: number) =>
    ignore.some((g) => g.field === undefined && pathCovers(g, { segment: id, segmentIndex: n }));

  const seen = new Set<string>();
  for (const l of lOcc) {
    const k = `${l.segment.id}#${l.n}`;
    seen.add(k);
    const r = rByKey.get(k);
    if (segIgnored(l.segment.id, l.n)) continue;
    if (!r) {
      changes.push({ kind: "segment", path: segPath(l.segment.id, l.n), side: "left", raw: l.segment.raw });
      continue;
    }
    compareSegments(l.segment, r.segment, l.n, segPath(l.segment.id, l.n), ignore, changes);
  }
  for (const r of rOcc) {
    if (seen.has(`${r.segment.id}#${r.n}`) || segIgnored(r.segment.id, r.n)) continue;
    changes.push({ kind: "segment", path: segPath(r.segment.id, r.n), side: "right", raw: r.segment.raw });
  }
  return changes;
}

interface Occurrence {
  segment: Segment;
  n: number;
}

function occurrences(segments: readonly Segment[]): Occurrence[] {
  const counts = new Map<string, number>();
  return segments.map((segment) => {
    const n = (counts.get(segment.id) ?? 0) + 1;
    counts.set(segment.id, n);
    return { segment, n };
  });
}

function countOf(list: readonly Occurrence[], id: string): number {
  let n = 0;
  for (const o of list) if (o.segment.id === id) n++;
  return n;
}

function compareSegments(
  l: Segment,
  r: Segment,
  occurrence: number,
  shown: string,
  ignore: readonly Hl7Path[],
  out: Hl7Change[],
): void {
  if (l.raw === r.raw && sameDelimiters(l.delimiters, r.delimiters)) return;
  const lf = l.fields();
  const rf = r.fields();
  const id = l.id;
  const header = l.isHeader;
  const n = Math.max(lf.length, rf.length);
  for (let f = 1; f < n; f++) {
    const a = lf[f] ?? "";
    const b = rf[f] ?? "";
    if (a === b && sameDelimiters(l.delimiters, r.delimiters)) continue;
    const base: Hl7Path = { segment: id, segmentIndex: occurrence, field: f };
    if (ignore.some((g) => g.repetition === undefined && g.component === undefined && pathCovers(g, base))) {
      continue;
    }
    const emit: Emit = (rep, showRep, comp, sub, x, y, how) => {
      const full = { ...base, repetition: rep, component: comp ?? 1, subcomponent: sub ?? 1 };
      if (ignore.some((g) => pathCovers(g, full))) return;
      const note = how ?? howDiffer(unescape(x, l.delimiters), unescape(y, r.delimiters));
      out.push({
        kind: "field",
        path: shownPath(shown, f, showRep ? rep : 0, comp, sub),
        left: x,
        right: y,
        ...(note ? { how: note } : {}),
      });
    };
    if (header && f <= 2) {
      if (a !== b) emit(1, false, undefined, undefined, a, b);
      continue;
    }
    compareField(a, b, l.delimiters, r.delimiters, emit);
  }
}

/** `PID.5.1`, with `[r]` when the field repeats (rep > 0 means show it). */
function shownPath(seg: string, f: number, rep: number, comp?: number, sub?: number): string {
  let s = `${seg}.${f}`;
  if (rep > 0) s += `[${rep}]`;
  if (comp !== undefined) s += `.${comp}`;
  if (sub !== undefined) s += `.${sub}`;
  return s;
}

type Emit = (
  rep: number,
  showRep: boolean,
  comp: number | undefined,
  sub: number | undefined,
  left: string,
  right: string,
  how?: string,
) => void;

function compareField(a: string, b: string, da: Delimiters, db: Delimiters, emit: Emit): void {
  const ra = splitRepetitions(a, da);
  const rb = splitRepetitions(b, db);
  const reps = Math.max(ra.length, rb.length);
  for (let r = 0; r < reps; r++) {
    const x = ra[r] ?? "";
    const y = rb[r] ?? "";
    const ca = splitComponents(x, da);
    const cb = splitComponents(y, db);
    const comps = Math.max(ca.length, cb.length);
    // One text spread over other components (`SMITH JOHN` against `SMITH^JOHN`): every change of this
    // repetition says so.
    const layout = comps > 1 && x !== y && joinedText(x, da) === joinedText(y, db) && joinedText(x, da) !== ""
      ? "same text, other component layout"
      : undefined;
    for (let c = 0; c < comps; c++) {
      const cx = ca[c] ?? "";
      const cy = cb[c] ?? "";
      const sa = splitSubcomponents(cx, da);
      const sb = splitSubcomponents(cy, db);
      const subs = Math.max(sa.length, sb.length);
      for (let s = 0; s < subs; s++) {
        const vx = sa[s] ?? "";
        const vy = sb[s] ?? "";
        if (unescape(vx, da) === unescape(vy, db)) continue;
        emit(
          r + 1,
          reps > 1,
          comps > 1 || subs > 1 ? c + 1 : undefined,
          subs > 1 ? s + 1 : undefined,
          vx,
          vy,
          layout,
        );
      }
    }
  }
}

function sameDelimiters(a: Delimiters, b: Delimiters): boolean {
  return a === b || (a.field === b.field && a.component === b.component && a.repetition === b.repetition &&
    a.escape === b.escape && a.subcomponent === b.subcomponent && a.truncation === b.truncation);
}

/**
 * Compares two lists of messages: pairs them by position or by `options.key`, and diffs each pair.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * declare const a: string, b: string;
 * const r = diffMessageLists(parseMessages(a).messages, parseMessages(b).messages, { key: "MSH.10" });
 * formatDiff(r);
 * ```
 */
export function diffMessageLists(
  left: readonly Message[],
  right: readonly Message[],
  options: DiffOptions = {},
): Hl7DiffResult {
  const ignored = (options.ignore ?? DEFAULT_IGNORE).map((p) => formatPath(toPath(p)));
  const pairs: MessagePair[] = [];
  const onlyLeft: Unpaired[] = [];
  const onlyRight: Unpaired[] = [];
  if (options.key === undefined) {
    const n = Math.min(left.length, right.length);
    for (let i = 0; i < n; i++) {
      pairs.push({ left: i + 1, right: i + 1, changes: diffMessages(left[i], right[i], options) });
    }
    for (let i = n; i < left.length; i++) onlyLeft.push({ index: i + 1 });
    for (let i = n; i < right.length; i++) onlyRight.push({ index: i + 1 });
    return { pairs, onlyLeft, onlyRight, ignored };
  }
  const key = toPath(options.key);
  const keyOf = (m: Message) => getValue(m, key) ?? "";
  const waiting = new Map<string, number[]>();
  right.forEach((m, i) => {
    const k = keyOf(m);
    const list = waiting.get(k);
    if (list) list.push(i);
    else waiting.set(k, [i]);
  });
  const used = new Set<number>();
  left.forEach((m, i) => {
    const k = keyOf(m);
    const j = waiting.get(k)?.shift();
    if (j === undefined) {
      onlyLeft.push({ index: i + 1, key: k });
      return;
    }
    used.add(j);
    pairs.push({ left: i + 1, right: j + 1, key: k, changes: diffMessages(m, right[j], options) });
  });
  right.forEach((m, j) => {
    if (!used.has(j)) onlyRight.push({ index: j + 1, key: keyOf(m) });
  });
  return { pairs, onlyLeft, onlyRight, key: formatPath(key), ignored };
}

const shown = (v: string) => v === "" ? "(empty)" : v;

/** A repetition's text with its components and subcomponents joined by single spaces, unescaped. */
function joinedText(rep: string, d: Delimiters): string {
  const parts: string[] = [];
  for (const c of splitComponents(rep, d)) {
    for (const sc of splitSubcomponents(c, d)) {
      const v = unescape(sc, d).trim();
      if (v !== "") parts.push(v);
    }
  }
  return parts.join(" ").replace(/\s+/g, " ");
}

/**
 * How two different values are one value written two ways, or undefined when they are not: leading
 * zeros, case, white space, punctuation. Holds no value, only counts, so it can be said to the model
 * beside the tokens that stand for the values.
 *
 * @example
 * ```ts
 * howDiffer("00815566", "815566"); // "same number, leading zeros differ: 8 digits vs 6"
 * howDiffer("(309)555-0187", "3095550187"); // "same characters, other punctuation or spacing"
 * howDiffer("Smith", "SMITH"); // "same apart from case"
 * howDiffer("SMITH", "SMYTH"); // undefined
 * howDiffer("0.5", "5"); // undefined (a measurement's punctuation is its value)
 * ```
 */
const MEASURE = /\d[.,]\d|[.,]\d|^\s*[-+<>=~]|[<>]/;

export function howDiffer(a: string, b: string): string | undefined {
  if (a === b || a.trim() === "" || b.trim() === "") return undefined;
  if (a.trim() === b.trim() || a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim()) {
    return "same apart from white space";
  }
  if (a.toLowerCase() === b.toLowerCase()) return "same apart from case";
  // A measurement's punctuation is its value (`0.5` against `5`, `-5` against `5`, `<5` against `5`).
  if (MEASURE.test(a) || MEASURE.test(b)) return undefined;
  const an = a.replace(/[^\p{L}\p{N}]+/gu, ""), bn = b.replace(/[^\p{L}\p{N}]+/gu, "");
  const zeros = (v: string) => v.replace(/^0+(?=\d)/, "");
  if (/^\d+$/.test(an) && /^\d+$/.test(bn) && an !== bn && zeros(an) === zeros(bn)) {
    const extra = an === a && bn === b ? "" : ", other punctuation";
    return `same number, leading zeros differ: ${an.length} digits vs ${bn.length}${extra}`;
  }
  if (an !== "" && an === bn) return "same characters, other punctuation or spacing";
  if (an !== "" && an.toLowerCase() === bn.toLowerCase()) {
    return "same characters, other case and punctuation";
  }
  return undefined;
}
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The text of a diff, as hl7_diff prints it: one block per pair with differences, lines
 * `PATH  LEFT -> RIGHT` for values (`(empty)` for an empty or absent value), `+ SEG  text` for a
 * segment only on the right, `- SEG  text` for one only on the left, the unpaired messages, and a
 * summary line.
 *
 * @example
 * ```ts
 * import type { Message } from "./message.ts";
 * declare const a: Message, b: Message;
 * formatDiff(diffMessageLists([a], [b])).split("\n")[1]; // "  PID.5.1  SMITH -> SMYTH"
 * ```
 */
export function formatDiff(result: Hl7DiffResult): string {
  const lines: string[] = [];
  const keyNote = (k: string | undefined) =>
    result.key !== undefined ? ` (${result.key} = ${shown(k ?? "")})` : "";
  let fields = 0;
  let added = 0;
  let removed = 0;
  let differing = 0;
  for (const pair of result.pairs) {
    if (pair.changes.length === 0) continue;
    differing++;
    lines.push(`message ${pair.left} vs message ${pair.right}${keyNote(pair.key)}`);
    for (const c of pair.changes) {
      if (c.kind === "field") {
        fields++;
        lines.push(`  ${c.path}  ${shown(c.left)} -> ${shown(c.right)}${c.how ? `  (${c.how})` : ""}`);
      } else if (c.side === "right") {
        added++;
        lines.push(`  + ${c.path}  ${c.raw}`);
      } else {
        removed++;
        lines.push(`  - ${c.path}  ${c.raw}`);
      }
    }
  }
  for (const u of result.onlyLeft) lines.push(`only in left: message ${u.index}${keyNote(u.key)}`);
  for (const u of result.onlyRight) lines.push(`only in right: message ${u.index}${keyNote(u.key)}`);
  if (lines.length === 0) lines.push("no differences");
  const pairing = result.key !== undefined ? `paired by ${result.key}` : "paired by position";
  lines.push(
    `summary: ${plural(result.pairs.length, "pair")} compared (${pairing}), ${differing} with differences; ` +
      `${plural(fields, "field")} changed, ${plural(added, "segment")} added, ${
        plural(removed, "segment")
      } removed; ` +
      `${
        plural(result.onlyLeft.length, "message")
      } only in left, ${result.onlyRight.length} only in right; ` +
      `ignored: ${result.ignored.length ? result.ignored.join(" ") : "nothing"}`,
  );
  return lines.join("\n");
}
