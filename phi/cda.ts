/**
 * CDA R2 / C-CDA XML read by structure (issue #23, item 4): whole `ClinicalDocument`s and fragments
 * (`recordTarget`, `patientRole`), with or without a namespace prefix, after a log prefix or other
 * prose, several in one text, truncated (the part read stands), inside a JSON string value (`\"`
 * quotes, one or two levels) and entity-escaped (`&lt;ClinicalDocument ...&gt;` in XML or JSON).
 * Every value reported is the exact source text (entities and escapes as written), its canonical
 * form the decoded value. A small tag reader keeps positions; it never throws.
 *
 * The persons of a document and what of theirs is tokenized (context `CDA <path>`):
 *
 * | Element | Where | Category |
 * |---|---|---|
 * | `id/@extension` | `patientRole`, `guardian`, `associatedEntity` (participant), `relatedEntity` (informant), `relatedSubject` | SSN when `@root` is `2.16.840.1.113883.4.1`, else MRN |
 * | `id/@extension` | `assignedAuthor`, `assignedEntity` (legal authenticator, performers, responsible party), `intendedRecipient` | SSN when the SSN root, else NPI (a provider is a person: name NAME, id NPI, as the HL7 policy's XCN) |
 * | `id/@extension` | `encompassingEncounter` | VISIT |
 * | `name`: each `given`, `family` (and the text of an unstructured `name`); `prefix`, `suffix` stay | `patient`, `guardianPerson`, `associatedPerson`, `relatedPerson`, `assignedPerson`, `informationRecipient`, `subject`, `person` | NAME |
 * | `name`: each `given`, `family` | any other element (a `playingEntity` that is a person); a name written as one text there (a drug, an organization) stays | NAME |
 * | `addr`: `streetAddressLine`, `houseNumber`, `streetName`, `unitID`, `additionalLocator`, `city`, `county`, `postalCode`, `censusTract` (an unstructured `addr`'s text); `state`, `country` stay | the person roles above, and the patient's `birthplace` | ADDRESS |
 * | `telecom/@value` after its scheme (`tel:`, `fax:`, `mailto:`, `http:`), the scheme stays | the person roles above | PHONE, EMAIL, URL |
 * | `birthTime/@value` | anywhere | DOB |
 * | `sdtc:deceasedTime/@value` | anywhere | DATE |
 * | `effectiveTime` (`@value`, `low/@value`, `high/@value`) | `encompassingEncounter` | DATE |
 *
 * | a name or a one-word city of the document, written in its own narrative | any | NAME, ADDRESS (context `CDA narrative`) |
 * | `id/@extension` | `patient` (deprecated in C-CDA, still sent) | SSN or MRN as under `patientRole` |
 *
 * Free text (the tiers read it as prose): each section's `text` narrative, an entry's `text`, an
 * `ST` value's text, `originalText` written out. Each free span is a segment of its own, so an HL7
 * message inside one (claimed by the HL7 scan first) costs the document only that piece. The rest of
 * a document is read by tier 1 only (as an HL7 segment is): a formatted phone in an organization's
 * `telecom` is tokenized by that tier. A date with a time keeps its whole text as its canonical
 * value (two times of one day are two tokens, each given back exactly).
 *
 * Engine facts that stay: the document's `id` and `setId` (like MSH-10: the operator follows the
 * document by it), `code/@code` and code systems (OIDs), `templateId`, the document's and entries'
 * `effectiveTime`, ids of entries (acts, observations), organizations (`representedOrganization`,
 * `providerOrganization`, `custodian`, `serviceProviderOrganization`, facilities): their names,
 * ids, addresses and telecoms, and devices (`assignedAuthoringDevice`). A `nonXMLBody/text` in base64
 * is opened by the engine's base64 pass, not here.
 */
import { candidate } from "./candidate.ts";
import type { RecordFormat, RecordScan } from "./records.ts";
import { decodeJsonString, openingQuoteBefore } from "./_json_pos.ts";
import { isTokensOnly } from "./token.ts";
import { canonOf, finishScan } from "./_record_names.ts";

/** Person roles whose ids are a patient's or a relative's (MRN, SSN). */
const PATIENT_ROLES = new Set([
  "patientRole",
  "guardian",
  "associatedEntity",
  "relatedEntity",
  "relatedSubject",
]);
/** Provider roles: ids are NPI. */
const PROVIDER_ROLES = new Set(["assignedAuthor", "assignedEntity", "intendedRecipient"]);
/** Elements whose `name` is a person's. */
const PERSON_NAME_PARENTS = new Set([
  "patient",
  "guardianPerson",
  "associatedPerson",
  "relatedPerson",
  "assignedPerson",
  "informationRecipient",
  "subject",
  "person",
  "maintainingPerson",
]);
const ADDR_PARTS = new Set([
  "streetAddressLine",
  "houseNumber",
  "houseNumberNumeric",
  "streetName",
  "streetNameBase",
  "unitID",
  "unitType",
  "additionalLocator",
  "deliveryAddressLine",
  "city",
  "county",
  "postalCode",
  "censusTract",
  "precinct",
]);
const SSN_ROOT = "2.16.840.1.113883.4.1";

