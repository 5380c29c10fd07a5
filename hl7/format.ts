/**
 * The text of the REPL's `/hl7 <SEG>` (a segment's fields) and `/hl7-fields <SEG.N>` (a field's
 * components). Pure functions returning the exact text to print; bad input gives a one-line
 * explanation instead of an exception.
 *
 * @module
 */
import { Hl7PathError } from "./errors.ts";
import { parsePath } from "./path.ts";
import {
  BUILTIN_SEGMENTS,
  type ComponentDef,
  componentsOf,
  isSiteSpecific,
  SCHEMA_VERSION,
  segmentDef,
  typeName,
} from "./schema.ts";

const SITE_SPECIFIC = (id: string) =>
  `${id}: site-specific segment (Z-segment); its fields are defined by the sending interface, ` +
  `not by the built-in schema`;

const NOT_BUILT_IN = (id: string) =>
  `${id} is not in the built-in schema (HL7 v${SCHEMA_VERSION}), which has: ${
    [...BUILTIN_SEGMENTS].sort().join(" ")
  }`;

/** Rows of path, name, type and a note, aligned in columns under a heading. */
function table(heading: string, rows: readonly ComponentDef[], prefix: string, footer: string[]): string {
  const paths = rows.map((r) => `${prefix}.${r.number}`);
  const pw = Math.max(...paths.map((p) => p.length));
  const nw = Math.max(...rows.map((r) => r.name.length));
  const tw = Math.max(...rows.map((r) => r.type.length));
  const lines = [heading];
  rows.forEach((r, i) => {
    const parts = componentsOf(r.type)?.length;
    const note = parts ? `${parts} ${prefix.split(".").length >= 2 ? "subcomponents" : "components"}` : "";
    lines.push(
      `  ${paths[i].padEnd(pw)}  ${r.name.padEnd(nw)}  ${note ? r.type.padEnd(tw) + "  " + note : r.type}`,
    );
  });
  return [...lines, ...footer].join("\n");
}

/**
 * The text of `/hl7 <SEG>`: every field of a built-in segment with its name and data type.
 *
 * @example
 * ```ts
 * formatSegmentHelp("EVN").split("\n")[0]; // "EVN  Event Type (HL7 v2.5.1, 7 fields)"
 * ```
 */
export function formatSegmentHelp(input: string): string {
  const id = input.trim().toUpperCase();
  if (isSiteSpecific(id)) return SITE_SPECIFIC(id);
  const def = segmentDef(id);
  if (!def) {
    return /^[A-Z][A-Z0-9]{2}$/.test(id) ? NOT_BUILT_IN(id) : `usage: /hl7 <SEG>, e.g. /hl7 PID`;
  }
  const footer = ["", `/hl7-fields ${id}.N lists the components of field N.`];
  if (id === "MSH") {
    footer.unshift(
      "",
      "MSH.1 is the field separator itself and MSH.2 the encoding characters, so MSH.3 is the first",
      "field after ^~\\&.",
    );
  }
  return table(
    `${id}  ${def.name} (HL7 v${SCHEMA_VERSION}, ${def.fields.length} fields)`,
    def.fields,
    id,
    footer,
  );
}

/**
 * The text of `/hl7-fields <SEG.N>`: the components of a field (or, for `SEG.N.C`, the
 * subcomponents of a component) with names and data types.
 *
 * @example
 * ```ts
 * formatFieldHelp("MSH.9").split("\n")[1]; // "  MSH.9.1  Message Code       ID"
 * ```
 */
export function formatFieldHelp(input: string): string {
  const usage = "usage: /hl7-fields <SEG.N>, e.g. /hl7-fields PID.5";
  let path;
  try {
    path = parsePath(input);
  } catch (err) {
    if (err instanceof Hl7PathError) return input.trim() === "" ? usage : err.message;
    throw err;
  }
  if (isSiteSpecific(path.segment)) return SITE_SPECIFIC(path.segment);
  const def = segmentDef(path.segment);
  if (!def) return NOT_BUILT_IN(path.segment);
  if (path.field === undefined || path.subcomponent !== undefined) return usage;
  const field = def.fields[path.field - 1];
  if (!field) {
    return `${def.id} has ${def.fields.length} fields in HL7 v${SCHEMA_VERSION}; there is no ${def.id}.${path.field}`;
  }
  let shown = `${def.id}.${field.number}`;
  let target: ComponentDef = field;
  if (path.component !== undefined) {
    const comps = componentsOf(field.type);
    const comp = comps?.[path.component - 1];
    if (!comp) {
      return comps
        ? `${shown} (${field.type}) has ${comps.length} components; there is no ${shown}.${path.component}`
        : `${shown} ${field.name} (${field.type}) is a single value with no components`;
    }
    shown += `.${comp.number}`;
    target = comp;
  }
  const long = typeName(target.type);
  const typeText = long ? `${target.type}: ${long}` : target.type;
  const parts = componentsOf(target.type);
  if (!parts) {
    if (target.type === "varies") {
      return `${shown}  ${target.name} (${target.type}): its data type is given by OBX-2 (value type) in each OBX`;
    }
    return long
      ? `${shown}  ${target.name} (${typeText}): a single value with no components`
      : `${shown}  ${target.name} (${target.type}): its components are not in the built-in schema`;
  }
  const what = path.component === undefined ? "components" : "subcomponents";
  return table(`${shown}  ${target.name} (${typeText}, ${parts.length} ${what})`, parts, shown, []);
}
