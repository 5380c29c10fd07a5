/**
 * Tier 1 (definite) of the spec's "Auto-PHI detection model": values whose shape alone (or with a cue
 * word right before them) makes them PHI.
 *
 * | Category | What matches |
 * |---|---|
 * | SSN | `123-45-6789`; also with dots or en dashes, or with spaces after an SSN cue (one separator throughout, a valid area/group/serial); 9 bare digits after an SSN cue (`SSN`, `SS#`, `social security number`), also first on the next line |
 * | EMAIL | an address, also inside a URL query string or path, and with `%40` for the `@` |
 * | PHONE | NANP `(555) 123-4567`, `555-123-4567`, `555.123.4567` with an optional `+1`/`1-`/`001-`; `+1 555 123 4567`; any `+CC` international number of 8–15 digits; a space-separated (`3 3 4` or `3 7`) or bare 10-digit number after a phone cue (`phone`, `tel`, `fax`, `cell`, `mobile`, `call`/`called`/`calling`, ...; up to 48 characters before it, no id word between) or with one after it (`(cell)`, `home phone`); national numbers with the trunk `0` and their country's grouping (UK `07700 900 966`, `020 7946 0958`; FR `06 12 34 56 78`; AU `0412 345 678`, `(02) 9876 5432`; DE `030 12345678`) and bare mobiles (`07700900966`, `0612345678`, `0412345678`, `015123456789`), never after an id word (`control id`, `seq`, `port`, `count`, ...) or in an HL7 field; `937–555–0142` with en dashes; `+19375550142`. An extension (`x4587`, `ext. 12`) belongs to the token; a word suffix (`-Fax`) does not stop the match |
 * | NPI | 10 digits after an explicit `NPI:`; after `NPI` with other separators or joined (`NPI 1234567893`, `NPI#`, `NPI1234567893`) only when the check digit is valid (Luhn over `80840` + the number) |
 * | CARD | 13–19 digits passing the Luhn check, bare or grouped with one separator (space or dash): after a card cue (`card`, `cc`, `credit`, `debit`, `visa`, ...) in the 30 characters before it on its line; without a cue only in a card layout (`4-4-4-4[-1..3]`, `4-6-5`, `4-6-4`) with a known network prefix (IIN) |
 *
 * Cards: a bare run of 13–19 digits without a cue is never tokenized. Engine logs and HL7 are full of
 * such runs (message control ids, timestamps, sequence numbers) and one in ten passes the Luhn check
 * by chance; a cue word or the card layout with a real network prefix is what makes a number a card.
 */
import type { Candidate } from "./candidate.ts";
import { cand, contextWindow } from "./_tier_common.ts";

/** Digits of `s` pass the Luhn check. */
export function luhnValid(s: string): boolean {
  let sum = 0;
  let dbl = false;
  let n = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) continue;
    n++;
    let d = c;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return n > 0 && sum % 10 === 0;
}

/** A 10-digit NPI whose check digit is valid (Luhn over the `80840` prefix and the number). */
export function npiValid(digits: string): boolean {
  return /^\d{10}$/.test(digits) && luhnValid("80840" + digits);
}

/** Area, group and serial of an SSN as the SSA issues them (no 000/666/9xx area, 00 group, 0000 serial). */
function ssnPlausible(d: string): boolean {
  return !/^(?:000|666|9)/.test(d) && d.slice(3, 5) !== "00" && d.slice(5) !== "0000";
}

/** Card network prefixes (IIN ranges) of the major networks. */
const CARD_IIN =
  /^(?:4|5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)|3[47]|3(?:0[0-5]|[689])|35(?:2[89]|[3-8]\d)|6(?:011|5|4[4-9]|2)|5[06-9]|6\d)/;

const CARD_CUE =
  /(?<![A-Za-z])(?:card|cards|cc|credit|debit|visa|master\s?card|amex|american\s+express|discover|maestro|jcb|diners|pan)(?![A-Za-z])/i;
const PHONE_CUE =
  /(?<![A-Za-z])(?:phone|phones|ph|tel|telephone|fax|cell|cellphone|mobile|pager|call(?:ed|ing|s)?|call[ \t-]?backs?|contact\s+(?:number|no)|answering|reach(?:ed)?\s+(?:me|us|him|her|them|you)|text(?:ed)?\s+(?:me|us|him|her|them)|sms|dial(?:ed|ing)?|ring\s+(?:me|us)|voicemail|whatsapp|messages\s+to|registered|(?:desk|office|home|work|direct|landline)(?=[ \t]*:))(?![A-Za-z])/i;