interface El {
  /** Local name (no prefix). */
  name: string;
  /** Where its content starts (after the open tag's `>`). */
  content: number;
  /** A child element was opened inside it. */
  child: boolean;
  /** Tokenize its text as this category when it closes with no child (a name or address part). */
  leaf: string | undefined;
  /** Its content is free text. */
  free: boolean;
}

interface Ctx {
  text: string;
  map: Int32Array | undefined;
  source: string;
  out: RecordScan;
  /** Kind of the current layer's quoting: 0 plain, 1 entities (`&lt;`), decoded already. */
}

const src = (ctx: Ctx, p: number) => (ctx.map ? ctx.map[p] : p);

const ENT: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML text with its entity and character references decoded. */
function unentity(s: string): string {
  if (s.indexOf("&") === -1) return s;
  return s.replace(/&(?:#x([0-9a-fA-F]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/g, (m, h, d, n) => {
    try {
      if (h) return String.fromCodePoint(parseInt(h, 16));
      if (d) return String.fromCodePoint(parseInt(d, 10));
    } catch {
      return m;
    }
    return ENT[n] ?? m;
  });
}

function push(ctx: Ctx, s: number, e: number, category: string, path: string): void {
  const t = ctx.text;
  while (s < e && t.charCodeAt(s) <= 32) s++;
  while (e > s && t.charCodeAt(e - 1) <= 32) e--;
  if (e <= s) return;
  const raw = t.slice(s, e);
  if (isTokensOnly(raw)) return;
  const canonical = canonOf(category, unentity(raw));
  if (canonical === "") return;
  const ss = src(ctx, s), se = src(ctx, e);
  ctx.out.structured.push(
    candidate(ss, se, ctx.source.slice(ss, se), category, canonical, "hl7_pipeline", `CDA ${path}`),
  );
}

function freeSpan(ctx: Ctx, s: number, e: number): void {
  const t = ctx.text;
  while (s < e && t.charCodeAt(s) <= 32) s++;
  while (e > s && t.charCodeAt(e - 1) <= 32) e--;
  if (e > s) ctx.out.free.push({ start: src(ctx, s), end: src(ctx, e) });
}

/** One attribute of an open tag: its name and the range of its value (inside the quotes). */
interface Attr {
  name: string;
  s: number;
  e: number;
}

const ATTR = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

/** The attributes of the tag whose attribute text is `[s, e)`. */
function attrs(t: string, s: number, e: number): Attr[] {
  const out: Attr[] = [];
  let i = s;
  while (i < e) {
    const c = t.charCodeAt(i);
    if (c <= 32 || c === 47) {
      i++;
      continue;
    }
    ATTR.lastIndex = i;
    const m = ATTR.exec(t);
    if (!m || m.index + m[0].length > e) break;
    const vs = m.index + m[0].length - 1 - (m[2] ?? m[3]).length;
    out.push({ name: m[1], s: vs, e: vs + (m[2] ?? m[3]).length });
    i = m.index + m[0].length;
  }
  return out;
}

const attr = (as: Attr[], name: string) => as.find((a) => a.name === name || a.name.endsWith(`:${name}`));

const local = (q: string) => {
  const c = q.indexOf(":");
  return c === -1 ? q : q.slice(c + 1);
};

/** The nearest ancestor (from the top of `stack`) whose name is in `set`, or undefined. */
function nearest(stack: El[], set: Set<string>, depth = stack.length): El | undefined {
  for (let i = depth - 1; i >= 0; i--) if (set.has(stack[i].name)) return stack[i];
  return undefined;
}

const ROLE_STOP = new Set([
  ...PATIENT_ROLES,
  ...PROVIDER_ROLES,
  "representedOrganization",
  "providerOrganization",
  "serviceProviderOrganization",
  "representedCustodianOrganization",
  "wholeOrganization",
  "scopingOrganization",
  "receivedOrganization",
  "healthCareFacility",
  "location",
  "assignedAuthoringDevice",
  "participantRole",
  "playingEntity",
  "manufacturedProduct",
  "encompassingEncounter",
  "birthplace",
  "ClinicalDocument",
  "section",
]);

