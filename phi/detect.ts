/**
 * Automatic detection, tiers 1 to 4 of the spec's "Auto-PHI detection model" (tier 5 is the sidecar,
 * phi/sidecar/client.ts). First match wins per value: candidates are taken tier by tier, in text order,
 * and one that overlaps a protected span (phi/exclusions.ts) or an earlier match is dropped.
 *
 * | Tier | Name | What matches |
 * |---|---|---|
 * | 1 | definite | SSN `123-45-6789`; e-mail; formatted phone `(555) 123-4567`, `555-123-4567`, `555.123.4567` with an optional `+1`/`1-`; NPI digits after an explicit `NPI:` |
 * | 2 | contextual | a number (4+ digits; may be `E1234567`, `03/15/1980`, `1980-03-15`) with MRN, Patient, DOB, Account, Visit, Acct, Record or Birth in the 20 characters before it on its line |
 * | 3 | hl7 | field listings (a value printed after its path, phi/hl7_listing.ts) by the HL7 field policy; and on a line mentioning PID.3/5/7/11/13/18, NK1.*, GT1.* or IN1.16–20: caret values (`SMITH^JOHN`), numbers of 4+ digits, dates, and the value after `<ref>:` or `<ref> =` |
 * | 4 | known | a value already in the lookup table (original or canonical form); names as a run of 2–4 words in any order with spaces, `, `, `^` or `/` between them (`Jane Q Doe`, `Doe, Jane`, `DOE^JANE^Q`; also without the initials); single alphabetic words only for MANUAL and custom categories; numbers of 6 or more digits |
 *
 * Phones written with spaces only (`555 123 4567`) are not tier 1: too many tables of numbers look
 * like that. Tier-2 numbers get category DOB when date-shaped, else MRN.
 */
import {
  canonicalize,
  detectCategory,
  isCanonicalAsciiName,
  isDateShaped,
  normalizeName,
} from "./normalize.ts";
import { hasDobContext, lineStart } from "./exclusions.ts";
import { SpanSet } from "./spans.ts";
import { findFieldListings } from "./hl7_listing.ts";
import type { LookupRow, LookupTable } from "./lookup.ts";
import { type Candidate, candidate, type Tier } from "./candidate.ts";

export type { Candidate, Tier } from "./candidate.ts";

function cand(text: string, start: number, end: number, category: string, tier: Tier): Candidate | undefined {
  const value = text.slice(start, end);
  const canonical = canonicalize(category, value);
  if (canonical === "") return undefined;
  return candidate(start, end, value, category, canonical, tier);
}

// ---- tier 1 ---------------------------------------------------------------------------------------

const TIER1: Array<{ re: RegExp; category: string; group?: number }> = [
  { re: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g, category: "SSN" },
  {
    re:
      /(?<![\w.+-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)[\s.-]?\d{3}[\s.-]\d{4}|\d{3}-\d{3}-\d{4}|\d{3}\.\d{3}\.\d{4})(?![\w-]|\.\d)/g,
    category: "PHONE",
  },
  { re: /\bNPI\s*:\s*(\d{10})(?!\d)/gi, category: "NPI", group: 1 },
];

const EMAIL_LOCAL = /[A-Za-z0-9._%+-]/;
const EMAIL_HOST = /[A-Za-z0-9.-]/;
const EMAIL_RE =
  /^[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/;

/** E-mail addresses, found from each `@` outwards (a plain regex scan is slow on large texts). */
function findEmails(text: string, skip?: (start: number, end: number) => boolean): Candidate[] {
  const out: Candidate[] = [];
  let at = text.indexOf("@");
  let last = 0;
  while (at !== -1) {
    let s = at;
    while (s > last && EMAIL_LOCAL.test(text[s - 1])) s--;
    // The local part starts with a letter or digit.
    while (s < at && !/[A-Za-z0-9]/.test(text[s])) s++;
    let e = at + 1;
    while (e < text.length && EMAIL_HOST.test(text[e])) e++;
    // Trailing dots and hyphens end a sentence, not the address.
    while (e > at + 1 && (text[e - 1] === "." || text[e - 1] === "-")) e--;
    const next = e < text.length ? text[e] : "";
    if (s < at && e > at + 1 && !/[\w@]/.test(next) && !skip?.(s, e) && EMAIL_RE.test(text.slice(s, e))) {
      const c = cand(text, s, e, "EMAIL", "definite");
      if (c) out.push(c);
      last = e;
    }
    at = text.indexOf("@", at + 1);
  }
  return out;
}

/**
 * Tier 1 (definite) candidates of a text, unfiltered (but for the ranges `skip` rejects, which are
 * dropped before any work is done on them).
 *
 * @example
 * findDefinite("call 555-123-4567").map((c) => c.category); // ["PHONE"]
 */
export function findDefinite(text: string, skip?: (start: number, end: number) => boolean): Candidate[] {
  const out: Candidate[] = findEmails(text, skip);
  for (const { re, category, group } of TIER1) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const g = group === undefined ? m[0] : m[group];
      const start = m.index + (group === undefined ? 0 : m[0].lastIndexOf(g));
      if (skip?.(start, start + g.length)) continue;
      const c = cand(text, start, start + g.length, category, "definite");
      if (c) out.push(c);
    }
  }
  return out;
}

