/**
 * The HL7 field policy: which fields of which segments hold PHI and how each is tokenized. Field
 * numbers follow HL7 v2.5.1. The sanitizer (phi/hl7_sanitize.ts) applies it to every repetition of a
 * field; an empty value or the HL7 null `""` is left alone.
 *
 * Rule kinds (what is replaced by a token; everything else in the field stays readable):
 *
 * | Kind | Data type | Tokenized |
 * |---|---|---|
 * | `id` | CX, DLN, ST | component 1 (the identifier), as MRN; assigning authority and type code stay |
 * | `name` | XPN | components 1–4 (family, given, middle, suffix) as one NAME token; prefix, degree and name type stay |
 * | `xcn` | XCN | component 1 (the person's id) as NPI, components 2–5 (family to suffix) as one NAME |
 * | `ndl` | NDL | component 1 (CNN): its subcomponent 1 as NPI, subcomponents 2–4 as one NAME |
 * | `date` | TS, DTM | component 1 (the date/time) as DOB (birth) or DATE (death) |
 * | `addr` | XAD | components 1 (street), 2 (other), 3 (city), 5 (postal code), 8 (other geographic), 9 (county), each as ADDRESS; state, country and type stay |
 * | `phone` | XTN | components 1 (number), 6 (area code), 7 (local number), 12 (unformatted) as PHONE; 4 (e-mail) as EMAIL |
 * | `whole` | any | the whole repetition, in the given category |
 * | `free` | TX, FT, ST, any | free text: the pattern tiers (1, 2, 4) and the sidecar (tier 5) run over it |
 *
 * Segments (fields by number):
 *
 * | Segment | Fields |
 * |---|---|
 * | PID | 2, 3, 4, 18, 20, 21 id · 5, 6, 9 name · 7 date (DOB) · 11 addr · 12, 23 whole ADDRESS · 13, 14 phone · 19 whole SSN · 29 date (DATE) |
 * | PD1 | 4 xcn (primary care provider) |
 * | MRG | 1, 2, 3, 4, 5, 6 id · 7 name |
 * | NK1 | 2, 30 name · 4, 32 addr · 5, 6, 31 phone · 16 date (DOB) · 33 id · 37 whole SSN |
 * | GT1 | 2, 19 id · 3, 4, 16 name · 5, 17 addr · 6, 7, 18 phone · 8 date (DOB) · 12 whole SSN · 44 name |
 * | IN1 | 16 name · 18 date (DOB) · 19 addr · 36 whole MRN (policy number) · 49 id |
 * | IN2 | 1, 61 id · 2 whole SSN · 6, 8 whole MRN (Medicare, Medicaid numbers) · 7 name · 63, 64 phone |
 * | PV1 | 7, 8, 9, 17, 52 xcn · 19, 50 id (visit numbers) |
 * | PV2 | 13 xcn (referral source) |
 * | EVN | 5 xcn (operator) |
 * | ORC | 10, 11, 12, 19 xcn · 14 phone |
 * | OBR | 10, 16, 28 xcn · 17 phone · 32, 33, 34, 35 ndl · 13 free |
 * | OBX | 5 free when OBX-2 is TX, FT or ST · 16 xcn |
 * | NTE | 3 free · 5 xcn |
 * | DG1 | 16 xcn |
 * | PR1 | 11, 12 xcn |
 * | ROL | 4 xcn · 11 addr · 12 phone |
 * | SCH | 12, 16, 20 xcn · 13, 17, 21 phone |
 * | AIP | 3 xcn |
 * | FT1 | 20, 21 xcn |
 * | TXA | 5, 9, 10, 22, 23 xcn |
 * | Z-segments | every field free (site-specific: content unknown) |
 *
 * Dates other than birth and death (admission, discharge, message time) are kept: the operator
 * needs them to follow traffic, and they are not identifying on their own within the engine.
 */

export type FieldRule =
  | { kind: "id"; category: string }
  | { kind: "name" }
  | { kind: "xcn" }
  | { kind: "ndl" }
  | { kind: "date"; category: string }
  | { kind: "addr" }
  | { kind: "phone" }
  | { kind: "whole"; category: string }
  | { kind: "free"; when?: "obx_text" };