/** The role an `id`, `addr` or `telecom` belongs to: its nearest role-like ancestor. */
function roleOf(stack: El[]): string | undefined {
  return nearest(stack, ROLE_STOP)?.name;
}

/** The element path of `name` under the first `depth` elements of `stack` (for the audit context). */
function pathOf(stack: El[], depth: number, name: string): string {
  let p = "";
  for (let i = 0; i < depth; i++) p += `${stack[i].name}/`;
  return p + name;
}

/** An open tag `<name attrs>` at `lt` ending at `gt` (the `>`): applies the rules. */
function openTag(
  ctx: Ctx,
  stack: El[],
  qname: string,
  as: number,
  ae: number,
  selfClose: boolean,
  gt: number,
): void {
  const t = ctx.text;
  const name = local(qname);
  const parent = stack.length > 0 ? stack[stack.length - 1] : undefined;
  if (parent) parent.child = true;
  const path = () => pathOf(stack, stack.length, name);
  const inFree = stack.length > 0 && stack[stack.length - 1].free;
  let leaf: string | undefined;
  let free = inFree;
  if (!inFree) {
    const pn = parent?.name;
    switch (name) {
      case "id": {
        const role = roleOf(stack);
        const a = attrs(t, as, ae);
        const ext = attr(a, "extension");
        if (ext && role !== undefined) {
          const root = attr(a, "root");
          const ssn = root !== undefined && t.slice(root.s, root.e).trim() === SSN_ROOT;
          if (PATIENT_ROLES.has(role) && (pn === role || pn === "patient")) {
            push(ctx, ext.s, ext.e, ssn ? "SSN" : "MRN", `${path()}/@extension`);
          } else if (PROVIDER_ROLES.has(role) && pn === role) {
            push(ctx, ext.s, ext.e, ssn ? "SSN" : "NPI", `${path()}/@extension`);
          } else if (role === "encompassingEncounter" && pn === role) {
            push(ctx, ext.s, ext.e, "VISIT", `${path()}/@extension`);
          }
        }
        break;
      }
      case "telecom": {
        const role = roleOf(stack);
        if (
          role !== undefined && (PATIENT_ROLES.has(role) || PROVIDER_ROLES.has(role)) ||
          pn === "informationRecipient"
        ) {
          const v = attr(attrs(t, as, ae), "value");
          if (v) telecomValue(ctx, v.s, v.e, `${path()}/@value`);
        }
        break;
      }
      case "birthTime": {
        const v = attr(attrs(t, as, ae), "value");
        if (v) push(ctx, v.s, v.e, "DOB", `${path()}/@value`);
        break;
      }
      case "deceasedTime": {
        const v = attr(attrs(t, as, ae), "value");
        if (v) push(ctx, v.s, v.e, "DATE", `${path()}/@value`);
        break;
      }
      case "effectiveTime":
      case "low":
      case "high": {
        const enc = name === "effectiveTime" ? pn === "encompassingEncounter" : pn === "effectiveTime" &&
          stack.length >= 2 && stack[stack.length - 2].name === "encompassingEncounter";
        if (enc) {
          const v = attr(attrs(t, as, ae), "value");
          if (v) push(ctx, v.s, v.e, "DATE", `${path()}/@value`);
        }
        break;
      }
      case "text":
        // Section narrative, an entry's text: prose. A nonXMLBody's base64 is the base64 pass's.
        if (pn !== "nonXMLBody" && pn !== "observationMedia") free = true;
        break;
      case "originalText":
        free = true;
        break;
      case "value": {
        const type = attr(attrs(t, as, ae), "type");
        if (type && /^(?:\w+:)?ST$/.test(t.slice(type.s, type.e))) free = true;
        break;
      }
      default:
        break;
    }
    if (parent?.leaf === "NAME?") {
      leaf = name === "prefix" || name === "suffix" || name === "delimiter" ? undefined : "NAME";
    } else if (parent?.leaf === "PARTS") leaf = name === "given" || name === "family" ? "NAME" : undefined;
    else if (parent?.leaf === "ADDRESS?" && ADDR_PARTS.has(name)) leaf = "ADDRESS";
    else if (name === "name" && pn !== undefined && PERSON_NAME_PARENTS.has(pn)) leaf = "NAME?";
    // Elsewhere (a `playingEntity` is a drug or a person), a name written in given and family parts
    // is a person's; a name written as one text (`Penicillin`, an organization's) stays.
    else if (name === "name") leaf = "PARTS";
    else if (name === "addr") {
      const role = roleOf(stack);
      if (
        role !== undefined && (PATIENT_ROLES.has(role) || PROVIDER_ROLES.has(role) || role === "birthplace")
      ) {
        leaf = "ADDRESS?";
      }
    }
  }
  if (selfClose) return;
  stack.push({ name, content: gt + 1, child: false, leaf, free: free && !inFree });
  if (inFree) stack[stack.length - 1].free = true;
}

