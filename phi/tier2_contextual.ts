/**
 * Tier 2 (contextual) of the spec's "Auto-PHI detection model": a number (4+ digits; may be
 * `E1234567`, `03/15/1980`, `1980-03-15`) with MRN, Patient, DOB, Account, Visit, Acct, Record or
 * Birth in the 20 characters before it on its line. The other identifier keywords of HL7 shops
 * count as cues too: `MR#`, `Med Rec`, `CSN`, `FIN`, `EMPI`, `Encounter`, `Member ID`, `pt id`,
 * `chart` (before an id). The keyword names the category (issue #23): `account`, `acct`, `FIN` an
 * ACCOUNT; `visit`, `encounter`, `CSN` a VISIT; `member id` a MEMBER; the others an MRN (below,
 * "MRN" stands for whichever of these the keyword gives).
 *
 * Keywords are whole words in either case: `Dobson`, `recorded`, `visitors` hold no keyword. A
 * keyword may be joined to the value (`MRN12345678`, `Mrn-12345678`, `MRN#12345678`) or end a
 * camel-case word (`PatientMRN12345678`); plurals `MRNs`, `Accounts`, `Accts` count. Birth cues are
 * `DOB` (also `D.O.B.`), `Birth`, `Birthdate`, `Birthday`, `born` and `b.` right before a date (`born`
 * and `b.` make birth dates only). Digits that form a date after a birth cue are a DOB, not an MRN:
 * `DOB 01051950` (`MMDDYYYY`), `DOB 010550` (`MMDDYY`), `DOB: 1950.01.05` (`YYYY.M.D`).
 *
 * | Form | Result |
 * |---|---|
 * | a number of 4+ digits in the 20 characters after an identifier keyword | MRN, unless it is a date (an ordinary date is not PHI) or a count (`12345 ms`, `8000 rows`, `4211 messages`) |
 * | the token right after an identifier keyword (past `:`, `#`, `-`, `=`, `number`, `no.`, `id`, one line break): letters and digits with 4+ digits (`HOSP00012345`) | MRN |
 * | a date after a birth cue: numeric, ISO with a time, HL7 `YYYYMMDD[HHMM[SS]]`, month names (`January 5, 1950`, `18-Dec-1986`, `5 Jan 1950`) | one DOB token for the whole date |
 * | a number first on its line, the keyword ending the line before (`MRN:` newline `12345678`) | as on one line |
 * | more values after the first, joined by `,`, `;`, `/`, `and`, `or` (`MRNs 123..., 456..., 789...`) | the first value's category |
 * | more bare numbers of the first one's length after it, separated by spaces only (`MRNs 111 222 333`) | MRN |
 * | digits in space-separated groups right after an identifier keyword (`MRN 12 345 678`) | one MRN token |
 * | a number after a keyword with another noun between them (`Patient count 1234567`, `acct table has 998877`) | nothing: the number belongs to that noun |
 *
 * A date written with a month name after an identifier keyword is an ordinary date: no part of it
 * (its year) becomes an MRN.
 */
import { isDateShaped, parseDate } from "./normalize.ts";
import { lineStart } from "./_chars.ts";
import type { Candidate } from "./candidate.ts";
import { cand, digitCount, NUMBER_RE } from "./_tier_common.ts";

