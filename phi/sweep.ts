/**
 * The known-value sweep: a value tokenized anywhere in a text by structure (an HL7 field by the
 * field policy, a record's field, a marker) is PHI wherever else it stands in that text. A broken
 * sender shifts fields (a name in NK1-8, a date of birth in NK1-10, an address in NK1-14), an
 * unknown segment or an AL1 reaction repeats the patient's name, a line that is not a segment
 * quotes the phone: each is outside the field policy, and each must get the value's token.
 *
 * Forms of one value count, compared without regard to case:
 *
 * | Category | Forms looked for besides the value itself |
 * |---|---|
 * | NAME (an HL7 name `FAMILY^GIVEN^...`) | `FAMILY GIVEN`, `GIVEN FAMILY`, `FAMILY, GIVEN`, `FAMILY,GIVEN` (an HL7 spelling only as written, case and all) |
 * | PHONE (ten digits) | `2175550142`, `217-555-0142`, `(217)555-0142`, `(217) 555-0142`, `217.555.0142` |
 * | DOB (`YYYYMMDD`) | `YYYY-MM-DD`, `MM/DD/YYYY` |
 * | DATE (a date of care) | none: not swept (it is often the traffic's own day, a fact of the log or batch) |
 * | SSN (nine digits) | `512-44-9087`, `512449087` |
 *
 * The same text gets the value's token; another written form is a value of the same category,
 * and the lookup table decides whether it shares the token (phones, SSNs and dates do: one value
 * however written; a second HL7 spelling of a name gets its own, so both come back exactly).
 *
 * The sweep stays inside the message the value was found in (messages start at their MSH lines):
 * a batch file holds many patients, and a value of one says nothing about another's message.
 *
 * A form matches as a whole value (no letter or digit on either side). Values shorter than four
 * characters, and numbers of fewer than five digits, are not looked for (they are too often parts
 * of other facts). The message's header segments (MSH, BHS, FHS and their trailers) are the
 * engine's facts and are never swept. A form that covers values taken inside it (one word of the
 * name standing in a note, an identifier the policy guessed inside a shifted field) wins over them.
 */
import { type Candidate, candidate } from "./candidate.ts";
import { protectedRanges } from "./exclusions.ts";
import { canonicalize } from "./normalize.ts";
import { SpanSet } from "./spans.ts";

/** Shortest form looked for, and fewest digits of an all-digit form. */
const MIN_LENGTH = 4;
const MIN_DIGITS = 5;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Segments whose fields are the engine's facts: never swept. */
const HEADER_SEGMENTS = new Set(["MSH", "BHS", "FHS", "BTS", "FTS"]);

/** Categories with written forms besides the value itself (see the table above). */
const MANY_FORMS = new Set(["NAME", "PHONE", "DOB", "SSN"]);

/** The forms of a value to look for (lowercased), the value's own first. */
export function formsOf(c: { value: string; category: string; canonical: string }): string[] {
  // A date of care is often the day of the traffic as well (a log line's date, a batch header's):
  // the engine's facts win. Only a birth date is swept.
  if (c.category === "DATE") return [];
  const v = c.value;
  if (c.category !== "NAME" && c.category !== "PHONE" && c.category !== "DOB" && c.category !== "SSN") {
    const own = v.toLowerCase();
    return worthLooking(own) ? [own] : [];
  }
  // Built without regular expressions or sets: the sweep asks this for every value of a message.
  const out: string[] = [];
  // Each form is put together from the value as written and lowercased whole, as the text it is
  // looked for in is: lowercasing depends on neighbours (a Greek final sigma before a space).
  const put = (written: string) => {
    const form = written.toLowerCase();
    if (!out.includes(form) && worthLooking(form)) out.push(form);
  };
  put(v);
  if (c.category === "NAME") {
    const a = v.indexOf("^");
    if (a !== -1) {
      const b = v.indexOf("^", a + 1);
      const family = v.slice(0, a), given = v.slice(a + 1, b === -1 ? v.length : b);
      if (family !== "" && given !== "") {
        put(`${family} ${given}`);
        put(`${given} ${family}`);
        put(`${family}, ${given}`);
        put(`${family},${given}`);
      }
    }
    return out;
  }
  let digits = "";
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if (code >= 48 && code <= 57) digits += v[i];
  }
  if (c.category === "PHONE" && (digits.length === 10 || (digits.length === 11 && digits[0] === "1"))) {
    const d = digits.slice(-10);
    const [a, b, n] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
    put(d);
    put(`${a}-${b}-${n}`);
    put(`(${a})${b}-${n}`);
    put(`(${a}) ${b}-${n}`);
    put(`${a}.${b}.${n}`);
  } else if (c.category === "DOB" && v.length === 8 && digits.length === 8) {
    const [y, m, d] = [v.slice(0, 4), v.slice(4, 6), v.slice(6, 8)];
    put(`${y}-${m}-${d}`);
    put(`${m}/${d}/${y}`);
  } else if (c.category === "SSN" && digits.length === 9) {
    put(digits);
    put(`${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`);
  }
  return out;
}