/** A closing tag at `lt`: pops to the matching element, reporting its leaf text or free content. */
function closeTag(ctx: Ctx, stack: El[], qname: string, lt: number): void {
  const name = local(qname);
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i].name !== name) continue;
    const el = stack[i];
    const outerFree = i > 0 && stack[i - 1].free;
    if (el.free && !outerFree) freeSpan(ctx, el.content, lt);
    else if (!el.child && el.leaf !== undefined && el.leaf !== "PARTS") {
      const category = el.leaf.endsWith("?") ? el.leaf.slice(0, -1) : el.leaf;
      push(ctx, el.content, lt, category, pathOf(stack, i, name));
    }
    stack.length = i;
    return;
  }
}

function telecomValue(ctx: Ctx, s: number, e: number, path: string): void {
  const v = ctx.text.slice(s, e);
  const m = /^\s*(tel|fax|mailto|https?|sms|x-text-tel|x-text-fax):(?:\/\/)?/i.exec(v);
  const scheme = m ? m[1].toLowerCase() : "";
  const at = m ? s + m[0].length : s;
  const category = scheme === "mailto" || (scheme === "" && v.includes("@"))
    ? "EMAIL"
    : scheme.startsWith("http")
    ? "URL"
    : "PHONE";
  push(ctx, category === "URL" ? s : at, e, category, path);
}

/** Reads the XML element that starts at `start` (its `<`); returns where the record ends. */
function readRecord(ctx: Ctx, start: number): number {
  const t = ctx.text;
  const stack: El[] = [];
  let i = start;
  const n = t.length;
  let opened = false;
  while (i < n) {
    const lt = t.indexOf("<", i);
    if (lt === -1) return n;
    const c = t.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      if (t.startsWith("<!--", lt)) {
        const e = t.indexOf("-->", lt + 4);
        i = e === -1 ? n : e + 3;
      } else if (t.startsWith("<![CDATA[", lt)) {
        const e = t.indexOf("]]>", lt + 9);
        i = e === -1 ? n : e + 3;
      } else {
        const e = t.indexOf(">", lt + 2);
        i = e === -1 ? n : e + 1;
      }
      continue;
    }
    if (c === 63 /* ? */) {
      const e = t.indexOf("?>", lt + 2);
      i = e === -1 ? n : e + 2;
      continue;
    }
    const close = c === 47;
    NAME_AT.lastIndex = lt + (close ? 2 : 1);
    const m = NAME_AT.exec(t);
    if (!m) {
      i = lt + 1;
      continue;
    }
    // The end of the tag: its `>` (a `<` before it: a tag without its `>`, skipped).
    const nameEnd = m.index + m[0].length;
    const j = t.indexOf(">", nameEnd);
    if (j === -1) return stack.length > 0 || !opened ? n : i; // truncated inside a tag
    const lt2 = t.indexOf("<", nameEnd);
    if (lt2 !== -1 && lt2 < j) {
      i = lt2;
      continue;
    }
    if (close) {
      closeTag(ctx, stack, m[0], lt);
      i = j + 1;
      if (opened && stack.length === 0) return i;
      continue;
    }
    const self = t.charCodeAt(j - 1) === 47;
    openTag(ctx, stack, m[0], m.index + m[0].length, self ? j - 1 : j, self, j);
    opened = true;
    i = j + 1;
    if (stack.length === 0) return i;
  }
  // Truncated: open leaves and free text up to the end stand.
  for (let k = stack.length - 1; k >= 0; k--) {
    const el = stack[k];
    if (el.free && !(k > 0 && stack[k - 1].free)) freeSpan(ctx, el.content, n);
  }
  return n;
}

const NAME_AT = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const START = /<(?:[A-Za-z_][\w.-]*:)?(?:ClinicalDocument|recordTarget|patientRole)(?=[\s>\/\\])/g;
const ENTITY_START = /&lt;(?:[A-Za-z_][\w.-]*:)?(?:ClinicalDocument|recordTarget|patientRole)(?=[\s&\/\\])/g;

