/**
 * FHIR R4 JSON read by structure (issue #23, item 3): single resources, arrays of them, Bundles
 * (`entry[].resource`) and `contained[]`, pretty-printed or on one line, after a log prefix or other
 * prose, several in one text, truncated or malformed (the part that parses is read), and inside a
 * JSON string value (escaped, one or two levels). Positions come from a reader that keeps them
 * (phi/_json_pos.ts); every value reported is the exact source text (escapes as written), its
 * canonical form the decoded value.
 *
 * What is tokenized (context `FHIR <resourceType>.<path>`):
 *
 * | Element | Where | Category |
 * |---|---|---|
 * | `name`: `family`, each `given[]`, `text` (each part one value; `prefix`, `suffix`, `use` stay) | Patient, RelatedPerson, Person, Practitioner, PractitionerRole; any resource's `contact[]` | NAME |
 * | `telecom[].value` | same | PHONE (system phone, fax, pager, sms, other), EMAIL (email, or an `@`), URL (url) |
 * | `address`: each `line[]`, `city`, `district`, `postalCode`, `text` (`state`, `country`, `use` stay) | same | ADDRESS |
 * | `birthDate` | any resource | DOB |
 * | `deceasedDateTime` | any resource | DATE |
 * | `identifier[].value` | person resources (any system), Encounter and EpisodeOfCare (VISIT), Account (ACCOUNT), Coverage (MEMBER), Device (DEVICE), any resource when its type or system says what it is; a Reference's `identifier` likewise | by type code: MR → MRN; SS or an SSN system (`http://hl7.org/fhir/sid/us-ssn`, `urn:oid:2.16.840.1.113883.4.1`) → SSN; MB, MC, SN → MEMBER; DL, PPN, MD, DEA → LICENSE; AN → ACCOUNT; VN → VISIT; NPI (or the NPI system) → NPI; untyped: the resource's default (MRN for a patient, NPI for a practitioner) |
 * | `qualification[].identifier[].value` | Practitioner | LICENSE |
 * | `period.start`, `period.end` | Encounter, EpisodeOfCare (any `period` in them); a person's identifier, name, address, telecom and contact periods | DATE |
 * | `_birthDate` extension `valueDateTime` (patient-birthTime) | any | DOB |
 * | extension `patient-mothersMaidenName` `valueString` | any | NAME |
 * | `performedDateTime`, `performedPeriod`, `billablePeriod`, `servicedDate`, `servicedPeriod` | any resource (a service date) | DATE |
 * | `subscriberId` | Coverage | MEMBER |
 * | `serialNumber`, `distinctIdentifier`, `udiCarrier[].deviceIdentifier`, `carrierHRF` | Device | DEVICE |
 * | `url` of an attachment (`photo`, `valueAttachment`, `presentedForm`, `attachment`) | any | URL |
 * | the logical id (`id`) of a Patient, RelatedPerson or Person when it holds a digit, and that id in a reference (`Patient/123`), a `fullUrl` or a `request.url` | any | MRN |
 * | `display` of a reference to a Patient, Practitioner, PractitionerRole, RelatedPerson or Person | any | NAME |
 * | search parameters in a searchset's `link[].url` and an entry's `request.url`: `family`, `given`, `name`, `phonetic` (NAME), `birthdate` (DOB, a comparison prefix such as `ge` stays), `death-date` (DATE), `identifier` (the value after `system|`; SSN for an SSN system, else MRN), `phone`, `email`, `telecom`, `address`, `address-city`, `address-postalcode` | Bundle | by parameter |
 * | a name or a one-word city of the record, written in the record's own narrative or notes | any | NAME, ADDRESS (context `FHIR narrative`) |
 *
 * Free text (the tiers read it as prose): the narrative `text.div`, `valueString`, `note[].text`,
 * `comment`, `description`, an OperationOutcome's `diagnostics`, a Communication's `contentString`, `text` of a CodeableConcept, `title` of an attachment, `authorString`,
 * a reference's `display` to another kind of resource (an Organization's or Location's stays), a
 * Bundle's link and request URLs, and the string value of any element not named in this header
 * (a vendor field, a custom extension's `valueString`) unless it reads as a code, a date, a URL or
 * URN, or an id (one token of letters, digits and `._-`). Each free span is a segment of its own, so an HL7 message inside
 * one (claimed by the HL7 scan first) costs the record only that piece.
 *
 * Dates: a date alone is canonicalized as usual (`1974-12-25`); a date with a time keeps its whole
 * text as its canonical value, so an encounter's start and end on one day are two tokens and both
 * come back exactly. The rest of a record outside its free spans is read by tier 1 only (as an HL7
 * segment is): a formatted phone or an e-mail in an element not named here is still tokenized.
 *
 * Engine facts that stay: `resourceType`, `meta` (lastUpdated, versionId, profile), ids of other
 * resources and of Practitioners (server keys the operator follows; an MRN in them is rare, and
 * a patient's is read from its `identifier`), codes and codings (`system`, `code`, `display`),
 * system URLs, `status`, `gender`, references' resource types, Bundle `type`, `timestamp` and
 * `identifier`, dates of the document or of an observation (`effective[x]`, `issued`, `date`), and
 * Organizations, Locations, Endpoints: their names, addresses, telecoms and identifiers (the
 * convention: organization names and payer ids stay), and a definition's (StructureDefinition,
 * ValueSet, CapabilityStatement, ...) `contact` and `publisher`. A purely alphabetic patient id
 * (`"id": "example"`) names no number and stays.
 *
 * Practitioners: a provider is a person; their name is NAME and their identifiers NPI (as the HL7
 * policy tokenizes XCN), their telecom and address as any person's.
 */
