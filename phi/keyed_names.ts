/**
 * Person names given by their key: the value of a name key in JSON (`"lastName": "Doe"`,
 * FHIR's `"family": "Doe", "given": ["Jane", "Q"]`, also with escaped quotes one level down), in
 * XML (`<lastName>Doe</lastName>`, FHIR's `<family value="Doe"/>`) and in `key=value` pairs
 * (`last_name=Doe`; unquoted, more words only when capitalized). The key is the cue: the value is
 * a name whatever the lexicon says.
 *
 * | Keys (case, `_`, `-` and `.` ignored) | Part |
 * |---|---|
 * | `lastName`, `familyName`, `family`, `surname`, `patientLastName`, `maidenName`, `mothersMaidenName` | family |
 * | `firstName`, `givenName`, `given`, `middleName`, `patientFirstName`, `preferredName`, `nickname` | given |
 * | `patientName`, `fullName`, `ptName`, `guarantorName`, `insuredName`, `subscriberName`, `nokName`, `contactName`, `personName`, `motherName`, `fatherName`, `spouseName` | whole |
 *
 * A value is a name when it is 2 to 60 characters of letters, spaces, `'`, `-` and `.` with a
 * letter, and not a placeholder (`null`, `unknown`, `n/a`, `test`). Generic keys (`name`, `text`)
 * are not cues: `"name": "adt_in"` names a thread.
 */
import { type Candidate, candidate } from "./candidate.ts";
import { normalizeName } from "./normalize.ts";
import { nameVocabulary } from "./name_words.ts";

export type NamePart = "family" | "given" | "whole";

const KEYS: Record<string, NamePart> = {};
for (
  const k of [
    "lastname",
    "familyname",
    "family",
    "surname",
    "patientlastname",
    "ptlastname",
    "maidenname",
    "mothersmaidenname",
    "lname",
  ]
) KEYS[k] = "family";
for (
  const k of [
    "firstname",
    "givenname",
    "given",
    "middlename",
    "patientfirstname",
    "ptfirstname",
    "preferredname",
    "nickname",
  ]
) KEYS[k] = "given";
for (
  const k of [
    "patientname",
    "fullname",
    "ptname",
    "guarantorname",
    "insuredname",
    "subscribername",
    "nokname",
    "nextofkinname",
    "contactname",
    "personname",
    "mothername",
    "fathername",
    "spousename",
  ]
) KEYS[k] = "whole";

const keyPart = (k: string): NamePart | undefined => {
  const norm = k.toLowerCase().replace(/[_.\-]/g, "");
  return Object.hasOwn(KEYS, norm) ? KEYS[norm] : undefined;
};

const PLACEHOLDER =
  /^(?:null|none|nil|unknown|undefined|n\/?a|test|string|true|false|tbd|redacted|anonymous)$/i;
