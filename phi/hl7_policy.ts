/**
 * The HL7 field policy: which fields of which segments hold PHI and how each is tokenized. Field
 * numbers follow HL7 v2.5.1. The sanitizer (phi/hl7_sanitize.ts) applies it to every repetition of a
 * field; an empty value or the HL7 null `""` is left alone.
 *
 * Rule kinds (what is replaced by a token; everything else in the field stays readable):
 *
 * | Kind | Data type | Tokenized |
 * |---|---|---|
 * | `id` | CX, DLN, ST | component 1 (the identifier), in the rule's category (MRN, ACCOUNT, VISIT, MEMBER, LICENSE); assigning authority and type code stay; type code `SS` makes it an SSN |
 * | `name` | XPN | components 1–4 (family, given, middle, suffix) as one NAME token; prefix, degree and name type stay |
 * | `xcn` | XCN | component 1 (the person's id) as NPI, components 2–5 (family to suffix) as one NAME |
 * | `ndl` | NDL | component 1 (CNN): its subcomponent 1 as NPI, subcomponents 2–4 as one NAME |
 * | `date` | TS, DTM, DR, TQ | component 1 (or the components listed: DR 1 and 2, TQ 4 and 5) as DOB (birth) or DATE, each whole date/time one token |
 * | `addr` | XAD | components 1 (street), 2 (other), 3 (city), 5 (postal code), 8 (other geographic), 9 (county), each as ADDRESS; state, country and type stay |
 * | `phone` | XTN | components 1 (number), 6 (area code), 7 (local number), 12 (unformatted) as PHONE; 4 (e-mail) as EMAIL |
 * | `whole` | any | the whole repetition, in the given category |
 * | `free` | TX, FT, ST, any | free text: the pattern tiers (1, 2, 4) and the sidecar (tier 5) run over it |
 *
 * Segments (fields by number):
 *
 * | Segment | Fields |
 * |---|---|
 * | PID | 2, 3, 4, 21 id (MRN) · 18 id ACCOUNT · 20 id LICENSE (DLN) · 5, 6, 9 name · 7 date (DOB) · 11 addr · 12, 23 whole ADDRESS · 13, 14 phone · 19 whole SSN · 29 date (death) |
 * | PD1 | 4 xcn (primary care provider) |
 * | MRG | 1, 2, 4 id (MRN) · 3 id ACCOUNT · 5, 6 id VISIT · 7 name |
 * | NK1 | 2, 30 name · 4, 32 addr · 5, 6, 31 phone · 8, 9 date · 16 date (DOB) · 33 id · 37 whole SSN |
 * | GT1 | 2 id ACCOUNT (guarantor number) · 19 id · 3, 4, 16 name · 5, 17 addr · 6, 7, 18 phone · 8 date (DOB) · 12 whole SSN · 44 name |
 * | IN1 | 12, 13 date (plan effective, expiration) · 16 name · 18 date (DOB) · 19 addr · 36 whole MEMBER (policy number) · 49 id MEMBER |
 * | IN2 | 1 id (employee id) · 2 whole SSN · 6, 8 whole MEMBER (Medicare, Medicaid numbers) · 7, 9, 40, 49, 52 name · 10 whole MRN (military id) · 26, 61 id MEMBER (payor subscriber id, patient member number) · 53, 63, 64 phone |
 * | PV1 | 5 id VISIT (preadmit number) · 19, 50 id VISIT · 7, 8, 9, 17, 52 xcn · 44, 45 date (admit, discharge) |
 * | PV2 | 8, 9 date (expected admit, discharge) · 12 free (visit description) · 13 xcn · 14, 26, 29, 33, 46, 47, 48 date (previous service, previous treatment, first similar illness, expected surgery, status effective, expected LOA return, pre-admission testing) |
 * | EVN | 5 xcn (operator) |
 * | MSA | 3 free (text message) |
 * | ERR | 6 free (application error parameter: often the value that failed) · 7, 8 free (diagnostic information, user message) |
 * | ORC | 9, 15 date (transaction, order effective) · 10, 11, 12, 19 xcn · 14 phone |
 * | OBR | 6, 7, 8, 14 date (requested, observation start and end, specimen received) · 10, 16, 28 xcn · 17 phone · 32, 33, 34, 35 ndl · 13 free |
 * | OBX | 5 by OBX-2: TX, FT, ST free; CX id; XPN name; XCN xcn; XAD addr; XTN phone; DT, DTM, TS date · 14, 19 date (observation, analysis) · 16 xcn |
 * | NTE | 3 free · 5 xcn |
 * | AL1 | 5 free (reaction) · 6 date (identification) |
 * | DG1 | 4 free (description) · 5, 19 date (diagnosis, attestation) · 16 xcn |
 * | PR1 | 4 free (description) · 5 date (procedure) · 11, 12 xcn |
 * | ROL | 4 xcn · 11 addr · 12 phone |
 * | SCH | 11 date (TQ start and end) · 12, 16, 20 xcn · 13, 17, 21 phone |
 * | AIS, AIG, AIL, AIP | AIS-4, AIG-8, AIL-6, AIP-6 date (start) · AIP-3 xcn |
 * | TQ1 | 7, 8 date (start, end) · 10, 11 free (condition text, text instruction) |
 * | SPM | 14 free (specimen description) · 17 date (DR: collection start and end) · 18 date (received) |
 * | RXA | 3, 4 date (administration start, end) · 10 xcn |
 * | FT1 | 4 date (DR: transaction date of service) · 20, 21 xcn |
 * | TXA | 4, 6, 7, 8 date (activity, origination, transcription, edit) · 5, 9, 10, 11, 22, 23 xcn |
 * | Z-segments | every field free (site-specific: content unknown) |
 *
 * Dates (HIPAA Safe Harbor, 45 CFR 164.514(b)(2)(i)(C)): a date tied to the person (birth → DOB;
 * death, admission, discharge, service, observation, specimen, procedure, diagnosis, appointment,
 * document, coverage → DATE) is one token. Dates of the message and the engine stay in clear: MSH-7
 * (message time), EVN-2 (recorded), EVN-3 (planned event), EVN-6 (event occurred), PID-33 (last
 * update of the record: a system time), OBR-22 (report status change), FT1-5 (posting date), and
 * the record-keeping dates PV2-17 (purge status), PV2-28 (signature on file), RXA-16 (a lot's
 * expiration), RXA-22 (system entry): the operator follows traffic by them, and they date the
 * transaction or the record, not the person's care. The time of day of a DATE is part of its
 * value (phi/hl7_sanitize.ts `hl7Canonical`), so the bare day of the same date elsewhere (a posting
 * date, a log line) is not swept as the known date/time.
 *
 * Identifier categories (issue #24, item 7): patient record numbers MRN; account numbers (PID-18,
 * MRG-3, GT1-2) ACCOUNT; visit and preadmit numbers (PV1-5/19/50, MRG-5/6) VISIT; health-plan policy,
 * insured and Medicare/Medicaid numbers (IN1-36/49, IN2-6/8/61) MEMBER; a driver's licence (PID-20)
 * LICENSE; a provider's id in an XCN or NDL NPI. Order numbers (ORC-2/3, OBR-2/3), plan, group and
 * payer ids stay in clear.
 *
 * Free text (MSA-3, ERR-6/7/8, AL1-5, DG1-4, PR1-4, PV2-12, SPM-14, TQ1-10/11, NTE-3, OBR-13, OBX-5
 * TX/FT/ST, Z fields)
 * is read by the pattern tiers as prose. Coded fields (ERR-3, ERR-5, DG1-3, AL1-3, PV2-3: CE/CWE
 * from tables) stay: their text component is a code's description.
 */