// ---- tier 2 ---------------------------------------------------------------------------------------

/** A number for tiers 2 and 3: digits with `-`, `/`, `.` inside, optionally 1–3 letters in front. */
const NUMBER_RE = /(?<![\w\-\/.])(?:[A-Za-z]{1,3}-?)?\d(?:[\d\-\/.]*\d)?(?![\w\-\/]|\.\d)/g;
const CONTEXT_RE = /(?<![A-Za-z])(?:mrn|patient|dob|account|visit|acct|record|birth)/i;

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

function lineStartOf(text: string, pos: number): number {
  for (let i = pos - 1; i >= 0 && i >= pos - 21; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return Math.max(0, pos - 20);
}

/**
 * Tier 2 (contextual) candidates: numbers with a PHI keyword in the 20 characters before them.
 *
 * @example
 * findContextual("MRN: 12345678").map((c) => c.value); // ["12345678"]
 */
export function findContextual(text: string, byLine = true): Candidate[] {
  const out: Candidate[] = [];
  if (!byLine) {
    contextualIn(text, 0, text.length, out);
    return out;
  }
  // The window never leaves the number's line, and numbers never span lines: only lines with a
  // keyword can hold a match (the same matches as a scan of the whole text).
  CONTEXT_ANY.lastIndex = 0;
  for (let k = CONTEXT_ANY.exec(text); k; k = CONTEXT_ANY.exec(text)) {
    const ls = lineStart(text, k.index);
    let le = k.index;
    while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    contextualIn(text, ls, le, out);
    CONTEXT_ANY.lastIndex = le;
  }
  return out;
}

// The keywords anywhere (no look-behind: a window may begin right at a keyword inside a word).
const CONTEXT_ANY = /mrn|patient|dob|account|visit|acct|record|birth/gi;

/** Tier-2 candidates in `[start, end)` of `text` (a line, or the whole text). */
function contextualIn(text: string, start: number, end: number, out: Candidate[]): void {
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  NUMBER_RE.lastIndex = 0;
  for (let m = NUMBER_RE.exec(part); m; m = NUMBER_RE.exec(part)) {
    if (digitCount(m[0]) < 4) continue;
    const at = start + m.index;
    const from = Math.max(lineStartOf(text, at), at - 20);
    if (!CONTEXT_RE.test(text.slice(from, at))) continue;
    const category = isDateShaped(m[0]) ? "DOB" : "MRN";
    const c = cand(text, at, at + m[0].length, category, "contextual");
    if (c) out.push(c);
  }
}

// ---- tier 3 ---------------------------------------------------------------------------------------

const REF_RE =
  /(?<![A-Za-z0-9])(PID[.\-](?:3|5|7|11|13|18)|NK1[.\-]\d{1,2}|GT1[.\-]\d{1,2}|IN1[.\-](?:1[6-9]|20))(?![0-9])/;

const HINTS: Record<string, string> = {
  "PID.3": "MRN",
  "PID.5": "NAME",
  "PID.7": "DOB",
  "PID.11": "ADDRESS",
  "PID.13": "PHONE",
  "PID.18": "MRN",
  "NK1.2": "NAME",
  "NK1.4": "ADDRESS",
  "NK1.5": "PHONE",
  "NK1.6": "PHONE",
  "NK1.16": "DOB",
  "NK1.30": "NAME",
  "NK1.31": "PHONE",
  "NK1.32": "ADDRESS",
  "GT1.2": "MRN",
  "GT1.3": "NAME",
  "GT1.4": "NAME",
  "GT1.5": "ADDRESS",
  "GT1.6": "PHONE",
  "GT1.7": "PHONE",
  "GT1.8": "DOB",
  "IN1.16": "NAME",
  "IN1.18": "DOB",
  "IN1.19": "ADDRESS",
};

const CARET_RUN = /[^\s"'=:,;()\[\]|<>{}]*\^[^\s"'=:,;()\[\]|<>{}]*/g;
const ALPHA_WORDS = /^\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,4}$/u;

/**
 * Tier 3 (hl7) candidates: PHI-shaped values on lines that mention a PHI field.
 *
 * @example
 * findHl7Lines("PID.5 = SMITH^JOHN").map((c) => [c.value, c.category]); // [["SMITH^JOHN", "NAME"]]
 */
export function findHl7Lines(text: string): Candidate[] {
  const all: Candidate[] = findFieldListings(text);
  if (!/PID|NK1|GT1|IN1/.test(text)) return all;
  const out = {
    push(c: Candidate) {
      if (!all.some((x) => x.start < c.end && c.start < x.end)) all.push(c);
    },
  };
  const lineRe = /[^\r\n]+/g;
  for (let lm = lineRe.exec(text); lm; lm = lineRe.exec(text)) {
    const line = lm[0];
    const ref = REF_RE.exec(line);
    if (!ref) continue;
    const base = lm.index;
    const hint = HINTS[ref[1].replace("-", ".")];
    // The value after `<ref>:` / `<ref> =`.
    const after = new RegExp(
      `${
        ref[1].replace(/[.\-]/, "[.\\-]")
      }(?:[.\\-]\\d{1,3})*(?:\\s*\\([^)]*\\))?\\s*[:=]\\s*("?)([^"\\r\\n|,;]+)\\1`,
    )
      .exec(line);
    if (after) {
      const raw = after[2];
      const value = raw.trim();
      const at = base + after.index + after[0].length - (after[1] ? 1 : 0) - raw.length + raw.indexOf(value);
      if (value && hint === "ADDRESS") {
        const c = cand(text, at, at + value.length, "ADDRESS", "hl7");
        if (c) out.push(c);
      } else if (value && ALPHA_WORDS.test(value)) {
        const category = hint === "NAME" ? "NAME" : detectCategory(value);
        const c = cand(text, at, at + value.length, category, "hl7");
        if (c) out.push(c);
      }
    }
    // Caret values: an id first component, or the name components.
    CARET_RUN.lastIndex = 0;
    for (let m = CARET_RUN.exec(line); m; m = CARET_RUN.exec(line)) {
      if (!/[\p{L}\p{N}]/u.test(m[0])) continue;
      const comps = m[0].split("^");
      if (/\d/.test(comps[0]) && /^[A-Za-z]{0,3}-?\d[\w-]*$/.test(comps[0])) {
        const c = cand(
          text,
          base + m.index,
          base + m.index + comps[0].length,
          isDateShaped(comps[0]) ? "DOB" : "MRN",
          "hl7",
        );
        if (c) out.push(c);
        continue;
      }
      let k = 0;
      while (k < comps.length && /^\p{L}[\p{L}'.-]*$/u.test(comps[k])) k++;
      if (k === 0) continue;
      const len = comps.slice(0, k).join("^").length;
      const c = cand(
        text,
        base + m.index,
        base + m.index + len,
        hint === "ADDRESS" ? "ADDRESS" : "NAME",
        "hl7",
      );
      if (c) out.push(c);
    }
    // Numbers and dates.
    NUMBER_RE.lastIndex = 0;
    for (let m = NUMBER_RE.exec(line); m; m = NUMBER_RE.exec(line)) {
      if (digitCount(m[0]) < 4) continue;
      const category = isDateShaped(m[0]) ? "DOB" : hint === "PHONE" ? "PHONE" : "MRN";
      const c = cand(text, base + m.index, base + m.index + m[0].length, category, "hl7");
      if (c) out.push(c);
    }
  }
  return all.sort((a, b) => a.start - b.start);
}

// ---- tier 4 ---------------------------------------------------------------------------------------

const STANDARD = new Set(["NAME", "DOB", "DATE", "SSN", "PHONE", "EMAIL", "NPI", "MRN", "ADDRESS"]);

interface Needle {
  /** Lowercased form; one space stands for any run of white space, ", " for a comma and any. */
  lower: string;
  row: LookupRow;
  /** The match keeps the row's canonical value (false: canonicalize what matched). */
  exact: boolean;
}

/** A letter, digit or `_` at `i` (ASCII by char code, others by Unicode class). */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // Either half of a surrogate pair stands for its whole character (a letter outside the BMP).
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
    const h = text.charCodeAt(i - 1);
    if (h >= 0xd800 && h <= 0xdbff) return /[\p{L}\p{N}]/u.test(text.slice(i - 1, i + 1));
  }
  if (c >= 0xd800 && c <= 0xdbff) {
    const l = text.charCodeAt(i + 1);
    return l >= 0xdc00 && l <= 0xdfff && /^[\p{L}\p{N}]$/u.test(text.slice(i, i + 2));
  }
  return /[\p{L}\p{N}]/u.test(text[i]);
}

const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 160;

/** Length of the match of `needle` at `at` in `text`, or -1 (case-insensitive, flexible spaces). */
function matchAt(text: string, at: number, needle: string): number {
  let i = at;
  for (let k = 0; k < needle.length;) {
    const nc = needle.charCodeAt(k);
    if (nc === 32) {
      const comma = k > 0 && needle.charCodeAt(k - 1) === 44;
      if (!comma && (i >= text.length || !isSpace(text.charCodeAt(i)))) return -1;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      k++;
      continue;
    }
    if (i >= text.length) return -1;
    const tc = text.charCodeAt(i);
    if (tc < 128) {
      if (tc !== nc && (tc < 65 || tc > 90 || tc + 32 !== nc)) return -1;
      i++;
      k++;
      continue;
    }
    // A whole code point of the text, case-folded, against as many units of the needle.
    const w = tc >= 0xd800 && tc <= 0xdbff && i + 1 < text.length ? 2 : 1;
    const f = foldChar(text.slice(i, i + w));
    if (!needle.startsWith(f, k)) return -1;
    i += w;
    k += f.length;
  }
  if (i < text.length && isWordChar(text, i)) return -1;
  return i - at;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;

/** Size of the KnownIndex word filter in bits (128 KiB). */
const WORD_BITS = 1 << 20;

/**
 * FNV-1a of `text[start, end)` lowercased (ASCII), reduced to a bit of the word filter; -1 when the
 * word holds a non-ASCII character (such words skip the filter and are looked up).
 */
function asciiWordHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return -1;
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return (h >>> 0) & (WORD_BITS - 1);
}

/**
 * One character (a code point), case-folded the way tier 4 compares: lowercased on its own, with no
 * context (so `Σ` is always `σ`), and final sigma `ς` read as `σ`. A character whose lowercase is
 * more than one character (`İ`) stays as it is, so a letter always folds to one letter.
 */
function foldChar(ch: string): string {
  if (ch === "\u03c2") return "\u03c3";
  const l = ch.toLowerCase();
  return l.length === (l.codePointAt(0)! > 0xffff ? 2 : 1) ? l : ch;
}

/** The character of `w` units at `i` of `s`, folded (ASCII by char code). */
function foldAt(s: string, i: number, w: number): string {
  const c = s.charCodeAt(i);
  if (c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[i];
  return foldChar(s.slice(i, i + w));
}

/** `foldChar` over a whole form, character by character (ASCII simply lowercased). */
function foldForm(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 128) {
      let out = "";
      for (let j = 0; j < s.length;) {
        const c = s.charCodeAt(j);
        const w = c >= 0xd800 && c <= 0xdbff && j + 1 < s.length ? 2 : 1;
        out += foldAt(s, j, w);
        j += w;
      }
      return out;
    }
  }
  return s.toLowerCase();
}

