/**
 * The one path language for HL7 fields, used the same way by tools, completion, diffs and error
 * messages. Everything is 1-based:
 *
 * | Path          | Means                                                        |
 * |---------------|--------------------------------------------------------------|
 * | `PID`         | every PID segment                                            |
 * | `OBX[3]`      | the third OBX segment of the message                         |
 * | `PID.5`       | field 5 of PID (all repetitions)                             |
 * | `PID.3[2]`    | the second repetition of PID-3                               |
 * | `PID.5.1`     | component 1 of PID-5                                         |
 * | `PID.5.1.2`   | subcomponent 2 of component 1 of PID-5                       |
 * | `OBX[3].5`    | field 5 of the third OBX                                     |
 * | `MSH.9.2`     | trigger event; MSH.1 is the field separator, MSH.2 `^~\&`    |
 *
 * `-` is accepted in place of `.` (`PID-5-1`, as the HL7 standard writes it) and the segment id is
 * case-insensitive; paths are always written back with dots and capitals.
 *
 * @module
 */
import { Hl7PathError } from "./errors.ts";

/** A parsed path. Absent parts are undefined; numbers are 1-based. */
export interface Hl7Path {
  /** Segment id, upper case: `PID`. */
  readonly segment: string;
  /** Which occurrence of the segment (`OBX[3]`); undefined means all. */
  readonly segmentIndex?: number;
  readonly field?: number;
  /** Which repetition of the field (`PID.3[2]`); undefined means all. */
  readonly repetition?: number;
  readonly component?: number;
  readonly subcomponent?: number;
}

/** Largest number accepted at any position. */
const MAX = 9999;

/**
 * Parses a path; throws an Hl7PathError that says what is wrong and shows a correct form. The
 * result is frozen (and cached by text); absent parts are absent keys, not undefined values.
 *
 * @example
 * ```ts
 * parsePath("PID.3[2].1"); // { segment: "PID", field: 3, repetition: 2, component: 1 }
 * parsePath("obx[3]-5"); // { segment: "OBX", segmentIndex: 3, field: 5 }
 * ```
 */
export function parsePath(text: string): Hl7Path {
  let parsed = cache.get(text);
  if (parsed === undefined) {
    parsed = Object.freeze(parseUncached(text));
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(text, parsed);
  }
  return parsed;
}

/** Parsed paths by text: tools and the PHI gate ask for the same few paths over and over. */
const cache = new Map<string, Hl7Path>();
const CACHE_SIZE = 512;

function parseUncached(text: string): Hl7Path {
  const src = text.trim();
  const bad = (why: string) => new Hl7PathError(text, `bad HL7 path "${text}": ${why}`);
  if (src === "") throw new Hl7PathError(text, "empty HL7 path; expected e.g. PID.5, PID.3[2].1 or OBX[3].5");
  const m = /^([A-Za-z0-9]*)(.*)$/.exec(src)!;
  const segment = m[1].toUpperCase();
  if (!/^[A-Z][A-Z0-9]{2}$/.test(segment)) {
    throw bad("a path starts with a segment id of three capitals or digits, e.g. PID.5");
  }
  let rest = m[2];
  const result: {
    segment: string;
    segmentIndex?: number;
    field?: number;
    repetition?: number;
    component?: number;
    subcomponent?: number;
  } = { segment };

  const index = (what: string, example: string): number | undefined => {
    if (!rest.startsWith("[")) return undefined;
    const close = rest.indexOf("]");
    const body = close === -1 ? "" : rest.slice(1, close);
    if (close === -1 || !/^\d+$/.test(body)) {
      throw bad(`${what} index must be a number in brackets, e.g. ${example}`);
    }
    const n = Number(body);
    if (n < 1) throw bad(`${what} indexes are 1-based, so the first is ${example.replace(/\[\d+\]/, "[1]")}`);
    if (n > MAX) throw bad(`${what} index ${n} is too large`);
    rest = rest.slice(close + 1);
    return n;
  };

  const segmentIndex = index("segment", `${segment}[2]`);
  if (segmentIndex !== undefined) result.segmentIndex = segmentIndex;
  const names = ["field", "component", "subcomponent"] as const;
  for (let level = 0; rest !== ""; level++) {
    const sep = rest[0];
    if (sep !== "." && sep !== "-") {
      throw bad(`unexpected "${rest}"; parts are separated by dots, e.g. ${segment}.5.1`);
    }
    if (level >= names.length) throw bad("a path goes at most to segment.field.component.subcomponent");
    const num = /^\d+/.exec(rest.slice(1));
    if (!num) throw bad(`expected a ${names[level]} number after "${sep}"`);
    const n = Number(num[0]);
    const sample = [segment, 5, 1, 1].slice(0, level + 2).join(".");
    if (n < 1) {
      throw bad(`${names[level]} numbers are 1-based, so the first is ${sample.replace(/\d+$/, "1")}`);
    }
    if (n > MAX) throw bad(`${names[level]} number ${n} is too large`);
    result[names[level]] = n;
    rest = rest.slice(1 + num[0].length);
    if (level === 0) {
      const repetition = index("repetition", `${segment}.${n}[2]`);
      if (repetition !== undefined) result.repetition = repetition;
    } else if (rest.startsWith("[")) {
      throw bad("only a segment or a field takes an index in brackets, e.g. PID.3[2].1");
    }
  }
  return result;
}

/**
 * Writes a path in the canonical form: dots, capitals, indexes only where given.
 *
 * @example
 * ```ts
 * formatPath({ segment: "OBX", segmentIndex: 3, field: 5 }); // "OBX[3].5"
 * ```
 */
export function formatPath(p: Hl7Path): string {
  let s = p.segment;
  if (p.segmentIndex !== undefined) s += `[${p.segmentIndex}]`;
  if (p.field === undefined) return s;
  s += `.${p.field}`;
  if (p.repetition !== undefined) s += `[${p.repetition}]`;
  if (p.component === undefined) return s;
  s += `.${p.component}`;
  if (p.subcomponent !== undefined) s += `.${p.subcomponent}`;
  return s;
}

/**
 * True when `inner` lies within `outer`: same segment, and every part `outer` gives is equal in
 * `inner`. `PID.5` covers `PID.5.1` and `PID[2].5[3]`; `OBX[2]` covers `OBX[2].5` but not `OBX.5`.
 *
 * @example
 * ```ts
 * pathCovers(parsePath("MSH.7"), parsePath("MSH.7.1")); // true
 * ```
 */
export function pathCovers(outer: Hl7Path, inner: Hl7Path): boolean {
  if (outer.segment !== inner.segment) return false;
  const keys = ["segmentIndex", "field", "repetition", "component", "subcomponent"] as const;
  for (const k of keys) {
    if (outer[k] !== undefined && outer[k] !== inner[k]) return false;
  }
  return true;
}