import { candidate } from "./candidate.ts";
import type { RecordFormat, RecordScan } from "./records.ts";
import {
  ARR,
  decodeJsonString,
  type JNode,
  type JParse,
  LIT,
  OBJ,
  openingQuoteBefore,
  parseJsonAt,
  STR,
  strValue,
} from "./_json_pos.ts";
import { isTokensOnly } from "./token.ts";
import { canonOf, finishScan } from "./_record_names.ts";

/** Resources that are a person: name, telecom, address and identifiers are theirs. */
const PERSON = new Set(["Patient", "RelatedPerson", "Person", "Practitioner", "PractitionerRole"]);
/** Persons whose logical id is an identifying number of the patient or a relative. */
const PATIENT_ID = new Set(["Patient", "RelatedPerson", "Person"]);
/** Reference targets whose display is a person's name. */
const PERSON_REF = /^(?:Patient|Practitioner|PractitionerRole|RelatedPerson|Person)$/;
/** Organizations: names, addresses, telecoms and identifiers stay (contacts are persons). */
const ORG = new Set(["Organization", "Location", "Endpoint", "HealthcareService", "InsurancePlan"]);
/** Definitions (canonical resources): their `contact` is the publisher's, not a person's. */
const CONFORMANCE = new Set([
  "StructureDefinition",
  "ValueSet",
  "CodeSystem",
  "ConceptMap",
  "NamingSystem",
  "CapabilityStatement",
  "TerminologyCapabilities",
  "SearchParameter",
  "OperationDefinition",
  "CompartmentDefinition",
  "ImplementationGuide",
  "StructureMap",
  "GraphDefinition",
  "MessageDefinition",
  "Questionnaire",
  "Library",
  "Measure",
  "PlanDefinition",
  "ActivityDefinition",
  "TestScript",
]);
/** Default identifier categories by resource type; others' untyped identifiers stay. */
const ID_DEFAULT: Record<string, string> = {
  Patient: "MRN",
  RelatedPerson: "MRN",
  Person: "MRN",
  Practitioner: "NPI",
  PractitionerRole: "NPI",
  Encounter: "VISIT",
  EpisodeOfCare: "VISIT",
  Account: "ACCOUNT",
  Coverage: "MEMBER",
  Device: "DEVICE",
};
/** Identifier type codes (v2-0203) → category. */
const ID_TYPE: Record<string, string> = {
  MR: "MRN",
  MRT: "MRN",
  PI: "MRN",
  PT: "MRN",
  SS: "SSN",
  SB: "SSN",
  MB: "MEMBER",
  MC: "MEMBER",
  MA: "MEMBER",
  SN: "MEMBER",
  PN: "MEMBER",
  DL: "LICENSE",
  PPN: "LICENSE",
  MD: "LICENSE",
  DEA: "LICENSE",
  LN: "LICENSE",
  AN: "ACCOUNT",
  VN: "VISIT",
  NPI: "NPI",
  PRN: "NPI",
  UDI: "DEVICE",
  SNO: "DEVICE",
};
const SSN_SYSTEMS = new Set(["http://hl7.org/fhir/sid/us-ssn", "urn:oid:2.16.840.1.113883.4.1"]);
const NPI_SYSTEMS = new Set(["http://hl7.org/fhir/sid/us-npi", "urn:oid:2.16.840.1.113883.4.6"]);
const MBI_SYSTEMS = new Set(["http://hl7.org/fhir/sid/us-mbi", "urn:oid:2.16.840.1.113883.4.927"]);
/** Resources whose every `period` is an encounter's dates. */
const PERIOD_DATE = new Set(["Encounter", "EpisodeOfCare"]);
/** Service dates of any resource. */
const SERVICE_DATE = new Set(["performedDateTime", "servicedDate", "deceasedDateTime"]);
const SERVICE_PERIOD = new Set(["performedPeriod", "billablePeriod", "servicedPeriod"]);
/** String values read as prose. */
const FREE_KEYS = new Set([
  "valueString",
  "valueMarkdown",
  "comment",
  "description",
  "authorString",
  "title",
  "summary",
  "conclusion",
  "patientInstruction",
  "instruction",
  "diagnostics",
  "contentString",
  "outcomeDesc",
]);
/** Elements whose string values are codes, identifiers of things, dates or data: they stay. */
const SAFE_KEYS = new Set([
  "version",
  "use",
  "unit",
  "type",
  "mode",
  "method",
  "relation",
  "severity",
  "kind",
  "intent",
  "priority",
  "display",
  "expression",
  "reference",
  "data",
  "hash",
  "contentType",
  "value",
  "fullUrl",
  "publisher",
  "sequence",
  "rank",
  "linkId",
  "definition",
  "path",
  "sliceName",
  "mustSupport",
  "base",
  "fhirVersion",
  "format",
]);
/** Key endings of dates, codes and references (`effectiveDateTime`, `valueCode`, `valueUri`, ...). */
const SAFE_KEY_END =
  /(?:Date|DateTime|Instant|Time|Code|Uri|Url|Canonical|Id|Oid|Uuid|Boolean|Integer|Decimal|Base64Binary)$/;