const id: FieldRule = { kind: "id", category: "MRN" };
const name: FieldRule = { kind: "name" };
const xcn: FieldRule = { kind: "xcn" };
const ndl: FieldRule = { kind: "ndl" };
const dob: FieldRule = { kind: "date", category: "DOB" };
const addr: FieldRule = { kind: "addr" };
const phone: FieldRule = { kind: "phone" };
const free: FieldRule = { kind: "free" };
const whole = (category: string): FieldRule => ({ kind: "whole", category });

/** Segment id → field number → rule. Z-segments are handled by rule (every field free). */
export const HL7_FIELD_POLICY: Readonly<Record<string, Readonly<Record<number, FieldRule>>>> = {
  PID: {
    2: id,
    3: id,
    4: id,
    5: name,
    6: name,
    7: dob,
    9: name,
    11: addr,
    12: whole("ADDRESS"),
    13: phone,
    14: phone,
    18: id,
    19: whole("SSN"),
    20: id,
    21: id,
    23: whole("ADDRESS"),
    29: { kind: "date", category: "DATE" },
  },
  PD1: { 4: xcn },
  MRG: { 1: id, 2: id, 3: id, 4: id, 5: id, 6: id, 7: name },
  NK1: {
    2: name,
    4: addr,
    5: phone,
    6: phone,
    16: dob,
    30: name,
    31: phone,
    32: addr,
    33: id,
    37: whole("SSN"),
  },
  GT1: {
    2: id,
    3: name,
    4: name,
    5: addr,
    6: phone,
    7: phone,
    8: dob,
    12: whole("SSN"),
    16: name,
    17: addr,
    18: phone,
    19: id,
    44: name,
  },
  IN1: { 16: name, 18: dob, 19: addr, 36: whole("MRN"), 49: id },
  IN2: { 1: id, 2: whole("SSN"), 6: whole("MRN"), 7: name, 8: whole("MRN"), 61: id, 63: phone, 64: phone },
  PV1: { 7: xcn, 8: xcn, 9: xcn, 17: xcn, 19: id, 50: id, 52: xcn },
  PV2: { 13: xcn },
  EVN: { 5: xcn },
  ORC: { 10: xcn, 11: xcn, 12: xcn, 14: phone, 19: xcn },
  OBR: { 10: xcn, 13: free, 16: xcn, 17: phone, 28: xcn, 32: ndl, 33: ndl, 34: ndl, 35: ndl },
  OBX: { 5: { kind: "free", when: "obx_text" }, 16: xcn },
  NTE: { 3: free, 5: xcn },
  DG1: { 16: xcn },
  PR1: { 11: xcn, 12: xcn },
  ROL: { 4: xcn, 11: addr, 12: phone },
  SCH: { 12: xcn, 13: phone, 16: xcn, 17: phone, 20: xcn, 21: phone },
  AIP: { 3: xcn },
  FT1: { 20: xcn, 21: xcn },
  TXA: { 5: xcn, 9: xcn, 10: xcn, 22: xcn, 23: xcn },
};

/** OBX-2 value types whose OBX-5 is free text. */
export const OBX_TEXT_TYPES: ReadonlySet<string> = new Set(["TX", "FT", "ST"]);

/** Dense per-segment rule arrays (index = field number), built once. */
const DENSE = new Map<string, readonly (FieldRule | undefined)[]>();
const Z_RULES: readonly FieldRule[] = new Array(1000).fill(free);

/**
 * The rules of a segment id by field number (a dense array), or undefined when it holds no PHI.
 * Z-segments get `free` for every field.
 *
 * @example
 * ```ts
 * policyFor("PID")?.[5]; // { kind: "name" }
 * policyFor("ZPI")?.[7]; // { kind: "free" }
 * ```
 */
export function policyFor(segmentId: string): readonly (FieldRule | undefined)[] | undefined {
  let dense = DENSE.get(segmentId);
  if (dense) return dense;
  const p = HL7_FIELD_POLICY[segmentId];
  if (!p) return segmentId.length === 3 && segmentId[0] === "Z" ? Z_RULES : undefined;
  const max = Math.max(...Object.keys(p).map(Number));
  dense = Array.from({ length: max + 1 }, (_, i) => p[i]);
  DENSE.set(segmentId, dense);
  return dense;
}
