/**
 * Writing one value by path, in place. Everything else in the segment keeps its exact text.
 *
 * @module
 */
import { Hl7PathError } from "./errors.ts";
import { escape } from "./escape.ts";
import type { Message } from "./message.ts";
import { formatPath, type Hl7Path, parsePath } from "./path.ts";
import { splitComponents, splitRepetitions, splitSubcomponents } from "./segment.ts";

/** Options of {@link setValue}. */
export interface SetValueOptions {
  /** Write `value` as raw HL7 text instead of escaping it. @default false */
  raw?: boolean;
}

/**
 * Sets the value at `path` (a field, repetition, component or subcomponent) of the first segment
 * occurrence, or the one `[n]` names; repetition 1 unless `[n]` is given. Missing fields,
 * repetitions and components are added empty. The value is escaped with the message's delimiters
 * unless `options.raw`. The message's segment is replaced by an updated copy.
 *
 * Throws an Hl7PathError when the path has no field, names MSH.1/MSH.2 (the delimiters), or the
 * segment does not occur.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const m = parseMessage("MSH|^~\\&|A\rPID|1||123||DOE^JOHN\r");
 * setValue(m, "PID.5.1", "O^BRIEN");
 * m.segments[1].raw; // "PID|1||123||O\\S\\BRIEN^JOHN"
 * ```
 */
export function setValue(
  message: Message,
  path: string | Hl7Path,
  value: string,
  options: SetValueOptions = {},
): void {
  const p = typeof path === "string" ? parsePath(path) : path;
  const shown = formatPath(p);
  if (p.field === undefined) throw new Hl7PathError(shown, `cannot set ${shown}: the path names no field`);
  const want = p.segmentIndex ?? 1;
  let occurrence = 0;
  const index = message.segments.findIndex((s) => s.id === p.segment && ++occurrence === want);
  if (index === -1) throw new Hl7PathError(shown, `cannot set ${shown}: the message has no such segment`);
  const segment = message.segments[index];
  if (segment.isHeader && p.field <= 2) {
    throw new Hl7PathError(shown, `cannot set ${shown}: it holds the message's delimiters`);
  }
  const d = segment.delimiters;
  const text = options.raw ? value : escape(value, d);
  const fields = [...segment.fields()];
  while (fields.length <= p.field) fields.push("");
  const reps = splitRepetitions(fields[p.field], d);
  const r = (p.repetition ?? 1) - 1;
  if (r > 0 && d.repetition === "") {
    throw new Hl7PathError(shown, `cannot set ${shown}: the message declares no repetition character`);
  }
  while (reps.length <= r) reps.push("");
  if (p.component === undefined) {
    reps[r] = text;
  } else {
    const comps = splitComponents(reps[r], d);
    while (comps.length < p.component) comps.push("");
    if (p.subcomponent === undefined) {
      comps[p.component - 1] = text;
    } else {
      if (p.subcomponent > 1 && d.subcomponent === "") {
        throw new Hl7PathError(shown, `cannot set ${shown}: the message declares no subcomponent character`);
      }
      const subs = splitSubcomponents(comps[p.component - 1], d);
      while (subs.length < p.subcomponent) subs.push("");
      subs[p.subcomponent - 1] = text;
      comps[p.component - 1] = subs.join(d.subcomponent);
    }
    reps[r] = comps.join(d.component);
  }
  fields[p.field] = reps.join(d.repetition);
  message.segments[index] = segment.withFields(fields);
}