/** Values that are codes, dates, URLs, URNs or ids, not prose. */
const CODE_VALUE =
  /^(?:[a-z][a-z0-9+.-]*:\S*|\d{4}(?:-\d{2}(?:-\d{2}(?:T\S*)?)?)?|[A-Za-z0-9._-]{1,64}(?<![A-Z][a-z]+))$/;

/**
 * An element this module does not know (a custom extension's value, a vendor field): a string that
 * is not a code, date or URL is prose, read by the tiers (the principle: neither known-safe nor
 * known-identifying goes through the free-text tiers).
 */
function unknownText(ctx: Ctx, key: string, n: JNode): boolean {
  if (SAFE_KEYS.has(key) || SAFE_KEY_END.test(key) || key.startsWith("_")) return false;
  const len = n.end - n.start - 2;
  if (len <= 0 || len > 4096) return false;
  return !CODE_VALUE.test(strValue(ctx.text, n));
}

const ATTACHMENT_KEYS = new Set(["photo", "valueAttachment", "presentedForm", "attachment"]);

interface Ctx {
  /** The text being read (the source, or a decoded JSON string). */
  text: string;
  /** Source position of each position of `text` (undefined: `text` is the source). */
  map: Int32Array | undefined;
  source: string;
  out: RecordScan;
  /** fullUrls of person entries (a `urn:uuid:` reference to one is the person's id). */
  personUrls: Set<string>;
}

const src = (ctx: Ctx, p: number) => (ctx.map ? ctx.map[p] : p);

/** The string content range of a node: inside its quotes. */
function inner(ctx: Ctx, n: JNode): [number, number] {
  const e = ctx.text.charCodeAt(n.end - 1) === 34 && n.end - 1 > n.start ? n.end - 1 : n.end;
  return [n.start + 1, e];
}

/** Tokenizes the string node `n` (or the part `[a, b)` of its content) as `category`. */
function push(ctx: Ctx, n: JNode | undefined, category: string, path: string, a?: number, b?: number): void {
  if (!n || n.kind !== STR) return;
  let [s, e] = inner(ctx, n);
  if (a !== undefined) [s, e] = [a, b!];
  // White space inside the quotes stays.
  const t = ctx.text;
  while (s < e && t.charCodeAt(s) <= 32) s++;
  while (e > s && t.charCodeAt(e - 1) <= 32) e--;
  if (e <= s) return;
  const raw = t.slice(s, e);
  let value = raw.indexOf("\\") === -1 ? raw : jsonText(t, s, e);
  // A search parameter's value is URL-encoded.
  if (path.includes("?") && /%[0-9A-Fa-f]{2}|\+/.test(value)) {
    try {
      value = decodeURIComponent(value.replace(/\+/g, " "));
    } catch {
      // kept as written
    }
  }
  if (isTokensOnly(value)) return;
  const canonical = canonOf(category, value);
  if (canonical === "") return;
  const ss = src(ctx, s), se = src(ctx, e);
  ctx.out.structured.push(
    candidate(ss, se, ctx.source.slice(ss, se), category, canonical, "hl7_pipeline", `FHIR ${path}`),
  );
}

