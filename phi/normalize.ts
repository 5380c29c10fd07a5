/**
 * Canonical values (spec, "PHI lookup table", Normalization) and the category auto-detection table
 * for manual markers. The canonical value is the lookup key: two spellings of one value that
 * normalize alike share one token.
 *
 * | Category | Canonical form |
 * |---|---|
 * | NAME (and presidio_PERSON, presidio_HL7_CARET_NAME) | lowercase; `,` `^` `/` and white space separate; unique alphabetic tokens, sorted, joined by one space |
 * | DOB (and DATE) | `YYYY-MM-DD` from HL7 `YYYYMMDD[HHMM[SS]]`, ISO, `M/D/YYYY`, `M-D-YYYY`, `M.D.YYYY`, `M/D/YY`, `Mar 15, 1980`, `15 Mar 1980`; anything else trimmed |
 * | SSN, PHONE (and presidio_US_SSN, presidio_PHONE_NUMBER, presidio_HL7_PHONE_BARE) | digits only |
 * | EMAIL (and presidio_EMAIL_ADDRESS) | trimmed, lowercase; a URL-encoded `%40` read as `@` |
 * | CARD | digits only |
 * | NPI | digits only when the value is digits with separators (an optional `NPI:` prefix dropped); otherwise trimmed |
 * | ADDRESS | trimmed, inner white space collapsed, lowercase |
 * | AGE | digits only |
 * | IP | trimmed, lowercase (IPv6 hex) |
 * | MRN, ACCOUNT, VISIT, MEMBER, LICENSE, DEVICE, URL, MANUAL, any other category | outer white space trimmed |
 */
import { MONTHS } from "../core/months.ts";

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  if (month === 2 && (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return 29;
  return DAYS[month - 1];
}

function ymd(y: number, m: number, d: number): string | undefined {
  if (y < 1800 || y > 2200 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return undefined;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function twoDigitYear(yy: number, now = new Date()): number {
  const cur = now.getUTCFullYear() % 100;
  const century = now.getUTCFullYear() - cur;
  return yy <= cur ? century + yy : century - 100 + yy;
}

function monthOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, "");
  return MONTHS[w] ?? MONTHS[w.slice(0, 3)] ?? undefined;
}

/**
 * Parses the common HL7 and US date forms into `YYYY-MM-DD`; undefined when the text is not a date.
 *
 * @example
 * ```ts
 * parseDate("19800315"); // "1980-03-15"
 * parseDate("3/15/1980"); // "1980-03-15"
 * parseDate("Mar 15, 1980"); // "1980-03-15"
 * parseDate("12345"); // undefined
 * ```
 */
export function parseDate(text: string): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?)?(?:[+-]\d{4})?$/.exec(t);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/
    .exec(t);
  if (m) return ymd(+m[1], +m[3], +m[4]);
  m = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/.exec(t);
  if (m) {
    const y = m[4].length === 2 ? twoDigitYear(+m[4]) : +m[4];
    return ymd(y, +m[1], +m[3]);
  }
  m = /^([A-Za-z]{3,9}\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(t);
  if (m) {
    const mo = monthOf(m[1]);
    return mo === undefined ? undefined : ymd(+m[3], mo, +m[2]);
  }
  m = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+(?:of\s+)?([A-Za-z]{3,9}\.?)[\s-,]+(\d{4})$/.exec(t);
  if (m) {
    const mo = monthOf(m[2]);
    return mo === undefined ? undefined : ymd(+m[3], mo, +m[1]);
  }
  // `01JAN1980`, `1Jan80`: day, three-letter month and year written together.
  m = /^(\d{1,2})([A-Za-z]{3})(\d{4}|\d{2})$/.exec(t);
  if (m) {
    const mo = monthOf(m[2]);
    const y = m[3].length === 2 ? twoDigitYear(+m[3]) : +m[3];
    return mo === undefined ? undefined : ymd(y, mo, +m[1]);
  }
  return undefined;
}

/** True when the text is one of the date forms `parseDate` reads. */
export function isDateShaped(text: string): boolean {
  return parseDate(text) !== undefined;
}