const NAME_VALUE = /^(?=.*\p{L})[\p{L}\p{M}'\u2019.\- ]{2,60}$/u;

// A JSON key and its value (a string, or an array of strings), with any level of escaped quotes:
// the quote form of the key is the quote form of its values.
const JSON_PAIR =
  /(\\*)"([A-Za-z][\w.\-]{2,40})\1"\s*:\s*(\[\s*(?:\1"(?:[^"\\]|\\u[0-9a-fA-F]{4}){0,120}\1"\s*,?\s*){1,10}\]|\1"(?:[^"\\]|\\u[0-9a-fA-F]{4}){0,120}\1")/g;
const XML_ELEMENT = /<((?:[\w-]+:)?([A-Za-z][\w.\-]{2,40}))(?:\s[^<>]{0,200})?>([^<>]{1,120})<\/\1>/g;
const XML_VALUE = /<(?:[\w-]+:)?(family|given)\s+value\s*=\s*(["'])([^"'<>]{1,120})\2/g;
const KEY_VALUE =
  /(?<![\w.\-])([A-Za-z][\w.\-]{2,40})[ \t]*=[ \t]*(?:(["'])([^"'\r\n]{1,120})\2|([\p{L}\p{M}'\u2019.\-]+(?![\w.\-]*[ \t]*=)(?:[ \t]\p{Lu}[\p{L}\p{M}'\u2019.\-]*(?![\w.\-]*[ \t]*=)){0,3})(?=[\s&;,|]|$))/gu;

/** One keyed name found: its place, the part of the name it is, the key. */
export interface KeyedName {
  start: number;
  end: number;
  value: string;
  part: NamePart;
  key: string;
}

/**
 * The keyed names of `text`, in text order.
 *
 * @example
 * ```ts
 * import { findKeyedNames } from "./keyed_names.ts";
 * findKeyedNames('{"lastName":"Vanderhoeven","firstName":"Horatio"}').map((k) => k.value);
 * // ["Vanderhoeven", "Horatio"]
 * ```
 */
export function findKeyedNames(text: string): KeyedName[] {
  const out: KeyedName[] = [];
  const push = (start: number, raw: string, part: NamePart, key: string) => {
    // Trim white space inside the quotes.
    const lead = raw.length - raw.trimStart().length;
    const value = raw.trim();
    if (!NAME_VALUE.test(value) || PLACEHOLDER.test(value) || value.includes("[[")) return;
    // One word of the HL7 or vendor vocabulary (`"family": "ADT"`) names no person.
    if (!/\s/.test(value) && nameVocabulary().has(value.toLowerCase())) return;
    // Under the generic FHIR keys a name is capitalized; a short all-caps word is a code
    // (`"family": "ADT"`), a lower-case one a setting (`"family": "inbound"`).
    if ((key === "family" || key === "given") && (/^[A-Z]{2,4}$/.test(value) || !/^\p{Lu}/u.test(value))) {
      return;
    }
    out.push({ start: start + lead, end: start + lead + value.length, value, part, key });
  };
  if (text.indexOf('"') !== -1) {
    JSON_PAIR.lastIndex = 0;
    for (let m = JSON_PAIR.exec(text); m; m = JSON_PAIR.exec(text)) {
      const part = keyPart(m[2]);
      if (part === undefined) continue;
      const q = `${m[1]}"`;
      const valueAt = m.index + m[0].length - m[3].length;
      if (m[3].startsWith("[")) {
        // An array of strings (FHIR `given`).
        const inner = m[3];
        let i = 1;
        while (i < inner.length) {
          const s = inner.indexOf(q, i);
          if (s === -1) break;
          const e = inner.indexOf(q, s + q.length);
          if (e === -1) break;
          push(valueAt + s + q.length, inner.slice(s + q.length, e), part, m[2]);
          i = e + q.length;
        }
      } else {
        push(valueAt + q.length, m[3].slice(q.length, m[3].length - q.length), part, m[2]);
      }
    }
  }
  if (text.indexOf("<") !== -1) {
    XML_ELEMENT.lastIndex = 0;
    for (let m = XML_ELEMENT.exec(text); m; m = XML_ELEMENT.exec(text)) {
      const part = keyPart(m[2]);
      if (part === undefined) continue;
      push(m.index + m[0].length - m[1].length - 3 - m[3].length, m[3], part, m[2]);
    }
    XML_VALUE.lastIndex = 0;
    for (let m = XML_VALUE.exec(text); m; m = XML_VALUE.exec(text)) {
      push(m.index + m[0].length - 1 - m[3].length, m[3], m[1] === "family" ? "family" : "given", m[1]);
    }
  }
  if (text.indexOf("=") !== -1) {
    KEY_VALUE.lastIndex = 0;
    for (let m = KEY_VALUE.exec(text); m; m = KEY_VALUE.exec(text)) {
      const part = keyPart(m[1]);
      if (part === undefined) continue;
      const raw = m[3] ?? m[4];
      const at = m.index + m[0].length - raw.length - (m[2] ? 1 : 0);
      push(at, raw, part, m[1]);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Candidates for the keyed names of `text` outside `taken`: one NAME each (a family and a given
 * name of one record are two values, so each round-trips exactly).
 */
export function keyedNameCandidates(text: string, isTaken: (s: number, e: number) => boolean): Candidate[] {
  const out: Candidate[] = [];
  for (const k of findKeyedNames(text)) {
    if (isTaken(k.start, k.end)) continue;
    const canonical = normalizeName(k.value);
    if (canonical === "") continue;
    out.push(candidate(k.start, k.end, k.value, "NAME", canonical, "contextual", `key ${k.key}`));
  }
  return out;
}
