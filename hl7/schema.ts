/**
 * The built-in schema: the 18 segments MSH PID PV1 PV2 EVN MSA ERR NK1 GT1 IN1 IN2 OBR OBX ORC AL1
 * DG1 PR1 ROL with every field's name and data type (HL7 v2.5.1), and the components of the
 * composite data types they use (XPN, XAD, CX, CE, CWE, XTN, PL, HD, MSG, XCN, XON, EI, TS and
 * more), so `PID.5.1` is "Family Name" and `PID.3.4.1` "Namespace ID".
 *
 * Z-segments are site-specific: each interface defines its own, so the schema says so instead of
 * guessing. Other standard segments (NTE, SPM, ...) are simply not built in.
 *
 * @module
 */
import { COMPOSITE_TYPES, PRIMITIVE_TYPES } from "./_schema_types.ts";
import { SEGMENT_TABLE } from "./_schema_segments.ts";
import type { Hl7Path } from "./path.ts";

/**
 * The HL7 version the names and types come from.
 *
 * @example
 * ```ts
 * `HL7 v${SCHEMA_VERSION}`; // "HL7 v2.5.1"
 * ```
 */
export const SCHEMA_VERSION = "2.5.1";

/**
 * The built-in segments, in the order the spec lists them.
 *
 * @example
 * ```ts
 * BUILTIN_SEGMENTS.length; // 18
 * ```
 */
// deno-fmt-ignore
export const BUILTIN_SEGMENTS: readonly string[] = [
  "MSH", "PID", "PV1", "PV2", "EVN", "MSA", "ERR", "NK1", "GT1",
  "IN1", "IN2", "OBR", "OBX", "ORC", "AL1", "DG1", "PR1", "ROL",
];

/** A field of a built-in segment. */
export interface FieldDef {
  /** 1-based field number. */
  readonly number: number;
  readonly name: string;
  /** HL7 data type code: `XPN`, `ST`, `varies` (OBX-5). */
  readonly type: string;
}

/** A component (or, below it, a subcomponent) of a composite data type. */
export interface ComponentDef {
  readonly number: number;
  readonly name: string;
  readonly type: string;
}

/** A built-in segment. */
export interface SegmentDef {
  readonly id: string;
  readonly name: string;
  readonly fields: readonly FieldDef[];
}

const segmentCache = new Map<string, SegmentDef>();
const typeCache = new Map<string, readonly ComponentDef[]>();

function entry(text: string, i: number): { number: number; name: string; type: string } {
  const bar = text.lastIndexOf("|");
  return { number: i + 1, name: text.slice(0, bar), type: text.slice(bar + 1) };
}

/**
 * The definition of a built-in segment, or undefined (Z-segments and segments not built in).
 *
 * @example
 * ```ts
 * segmentDef("PID")?.fields[4].name; // "Patient Name"
 * ```
 */
export function segmentDef(id: string): SegmentDef | undefined {
  const key = id.toUpperCase();
  let def = segmentCache.get(key);
  if (def) return def;
  const row = Object.hasOwn(SEGMENT_TABLE, key) ? SEGMENT_TABLE[key] : undefined;
  if (!row) return undefined;
  def = { id: key, name: row[0], fields: row[1].map(entry) };
  segmentCache.set(key, def);
  return def;
}

/**
 * Field `n` (1-based) of a built-in segment, or undefined.
 *
 * @example
 * ```ts
 * fieldDef("MSH", 9); // { number: 9, name: "Message Type", type: "MSG" }
 * ```
 */
export function fieldDef(segment: string, n: number): FieldDef | undefined {
  return segmentDef(segment)?.fields[n - 1];
}

/**
 * The components of a composite data type, or undefined for a primitive or unknown type.
 *
 * @example
 * ```ts
 * componentsOf("MSG")?.map((c) => c.name); // ["Message Code", "Trigger Event", "Message Structure"]
 * ```
 */
export function componentsOf(type: string): readonly ComponentDef[] | undefined {
  let list = typeCache.get(type);
  if (list) return list;
  const row = Object.hasOwn(COMPOSITE_TYPES, type) ? COMPOSITE_TYPES[type] : undefined;
  if (!row) return undefined;
  list = row[1].map(entry);
  typeCache.set(type, list);
  return list;
}

/**
 * The long name of a data type (`XPN` → "Extended Person Name"), or undefined when unknown.
 *
 * @example
 * ```ts
 * typeName("CX"); // "Extended Composite ID with Check Digit"
 * ```
 */
export function typeName(type: string): string | undefined {
  if (Object.hasOwn(COMPOSITE_TYPES, type)) return COMPOSITE_TYPES[type][0];
  return Object.hasOwn(PRIMITIVE_TYPES, type) ? PRIMITIVE_TYPES[type] : undefined;
}

/**
 * True for a Z-segment id (`Z` and two capitals or digits): site-specific by definition.
 *
 * @example
 * ```ts
 * isSiteSpecific("ZPI"); // true
 * ```
 */
export function isSiteSpecific(id: string): boolean {
  return /^Z[A-Z0-9]{2}$/.test(id.toUpperCase());
}

/** What the schema knows about each level of a path. */
export interface PathDescription {
  readonly segment: SegmentDef;
  readonly field?: FieldDef;
  readonly component?: ComponentDef;
  readonly subcomponent?: ComponentDef;
}

/**
 * The schema entries along `path`, as far as the schema knows them; undefined when the segment is
 * not built in. MSH.1 and MSH.2 have no components.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * describePath(parsePath("PID.3.4.1"))?.subcomponent?.name; // "Namespace ID"
 * ```
 */
export function describePath(path: Hl7Path): PathDescription | undefined {
  const segment = segmentDef(path.segment);
  if (!segment) return undefined;
  if (path.field === undefined) return { segment };
  const field = segment.fields[path.field - 1];
  if (!field || path.component === undefined) return { segment, field };
  const component = componentsOf(field.type)?.[path.component - 1];
  if (!component || path.subcomponent === undefined) return { segment, field, component };
  return { segment, field, component, subcomponent: componentsOf(component.type)?.[path.subcomponent - 1] };
}

/**
 * Segment ids common in traffic: a dash-form field reference (`PID-3`) may start with one (Z-segments
 * too), and a segment may start inside a line of prose after one (phi/embedded_hl7.ts).
 */
export const KNOWN_SEGMENTS = new Set([
  "MSH",
  "PID",
  "PV1",
  "PV2",
  "EVN",
  "MSA",
  "ERR",
  "NK1",
  "GT1",
  "IN1",
  "IN2",
  "IN3",
  "OBR",
  "OBX",
  "ORC",
  "AL1",
  "DG1",
  "PR1",
  "ROL",
  "NTE",
  "MRG",
  "PD1",
  "SCH",
  "AIS",
  "AIG",
  "AIL",
  "AIP",
  "RGS",
  "FT1",
  "TXA",
  "SPM",
  "QRD",
  "QRF",
  "BHS",
  "BTS",
  "FHS",
  "FTS",
  "ACC",
  "UB1",
  "UB2",
  "RXA",
  "RXE",
  "RXO",
  "RXR",
  "TQ1",
]);