function jsonText(t: string, s: number, e: number): string {
  return strValue(t, { kind: STR, start: s - 1, end: e + 1, keys: undefined, vals: undefined });
}

/** The content of a string node as free text. */
function free(ctx: Ctx, n: JNode | undefined): void {
  if (!n || n.kind !== STR) return;
  const [s, e] = inner(ctx, n);
  if (e > s) ctx.out.free.push({ start: src(ctx, s), end: src(ctx, e) });
}

/** The text the nodes being read come from (`get` compares keys in place; the scan is synchronous). */
let T = "";

function get(n: JNode | undefined, key: string): JNode | undefined {
  if (!n || n.kind !== OBJ) return undefined;
  const ks = n.keys!;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    if (k.end - k.start === key.length + 2 && T.startsWith(key, k.start + 1)) return n.vals![i];
  }
  return undefined;
}

function str(ctx: Ctx, n: JNode | undefined): string | undefined {
  return n && n.kind === STR ? strValue(ctx.text, n) : undefined;
}

/** Items of an array node, or the node itself (FHIR repeats are arrays; tolerate a lone object). */
function each(n: JNode | undefined): JNode[] {
  if (!n) return [];
  return n.kind === ARR ? n.vals! : [n];
}

function humanName(ctx: Ctx, n: JNode, path: string): void {
  for (const nm of each(n)) {
    if (nm.kind === STR) {
      push(ctx, nm, "NAME", path);
      continue;
    }
    if (nm.kind !== OBJ) continue;
    push(ctx, get(nm, "family"), "NAME", `${path}.family`);
    for (const g of each(get(nm, "given"))) push(ctx, g, "NAME", `${path}.given`);
    push(ctx, get(nm, "text"), "NAME", `${path}.text`);
    period(ctx, get(nm, "period"), `${path}.period`);
  }
}

function telecom(ctx: Ctx, n: JNode, path: string): void {
  for (const cp of each(n)) {
    const v = get(cp, "value");
    if (!v || v.kind !== STR) continue;
    const sys = str(ctx, get(cp, "system"));
    const value = strValue(ctx.text, v);
    const category = sys === "email" || (sys !== "url" && value.includes("@"))
      ? "EMAIL"
      : sys === "url"
      ? "URL"
      : "PHONE";
    push(ctx, v, category, `${path}.value`);
    period(ctx, get(cp, "period"), `${path}.period`);
  }
}

function address(ctx: Ctx, n: JNode, path: string): void {
  for (const a of each(n)) {
    if (a.kind === STR) {
      push(ctx, a, "ADDRESS", path);
      continue;
    }
    for (const l of each(get(a, "line"))) push(ctx, l, "ADDRESS", `${path}.line`);
    for (const k of ["city", "district", "postalCode", "text"]) {
      push(ctx, get(a, k), "ADDRESS", `${path}.${k}`);
    }
    period(ctx, get(a, "period"), `${path}.period`);
  }
}

function period(ctx: Ctx, n: JNode | undefined, path: string): void {
  if (!n || n.kind !== OBJ) return;
  push(ctx, get(n, "start"), "DATE", `${path}.start`);
  push(ctx, get(n, "end"), "DATE", `${path}.end`);
}

/** The category of an identifier, from its type codes and system, else the resource's default. */
function identifierCategory(ctx: Ctx, id: JNode, rt: string): string | undefined {
  const sys = str(ctx, get(id, "system"));
  if (sys !== undefined) {
    if (SSN_SYSTEMS.has(sys)) return "SSN";
    if (NPI_SYSTEMS.has(sys)) return "NPI";
    if (MBI_SYSTEMS.has(sys)) return "MEMBER";
  }
  const type = get(id, "type");
  for (const c of each(get(type, "coding"))) {
    const code = str(ctx, get(c, "code"));
    if (code !== undefined && Object.hasOwn(ID_TYPE, code)) return ID_TYPE[code];
  }
  const text = str(ctx, get(type, "text"));
  if (text !== undefined) {
    const t = text.toLowerCase();
    if (/social security|\bssn\b/.test(t)) return "SSN";
    if (/medical record|\bmrn\b/.test(t)) return "MRN";
    if (/driver|licen[cs]e|passport/.test(t)) return "LICENSE";
    if (/member|subscriber|medicare|medicaid/.test(t)) return "MEMBER";
  }
  return Object.hasOwn(ID_DEFAULT, rt) ? ID_DEFAULT[rt] : undefined;
}