/** The keywords (lowercase, as matched); which are birth cues. */
const KEYWORD_RE =
  /mrns?|mr(?=[ \t]*#)|med\.?[ \t]*rec(?:ord)?s?|csns?|fins?|empi|encounters?|member(?=[ \t]*(?:id|#|no|number)(?![A-Za-z]))|chart(?=[ \t]*(?:#|:|no\.?|number)?[ \t]*[A-Za-z]{0,4}-?\d)|pt(?=[ \t]*(?:id|#)(?![A-Za-z]))|patient|d\.?o\.?b\.?|b\.(?=[ \t]*\d)|accounts?|accts?|visit|record|birth(?:date|day)?|born/gi;
const BIRTH = /^(?:d\.?o|birth|born|b\.)/i;

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;

interface Keyword {
  start: number;
  end: number;
  birth: boolean;
  born: boolean;
  /** The category of an identifier after it: ACCOUNT, VISIT, MEMBER or MRN. */
  category: string;
}

/** The category of the identifier a keyword names (`acct` an account, `CSN` a visit, ...). */
function keywordCategory(k: string): string {
  if (/^(?:accounts?|accts?|fins?)$/i.test(k)) return "ACCOUNT";
  if (/^(?:visit|encounters?|csns?)$/i.test(k)) return "VISIT";
  if (/^member/i.test(k)) return "MEMBER";
  return "MRN";
}

/** The whole-word keywords of `text[from, to)` (positions in `text`). */
function keywordsIn(text: string, from: number, to: number): Keyword[] {
  const out: Keyword[] = [];
  const part = text.slice(from, to);
  KEYWORD_RE.lastIndex = 0;
  for (let m = KEYWORD_RE.exec(part); m; m = KEYWORD_RE.exec(part)) {
    const s = from + m.index;
    const e = s + m[0].length;
    const first = text.charCodeAt(s);
    const prev = s > 0 ? text.charCodeAt(s - 1) : 32;
    // A word start, or a camel-case start (`PatientMRN`: an upper-case keyword after a lower-case letter).
    const startOk = !isLetter(prev) || (isLower(prev) && isUpper(first));
    const last = text.charCodeAt(e - 1);
    const next = e < text.length ? text.charCodeAt(e) : 32;
    // A word end, or the end of a camel-case part (`PatientID`).
    const endOk = !isLetter(next) || (isUpper(next) && isLower(last)) || last === 46;
    if (startOk && endOk) {
      out.push({
        start: s,
        end: e,
        birth: BIRTH.test(m[0]),
        born: /^(?:born|b\.)$/i.test(m[0]),
        category: keywordCategory(m[0]),
      });
    } else KEYWORD_RE.lastIndex = m.index + 1;
  }
  return out;
}

/** Start of the previous line's last 20 characters, when `pos` is first on its line (else -1). */
function previousLineTail(text: string, pos: number): number {
  const ls = lineStart(text, pos);
  for (let i = ls; i < pos; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return -1;
  }
  if (ls === 0) return -1;
  // Past the line break (`\r\n` counts as one).
  let pe = ls - 1;
  if (text.charCodeAt(pe) === 10 && pe > 0 && text.charCodeAt(pe - 1) === 13) pe--;
  const pls = lineStart(text, pe);
  return Math.max(pls, pe - 20);
}

/**
 * The cues before `pos`: a keyword of `kws` (the keywords around, in text order) in the 20
 * characters before it on its line, or ending the line before when `pos` is first on its line.
 */
function cueBefore(
  text: string,
  pos: number,
  kws: readonly Keyword[],
): { id: boolean; birth: boolean; bornOnly: boolean; category: string } {
  const ls = lineStart(text, pos);
  let from = Math.max(ls, pos - 20), to = pos;
  if (!kws.some((k) => k.start >= from && k.end <= to)) {
    const tail = previousLineTail(text, pos);
    if (tail === -1) return NO_CUE;
    let pe = ls - 1;
    if (text.charCodeAt(pe) === 10 && pe > 0 && text.charCodeAt(pe - 1) === 13) pe--;
    from = tail, to = pe;
  }
  let id = false, birth = false, other = false;
  let category = "MRN";
  for (const k of kws) {
    if (k.start < from || k.end > to) continue;
    if (!k.birth) id = true, category = k.category;
    else {
      birth = true;
      if (!k.born) other = true;
    }
  }
  return { id, birth, bornOnly: birth && !other && !id, category };
}

const NO_CUE = { id: false, birth: false, bornOnly: false, category: "MRN" };

/**
 * A noun or verb between a keyword and a number that makes the number belong to something else
 * (`Patient count 1234567`, `acct table has 998877 entries`).
 */
const OTHER_NOUN =
  /(?<![A-Za-z])(?:counts?|total|totals|tables?|size|length|len|queue|depth|limit|max|min|threshold|fields?|segments?|columns?|port|threads?|version|batch|index|has|have|had|of)(?![A-Za-z])/i;

/** A birth date written as bare digits: `MMDDYYYY` or `MMDDYY` with a valid month and day. */
function compactBirthDate(s: string): boolean {
  if (s.length === 8) return parseDate(`${s.slice(0, 2)}/${s.slice(2, 4)}/${s.slice(4)}`) !== undefined;
  if (s.length === 6) return parseDate(`${s.slice(0, 2)}/${s.slice(2, 4)}/${s.slice(4)}`) !== undefined;
  return false;
}

// A count, not an identifier: a number followed by a unit.
export const UNIT_RE =
  /^[ \t]*(?:ms|msecs?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|yrs?|bytes?|[kmgt]i?b|rows?|records?|messages?|msgs?|lines?|files?|items?|entries|entry|errors?|retries|times|patients|visits|accounts|users|requests|calls|events|segments|transactions|txns?|hits|%|percent)(?![A-Za-z])/i;

const MON = String
  .raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/** Three-letter months written against the day and year (`01JAN1980`, as in clinical systems). */
const MON3 = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
/** Date forms a birth cue may precede (longest forms first). */
const DATE_RE = new RegExp(
  String.raw`(?<![\w\/.-])(?:` +
    String.raw`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?` +
    String.raw`|(?:18|19|20)\d{6}(?:\d{2}(?:\d{2}(?:\d{2})?)?)?` +
    String.raw`|\d{1,2}([-\/.])\d{1,2}\1(?:\d{4}|\d{2})` +
    String.raw`|(?:18|19|20)\d{2}([-\/.])\d{1,2}\2\d{1,2}` +
    String.raw`|${MON}[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4}` +
    String.raw`|\d{1,2}(?:st|nd|rd|th)?(?:[ \t]+|-)(?:of[ \t]+)?${MON}(?:,?[ \t]+|-)\d{4}` +
    String.raw`|\d{1,2}${MON3}(?:\d{4}|\d{2})` +
    String.raw`)(?![\w\/-]|\.\d)`,
  "gi",
);
/** `DATE_RE` at one place (sticky). */
const DATE_AT = new RegExp(DATE_RE.source, "iy");
/** First letters of the month names, by lowercase char code. */
const MONTH_FIRST = new Uint8Array(128);
for (const c of "jfmasond") MONTH_FIRST[c.charCodeAt(0)] = 1;
const YEAR = /^(?:1[89]|20)\d\d$/;
/** What precedes the year of a month-name date. */
const MONTH_DATE_BEFORE = new RegExp(
  `(?:(?<![A-Za-z])${MON}[ \\t]+\\d{1,2}(?:st|nd|rd|th)?,?[ \\t]+|\\d{1,2}(?:st|nd|rd|th)?(?:[ \\t]+|-)(?:of[ \\t]+)?${MON}(?:,?[ \\t]+|-))$`,
  "i",
);

// After an identifier keyword: separators (one line break at most), an optional `number`/`no.`/`id`
// word, then the identifier.
const AFTER_KEYWORD =
  /[ \t]{0,3}(?:[:#=.-][ \t]{0,3})?(?:(?:number|num|nbr|no\.?|id)(?![A-Za-z])[ \t]{0,3}(?:[:#=.-][ \t]{0,3})?){0,2}(?:\r?\n[ \t]*)?/iy;
const IDENT = /[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]|[A-Za-z0-9]/y;
/** Digits in space-separated groups (`12 345 678`), the identifier right after a keyword. */
const GROUPED = /\d{1,4}(?: \d{2,4}){1,3}(?![\w\/]|[ .:-]?\d)/y;
/** A space alone between the values of a list of bare numbers (`MRNs 111 222 333`). */
const SPACE_SEP = /[ \t]+/y;
const STARTS_WITH_KEYWORD = /^(?:mrns?|patient|dob|accounts?|accts?|visit|record|birth)(?![a-z])/i;
// Between the values of a list.
const LIST_SEP = /[ \t]*(?:[,;\/&]|and(?![A-Za-z])|or(?![A-Za-z]))[ \t]*(?:(?:and|or)[ \t]+)?/iy;

/**
 * Tier 2 (contextual) candidates: values with a PHI keyword before them (see the module doc).
 *
 * @example
 * ```ts
 * import { findContextual } from "./tier2_contextual.ts";
 * findContextual("MRN: 12345678").map((c) => c.value); // ["12345678"]
 * ```
 */
export function findContextual(text: string, byLine = true): Candidate[] {
  const out: Candidate[] = [];
  // The keywords of the whole text, in one pass.
  const kws = keywordsIn(text, 0, text.length);
  if (kws.length === 0) return out;
  if (!byLine) {
    contextualIn(text, 0, text.length, out, kws);
    return out;
  }
  // A value's cue is on its line or ends the line before: only lines with a keyword, and the line
  // after each, can hold a match (the same matches as a scan of the whole text).
  let done = 0;
  let first = 0; // the first keyword that may matter for the next range
  for (let i = 0; i < kws.length;) {
    const k = kws[i];
    const ls = Math.max(lineStart(text, k.start), done);
    let le = k.start;
    while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    const own = le;
    // The next line too.
    if (le < text.length) {
      le += text.charCodeAt(le) === 13 && text.charCodeAt(le + 1) === 10 ? 2 : 1;
      while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    }
    if (le > ls) {
      // The keywords of the range and of the line before it.
      const from = ls > 0 ? lineStart(text, ls - 1) : 0;
      while (first < kws.length && kws[first].start < from) first++;
      let last = first;
      while (last < kws.length && kws[last].start < le) last++;
      contextualIn(text, ls, le, out, kws.slice(first, last));
    }
    done = Math.max(done, le);
    // The next keyword may be on the next line (already scanned up to `done`), whose next line is not.
    while (i < kws.length && kws[i].start < own) i++;
  }
  return out;
}

/** Tier-2 candidates starting in `[start, end)` of `text` (a line and the next, or the whole text). */
function contextualIn(
  text: string,
  start: number,
  end: number,
  out: Candidate[],
  kws: readonly Keyword[],
): void {
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  const found: Candidate[] = [];
  // Only candidates that start in the range: the next range finds the others (once).
  const push = (c: Candidate | undefined) => {
    if (!c || c.start < start || c.start >= end) return;
    if (!found.some((x) => x.start < c.end && c.start < x.end)) found.push(c);
  };
  // Dates after a birth cue: one DOB token for the whole date. A date after a birth cue starts
  // within 20 characters of it, or first on the next line, and the longest form is under 40
  // characters: only the 96 characters after each birth keyword are read, and only where a word
  // starts with a digit or a month's first letter (a date read twice is taken once).
  for (const k of kws) {
    if (!k.birth) continue;
    const from = Math.max(k.end, start);
    const to = Math.min(end, k.end + 96);
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      const prev = i > 0 ? text.charCodeAt(i - 1) : 32;
      const digit = c >= 48 && c <= 57;
      if (digit ? prev >= 48 && prev <= 57 : !(MONTH_FIRST[c | 32] === 1 && !isLetter(prev))) continue;
      DATE_AT.lastIndex = i;
      const m = DATE_AT.exec(text);
      if (m === null) continue;
      if (cueBefore(text, i, kws).birth && parseDate(m[0]) !== undefined) {
        const c = cand(text, i, i + m[0].length, "DOB", "contextual");
        push(c);
        if (c) list(text, c, push);
      }
      i += m[0].length - 1;
    }
  }

  // The identifier right after an identifier keyword (joined, alphanumeric, or on the next line).
  for (const k of kws) {
    if (k.birth) continue;
    AFTER_KEYWORD.lastIndex = k.end;
    if (!AFTER_KEYWORD.exec(text)) continue;
    GROUPED.lastIndex = AFTER_KEYWORD.lastIndex;
    const g = GROUPED.exec(text);
    if (
      g && digitCount(g[0]) >= 6 &&
      !UNIT_RE.test(text.slice(g.index + g[0].length, g.index + g[0].length + 16))
    ) {
      // `MRN 12 345 678`: one identifier written in groups.
      const c = cand(text, g.index, g.index + g[0].length, k.category, "contextual");
      push(c);
      continue;
    }
    IDENT.lastIndex = AFTER_KEYWORD.lastIndex;
    const m = IDENT.exec(text);
    if (!m) continue;
    const s = m.index, e = s + m[0].length;
    if (e < text.length && /[\w\/]/.test(text[e])) continue;
    if (text[e] === "." && /\d/.test(text[e + 1] ?? "")) continue;
    if (digitCount(m[0]) < 4 || STARTS_WITH_KEYWORD.test(m[0])) continue;
    if (isDateShaped(m[0]) && !/^\d+$/.test(m[0])) continue;
    if (UNIT_RE.test(text.slice(e, e + 16))) continue;
    const c = cand(text, s, e, k.category, "contextual");
    push(c);
    if (c) list(text, c, push);
  }

  // Numbers with a keyword in the 20 characters before them.
  NUMBER_RE.lastIndex = 0;
  for (let m = NUMBER_RE.exec(part); m; m = NUMBER_RE.exec(part)) {
    if (digitCount(m[0]) < 4) continue;
    const at = start + m.index;
    const e = at + m[0].length;
    // The year of a month-name date (`January 5, 2024`, `5 Jan 2024`) is not an identifier.
    if (
      m[0].length === 4 && YEAR.test(m[0]) && MONTH_DATE_BEFORE.test(text.slice(Math.max(0, at - 24), at))
    ) {
      continue;
    }
    const cue = cueBefore(text, at, kws);
    if (!cue.id && !cue.birth) continue;
    // A bare run of digits after an identifier keyword is an identifier even when it reads as a
    // date (`Visit 20380117`); a written date (`03/15/2024`) is an ordinary date, not PHI, unless a
    // birth cue makes it a birth date.
    const bare = /^\d+$/.test(m[0]);
    // A birth cue wins over the identifier reading of digits that form a date (`DOB 01051950`).
    const date = (isDateShaped(m[0]) && (cue.birth || !bare)) ||
      (cue.birth && bare && compactBirthDate(m[0]));
    if (date && !cue.birth) continue;
    if (!date && UNIT_RE.test(text.slice(e, e + 16))) continue;
    // `born` alone makes birth dates only (`born in 1977` is a year, not an identifier).
    if (!date && cue.bornOnly) continue;
    if (!date && OTHER_NOUN.test(text.slice(Math.max(lineStart(text, at), at - 20), at))) continue;
    const c = cand(text, at, e, date ? "DOB" : cue.category, "contextual");
    push(c);
    if (c) list(text, c, push);
  }
  for (const c of found) out.push(c);
}

/** The values of a list that begins with `head` (same line), pushed with its category. */
function list(text: string, head: Candidate, push: (c: Candidate | undefined) => void): void {
  let at = head.end;
  for (let n = 0; n < 50; n++) {
    LIST_SEP.lastIndex = at;
    let from: number;
    let spaced = false;
    if (LIST_SEP.exec(text)) from = LIST_SEP.lastIndex;
    else {
      // Bare numbers of the head's length, separated by spaces only.
      SPACE_SEP.lastIndex = at;
      if (head.category === "DOB" || !/^\d+$/.test(head.value) || !SPACE_SEP.exec(text)) return;
      from = SPACE_SEP.lastIndex;
      spaced = true;
    }
    let value: string | undefined;
    if (head.category === "DOB") {
      DATE_AT.lastIndex = from;
      const m = DATE_AT.exec(text);
      if (!m || parseDate(m[0]) === undefined) return;
      value = m[0];
    } else {
      IDENT.lastIndex = from;
      const m = IDENT.exec(text);
      if (!m) return;
      value = m[0];
      const e = from + value.length;
      if (e < text.length && /[\w\/]/.test(text[e])) return;
      if (digitCount(value) < 4 || UNIT_RE.test(text.slice(e, e + 16))) return;
      if (isDateShaped(value) && !/^\d+$/.test(value)) return;
      if (spaced && (value.length !== head.value.length || !/^\d+$/.test(value))) return;
    }
    const c = cand(text, from, from + value.length, head.category, "contextual");
    if (!c) return;
    push(c);
    at = c.end;
  }
}