function worthLooking(form: string): boolean {
  if (form.length < MIN_LENGTH || form.includes("[[")) return false;
  let digits = 0, letters = 0;
  for (let i = 0; i < form.length; i++) {
    const code = form.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
    else if (isWordChar(code)) letters++;
  }
  if (letters === 0 && digits === form.length) return digits >= MIN_DIGITS;
  return letters + digits > 0;
}

/** True when the line starting at `lineStart` is a header segment's (`MSH|`, `BHS|`, ...). */
function isHeaderLine(text: string, lineStart: number): boolean {
  const s = lineStart;
  return HEADER_SEGMENTS.has(text.slice(s, s + 3)) && s + 3 < text.length &&
    !/[\p{L}\p{N}\s]/u.test(text[s + 3]);
}

/**
 * The start of the line holding each place asked for, places asked in increasing order: each
 * character is read back over once in all (a line of 200 KB with thousands of places in it costs
 * one pass, not one per place).
 */
function lineStarts(text: string): (at: number) => number {
  let lastAt = 0, lastStart = 0;
  return (at) => {
    let j = at;
    const stop = at >= lastAt ? lastAt : 0;
    while (j > stop && text.charCodeAt(j - 1) !== 10 && text.charCodeAt(j - 1) !== 13) j--;
    const start = j > stop || stop === 0 ? j : lastStart;
    [lastAt, lastStart] = [at, start];
    return start;
  };
}

export interface Sweep {
  /** New candidates: the known values where they stand again. */
  add: Candidate[];
  /** Chosen candidates a longer known value covers (replaced by it). */
  drop: Set<Candidate>;
}

/**
 * Other occurrences of the `known` values in `text` (see the module comment), outside the `chosen`
 * spans except where a known form covers whole chosen spans of other values; outside fenced code
 * when `fences` (what the operator types).
 */
export function sweepKnown(
  text: string,
  known: readonly Candidate[],
  chosen: readonly Candidate[],
  fences: boolean,
): Sweep {
  const none: Sweep = { add: [], drop: new Set() };
  // The sweep stays inside the message a value was found in (a batch file holds many patients):
  // messages start at their MSH lines; text before the first is a message of its own.
  const starts = messageStarts(text);
  // The forms in parallel arrays (no object per form). A place is tried in two steps, neither of
  // which grows with the number of forms: its first four characters and message as one number
  // (with a bit table in front of the map) give the lengths of the forms starting so, longest
  // first; each length's whole text and message, as another number, gives the form.
  const heads = new Map<number, number[]>();
  const seen = new Uint8Array(HEAD_BITS + 1);
  const byForm = new Map<number, number>();
  const chain: number[] = [];
  const formText: string[] = [];
  const formCand: Candidate[] = [];
  const formMsg: number[] = [];
  const one: string[] = [""];
  let lastCategory = "", lastValue = "";
  let forms: string[] = [];
  for (const c of known) {
    if (c.category === "DATE") continue; // never swept (formsOf)
    // Candidates of one value stand together (a field's repetitions): its forms once.
    if (c.category !== lastCategory || c.value !== lastValue) {
      lastCategory = c.category;
      lastValue = c.value;
      if (MANY_FORMS.has(c.category)) forms = formsOf(c);
      else {
        const form = c.value.toLowerCase();
        forms = worthLooking(form) ? (one[0] = form, one) : [];
      }
    }
    if (forms.length === 0) continue;
    const msg = messageOf(starts, c.start);
    for (const form of forms) {
      const fk = formKey(form, 0, form.length, msg);
      let j = byForm.get(fk) ?? -1;
      while (j !== -1 && !(formMsg[j] === msg && formText[j] === form)) j = chain[j];
      if (j !== -1) continue;
      chain.push(byForm.get(fk) ?? -1);
      byForm.set(fk, formText.length);
      formText.push(form);
      formCand.push(c);
      formMsg.push(msg);
      const key = headKey(form, 0, msg);
      const lengths = heads.get(key);
      if (lengths === undefined) heads.set(key, [form.length]);
      else if (!lengths.includes(form.length)) lengths.push(form.length);
      seen[key & HEAD_BITS] = 1;
    }
  }
  const count = formText.length;
  if (count === 0) return none;
  for (const lengths of heads.values()) if (lengths.length > 1) lengths.sort((a, b) => b - a);
  const sorted = chosen.slice().sort((a, b) => a.start - b.start);
  const maxEnd = new Array<number>(sorted.length);
  for (let j = 0, m = 0; j < sorted.length; j++) maxEnd[j] = m = Math.max(m, sorted[j].end);
  const fenced = fences ? SpanSet.union(protectedRanges(text).filter((p) => p.kind === "fence")) : undefined;
  const lower = text.toLowerCase();
  // Lowercasing keeps offsets for the texts this reads; a text where it does not is left alone.
  if (lower.length !== text.length) return none;
  const out: Sweep = { add: [], drop: new Set() };
  const taken = new SpanSet();
  let next = 0;
  // The first two characters of every form (ASCII), as a table: most places are passed over on one
  // array read, without a map lookup.
  const pairs = new Uint8Array(128 * 128);
  let wide = false;
  for (const form of formText) {
    const a = form.charCodeAt(0), b = form.charCodeAt(1);
    if (a < 128 && b < 128) pairs[a * 128 + b] = 1;
    else wide = true;
  }
  const places = placesToTry(lower, pairs, wide);
  let here = 0; // the message of the place (places come in order)
  const lineOf = lineStarts(text);
  for (let k = 0; k < places.length; k++) {
    const i = places[k];
    if (i < next) continue; // inside a value just taken
    while (here < starts.length && starts[here] <= i) here++;
    const key = headKey(lower, i, here);
    if (seen[key & HEAD_BITS] === 0) continue;
    const lengths = heads.get(key);
    if (lengths === undefined) continue;
    for (const length of lengths) {
      const end = i + length;
      if (end > lower.length) continue;
      if (end < lower.length && isWordChar(lower.charCodeAt(end))) continue;
      let j = byForm.get(formKey(lower, i, end, here)) ?? -1;
      while (j !== -1 && !(formMsg[j] === here && lower.startsWith(formText[j], i))) j = chain[j];
      if (j === -1) continue;
      const c = formCand[j];
      // The same text is the same value; another written form is its own value of the category,
      // and the lookup table decides whether it shares the token (phones, SSNs, birth dates: one
      // value however written). An HL7 spelling of a name comes back from its token in every field
      // it was seen in: only the very same spelling shares it.
      const value = text.slice(i, end);
      if (value !== c.value && value.includes("^")) continue;
      const canonical = value === c.value ? c.canonical : canonicalize(c.category, value);
      if (canonical === "") continue;
      // The chosen spans this place overlaps: all inside it (and not this very span) or no match.
      // A span that starts before the place and reaches into it blocks it (the running maximum of
      // the ends tells, whatever the spans' lengths); the ones starting inside are few.
      const p = firstAtOrAfter(sorted, i);
      let blocked = p > 0 && maxEnd[p - 1] > i;
      const inside: Candidate[] = [];
      for (let q = p; !blocked && q < sorted.length && sorted[q].start < end; q++) {
        const o = sorted[q];
        if (o.end > end || (o.start === i && o.end === end)) blocked = true;
        else inside.push(o);
      }
      if (blocked || fenced?.overlaps(i, end) || isHeaderLine(text, lineOf(i))) continue;
      if (!taken.add(i, end)) continue;
      for (const o of inside) out.drop.add(o);
      out.add.push(candidate(i, end, value, c.category, canonical, c.tier, c.context));
      next = end;
      break;
    }
  }
  return out;
}