function identifiers(ctx: Ctx, n: JNode, rt: string, path: string, fallback?: string): void {
  if (ORG.has(rt)) return;
  for (const id of each(n)) {
    if (id.kind !== OBJ) continue;
    const category = fallback ?? identifierCategory(ctx, id, rt);
    if (category !== undefined) push(ctx, get(id, "value"), category, `${path}.value`);
    if (PERSON.has(rt)) period(ctx, get(id, "period"), `${path}.period`);
  }
}

function attachment(ctx: Ctx, n: JNode, path: string): void {
  for (const a of each(n)) {
    push(ctx, get(a, "url"), "URL", `${path}.url`);
    free(ctx, get(a, "title"));
  }
}

/** A person resource's id in a reference string (`Patient/123`, `http://x/fhir/Patient/123/_history/2`). */
const PERSON_IN_REF = /(?:^|\/)(Patient|RelatedPerson|Person)\/([A-Za-z0-9\-.]{1,64})(?=$|\/_history\/|\?)/;

function referenceString(ctx: Ctx, n: JNode | undefined, path: string): void {
  if (!n || n.kind !== STR) return;
  const v = strValue(ctx.text, n);
  const [s, e] = inner(ctx, n);
  if (v.startsWith("urn:uuid:") || v.startsWith("urn:oid:")) {
    if (ctx.personUrls.has(v) && e - s === v.length) {
      push(ctx, n, "MRN", path, s + 9 - (v[4] === "o" ? 1 : 0), e);
    }
    return;
  }
  const m = PERSON_IN_REF.exec(v);
  if (!m || !/\d/.test(m[2]) || e - s !== v.length) return; // escaped forms are rare: left as they are
  const at = s + m.index + m[0].length - m[2].length;
  push(ctx, n, "MRN", path, at, at + m[2].length);
}

/** Search parameters (`Patient?family=...`) whose values are a person's data, by category. */
const SEARCH: Record<string, string> = {
  family: "NAME",
  given: "NAME",
  name: "NAME",
  phonetic: "NAME",
  birthdate: "DOB",
  "death-date": "DATE",
  identifier: "MRN",
  phone: "PHONE",
  email: "EMAIL",
  telecom: "PHONE",
  address: "ADDRESS",
  "address-city": "ADDRESS",
  "address-postalcode": "ADDRESS",
};

/**
 * The person values in the query of a search URL (a searchset's `link.url`, a request's `url`):
 * `family=`, `birthdate=ge1974-12-25` (the comparison prefix stays), `identifier=system|value` (the
 * value), `phone=`, `address-city=`, ... A value is the raw text between `=` and `&`.
 */
function searchParams(ctx: Ctx, n: JNode | undefined, path: string): void {
  if (!n || n.kind !== STR) return;
  const [s, e] = inner(ctx, n);
  const u = ctx.text.slice(s, e); // positions in `u` are offsets from `s`
  const q = u.indexOf("?");
  if (q === -1) return;
  for (const m of u.slice(q + 1).matchAll(/([^&=]+)=([^&]*)/g)) {
    const key = m[1].replace(/:.*$/, "").toLowerCase();
    let category = Object.hasOwn(SEARCH, key) ? SEARCH[key] : undefined;
    if (category === undefined) continue;
    let vs = q + 1 + m.index! + m[1].length + 1;
    const ve = vs + m[2].length;
    const v = m[2];
    if (category === "DOB" || category === "DATE") {
      if (/^(?:eq|ne|gt|lt|ge|le|sa|eb|ap)\d/.test(v)) vs += 2;
    } else if (category === "MRN") {
      const bar = Math.max(v.lastIndexOf("|"), v.lastIndexOf("%7C") + 2, v.lastIndexOf("%7c") + 2);
      if (bar >= 0 && bar < v.length) {
        const system = v.slice(0, v.lastIndexOf("|") === bar ? bar : bar - 2);
        if (SSN_SYSTEMS.has(system)) category = "SSN";
        vs += bar + 1;
      }
    } else if (category === "PHONE" && (v.includes("@") || v.includes("%40"))) category = "EMAIL";
    if (ve > vs) push(ctx, n, category, `${path}?${key}`, s + vs, s + ve);
  }
}