const SSN_CUE = /(?<![A-Za-z])(?:ssn|ss#|ss\s*no|social\s+security(?:\s+(?:number|no|#))?)(?![A-Za-z])/i;

// An extension (part of the token) and the end of a phone: no digit or word character may follow,
// but a word suffix joined by a dash ("-Fax") may.
const EXT = String.raw`(?:[ \t]*(?:x|ext\.?|extension)[ \t]*\d{1,6})?`;
const PHONE_END = String.raw`(?![\w]|[-.]\d)`;
/** An id word right before a number: it is an identifier, a count or a setting, not a phone. */
const ID_BEFORE =
  /(?:\bid|\bids|#|\bno\.?|\bnum|\bseq(?:uence)?|\bcontrol|\bctrl|\bport|\bpid|\bcount|\bmsgs?|\bmessages?|\berror|\berrno|\bcode|\bstatus|\bversion|\bbuild|\bsize|\boffset|\bline|\bmrn|\bacct|\baccount|\bvisit|\brecord|\bbatch|\bfile|\border|\bclaim|\binvoice|\bts|\bepoch|\btime|\bdepth|\btotal|\bqueued?|\bsince|\bbytes)[ \t]*[:=#]?[ \t]*$/i;
/** A unit after a number: a count or a size, not a phone. */
const UNIT_AFTER =
  /^[ \t]*(?:ms|s|secs?|bytes?|[kmg]i?b|rows?|records?|messages?|msgs?|lines?|files?|items?|entries|errors?)\b/i;
const INTL_BEFORE = /(?<![\w+])\+\d{1,3}[ \t.-]?(?:\(\d{1,4}\)[ \t.-]?)?$/;

/**
 * A number written as a phone next to a phone cue: an optional `1` or `+CC`, an optional area code in
 * parentheses, then groups of digits joined by one space, dot or dash (or one bare run).
 */
const CUE_NUM = String
  .raw`(?:(?:\+\d{1,3}|1)[ \t.-]?)?(?:\(\d{1,5}\)[ \t.-]?)?\d{1,8}(?:[ \t.-]\d{1,8}){0,5}|(?:1[ \t.-]?)?\d{7,15}`;

const digitsOf = (v: string) => v.replace(/(?:x|ext\.?|extension)[ \t]*\d+$/i, "").replace(/\D/g, "").length;

/** A value after or before a phone cue that is a phone (see the cue rules). */
function cuedPhone(t: string, at: number, v: string): boolean {
  const n = digitsOf(v);
  const core = v.replace(/[ \t]*(?:x|ext\.?|extension)[ \t]*\d+$/i, "");
  const grouped = /[ \t.()-]/.test(core);
  if (n > 15 || n < (grouped ? 6 : 7)) return false;
  // Dates, times, dotted quads and versions are not phones.
  if (/^\d{1,4}([.\/-])\d{1,2}\1\d{1,4}$/.test(core)) return false;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(core)) return false;
  // Groups of one digit only are a list of small numbers, not a phone.
  if (grouped && core.split(/[ \t.()-]+/).filter((g) => g.length > 1).length < 2) return false;
  if (ID_BEFORE.test(t.slice(Math.max(0, at - 24), at))) return false;
  return !UNIT_AFTER.test(t.slice(at + v.length, at + v.length + 12));
}

interface Rule {
  re: RegExp;
  category: string;
  group?: number;
  /** A last check on the match (the text, the match's start and its value). */
  check?: (text: string, start: number, value: string) => boolean;
  /** A cheap test on the whole text: false means the rule cannot match. */
  need?: (text: string) => boolean;
  /** Prose only: not run over HL7 segments (their phone fields are the field policy's). */
  prose?: boolean;
}

const TIER1: Rule[] = [
  {
    // International `+CC ...` (not +1, the NANP rules' own): 8 to 15 digits in groups, an optional
    // `(0)` trunk prefix. First, so that no SSN or NANP shape inside one wins over it.
    re: new RegExp(
      String.raw`(?<![\w+])\+[2-9]\d{0,2}(?:[ \t.-]?\(\d{1,4}\))?[ \t.-]?\d+(?:[ \t.-]\d+){0,5}` + EXT +
        PHONE_END,
      "gi",
    ),
    category: "PHONE",
    check: (_t, _s, v) => {
      const n =
        v.replace(/(?:x|ext\.?|extension)[ \t]*\d+$/i, "").replace("(0)", "").replace(/\D/g, "").length;
      return n >= 8 && n <= 15;
    },
    need: (t) => t.indexOf("+") !== -1,
  },
  { re: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g, category: "SSN" },
  {
    // Spaces, dots or en dashes, one separator throughout.
    re: /(?<![\w.\u2013-])\d{3}([ .\u2013])\d{2}\1\d{4}(?![\w\u2013-]|\.\d)/g,
    category: "SSN",
    // Spaces need an SSN cue (`Suite 680 36 4022` is an address); dots and en dashes do not.
    check: (t, s, v) =>
      ssnPlausible(v.replace(/\D/g, "")) && !INTL_BEFORE.test(contextWindow(t, s, 12)) &&
      (v[3] !== " " || SSN_CUE.test(contextWindow(t, s, 24))),
  },
  {
    // Nine bare digits right after an SSN cue (up to 16 other characters between them).
    re: new RegExp(
      SSN_CUE.source + String.raw`[^\r\n\d]{0,16}?(?:\r?\n[ \t]*)?(?<![\w.-])(\d{9})(?![\w-]|\.\d)`,
      "gi",
    ),
    category: "SSN",
    group: 1,
    check: (_t, _s, v) => ssnPlausible(v),
    need: (t) => /ssn|ss#|ss\s*no|social/i.test(t),
  },
  {
    re: new RegExp(
      String
        .raw`(?<![\w.+-])(?:(?:\+?1|001)[ \t.-]?)?(?:\(\d{3}\)[ \t.-]?\d{3}[ \t.-]\d{4}|\d{3}-\d{3}-\d{4}|\d{3}\.\d{3}\.\d{4}|\d{3}\u2013\d{3}\u2013\d{4})` +
        EXT + PHONE_END,
      "gi",
    ),
    category: "PHONE",
    // Not the tail of an international number (`+91 (0)878-406-5199`): the rule below takes it whole.
    check: (t, s) => !INTL_BEFORE.test(contextWindow(t, s, 12)),
  },
  {
    // `+1 555 123 4567`: the plus makes the spaced form definite.
    re: new RegExp(
      String.raw`(?<![\w+])\+1(?:[ \t]?\d{3}[ \t]\d{3}[ \t]\d{4}|\d{10})` + EXT + PHONE_END,
      "gi",
    ),
    category: "PHONE",
  },
  {
    // A number written as a phone after a phone cue (up to 48 other characters between them on the
    // line, none of them an id word: `call ... control id 2175550199` is an id; or the cue ending
    // the line before, `Phone:` newline): 6 to 15 digits in groups (`467 3395`, `0490 75 40 81`,
    // `(71) 4233-6306`, `21 284 698 2548`) or 7 to 15 bare digits. Not a date, a time, a dotted
    // IPv4 address or a count with a unit.
    re: new RegExp(
      PHONE_CUE.source +
        String.raw`[^\r\n\d]{0,48}?(?:\r?\n[ \t]*)?(?<![\w.+-])(` + CUE_NUM + EXT + ")" + PHONE_END,
      "gi",
    ),
    // A cue is prose's: inside a record (an HL7 segment, a FHIR organization's telecom) the format's
    // structure decides which phones are a person's.
    prose: true,
    category: "PHONE",
    group: 1,
    check: (t, s, v) => cuedPhone(t, s, v),
  },
  {
    // The cue after the number: `2175550199 (cell)`, `217 555 0199 - mobile`, `2175550199 home phone`,
    // `416 60 039 office`, `(37) 788-063-Office`.
    re: new RegExp(
      String.raw`(?<![\w.+\/|^~&=:#-])(` + CUE_NUM +
        String
          .raw`)(?=[ \t]*[(,\/-]?[ \t]*(?:(?:home|work|office|cell|mobile|daytime|evening)[ \t]*)?(?:phone|ph|tel|cell|mobile|fax|pager|office|desk)(?![A-Za-z]))`,
      "gi",
    ),
    prose: true,
    category: "PHONE",
    group: 1,
    check: (t, s, v) => cuedPhone(t, s, v) && digitsOf(v) >= 7,
    need: (t) =>
      /\d[ \t]*[(,\/-]?[ \t]*(?:home|work|office|cell|mobile|daytime|evening|phone|ph|tel|fax|pager|desk)/i
        .test(
          t,
        ),
  },
  {
    // National numbers written with a trunk `0` and their country's grouping, without `+` or a cue:
    // UK `07700 900 966`, `020 7946 0958`, `0161 496 0000`; FR `06 12 34 56 78` (or dots); AU
    // `0412 345 678`, `(02) 9876 5432`; DE `030 12345678`. Engine numbers (ports, counts, control
    // ids, timestamps) are not written that way; a number after an id word is not a phone.
    re: new RegExp(
      String
        .raw`(?<![\w.+\/|^~&=:#-]|\d[ .])(?:0\d{4}[ \t]\d{3}[ \t]\d{3}|0\d{4}[ \t]\d{6}|0\d{3}[ \t]\d{3}[ \t]\d{4}|0\d{2}[ \t]\d{4}[ \t]\d{4}|04\d{2}[ \t]\d{3}[ \t]\d{3}|0[1-9]([ .])\d{2}(?:\1\d{2}){3}|0\d{2,4}[ \t]\d{6,8}|\(0\d{1,4}\)[ \t]?\d{3,4}[ \t]?\d{3,4})` +
        EXT + String.raw`(?![ \t.]?\d|[\w\/])`,
      "g",
    ),
    prose: true,
    category: "PHONE",
    check: (t, s, v) => {
      const n = v.replace(/(?:x|ext\.?|extension)[ \t]*\d+$/i, "").replace(/\D/g, "").length;
      return n >= 10 && n <= 12 && !ID_BEFORE.test(t.slice(Math.max(0, s - 24), s));
    },
    need: (t) => /[ (]0\d{1,4}[ \t.)]{1,2}\d/.test(t) || /^\(?0\d/.test(t),
  },
  {
    // Mobile numbers of other countries written bare with the trunk `0`: UK `07700900966`, FR/NL
    // `0612345678`, DE `015123456789`, AU `0412345678`. Not in HL7 fields or after an id word.
    re: /(?<![\w.+\/|^~&=:#-])(?:07[1-9]\d{8}|0[67]\d{8}|01[5-7]\d{8,9}|04\d{8})(?![\w\/]|[-.]\d)/g,
    prose: true,
    category: "PHONE",
    // Not a value printed after `=`, `=>` or `#` (a result, a setting): phones there have a cue.
    check: (t, s, v) =>
      !ID_BEFORE.test(t.slice(Math.max(0, s - 24), s)) &&
      !/[=>#][ \t]*$/.test(t.slice(Math.max(0, s - 4), s)) &&
      !UNIT_AFTER.test(t.slice(s + v.length, s + v.length + 12)),
    need: (t) => /0[14-7]\d{8}/.test(t),
  },
  { re: /\bNPI\s*:\s*(\d{10})(?!\d)/gi, category: "NPI", group: 1 },
  {
    re: /\bNPI(?:\s*(?:#|no\.?|number|=|-|is)\s*|\s+|)(\d{10})(?![\w-])/gi,
    category: "NPI",
    group: 1,
    check: (_t, _s, v) => npiValid(v),
    need: (t) => /npi/i.test(t),
  },
  {
    // Cards: bare or grouped digits, 13-19 of them.
    re: /(?<![\w.\/-])(?:\d{13,19}|\d{4}(?:[ -]\d{3,7}){2,3}(?:[ -]\d{1,7})?)(?![\w\/]|[-.]\d)/g,
    category: "CARD",
    check: (t, s, v) => cardAt(t, s, v),
  },
];

/** True when a card cue word occurs in the 30 characters before `pos` on its line. */
export function cardCueBefore(text: string, pos: number): boolean {
  return CARD_CUE.test(contextWindow(text, pos, 30));
}

/** A card number at `start`: see the module doc. */
function cardAt(text: string, start: number, value: string): boolean {
  if (value.length < 13) return false;
  const digits = value.replace(/\D/g, "");
  if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return false;
  const seps = value.replace(/\d/g, "");
  if (seps.length > 0 && seps !== seps[0].repeat(seps.length)) return false;
  const groups = value.split(/[ -]/).map((g) => g.length).join("-");
  if (cardCueBefore(text, start)) {
    // With a cue: bare, or in groups of 4 (last 1-4), or the 4-6-5 / 4-6-4 layouts.
    return seps.length === 0 || /^(?:4-)+[1-4]$|^4-6-[45]$/.test(groups);
  }
  return /^4-4-4-4(?:-[1-3])?$|^4-4-4-[1-3]$|^4-6-[45]$/.test(groups) && CARD_IIN.test(digits);
}

const EMAIL_LOCAL = /[A-Za-z0-9._%+-]/;
const EMAIL_HOST = /[A-Za-z0-9.-]/;
const EMAIL_RE =
  /^[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/;

/**
 * E-mail addresses, found from each `@` (or URL-encoded `%40`) outwards (a plain regex scan is slow
 * on large texts).
 */
function findEmails(text: string, skip?: (start: number, end: number) => boolean): Candidate[] {
  const out: Candidate[] = [];
  emailsAround(text, "@", skip, out);
  if (text.indexOf("%40") !== -1) emailsAround(text, "%40", skip, out);
  return out.length > 1 ? out.sort((a, b) => a.start - b.start) : out;
}

function emailsAround(
  text: string,
  at0: string,
  skip: ((start: number, end: number) => boolean) | undefined,
  out: Candidate[],
): void {
  let at = text.indexOf(at0);
  let last = 0;
  const w = at0.length;
  while (at !== -1) {
    let s = at;
    while (s > last && EMAIL_LOCAL.test(text[s - 1])) s--;
    // The local part starts with a letter or digit (and, in a URL, after a `%xx` escape).
    if (w > 1) {
      const enc = text.lastIndexOf("%", at - 1);
      if (enc >= s && enc + 3 <= at) s = enc + 3;
    }
    while (s < at && !/[A-Za-z0-9]/.test(text[s])) s++;
    let e = at + w;
    while (e < text.length && EMAIL_HOST.test(text[e])) e++;
    // Trailing dots and hyphens end a sentence, not the address.
    while (e > at + w && (text[e - 1] === "." || text[e - 1] === "-")) e--;
    const next = e < text.length ? text[e] : "";
    if (
      s < at && e > at + w && !/[\w@]/.test(next) && !skip?.(s, e) &&
      EMAIL_RE.test(text.slice(s, at) + "@" + text.slice(at + w, e))
    ) {
      const c = cand(text, s, e, "EMAIL", "definite");
      if (c) out.push(c);
      last = e;
    }
    at = text.indexOf(at0, at + 1);
  }
}

/**
 * Tier 1 (definite) candidates of a text, unfiltered (but for the ranges `skip` rejects, which are
 * dropped before any work is done on them). `prose`: false for HL7 segments (the national and
 * cue-after phone rules are for prose; a segment's phones are the field policy's).
 *
 * @example
 * ```ts
 * import { findDefinite } from "./tier1_definite.ts";
 * findDefinite("call 555-123-4567").map((c) => c.category); // ["PHONE"]
 * ```
 */
export function findDefinite(
  text: string,
  skip?: (start: number, end: number) => boolean,
  prose = true,
): Candidate[] {
  const out: Candidate[] = findEmails(text, skip);
  // Two rules can match the same range (`+1 555-456-7890` is also an international number).
  const seen = new Set<number>();
  for (const { re, category, group, check, need, prose: proseOnly } of TIER1) {
    if ((proseOnly && !prose) || (need && !need(text))) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const g = group === undefined ? m[0] : m[group];
      const start = m.index + (group === undefined ? 0 : m[0].lastIndexOf(g));
      if (check && !check(text, start, g)) continue;
      if (skip?.(start, start + g.length)) continue;
      if (category === "PHONE") {
        if (seen.has(start)) continue;
        seen.add(start);
      }
      const c = cand(text, start, start + g.length, category, "definite");
      if (c) out.push(c);
    }
  }
  return out;
}