/** UTF-16 length of the letter or digit (`[\p{L}\p{N}]`) at `i`, or 0. */
function letterOrDigitAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  if (c !== c) return 0; // past the end (NaN)
  const cp = text.codePointAt(i)!;
  const w = cp > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + w)) ? w : 0;
}
// Words of a name; an initial may carry a period ("Linda Q. Sample").
const NAME_RUN =
  /[\p{L}'\u2019-]+(?:(?<=(?:^|[^\p{L}'\u2019-])\p{L})\.)?(?:(?:,[ \t]*|[ \t]+|\^|\/)[\p{L}'\u2019-]+(?:(?<=(?:^|[^\p{L}'\u2019-])\p{L})\.)?){1,3}/uy;

/** White space, `,`, `^` or `/`: the separators of a name's words. */
function hasNameSeparator(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (
      c === 44 || c === 94 || c === 47 || c === 32 || (c >= 9 && c <= 13) || (c >= 128 && /\s/.test(s[i]))
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The lookup table as a search index for tier 4, kept up to date as the table grows (rows are only
 * ever appended, so only new rows are indexed). Needles are indexed by their first word, so a scan
 * costs one pass over the text's words whatever the table size.
 *
 * @example
 * const known = new KnownIndex(table);
 * known.find("seen John Smith today"); // a NAME candidate when "SMITH^JOHN" is in the table
 */
export class KnownIndex {
  readonly #table: LookupTable;
  #version = -1;
  #generation = 0;
  #indexed = 0;
  /** Needles by first word: one needle alone (most words), or a list once a second one comes. */
  #byWord = new Map<string, Needle | Needle[]>();
  #unsorted = new Set<string>();
  /** Known names by canonical form (also without initials); words that start a name check. */
  #names = new Map<string, { row: LookupRow; exact: boolean }>();
  #nameWords = new Set<string>();
  /**
   * A one-hash Bloom filter over the words that lead anywhere (needle first words and name words):
   * most words of a text are in neither table, and the filter turns them away from their character
   * codes alone, before any slice, lowercase copy or lookup in the large tables.
   */
  #wordBits = new Uint32Array(WORD_BITS >>> 5);
  /**
   * Long lists (a common first word: an area code, a birth year, a street number) split by what
   * follows the first word (`secondKey`), built when first used: a match then tries only the needles
   * that can match there, instead of the whole list.
   */
  #split = new Map<string, Map<string, Needle[]>>();
  readonly #longList: number;

  /** `longList`: lists longer than this are split by their second word (tests compare with Infinity). */
  constructor(table: LookupTable, options: { longList?: number } = {}) {
    this.#table = table;
    this.#longList = options.longList ?? 8;
  }

  #markWord(w: string): void {
    const h = asciiWordHash(w, 0, w.length);
    if (h !== -1) this.#wordBits[h >>> 5] |= 1 << (h & 31);
  }

  /** Indexes one form of a row; returns its lowercase key when it got that far (indexed or seen before). */
  #needle(form: string, row: LookupRow, exact: boolean): string | undefined {
    const f = form.trim();
    if (f.length < 4) return;
    // A needle must start and end with a letter or digit, and not start with a lone initial ("a jane
    // doe"): such forms are rare in text, and one-letter words would make huge lists to try.
    if (!isWordChar(f, 0) || !isWordChar(f, f.length - 1)) return;
    // One pass over the form: the end of its first word, and what kind of characters it holds.
    let firstEnd = -1;
    let letters = true;
    let digitsOnly = true;
    let spaced = false;
    for (let i = 0; i < f.length;) {
      const c = f.charCodeAt(i);
      if (c < 128) {
        const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
        const digit = c >= 48 && c <= 57;
        if (!letter && !digit && firstEnd === -1) firstEnd = i;
        if (!digit) digitsOnly = false;
        if (!letter) letters = false;
        if (c === 44 || c === 32 || (c >= 9 && c <= 13)) spaced = true;
        i++;
        continue;
      }
      // Whole code points (a letter outside the BMP is two UTF-16 units), as the text scan reads them.
      const w = f.codePointAt(i)! > 0xffff ? 2 : 1;
      const ch = f.slice(i, i + w);
      const letter = /\p{L}/u.test(ch);
      if (!letter && !/\p{N}/u.test(ch) && firstEnd === -1) firstEnd = i;
      digitsOnly = false;
      if (!letter) letters = false;
      if (/\s/.test(ch)) spaced = true;
      i += w;
    }
    if (firstEnd === -1) firstEnd = f.length;
    if (firstEnd < 2) return;
    if (letters && (STANDARD.has(row.category) || row.category.startsWith("presidio_"))) return;
    // Short numbers (zip codes, phone parts, small ids) collide with process ids, sizes and counts.
    if (digitsOnly && f.length < 6) return;
    // Folded one character at a time, as matchAt reads the text (not f.toLowerCase(), whose final
    // sigma depends on what follows: the form would not match its own spelling).
    const key = foldForm(f);
    // A form two rows share (rare: rows are distinct by canonical value) is simply listed twice;
    // lists are sorted by length with a stable sort, so the row indexed first still wins.
    const lower = spaced ? key.replace(/\s+/g, " ").replace(/,\s*/g, ", ") : key;
    // The first word lowercased on its own, as the text scan does (Greek final sigma differs).
    const w = (firstEnd === f.length ? f : f.slice(0, firstEnd)).toLowerCase();
    const needle: Needle = { lower, row, exact };
    const have = this.#byWord.get(w);
    if (have === undefined) {
      this.#byWord.set(w, needle);
      this.#markWord(w);
    } else {
      if (Array.isArray(have)) have.push(needle);
      else this.#byWord.set(w, [have, needle]);
      this.#unsorted.add(w); // sorted (longest first) when next used
      this.#split.delete(w);
    }
    return key;
  }

  #index(row: LookupRow): void {
    if (row.category === "NAME" || row.category === "presidio_PERSON") {
      // Names are matched by their words in any order and with any of the separators: each word of
      // two or more letters leads to a check of the name run that starts there.
      // Column 3 is usually in canonical form already (a cheap check); legacy rows may not be.
      const norm = isCanonicalAsciiName(row.canonical) ? row.canonical : normalizeName(row.canonical);
      const words = norm.split(" ");
      let full = 0;
      for (const w of words) {
        if (w.length > 1) {
          full++;
          this.#nameWords.add(w);
          this.#markWord(w);
        }
      }
      if (words.length >= 2 && words.length <= 4 && !this.#names.has(norm)) {
        this.#names.set(norm, { row, exact: true });
      }
      if (full >= 2 && full < words.length) {
        const sub = words.filter((w) => w.length > 1).join(" ");
        if (!this.#names.has(sub)) this.#names.set(sub, { row, exact: false });
      }
      if (row.original !== undefined && !hasNameSeparator(row.original.trim())) {
        this.#needle(row.original, row, true);
      }
      return;
    }
    const key = row.original === undefined ? undefined : this.#needle(row.original, row, true);
    // The canonical form is often the original lowercased (addresses, e-mail): then it is that key.
    if (row.canonical !== row.original && row.canonical !== key) this.#needle(row.canonical, row, true);
  }

  /** A known name starting at `at` (2 to 4 name words joined by spaces, `, `, `^` or `/`). */
  #nameAt(text: string, at: number): Candidate | undefined {
    NAME_RUN.lastIndex = at;
    const m = NAME_RUN.exec(text);
    if (!m) return undefined;
    // Longest first: "Jane Q Doe" before "Jane Q".
    const ends: number[] = [];
    const wordRe = /[\p{L}'\u2019-]+/gu;
    for (let w = wordRe.exec(m[0]); w; w = wordRe.exec(m[0])) ends.push(w.index + w[0].length);
    for (let k = Math.min(ends.length, 4); k >= 2; k--) {
      const value = m[0].slice(0, ends[k - 1]);
      const canon = normalizeName(value);
      const hit = this.#names.get(canon);
      if (!hit) continue;
      if (at + value.length < text.length && isWordChar(text, at + value.length)) continue;
      // Not the first part of a longer caret-joined name ("SAMPLE^LINDA^Q" is matched whole).
      if (
        text[at + value.length] === "^" && !value.includes("^") &&
        /\p{L}/u.test(text[at + value.length + 1] ?? "")
      ) continue;
      return candidate(
        at,
        at + value.length,
        value,
        hit.row.category,
        hit.exact ? hit.row.canonical : canon,
        "known",
      );
    }
    return undefined;
  }

  #update(): void {
    if (this.#version === this.#table.version) return;
    const rows = this.#table.rows();
    if (rows.length < this.#indexed || this.#generation !== this.#table.generation) {
      this.#generation = this.#table.generation;
      this.#byWord = new Map();
      this.#unsorted = new Set();
      this.#split = new Map();
      this.#names = new Map();
      this.#nameWords = new Set();
      this.#wordBits.fill(0);
      this.#indexed = 0;
    }
    for (let i = this.#indexed; i < rows.length; i++) this.#index(rows[i]);
    this.#indexed = rows.length;
    this.#version = this.#table.version;
  }

  /** Tier 4 (known) candidates of `text`. */
  find(text: string): Candidate[] {
    this.#update();
    const out: Candidate[] = [];
    if (this.#byWord.size === 0 && this.#names.size === 0) return out;
    let after = 0;
    // The words of the text (runs of letters and digits, as /[\p{L}\p{N}]+/u finds them), scanned by
    // character code, with no match object per word; the filter hash (FNV-1a of the lowercased
    // word, as asciiWordHash) is computed on the way.
    const n = text.length;
    for (let at = 0, end = 0; at < n; at = end) {
      let c = text.charCodeAt(at);
      let h = 0x811c9dc5;
      let ascii = true;
      if (c < 128) {
        if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90))) {
          end = at + 1;
          continue;
        }
      } else {
        const len = letterOrDigitAt(text, at);
        if (len === 0) {
          end = at + 1;
          continue;
        }
      }
      end = at;
      while (end < n) {
        c = text.charCodeAt(end);
        if (c < 128) {
          if (c >= 97 && c <= 122 || c >= 48 && c <= 57) h = Math.imul(h ^ c, 0x01000193);
          else if (c >= 65 && c <= 90) h = Math.imul(h ^ (c + 32), 0x01000193);
          else break;
          end++;
        } else {
          const l = letterOrDigitAt(text, end);
          if (l === 0) break;
          ascii = false;
          end += l;
        }
      }
      if (at < after) continue;
      if (at > 0 && isWordChar(text, at - 1)) continue;
      if (ascii) {
        h = (h >>> 0) & (WORD_BITS - 1);
        if ((this.#wordBits[h >>> 5] & (1 << (h & 31))) === 0) continue;
      }
      const len = this.#matchWord(text.slice(at, end).toLowerCase(), text, at, end, out);
      if (len !== -1) after = at + len;
    }
    return out;
  }

  /** A known value that starts with `word` (its first word, lowercased) at `at`, pushed to `out`: its length, or -1. */
  #matchWord(word: string, text: string, at: number, end: number, out: Candidate[]): number {
    if (this.#nameWords.has(word)) {
      const c = this.#nameAt(text, at);
      if (c) {
        out.push(c);
        return c.end - at;
      }
    }
    const entry = this.#byWord.get(word);
    if (entry === undefined) return -1;
    if (!Array.isArray(entry)) return tryNeedle(entry, text, at, out);
    if (this.#unsorted.has(word)) {
      // Longest needles first, so "John A Smith" wins over "John Smith" (a stable sort: among forms
      // of one length, the row indexed first).
      entry.sort((a, b) => b.lower.length - a.lower.length);
      this.#unsorted.delete(word);
    }
    if (entry.length <= this.#longList) return tryList(entry, text, at, out);
    // Only the needles whose second part is the text's, then those with none: the same order as the
    // whole list (where both match, the one with a second word is the longer), and no needle
    // skipped could have matched.
    let split = this.#split.get(word);
    if (split === undefined) this.#split.set(word, split = splitBySecond(entry));
    const second = textSecondKey(text, end);
    if (second === undefined) return tryList(entry, text, at, out);
    const len = second === "" ? -1 : tryList(split.get(second), text, at, out);
    return len !== -1 ? len : tryList(split.get(""), text, at, out);
  }
}

/** The first of `list` that matches at `at` (pushed to `out`): its length, or -1. */
function tryList(list: Needle[] | undefined, text: string, at: number, out: Candidate[]): number {
  if (list === undefined) return -1;
  for (const n of list) {
    const len = tryNeedle(n, text, at, out);
    if (len !== -1) return len;
  }
  return -1;
}

/**
 * What follows the first word of a needle: its separator and second word ("-03" of "1980-03-15",
 * " smith" of "john smith", ", jane" of "doe, jane"); "" for a one-word needle, or one with no
 * letter or digit after its separator ("acme_").
 */
function needleSecondKey(lower: string): string {
  let i = 0;
  for (let l = letterOrDigitAt(lower, i); l > 0; l = letterOrDigitAt(lower, i)) i += l;
  const first = i;
  while (i < lower.length && letterOrDigitAt(lower, i) === 0) i++;
  const second = i;
  for (let l = letterOrDigitAt(lower, i); l > 0; l = letterOrDigitAt(lower, i)) i += l;
  // No letter or digit after the separator ("acme_"): the needle matches whatever follows its
  // separator, so it goes with the one-word needles, which are tried after the second-word group.
  return i > second ? lower.slice(first, i) : "";
}

/**
 * The same key read from a text after a first word ending at `at`, the way `matchAt` compares: a
 * run of white space is one space, a comma and the white space after it are ", ", other characters
 * are themselves; characters are folded by `foldChar`, as `matchAt` reads them. "" at the end of the text;
 * undefined when the separator runs on too long to be worth a key (the caller tries the whole list).
 */
function textSecondKey(text: string, at: number): string | undefined {
  let key = "";
  let i = at;
  while (i < text.length && letterOrDigitAt(text, i) === 0) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      key += " ";
    } else if (c === 44) {
      i++;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      key += ", ";
    } else {
      const w = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
      key += foldAt(text, i, w);
      i += w;
    }
    if (key.length > 256) return undefined;
  }
  if (key === "") return "";
  for (let l = letterOrDigitAt(text, i); l > 0; l = letterOrDigitAt(text, i)) {
    key += foldAt(text, i, l);
    i += l;
  }
  return key;
}