/** A Reference (an object with `reference`, `display`, `identifier`, `type`). */
function reference(ctx: Ctx, n: JNode, rt: string, path: string): void {
  const ref = get(n, "reference");
  const refStr = str(ctx, ref) ?? "";
  referenceString(ctx, ref, `${path}.reference`);
  const typed = str(ctx, get(n, "type")) ??
    /(?:^|\/)([A-Z][A-Za-z]+)\/[^/]+(?:\/_history\/[^/]+)?$/.exec(refStr)?.[1] ??
    (ctx.personUrls.has(refStr) ? "Patient" : undefined);
  const display = get(n, "display");
  if (typed !== undefined && PERSON_REF.test(typed)) push(ctx, display, "NAME", `${path}.display`);
  else if (typed === undefined || !ORG.has(typed)) free(ctx, display);
  const id = get(n, "identifier");
  if (id) identifiers(ctx, id, typed ?? (PERSON_REF.test(rt) ? rt : ""), `${path}.identifier`);
}

const isReference = (n: JNode) => {
  if (n.kind !== OBJ) return false;
  let ref = false;
  for (const k of n.keys!) {
    const w = k.end - k.start;
    // "reference" (11 with quotes); a coding has "system"/"code" instead.
    if (w === 11 && T.startsWith("reference", k.start + 1)) ref = true;
    if ((w === 6 || w === 8) && (T.startsWith("code", k.start + 1) || T.startsWith("system", k.start + 1))) {
      return false;
    }
  }
  return ref || (n.keys!.length <= 3 && get(n, "display") !== undefined && get(n, "coding") === undefined);
};

/** Every key of an object, by FHIR element, inside resource `rt` (person: person data is tokenized). */
function visit(ctx: Ctx, n: JNode, rt: string, person: boolean, path: string, depth: number): void {
  if (depth > 64) return;
  if (n.kind === ARR) {
    for (const v of n.vals!) visit(ctx, v, rt, person, path, depth + 1);
    return;
  }
  if (n.kind !== OBJ) return;
  const own = get(n, "resourceType");
  if (own && own.kind === STR && depth > 0) {
    resource(ctx, n, depth + 1);
    return;
  }
  const ks = n.keys!, vs = n.vals!;
  const t = ctx.text;
  for (let i = 0; i < ks.length; i++) {
    const key = t.slice(ks[i].start + 1, ks[i].end - 1);
    const v = vs[i];
    const p = `${path}.${key}`;
    switch (key) {
      case "resourceType":
      case "meta":
      case "implicitRules":
      case "language":
      case "system":
      case "code":
      case "coding":
      case "status":
      case "gender":
      case "url":
      case "profile":
        continue;
      case "id":
        if (depth === 0 && PATIENT_ID.has(rt) && v.kind === STR && /\d/.test(strValue(t, v))) {
          push(ctx, v, "MRN", `${rt}.id`);
        }
        continue;
      case "text":
        if (v.kind === OBJ) free(ctx, get(v, "div"));
        else free(ctx, v);
        continue;
      case "name":
        if (person && !ORG.has(rt) || path.endsWith(".contact")) humanName(ctx, v, p);
        continue;
      case "telecom":
        if (person) telecom(ctx, v, p);
        continue;
      case "address":
        if (person) address(ctx, v, p);
        continue;
      case "valueHumanName":
        humanName(ctx, v, p);
        continue;
      case "valueContactPoint":
        telecom(ctx, v, p);
        continue;
      case "valueAddress":
        address(ctx, v, p);
        continue;
      case "birthDate":
        push(ctx, v, "DOB", p);
        continue;
      case "identifier":
        identifiers(ctx, v, rt, p);
        continue;
      case "valueIdentifier":
        identifiers(ctx, v, rt, p);
        continue;
      case "masterIdentifier":
        continue;
      case "qualification":
        for (const q of each(v)) {
          const qi = get(q, "identifier");
          if (qi) identifiers(ctx, qi, rt, `${p}.identifier`, "LICENSE");
        }
        continue;
      case "contact":
        // A definition's contact is its publisher's (ContactDetail): an engine fact.
        if (CONFORMANCE.has(rt)) continue;
        for (const c of each(v)) visit(ctx, c, rt, true, p, depth + 1);
        continue;
      case "period":
        if (PERIOD_DATE.has(rt) || person) period(ctx, v, p);
        continue;
      case "_birthDate":
        // The patient-birthTime extension: the birth date with its time.
        for (const x of each(get(v, "extension"))) {
          push(ctx, get(x, "valueDateTime"), "DOB", `${p}.extension`);
        }
        continue;
      case "subscriberId":
        if (rt === "Coverage") push(ctx, v, "MEMBER", p);
        continue;
      case "serialNumber":
      case "distinctIdentifier":
        if (rt === "Device") push(ctx, v, "DEVICE", p);
        continue;
      case "udiCarrier":
        for (const u of each(v)) {
          push(ctx, get(u, "deviceIdentifier"), "DEVICE", `${p}.deviceIdentifier`);
          push(ctx, get(u, "carrierHRF"), "DEVICE", `${p}.carrierHRF`);
        }
        continue;
      case "note":
        for (const a of each(v)) {
          free(ctx, get(a, "text"));
          free(ctx, get(a, "authorString"));
          const ar = get(a, "authorReference");
          if (ar) reference(ctx, ar, rt, `${p}.authorReference`);
        }
        continue;
      case "fullUrl":
      case "contained":
      case "entry":
        continue; // a Bundle's or container's parts: read by `resource`
      case "extension":
        // Extensions that hold a person's data by their definition; the rest as any element.
        for (const x of each(v)) {
          const url = str(ctx, get(x, "url")) ?? "";
          if (url.endsWith("/patient-mothersMaidenName")) {
            push(ctx, get(x, "valueString"), "NAME", `${p}.valueString`);
          } else if (url.endsWith("/patient-birthTime")) {
            push(ctx, get(x, "valueDateTime"), "DOB", `${p}.valueDateTime`);
          }
          if (x.kind === OBJ) visit(ctx, x, rt, person, p, depth + 1);
        }
        continue;
    }
    if (ATTACHMENT_KEYS.has(key)) {
      attachment(ctx, v, p);
      continue;
    }
    if (SERVICE_DATE.has(key)) {
      push(ctx, v, "DATE", p);
      continue;
    }
    if (SERVICE_PERIOD.has(key)) {
      period(ctx, v, p);
      continue;
    }
    if (v.kind === STR) {
      if (FREE_KEYS.has(key) || unknownText(ctx, key, v)) free(ctx, v);
      continue;
    }
    if (v.kind === LIT) continue;
    for (const item of each(v)) {
      if (item.kind === OBJ && isReference(item)) reference(ctx, item, rt, p);
      else if (item.kind === STR) {
        if (FREE_KEYS.has(key) || unknownText(ctx, key, item)) free(ctx, item);
      } else visit(ctx, item, rt, person, p, depth + 1);
    }
  }
}