const NAME_SPLIT = /[\s,^/]+/u;
const ALPHA_TOKEN = /^\p{L}[\p{L}'\u2019-]*$/u;

/**
 * The NAME canonical form: `SMITH^JOHN`, `Smith, John`, `John Smith` and `JOHN SMITH` all give
 * `john smith`.
 *
 * @example
 * ```ts
 * normalizeName("SMITH^JOHN^A"); // "a john smith"
 * ```
 */
export function normalizeName(value: string): string {
  const fast = normalizeAsciiName(value);
  if (fast !== undefined) return fast;
  const seen = new Set<string>();
  for (let tok of value.toLowerCase().split(NAME_SPLIT)) {
    if (tok === "") continue;
    if (!isAsciiLetters(tok)) {
      tok = tok.replace(/^[.'"(]+|[.'")]+$/g, "");
      if (!tok || !ALPHA_TOKEN.test(tok)) continue;
    }
    seen.add(tok);
  }
  if (seen.size === 0) return value.trim().toLowerCase();
  return [...seen].sort().join(" ");
}

// Token bounds of the name being normalized (scratch; normalization is synchronous).
const TOK_S: number[] = [];
const TOK_E: number[] = [];

/**
 * The common case without regular expressions: ASCII letters and separators only. One lowercase
 * copy of the value, tokens sliced from it and kept sorted and distinct as they are added.
 */
function normalizeAsciiName(value: string): string | undefined {
  let n = 0;
  let start = -1;
  let upper = false;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) {
      upper = true;
      if (start === -1) start = i;
    } else if (c >= 97 && c <= 122) {
      if (start === -1) start = i;
    } else if (c === 32 || c === 44 || c === 94 || c === 47 || c === 9) {
      if (start !== -1) {
        TOK_S[n] = start;
        TOK_E[n] = i;
        n++;
        start = -1;
      }
    } else {
      return undefined;
    }
  }
  if (n === 0) return undefined;
  const low = upper ? value.toLowerCase() : value;
  if (n === 1) return TOK_S[0] === 0 && TOK_E[0] === low.length ? low : low.slice(TOK_S[0], TOK_E[0]);
  const toks: string[] = [];
  for (let k = 0; k < n; k++) {
    const t = low.slice(TOK_S[k], TOK_E[k]);
    let j = toks.length;
    while (j > 0 && toks[j - 1] > t) j--;
    if (j > 0 && toks[j - 1] === t) continue;
    toks.push(t);
    for (let m = toks.length - 1; m > j; m--) toks[m] = toks[m - 1];
    toks[j] = t;
  }
  return toks.length === 1 ? toks[0] : toks.join(" ");
}

/**
 * The words of a NAME canonical form without its initials (one-letter words): the key under which
 * tier 4 finds `Jane Doe` for a known `jane q doe`, and the lookup table gives both one token.
 *
 * @example
 * ```ts
 * import { nameWithoutInitials } from "./normalize.ts";
 * nameWithoutInitials("horatio q vanderhoeven"); // "horatio vanderhoeven"
 * ```
 */
export function nameWithoutInitials(canonical: string): string {
  // Most names have no initial: then the form is its own key (no split, no copy).
  let start = 0;
  let initial = false;
  for (let i = 0; i <= canonical.length && !initial; i++) {
    if (i === canonical.length || canonical.charCodeAt(i) === 32) {
      initial = i - start === 1;
      start = i + 1;
    }
  }
  if (!initial) return canonical;
  let out = "";
  start = 0;
  for (let i = 0; i <= canonical.length; i++) {
    if (i === canonical.length || canonical.charCodeAt(i) === 32) {
      if (i - start > 1) out = out === "" ? canonical.slice(start, i) : `${out} ${canonical.slice(start, i)}`;
      start = i + 1;
    }
  }
  return out;
}

/**
 * True when `s` is a NAME canonical form made of ASCII words: lowercase letters, words separated by
 * one space, strictly increasing (sorted, no repeats). `normalizeName` would give it back unchanged.
 */
export function isCanonicalAsciiName(s: string): boolean {
  let prev = -1; // start of the previous word
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    if (c >= 97 && c <= 122) continue;
    if (c !== 32 || i === start) return false;
    if (prev !== -1) {
      // The previous word [prev, start - 1) must sort before this one [start, i).
      let a = prev, b = start;
      while (a < start - 1 && b < i && s.charCodeAt(a) === s.charCodeAt(b)) a++, b++;
      const less = a === start - 1 ? b < i : b < i && s.charCodeAt(a) < s.charCodeAt(b);
      if (!less) return false;
    }
    prev = start;
    start = i + 1;
  }
  return s.length > 0;
}