/** A sorted list split by `needleSecondKey`, each part in the list's order. */
function splitBySecond(list: readonly Needle[]): Map<string, Needle[]> {
  const out = new Map<string, Needle[]>();
  for (const n of list) {
    const k = needleSecondKey(n.lower);
    const part = out.get(k);
    if (part) part.push(n);
    else out.set(k, [n]);
  }
  return out;
}

/** A tier-4 candidate when `n` matches at `at` (pushed to `out`); the matched length, or -1. */
function tryNeedle(n: Needle, text: string, at: number, out: Candidate[]): number {
  const len = matchAt(text, at, n.lower);
  if (len === -1) return -1;
  const value = text.slice(at, at + len);
  const canonical = n.exact ? n.row.canonical : canonicalize(n.row.category, value);
  if (canonical) out.push(candidate(at, at + len, value, n.row.category, canonical, "known"));
  return len;
}

// ---- resolution -----------------------------------------------------------------------------------

export interface DetectOptions {
  /** Ranges nothing may overlap (the never-tokenize list). */
  protect: SpanSet;
  /** Tier 4 index; omitted: no tier 4. */
  known?: KnownIndex;
  /** Ranges already taken (manual markers); they win over every tier. */
  taken?: SpanSet;
  /** Tiers to run. @default all four */
  tiers?: ReadonlySet<"definite" | "contextual" | "hl7" | "known">;
  /**
   * Where `text` starts in the whole text: returned candidates, `taken` and `accept` use whole-text
   * positions; `protect` uses positions in `text`. @default 0
   */
  offset?: number;
  /** A last say over each candidate before it is taken (e.g. only tier 1 inside HL7 segments). */
  accept?: (c: Candidate) => boolean;
}