/** One resource (a Bundle's entries and contained resources included). */
function resource(ctx: Ctx, n: JNode, depth: number): void {
  if (depth > 64 || n.kind !== OBJ) return;
  const rt = str(ctx, get(n, "resourceType")) ?? "";
  visit(ctx, n, rt, PERSON.has(rt), rt, 0);
  for (const c of each(get(n, "contained"))) resource(ctx, c, depth + 1);
  // A searchset's links carry the search's parameters (`Patient?family=...&birthdate=...`): prose.
  if (rt === "Bundle") {
    for (const l of each(get(n, "link"))) {
      free(ctx, get(l, "url"));
      searchParams(ctx, get(l, "url"), "Bundle.link.url");
    }
  }
  for (const e of each(get(n, "entry"))) {
    const r = get(e, "resource");
    const full = get(e, "fullUrl");
    const rrt = str(ctx, get(r, "resourceType")) ?? "";
    if (full && PATIENT_ID.has(rrt)) {
      const id = str(ctx, get(r, "id"));
      const fu = str(ctx, full) ?? "";
      if (fu.startsWith("urn:")) referenceString(ctx, full, `Bundle.entry.fullUrl`);
      else if (id !== undefined && /\d/.test(id)) referenceString(ctx, full, `Bundle.entry.fullUrl`);
    }
    if (r) resource(ctx, r, depth + 1);
    const req = get(e, "request");
    if (req) {
      referenceString(ctx, get(req, "url"), "Bundle.entry.request.url");
      free(ctx, get(req, "url"));
      searchParams(ctx, get(req, "url"), "Bundle.entry.request.url");
    }
  }
}

/** fullUrls of the person entries of a Bundle (and nested Bundles), for `urn:uuid:` references. */
function collectPersonUrls(ctx: Ctx, n: JNode | undefined, depth: number): void {
  if (!n || n.kind !== OBJ || depth > 16) return;
  for (const e of each(get(n, "entry"))) {
    const r = get(e, "resource");
    const rt = str(ctx, get(r, "resourceType"));
    const fu = str(ctx, get(e, "fullUrl"));
    if (rt !== undefined && PATIENT_ID.has(rt) && fu !== undefined && fu.startsWith("urn:")) {
      ctx.personUrls.add(fu);
    }
    collectPersonUrls(ctx, r, depth + 1);
  }
}