/** Entity-escaped XML from `s` (`&lt;` ...) decoded, up to a raw `<`, a JSON string's end or `limit`. */
function decodeEntities(t: string, s: number, limit: number): { text: string; map: Int32Array; end: number } {
  const chars: string[] = [];
  const map: number[] = [];
  let k = s;
  for (; k < limit; k++) {
    const c = t.charCodeAt(k);
    if (c === 60) break;
    if (c === 34 && t.charCodeAt(k - 1) !== 92) break;
    if (c === 38) {
      const near = t.slice(k + 1, k + 11).indexOf(";");
      const semi = near === -1 ? -1 : k + 1 + near;
      if (semi !== -1) {
        const ent = t.slice(k + 1, semi);
        const v = ENT[ent] ??
          (/^#\d{1,7}$/.test(ent)
            ? String.fromCodePoint(Math.min(+ent.slice(1), 0x10ffff))
            : /^#x[0-9a-fA-F]{1,6}$/.test(ent)
            ? String.fromCodePoint(Math.min(parseInt(ent.slice(2), 16), 0x10ffff))
            : undefined);
        if (v !== undefined) {
          for (let u = 0; u < v.length; u++) {
            map.push(k);
            chars.push(v[u]);
          }
          k = semi;
          continue;
        }
      }
    }
    map.push(k);
    chars.push(t[k]);
  }
  map.push(k);
  return { text: chars.join(""), map: Int32Array.from(map), end: k };
}

function scanLayer(ctx: Ctx, level: number): void {
  const t = ctx.text;
  let from = 0;
  let entityAt = t.indexOf("&lt;") === -1 ? -1 : -2; // -1: none left; -2: not looked for yet
  for (;;) {
    START.lastIndex = from;
    const m = START.exec(t);
    // The next entity-escaped start, looked for again only once `from` has passed the last one found
    // (each search runs to the end of the text when there is none).
    if (level < 3 && (entityAt === -2 || (entityAt !== -1 && entityAt < from))) {
      ENTITY_START.lastIndex = from;
      const x = ENTITY_START.exec(t);
      entityAt = x ? x.index : -1;
    }
    const em = level < 3 && entityAt !== -1 ? { index: entityAt } : null;
    if (!m && !em) return;
    if (em && (!m || em.index < m.index)) {
      const d = decodeEntities(t, em.index, t.length);
      const map = ctx.map ? Int32Array.from(d.map, (x) => ctx.map![x]) : d.map;
      scanLayer({ ...ctx, text: d.text, map }, level + 1);
      from = Math.max(d.end, em.index + 4);
      continue;
    }
    const at = m!.index;
    // A document inside a JSON string: its attribute quotes are written `\"` (the first attribute
    // in the next 2,000 characters tells; the root may have none) or a line break `\n`.
    const w = t.slice(at, at + 2000);
    const esc = w.search(/=\\+"/), plain = w.search(/=["']/);
    if (
      (esc !== -1 && (plain === -1 || esc < plain)) ||
      (t.charCodeAt(at + m![0].length) === 92 && /^\\[nrt]/.test(t.slice(at + m![0].length)))
    ) {
      const q = openingQuoteBefore(t, at, Math.max(0, from - 1));
      const d = decodeJsonString(t, q + 1);
      if (level < 3 && d.end > at) {
        const map = ctx.map ? Int32Array.from(d.map, (x) => ctx.map![x]) : d.map;
        scanLayer({ ...ctx, text: d.text, map }, level + 1);
      }
      from = Math.max(d.end + 1, at + 1);
      continue;
    }
    const end = readRecord(ctx, at);
    const ss = src(ctx, at), se = src(ctx, end);
    if (se > ss) ctx.out.segments.push({ start: ss, end: se });
    from = Math.max(end, at + 1);
  }
}

/**
 * The CDA records of `text`: person data as structured values, narrative as free text, each
 * document's extent as a segment. Undefined when there is none. Never throws.
 *
 * @example
 * ```ts
 * import { scanCda } from "./cda.ts";
 * const s = scanCda('<patientRole><id root="2.16.840.1.113883.19.5" extension="998991"/></patientRole>');
 * s?.structured.map((c) => [c.category, c.value]); // [["MRN", "998991"]]
 * ```
 */
export function scanCda(text: string): RecordScan | undefined {
  const out: RecordScan = { structured: [], free: [], segments: [] };
  try {
    scanLayer({ text, map: undefined, source: text, out }, 0);
  } catch {
    // Best effort: what was found before the fault stands.
  }
  return finishScan(text, out, "CDA");
}

/** The CDA R2 / C-CDA record format (phi/records.ts). */
export const cda: RecordFormat = {
  name: "cda",
  maybe: (text) =>
    text.indexOf("ClinicalDocument") !== -1 || text.indexOf("patientRole") !== -1 ||
    text.indexOf("recordTarget") !== -1,
  scan: scanCda,
};