/** Fast path: a-z only. */
function isAsciiLetters(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return s.length > 0;
}

/** Digits only (the value itself when it is all digits already). */
const digits = (v: string) => {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return v.replace(/\D+/g, "");
  }
  return v;
};

type Normalizer = (value: string) => string;

const trim: Normalizer = (v) => v.trim();
const date: Normalizer = (v) => parseDate(v) ?? v.trim();
/** An e-mail, lowercased, with a URL-encoded `%40` read as the `@` it stands for. */
const email: Normalizer = (v) => {
  const l = v.trim().toLowerCase();
  return l.indexOf("%40") !== -1 && l.indexOf("@") === -1 ? l.replace("%40", "@") : l;
};
const npi: Normalizer = (v) => {
  const t = v.trim().replace(/^NPI\s*[:#]?\s*/i, "");
  return /^[\d\s.-]+$/.test(t) && /\d/.test(t) ? digits(t) : t;
};
const address: Normalizer = (v) => {
  const t = v.trim();
  // Inner white space is usually single spaces already: then only the case changes.
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 32 ? t.charCodeAt(i + 1) === 32 : c < 32 || c > 126) {
      return t.replace(/\s+/g, " ").toLowerCase();
    }
  }
  return t.toLowerCase();
};

const NORMALIZERS: Record<string, Normalizer> = {
  NAME: normalizeName,
  DOB: date,
  DATE: date,
  SSN: digits,
  CARD: digits,
  PHONE: digits,
  EMAIL: email,
  NPI: npi,
  ADDRESS: address,
  MRN: trim,
  ACCOUNT: trim,
  VISIT: trim,
  MEMBER: trim,
  LICENSE: trim,
  DEVICE: trim,
  URL: trim,
  IP: (v) => v.trim().toLowerCase(),
  AGE: digits,
  MANUAL: trim,
  presidio_PERSON: normalizeName,
  presidio_HL7_CARET_NAME: normalizeName,
  presidio_US_SSN: digits,
  presidio_PHONE_NUMBER: digits,
  presidio_HL7_PHONE_BARE: digits,
  presidio_EMAIL_ADDRESS: email,
};

/**
 * The canonical value of `value` in `category` (the lookup key). An empty result means there is
 * nothing to tokenize.
 *
 * @example
 * ```ts
 * canonicalize("NAME", "Smith, John"); // "john smith"
 * canonicalize("DOB", "03/15/1980"); // "1980-03-15"
 * canonicalize("PHONE", "(555) 123-4567"); // "5551234567"
 * ```
 */
export function canonicalize(category: string, value: string): string {
  return (NORMALIZERS[category] ?? trim)(value);
}

/**
 * The category of a manually marked value (spec, "Category auto-detection for manual markers"),
 * first matching row wins: pure digits 4–15 long → MRN; 9 digits with dashes → SSN; date-shaped →
 * DOB; a caret or comma → NAME; two or more alphabetic tokens → NAME; anything else → MANUAL.
 *
 * @example
 * ```ts
 * detectCategory("12345678"); // "MRN"
 * detectCategory("123-45-6789"); // "SSN"
 * detectCategory("1980-03-15"); // "DOB"
 * detectCategory("SMITH^JOHN"); // "NAME"
 * detectCategory("Springfield"); // "MANUAL"
 * ```
 */
export function detectCategory(value: string): string {
  const t = value.trim();
  if (/^\d{4,15}$/.test(t)) return "MRN";
  if (/^\d{3}-\d{2}-\d{4}$/.test(t)) return "SSN";
  if (isDateShaped(t)) return "DOB";
  if (/[\^,]/.test(t)) return "NAME";
  let alpha = 0;
  for (const tok of t.split(/\s+/)) {
    if (ALPHA_TOKEN.test(tok.replace(/[.]+$/, ""))) alpha++;
  }
  if (alpha >= 2) return "NAME";
  return "MANUAL";
}