const KEY = "resourceType";
const FHIR_TYPE = /^[A-Z][A-Za-z]{2,63}$/;
/** How far back a record's opening brace is looked for. */
const BACK = 1 << 18;

/**
 * Where the JSON value holding the key quote at `q` starts, with its parse: the outermost unmatched
 * `{` or `[` before it (back to `floor`) that parses past the key; undefined when there is none.
 */
function recordStart(text: string, q: number, floor: number): { start: number; parse: JParse } | undefined {
  const openers: number[] = [];
  let depth = 0;
  const lo = Math.max(floor, q - BACK);
  for (let i = q - 1; i >= lo && openers.length < 32; i--) {
    const c = text.charCodeAt(i);
    if (c === 125 || c === 93) depth++;
    else if (c === 123 || c === 91) {
      if (depth > 0) depth--;
      else openers.push(i);
    }
  }
  for (let k = openers.length - 1; k >= 0; k--) {
    const r = parseJsonAt(text, openers[k]);
    if (r.end > q + KEY.length + 1) return { start: openers[k], parse: r };
  }
  return undefined;
}

function scanLayer(ctx: Ctx, level: number): void {
  const text = ctx.text;
  T = text;
  let from = 0;
  for (;;) {
    const p = text.indexOf(KEY, from);
    if (p === -1) return;
    if (p >= 2 && text.charCodeAt(p - 1) === 34 && text.charCodeAt(p - 2) === 92) {
      // `\"resourceType\"`: a record inside a JSON string. Decode that string and read it there.
      const q = openingQuoteBefore(text, p - 2, Math.max(from, p - BACK));
      const d = decodeJsonString(text, q + 1);
      if (level < 3) {
        const map = ctx.map ? Int32Array.from(d.map, (x) => ctx.map![x]) : d.map;
        scanLayer({ ...ctx, text: d.text, map, personUrls: new Set() }, level + 1);
        T = text;
      }
      from = Math.max(d.end + 1, p + KEY.length);
      continue;
    }
    if (p < 1 || text.charCodeAt(p - 1) !== 34 || text.charCodeAt(p + KEY.length) !== 34) {
      from = p + KEY.length;
      continue;
    }
    const found = recordStart(text, p - 1, from);
    if (found === undefined) {
      from = p + KEY.length;
      continue;
    }
    const { start, parse: r } = found;
    if (!r.node || (r.node.kind !== OBJ && r.node.kind !== ARR)) {
      from = p + KEY.length;
      continue;
    }
    // Other JSON has a `resourceType` key too (cloud inventories: `"Microsoft.Web/sites"`): a FHIR
    // resource's type is one capitalized word.
    const items = each(r.node).filter((item) => FHIR_TYPE.test(str(ctx, get(item, "resourceType")) ?? ""));
    if (items.length === 0) {
      from = Math.max(r.end, p + KEY.length);
      continue;
    }
    const segStart = src(ctx, start), segEnd = src(ctx, r.end);
    if (segEnd > segStart) ctx.out.segments.push({ start: segStart, end: segEnd });
    for (const item of items) {
      collectPersonUrls(ctx, item, 0);
      resource(ctx, item, 0);
    }
    from = Math.max(r.end, p + KEY.length);
  }
}

/**
 * The FHIR records of `text`: person data as structured values, narrative and notes as free text,
 * each record's extent as a segment. Undefined when there is none. Never throws.
 *
 * @example
 * ```ts
 * import { scanFhir } from "./fhir.ts";
 * const s = scanFhir('{"resourceType":"Patient","name":[{"family":"Okafor"}],"gender":"female"}');
 * s?.structured.map((c) => [c.context, c.value]); // [["FHIR Patient.name.family", "Okafor"]]
 * ```
 */
export function scanFhir(text: string): RecordScan | undefined {
  const out: RecordScan = { structured: [], free: [], segments: [] };
  try {
    scanLayer({ text, map: undefined, source: text, out, personUrls: new Set() }, 0);
  } catch {
    // Best effort: what was found before the fault stands.
  }
  return finishScan(text, out, "FHIR");
}

/** The FHIR R4 JSON record format (phi/records.ts). */
export const fhir: RecordFormat = {
  name: "fhir",
  maybe: (text) => text.indexOf(KEY) !== -1,
  scan: scanFhir,
};
