/**
 * Reading values by path. `getAll` returns every value a path addresses (all occurrences of the
 * segment when the path gives no `[n]`, all repetitions of the field when it gives none);
 * `getValue` is the single-value convenience.
 *
 * @module
 */
import type { Delimiters } from "./delimiters.ts";
import { unescape } from "./escape.ts";
import type { Message } from "./message.ts";
import { type Hl7Path, parsePath } from "./path.ts";
import { type Segment, splitComponents, splitRepetitions, splitSubcomponents } from "./segment.ts";

/** One value a path addresses in one segment occurrence and repetition. */
export interface Hl7Value {
  /** The segment it was read from. */
  readonly segment: Segment;
  /** Which occurrence of that segment id in the message (1-based). */
  readonly occurrence: number;
  /** Which repetition of the field (1-based); 0 for a segment-only path. */
  readonly repetition: number;
  /** The text as it stands in the message, escapes intact. */
  readonly raw: string;
  /** False when the message ends before the addressed part (then `raw` is ""). */
  readonly present: boolean;
}

/**
 * Every value `path` addresses in `message`, in message order: one per segment occurrence and per
 * repetition. A segment that occurs but ends before the field gives one empty value with
 * `present: false`, so each occurrence is represented; a segment that does not occur gives none.
 * MSH.1 and MSH.2 (and FHS/BHS) are the delimiters themselves and are never split.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const m = parseMessage("MSH|^~\\&|A\rPID|1||111^^^MRN~222^^^SSN\r");
 * getAll(m, "PID.3.1").map((v) => v.raw); // ["111", "222"]
 * getAll(m, "PID.3[2].1").map((v) => v.raw); // ["222"]
 * ```
 */
export function getAll(message: Message, path: string | Hl7Path): Hl7Value[] {
  const p = typeof path === "string" ? parsePath(path) : path;
  const out: Hl7Value[] = [];
  let occurrence = 0;
  for (const segment of message.segments) {
    if (segment.id !== p.segment) continue;
    occurrence++;
    if (p.segmentIndex !== undefined && occurrence !== p.segmentIndex) continue;
    if (p.field === undefined) {
      out.push({ segment, occurrence, repetition: 0, raw: segment.raw, present: true });
    } else {
      collectField(segment, occurrence, p, out);
    }
    if (p.segmentIndex !== undefined) break;
  }
  return out;
}

function collectField(segment: Segment, occurrence: number, p: Hl7Path, out: Hl7Value[]): void {
  const field = segment.field(p.field!);
  if (field === undefined) {
    out.push({ segment, occurrence, repetition: p.repetition ?? 1, raw: "", present: false });
    return;
  }
  const d = segment.delimiters;
  const atomic = segment.isHeader && p.field! <= 2;
  const reps = atomic ? [field] : splitRepetitions(field, d);
  const first = p.repetition ?? 1;
  const last = p.repetition ?? reps.length;
  for (let r = first; r <= last; r++) {
    const rep = reps[r - 1];
    if (rep === undefined) {
      out.push({ segment, occurrence, repetition: r, raw: "", present: false });
      continue;
    }
    const [raw, present] = descend(rep, p, d, atomic);
    out.push({ segment, occurrence, repetition: r, raw, present });
  }
}

/** The component/subcomponent `p` addresses within one raw repetition. */
function descend(rep: string, p: Hl7Path, d: Delimiters, atomic: boolean): [string, boolean] {
  if (p.component === undefined) return [rep, true];
  if (atomic) return p.component === 1 && (p.subcomponent ?? 1) === 1 ? [rep, true] : ["", false];
  const comp = splitComponents(rep, d)[p.component - 1];
  if (comp === undefined) return ["", false];
  if (p.subcomponent === undefined) return [comp, true];
  const sub = splitSubcomponents(comp, d)[p.subcomponent - 1];
  return sub === undefined ? ["", false] : [sub, true];
}

/**
 * The value of a raw element for reading: unescaped when it is a single value (it holds no
 * repetition, component or subcomponent delimiter), else the raw text unchanged. MSH.1 and MSH.2
 * are never unescaped.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const d = DEFAULT_DELIMITERS;
 * readableValue("O\\S\\BRIEN", d); // "O^BRIEN"
 * readableValue("DOE^JOHN", d); // "DOE^JOHN"
 * ```
 */
export function readableValue(raw: string, d: Delimiters): string {
  if (raw.indexOf(d.component) !== -1) return raw;
  if (d.repetition !== "" && raw.indexOf(d.repetition) !== -1) return raw;
  if (d.subcomponent !== "" && raw.indexOf(d.subcomponent) !== -1) return raw;
  return unescape(raw, d);
}

/**
 * The first value `path` addresses, readable (see {@link readableValue}): `""` when the segment
 * occurs but the value is empty or absent, undefined when the segment does not occur.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const m = parseMessage("MSH|^~\\&|A||||20240101||ADT^A01|MSG1\rPID|1||123||O\\S\\BRIEN^PAT\r");
 * getValue(m, "MSH.9.2"); // "A01"
 * getValue(m, "PID.5.1"); // "O^BRIEN"
 * getValue(m, "NK1.2"); // undefined
 * ```
 */
export function getValue(message: Message, path: string | Hl7Path): string | undefined {
  const p = typeof path === "string" ? parsePath(path) : path;
  const first = getAll(message, p.segmentIndex === undefined ? { ...p, segmentIndex: 1 } : p)[0];
  if (first === undefined) return undefined;
  if (first.segment.isHeader && p.field !== undefined && p.field <= 2) return first.raw;
  return p.field === undefined ? first.raw : readableValue(first.raw, first.segment.delimiters);
}