export type FieldRule =
  | { kind: "id"; category: string }
  | { kind: "name" }
  | { kind: "xcn" }
  | { kind: "ndl" }
  | { kind: "date"; category: string; components?: readonly number[] }
  | { kind: "addr" }
  | { kind: "phone" }
  | { kind: "whole"; category: string }
  | { kind: "free"; when?: "obx_text" };

const id: FieldRule = { kind: "id", category: "MRN" };
const account: FieldRule = { kind: "id", category: "ACCOUNT" };
const visit: FieldRule = { kind: "id", category: "VISIT" };
const member: FieldRule = { kind: "id", category: "MEMBER" };
const license: FieldRule = { kind: "id", category: "LICENSE" };
const name: FieldRule = { kind: "name" };
const xcn: FieldRule = { kind: "xcn" };
const ndl: FieldRule = { kind: "ndl" };
const dob: FieldRule = { kind: "date", category: "DOB" };
const date: FieldRule = { kind: "date", category: "DATE" };
/** DR (date range): start and end, each a DATE. */
const range: FieldRule = { kind: "date", category: "DATE", components: [1, 2] };
/** TQ (timing quantity, SCH-11): start and end date/time (components 4 and 5). */
const tqDates: FieldRule = { kind: "date", category: "DATE", components: [4, 5] };
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
    18: account,
    19: whole("SSN"),
    20: license,
    21: id,
    23: whole("ADDRESS"),
    29: date,
  },
  PD1: { 4: xcn },
  MRG: { 1: id, 2: id, 3: account, 4: id, 5: visit, 6: visit, 7: name },
  NK1: {
    2: name,
    4: addr,
    5: phone,
    6: phone,
    8: date,
    9: date,
    16: dob,
    30: name,
    31: phone,
    32: addr,
    33: id,
    37: whole("SSN"),
  },
  GT1: {
    2: account,
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
  IN1: { 12: date, 13: date, 16: name, 18: dob, 19: addr, 36: whole("MEMBER"), 49: member },
  IN2: {
    1: id,
    2: whole("SSN"),
    6: whole("MEMBER"),
    7: name,
    8: whole("MEMBER"),
    9: name,
    10: whole("MRN"),
    26: member,
    40: name,
    49: name,
    52: name,
    53: phone,
    61: member,
    63: phone,
    64: phone,
  },
  PV1: { 5: visit, 7: xcn, 8: xcn, 9: xcn, 17: xcn, 19: visit, 44: date, 45: date, 50: visit, 52: xcn },
  PV2: {
    8: date,
    9: date,
    12: free,
    13: xcn,
    14: date,
    26: date,
    29: date,
    33: date,
    46: date,
    47: date,
    48: date,
  },
  EVN: { 5: xcn },
  MSA: { 3: free },
  ERR: { 6: free, 7: free, 8: free },
  ORC: { 9: date, 10: xcn, 11: xcn, 12: xcn, 14: phone, 15: date, 19: xcn },
  OBR: {
    6: date,
    7: date,
    8: date,
    10: xcn,
    13: free,
    14: date,
    16: xcn,
    17: phone,
    28: xcn,
    32: ndl,
    33: ndl,
    34: ndl,
    35: ndl,
  },
  OBX: { 5: { kind: "free", when: "obx_text" }, 14: date, 16: xcn, 19: date },
  NTE: { 3: free, 5: xcn },
  AL1: { 5: free, 6: date },
  DG1: { 4: free, 5: date, 16: xcn, 19: date },
  PR1: { 4: free, 5: date, 11: xcn, 12: xcn },
  ROL: { 4: xcn, 11: addr, 12: phone },
  SCH: { 11: tqDates, 12: xcn, 13: phone, 16: xcn, 17: phone, 20: xcn, 21: phone },
  AIS: { 4: date },
  AIG: { 8: date },
  AIL: { 6: date },
  AIP: { 3: xcn, 6: date },
  TQ1: { 7: date, 8: date, 10: free, 11: free },
  SPM: { 14: free, 17: range, 18: date },
  RXA: { 3: date, 4: date, 10: xcn },
  FT1: { 4: range, 20: xcn, 21: xcn },
  TXA: { 4: date, 5: xcn, 6: date, 7: date, 8: date, 9: xcn, 10: xcn, 11: xcn, 22: xcn, 23: xcn },
};

/**
 * OBX-5 by the value type in OBX-2: free text for TX, FT and ST; a person's identifier, name,
 * address, phone or a date by the type's rule. Other types (NM, CE, CWE, SN, ED, ...) stay.
 */
export const OBX_VALUE_RULES: ReadonlyMap<string, FieldRule> = new Map<string, FieldRule>([
  ["TX", free],
  ["FT", free],
  ["ST", free],
  ["CX", id],
  ["XPN", name],
  ["XCN", xcn],
  ["XAD", addr],
  ["XTN", phone],
  ["DT", date],
  ["DTM", date],
  ["TS", date],
]);

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