/**
 * Tiers 1–4 over `text`, in tier order; first match wins, protected spans excluded. The result is
 * sorted by position and never overlaps.
 *
 * @example
 * detectAuto("MRN 12345678, call 555-123-4567", { protect: protectedSpans(text) });
 */
export function detectAuto(text: string, options: DetectOptions): Candidate[] {
  const tiers = options.tiers;
  const off = options.offset ?? 0;
  const taken = options.taken ?? new SpanSet();
  const out: Candidate[] = [];
  const take = (list: Candidate[]) => {
    for (const c of list) {
      if (c.exact ? c.value.includes("[[") : options.protect.overlaps(c.start, c.end)) continue;
      // ISO dates are only PHI with DOB context; dates elsewhere are left to the protection rules.
      if (c.category === "DOB" && /^\d{4}-\d{2}-\d{2}/.test(c.value) && !hasDobContext(text, c.start)) {
        continue;
      }
      if (off !== 0) c.start += off, c.end += off;
      if (options.accept && !options.accept(c)) continue;
      if (taken.add(c.start, c.end)) out.push(c);
    }
  };
  if (!tiers || tiers.has("definite")) take(findDefinite(text));
  if (!tiers || tiers.has("contextual")) take(findContextual(text));
  if (!tiers || tiers.has("hl7")) take(findHl7Lines(text));
  if (options.known && (!tiers || tiers.has("known"))) take(options.known.find(text));
  return out.sort((a, b) => a.start - b.start);
}