/** A number for `s[start, end)` in message `msg` (FNV-1a over the char codes, then the message). */
function formKey(s: string, start: number, end: number, msg: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return Math.imul(h ^ msg, 16777619) & 0x3fffffff;
}

/** Bits of the table of {@link headKey} numbers (a mask). */
const HEAD_BITS = (1 << 16) - 1;

/** The first four characters at `at` and the message, as one number (a lookup key that costs no string). */
function headKey(s: string, at: number, msg: number): number {
  let h = Math.imul(s.charCodeAt(at) ^ 0x811c9dc5, 16777619);
  h = Math.imul(h ^ s.charCodeAt(at + 1), 16777619);
  h = Math.imul(h ^ s.charCodeAt(at + 2), 16777619);
  h = Math.imul(h ^ s.charCodeAt(at + 3), 16777619);
  return Math.imul(h ^ msg, 16777619) & 0x3fffffff;
}

/** The index of the first of `sorted` (by start) that starts at or after `at`. */
function firstAtOrAfter(sorted: readonly Candidate[], at: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where each HL7 message of `text` starts (its MSH line), in order; empty when it has none. */
function messageStarts(text: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf("MSH"); at !== -1; at = text.indexOf("MSH", at + 3)) {
    const before = at === 0 ? 10 : text.charCodeAt(at - 1);
    if ((before === 10 || before === 13) && !/[\p{L}\p{N}\s]/u.test(text[at + 3] ?? " ")) out.push(at);
  }
  return out;
}

/** The message holding `at`: the number of message starts at or before it. */
function messageOf(starts: readonly number[], at: number): number {
  let lo = 0, hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The places where a form may start: after a character that is no letter or digit, where the next
 * two characters begin some form (`pairs`, ASCII; `wide`: some form begins otherwise). A small
 * function of its own, so the engine optimizes the one loop that reads every character.
 */
function placesToTry(lower: string, pairs: Uint8Array, wide: boolean): Int32Array {
  const out: number[] = [];
  const last = lower.length - MIN_LENGTH;
  let prev = 32;
  for (let i = 0; i <= last; i++) {
    const a = lower.charCodeAt(i);
    const before = prev;
    prev = a;
    if (
      before < 128 ? (before >= 97 && before <= 122) || (before >= 48 && before <= 57) : isWordChar(before)
    ) {
      continue;
    }
    const b = lower.charCodeAt(i + 1);
    if (a < 128 && b < 128 ? pairs[a * 128 + b] === 0 : !wide) continue;
    out.push(i);
  }
  return Int32Array.from(out);
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code > 127 && LETTER_OR_DIGIT.test(String.fromCharCode(code)));
}
