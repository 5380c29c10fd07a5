/**
 * TAB completion of HL7 paths for the REPL (spec, Input conveniences: HL7 completion). Pure: given
 * the word being typed, the candidates with a description each.
 *
 * - A segment prefix (`P`, `OB`) gives the built-in segments that start with it.
 * - `SEG.` or `SEG.<digits>` gives that segment's fields; `SEG.F.` or `SEG.F.<digits>` the
 *   components of the field's data type; one level deeper, the subcomponents.
 * - An exact match wins over prefix siblings: `PID.1` completes to `PID.1` alone, not also PID.10
 *   to PID.19; `MSH` to MSH alone. Type a `.` to go one level down.
 * - A Z-segment (or a `Z` prefix) gives one hint: it is site-specific, not in the built-in schema.
 * - Input is case-insensitive; candidates are written with capitals. Segment and repetition
 *   indexes as typed (`OBX[2].`, `PID.3[2].`) are kept in the candidates.
 * - Anything else (an unknown segment, a number the schema does not have) gives no candidates.
 *
 * @module
 */
import { BUILTIN_SEGMENTS, componentsOf, segmentDef } from "./schema.ts";

/** One completion candidate. */
export interface Hl7Completion {
  /** The full text to put in place of the typed word. */
  readonly value: string;
  readonly description: string;
}

const SITE_SPECIFIC =
  "site-specific segment: Z-segments are defined by each interface, not by the built-in schema";

/**
 * The candidates for `input`, sorted (segments alphabetically, numbers ascending).
 *
 * @example
 * ```ts
 * completeHl7("OB").map((c) => c.value); // ["OBR", "OBX"]
 * completeHl7("PID.1").map((c) => c.value); // ["PID.1"]
 * completeHl7("MSH.9.").map((c) => c.value); // ["MSH.9.1", "MSH.9.2", "MSH.9.3"]
 * ```
 */
export function completeHl7(input: string): Hl7Completion[] {
  const m = /^([A-Za-z0-9]{0,3})(\[\d+\])?((?:[.-]\d*(?:\[\d+\])?)*)$/.exec(input);
  if (!m) return [];
  const seg = m[1].toUpperCase();
  const segIndex = m[2] ?? "";
  if (seg.startsWith("Z")) {
    return [{ value: input.toUpperCase(), description: SITE_SPECIFIC }];
  }
  const levels = m[3] === "" ? [] : m[3].slice(1).split(/[.-]/);
  if (levels.length === 0) {
    if (segIndex !== "") {
      const def = segmentDef(seg);
      return def ? [{ value: seg + segIndex, description: def.name }] : [];
    }
    return pick(
      BUILTIN_SEGMENTS.filter((id) => id.startsWith(seg)).sort(),
      seg,
      (id) => ({ value: id, description: segmentDef(id)!.name }),
    );
  }
  const def = segmentDef(seg);
  if (!def || seg.length !== 3) return [];
  // Every level but the last is complete: walk the schema down to the list the last one picks from.
  let prefix = seg + segIndex;
  let options: readonly { number: number; name: string; type: string }[] = def.fields;
  for (let i = 0; i < levels.length - 1; i++) {
    const part = /^(\d+)(\[\d+\])?$/.exec(levels[i]);
    if (!part || (part[2] && i > 0)) return [];
    const chosen = options[Number(part[1]) - 1];
    if (!chosen) return [];
    const next = componentsOf(chosen.type);
    if (!next) return [];
    prefix += `.${levels[i]}`;
    options = next;
  }
  const last = levels[levels.length - 1];
  const lastPart = /^(\d*)(\[\d+\])?$/.exec(last);
  if (!lastPart || (lastPart[2] && levels.length > 1)) return [];
  const [, digits, rep = ""] = lastPart;
  const matches = options.filter((o) => String(o.number).startsWith(digits)).map((o) => String(o.number));
  return pick(matches, digits, (n) => {
    const o = options[Number(n) - 1];
    return { value: `${prefix}.${n}${n === digits ? rep : ""}`, description: `${o.name} (${o.type})` };
  });
}

/** Exact match wins over prefix siblings. */
function pick<T extends string>(matches: T[], typed: string, make: (m: T) => Hl7Completion): Hl7Completion[] {
  const exact = matches.find((m) => m === typed);
  return (exact !== undefined ? [exact] : matches).map(make);
}
