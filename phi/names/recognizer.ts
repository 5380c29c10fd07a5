/**
 * The built-in tier 5: person names in free text, found without the sidecar from a name lexicon
 * (phi/names/lexicon.ts) and cues. What counts as a name here:
 *
 * | Rule | Example | Condition |
 * |---|---|---|
 * | title | `Dr. Hana Kowalski`, `Mrs Obi` | a title (Mr, Mrs, Ms, Miss, Mx, Dr, Prof) then capitalized words |
 * | strong cue | `spoke with Anya Petrov`, `cc: Ravi`, `My name is Rubija`, `Patient: Lee Chen` | any capitalized word that is no common or engine word |
 * | weak cue | `per Maria`, `Patient Tomas Berg`, `from Ines Duarte`, `called Ken` | at least one word in the lexicon |
 * | pair | `Horatio Vanderhoeven`, `Maria J. Lopez` | a given name, then a family name (initials may stand between); or a lexicon given name with an unknown capitalized word, or an unknown word with a lexicon family name |
 * | `Last^First` | `Kowalczyk^Bernadette` | an HL7 person name out of its segment, one word in the lexicon |
 * | `LAST, First` | `SMITH, John`, `Okafor, Ngozi A`, `THOMPSON, MARGARET A` | family name, comma, given name (both in capitals: a known family name or a cue before it) |
 * | lowercase after a name cue | `patient name: garcia, jose` | two lexicon words, neither a common word |
 * | all caps | `KOWALSKI HANA` | two all-caps words, one a given and one a family name |
 * | signature | `Thanks,\nDana Whitfield` | a line of one to three capitalized words after a sign-off line |
 * | particles | `Maria de la Cruz`, `Ludwig van Beethoven`, `Omar al-Rashid` | a name (its first word in the lexicon, or a cue or `is` before it), particles (`de`, `la`, `van`, `von`, `del`, `da`, `di`, `du`, `bin`, ...; `al-`, `el-`), a capitalized family name; every rule's name takes such a tail |
 *
 * Never a name: a word of the engine's vocabulary (phi/names/vocabulary.ts: vendors and products,
 * the engine root's sites, threads, procs, Xlates and tables), a sequence made only of HL7 terms,
 * stop words, months and weekdays; a word right before an engine noun (`Hunter thread`, `Jordan site`,
 * `Austin datacenter`, `Grace period`) or an organization word (`Interface Team`). The spec's
 * never-tokenize list is applied by the caller.
 *
 * @module
 */
import type { NameLexicon } from "./lexicon.ts";

/** A name found in a text. */
export interface NameSpan {
  start: number;
  end: number;
  /** Which rule found it (for the audit context). */
  rule: "title" | "cue" | "pair" | "last_first" | "caps" | "signature" | "context";
}

/** What is never a name. */
export interface NameVocabulary {
  /** Vendors, products and engine names: a word here is never part of a name. */
  readonly never: ReadonlySet<string>;
  /** HL7 terms: a sequence made only of these is not a name. */
  readonly hl7: ReadonlySet<string>;
}

interface Word {
  start: number;
  end: number;
  /** Lowercase, without a trailing `.` or possessive `'s`. */
  key: string;
  /** Where the name part ends (before a possessive `'s` or a sentence full stop). */
  nameEnd: number;
  initial: boolean;
  upper: boolean;
  /** The text between the previous word and this one. */
  gap: string;
}

// A capitalized word (letters, marks, inner apostrophes and hyphens: O'Brien, Jean-Luc, McDonald), an
// all-caps word, or an initial (`J.`).
const WORD_RE = /\p{Lu}[\p{L}\p{M}]*(?:['’\-]\p{L}[\p{L}\p{M}]*)*\.?/gu;
const TITLE = new Set(["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "doctor", "nurse"]);
/** Words that make a capitalized run a place or an organization, not a person. */
const PLACE_WORDS = new Set([
  "street",
  "st",
  "road",
  "rd",
  "avenue",
  "ave",
  "boulevard",
  "blvd",
  "drive",
  "court",
  "ct",
  "place",
  "square",
  "park",
  "plaza",
  "highway",
  "hwy",
  "route",
  "hospital",
  "clinic",
  "center",
  "centre",
  "medical",
  "health",
  "healthcare",
  "university",
  "college",
  "school",
  "academy",
  "institute",
  "orchestra",
  "band",
  "choir",
  "inc",
  "llc",
  "ltd",
  "corp",
  "corporation",
  "company",
  "co",
  "group",
  "bank",
  "church",
  "county",
  "city",
  "airport",
  "station",
  "hotel",
  "restaurant",
  "foundation",
  "team",
  "desk",
  "department",
  "dept",
  "datacenter",
  "apt",
  "apartment",
  "suite",
  "ste",
]);

/**
 * Engine nouns: a capitalized word right before one of these names an engine object or a setting
 * (`Hunter thread`, `Jordan site`, `Austin datacenter`, `Grace period`), not a person.
 */
const ENGINE_NOUN_AFTER =
  /^[ \t]+(?:threads?|sites?|procs?|tables?|process(?:es)?|routes?|xlates?|datacenters?|data\s+center|period|interval|timeout|queue|server|host|port|feed|interface|team|desk)(?![\p{L}\p{N}])/iu;

/** A lowercase `last, first` or `first last` right after a name cue (`patient name: garcia, jose`). */
const LOWER_AFTER_CUE_RE =
  /\bname\s*(?:is|:|=)\s*(\p{Ll}[\p{Ll}'’-]+)(,?[ \t])(\p{Ll}[\p{Ll}'’-]+)(?![\p{L}\p{N}])/gu;

/** Cue and sign-off words, honorifics: capitalized they are still no part of a name. */
const CUE_WORDS = new Set([
  "princess",
  "prince",
  "queen",
  "king",
  "lord",
  "lady",
  "sir",
  "dame",
  "duke",
  "duchess",
  "saint",
  "per",
  "patient",
  "pt",
  "cc",
  "attn",
  "signed",
  "dear",
  "hello",
  "hi",
  "thanks",
  "regards",
  "cheers",
  "best",
  "sincerely",
  "spoke",
  "talked",
  "called",
  "caller",
  "contact",
  "from",
  "by",
  "with",
  "name",
]);
const STRONG_CUE_RE =
  /(?:\bname\s*(?:is|:|=|was|\?)|\b(?:mr|mrs|ms|mx|dr|prof)\.?|\bnamed|\bspoke\s+(?:with|to)|\btalked\s+(?:with|to)|\bspeaking\s+(?:with|to)|\bcc\s*:|\battn\s*:?|\bpatient\s*:|\bpt\s*:|\bsigned(?:\s+by)?\s*:?|\bcaller\s*:?|\bcontact\s*:|\bi\s+am|\bi'm|\bthis\s+is|\bdear|\bhello|\bhi|[,.!?]\\?["”]\s*(?:says|said))\s*,?\s*$/i;
const WEAK_CUE_RE =
  /(?:\bper|\bpatient|\bpt|\bfrom|\bby|\bwith|\bcalled|\bcalling|\bcall|\bcontact|\bcontacted|\bemailed|\btold|\basked|\bfor|\bto|\band|\bor|\bmother|\bfather|\bwife|\bhusband|\bson|\bdaughter|\bsister|\bbrother|\bguardian|\bguarantor|\bsubscriber|\binsured|\bmember|\bprovider|\bphysician|\bnurse|\bthanks|\bthank\s+you|\bsays|\bsaid|\bstarring|\bshouted\s+at|\bexplained\s+to|\bup\s+with|\bspeak\s+(?:to|with)|\btalk\s+to|\bassistant\s+to|\bmarried|\bmet|\bvisited|\bcalls?\s+me|\bwas\s+called|\bname|\bunder|\bcall(?:ed)?\s+back\s*:?)\s*,?\s*$/i;
const SIGNOFF_RE =
  /^\s*(?:thanks|thank\s+you|regards|best\s+regards|kind\s+regards|best|cheers|sincerely|respectfully|cordially|warm\s+regards|-{2,}|—|–)[\s,.!]*$/i;

/**
 * Given names that are also common English words: alone, or before an unknown word, they are the
 * word (`Grant Access`, `Will Restart`); beside a known family name or after a cue they are names.
 */
export const COMMON_WORD_NAMES: ReadonlySet<string> = new Set([
  "will",
  "pat",
  "rose",
  "mark",
  "hope",
  "grace",
  "faith",
  "june",
  "bill",
  "sue",
  "art",
  "grant",
  "chase",
  "page",
  "bell",
  "ray",
  "dean",
  "don",
  "joy",
  "may",
  "april",
  "august",
  "summer",
  "winter",
  "autumn",
  "dawn",
  "sunny",
  "river",
  "paris",
  "london",
  "jordan",
  "hunter",
  "sky",
  "storm",
  "major",
  "king",
  "price",
  "long",
  "young",
  "new",
  "max",
  "guy",
  "rich",
  "frank",
  "gay",
  "miles",
  "lane",
  "drew",
  "bob",
  "rob",
  "sterling",
  "penny",
  "amber",
  "ruby",
  "crystal",
  "jewel",
  "ivy",
  "holly",
  "daisy",
  "iris",
  "lily",
  "violet",
  "sandy",
  "misty",
  "cliff",
  "glen",
  "dale",
  "forest",
  "wood",
  "stone",
  "clay",
  "reed",
  "marsh",
  "heath",
  "brook",
]);

/** A verb only a person takes, right after a name (`Marek is from`, `Tilly Nicholson lives at`). */
const PERSON_VERB_AFTER =
  /^[ \t]+(?:said|says|asked|asks|told|tells|wrote|writes|replied|answered|shouted|yelled|explained|lives|lived|spent|works|worked|died|passed[ \t]+away|was[ \t]+born|is[ \t]+from|was[ \t]+from|comes[ \t]+from|came[ \t]+from|will[ \t]+be[ \t]+\p{Ll}+ing|had[ \t]+given|has[ \t]+given|gave|has[ \t]+been|had[ \t]+been|began|points[ \t]+out|pointed[ \t]+out|emailed|phoned|texted|complained|mentioned|denies|denied|is[ \t]+allergic|was[ \t]+admitted|was[ \t]+discharged|is[ \t]+an?[ \t]+\d+[ \t-]+year|is[ \t]+very|was[ \t]+very|just[ \t]+has|as[ \t]+(?:a[ \t]+|an[ \t]+|the[ \t]+|my[ \t]+)?(?:beneficiary|guardian|dependent|emergency[ \t]+contact|caregiver|subscriber|guarantor|next[ \t]+of[ \t]+kin))(?![\p{L}])/iu;
/** A possessive before a person's noun (`Sepi's address`, `Timothy's daughter`). */
const PERSON_NOUN_AFTER =
  /^['’]s[ \t]+(?:address|daughter|son|wife|husband|partner|mother|father|mom|mum|dad|sister|brother|child|children|kids?|baby|phone|number|cell|e-?mail|account|chart|record|mrn|dob|birthday|insurance|appointment|guardian|caregiver|family|parents?|grand(?:mother|father|son|daughter)|aunt|uncle|cousin|friend|boss)(?![\p{L}])/iu;
/** What makes the next lines a postal address (a house number and a word, a unit, a box). */
const POSTAL_LINE =
  /^[ \t>?*]*(?:\d{1,6}[A-Za-z]?[ \t]+\p{L}|(?:apt\.?|suite|unit|p\.?[ \t]?o\.?[ \t]*box|psc)[ \t]+\d)/iu;

/**
 * True when `text[s, e)` is a line of its own (a quote prefix `>` aside) with a postal address in
 * the next four lines, each of them short (a company or a job title may stand between).
 */
function addresseeLine(text: string, s: number, e: number): boolean {
  const ls = text.lastIndexOf("\n", s - 1) + 1;
  if (!/^[ \t>?*]*$/.test(text.slice(ls, s))) return false;
  let le = text.indexOf("\n", e);
  if (le === -1 || !/^[ \t]*$/.test(text.slice(e, le))) return false;
  for (let k = 0; k < 4 && le !== -1; k++) {
    const ns = le + 1;
    le = text.indexOf("\n", ns);
    const line = text.slice(ns, le === -1 ? text.length : le);
    if (line.length > 60) return false;
    if (POSTAL_LINE.test(line)) return true;
  }
  return false;
}

/** `is`, `was`, `named` right before a name (`Patient is Maria de la Cruz`). */
const IS_CUE_RE = /\b(?:is|was|named)\s*$/i;

/** A particle in either case (`de`, `De`) for a regular expression without the `i` flag. */
const eitherCase = (w: string) => `[${w[0]}${w[0].toUpperCase()}]${w.slice(1)}`;
const PARTICLES = [
  "de",
  "del",
  "della",
  "dela",
  "der",
  "den",
  "di",
  "da",
  "das",
  "dos",
  "du",
  "des",
  "la",
  "le",
  "lo",
  "las",
  "los",
  "van",
  "von",
  "ter",
  "ten",
  "zu",
  "bin",
  "ibn",
  "binti",
  "bint",
  "y",
  "af",
  "av",
];
const PARTICLE_SET = new Set(PARTICLES);
const CAP_WORD = String.raw`\p{Lu}[\p{L}\p{M}]*(?:['’\-]\p{L}[\p{L}\p{M}]*)*`;
/**
 * Particles and the capitalized family name after them, from a name's end: one to three particles
 * (`de la`, `van der`), or a joined article (`al-`, `el-`, `bin-`), then the family name.
 */
const PARTICLE_TAIL = new RegExp(
  String.raw`(?:[ \t]+(?:${PARTICLES.map(eitherCase).join("|")})){1,3}[ \t]+${CAP_WORD}|[ \t]+(?:${
    ["al", "el", "ad", "as", "ash", "at", "az", "ud", "ul", "bin", "ibn", "abu", "abd"].map(eitherCase).join(
      "|",
    )
  })-${CAP_WORD}`,
  "uy",
);

/**
 * Where a name ending at `end` ends with the particles and family name after it, or `end`. `ok`
 * says whether the family name (lowercase, after a joined article's `-`) can be part of a name.
 */
function particleTail(text: string, end: number, ok: (key: string) => boolean): number {
  const c = text.charCodeAt(end);
  if (c !== 32 && c !== 9) return end;
  PARTICLE_TAIL.lastIndex = end;
  const m = PARTICLE_TAIL.exec(text);
  if (m === null) return end;
  let e = end + m[0].length;
  // A possessive after the family name is not part of it.
  if (/['’]s$/.test(m[0])) e -= 2;
  const family = /[\p{L}\p{M}'’-]+$/u.exec(text.slice(end, e))?.[0].replace(/^[^-]*-(?=\p{Lu})/u, "");
  return family !== undefined && ok(family.toLowerCase()) ? e : end;
}

const CAL =
  "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun";
const CAL_ABBR = new RegExp(`^(?:${CAL})$`, "i");
const CAL_AFTER = new RegExp(String.raw`^\.?,?[ \t]+(?:\d|(?:${CAL})[a-z]*\b)`, "i");
const CAL_BEFORE = new RegExp(String.raw`(?:\d|\b(?:${CAL})[a-z]*\.?),?[ \t]+$`, "i");

/** True when the word at `[start, end)` stands beside a number or another calendar word. */
function calendarContext(text: string, start: number, end: number): boolean {
  return CAL_AFTER.test(text.slice(end, end + 14)) ||
    CAL_BEFORE.test(text.slice(Math.max(0, start - 14), start));
}

function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  let prevEnd = 0;
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(text); m; m = WORD_RE.exec(text)) {
    const start = m.index;
    // Inside a word (`eCW`, `abcDef`) or an identifier (`ib_Quest`, `x.Ray`): not a word start.
    const before = start > 0 ? text[start - 1] : "";
    // (A `>` that quotes an e-mail line is no identifier: `>Haley Fukunaga`.)
    if (
      before !== "" && /[\p{L}\p{N}_@$.\\/:#=<>\[\]-]/u.test(before) &&
      !(before === ">" && /(?:^|\n)[> \t]*$/.test(text.slice(Math.max(0, start - 8), start))) &&
      // An HL7 highlight escape before a word (`\H\SCOTT, MICHAEL\N\`) is formatting, not part of it.
      !(before === "\\" && /\\[HN]\\$/.test(text.slice(Math.max(0, start - 3), start)))
    ) {
      prevEnd = start + m[0].length;
      continue;
    }
    let raw = m[0];
    const after = text[start + raw.length] ?? "";
    if (
      after !== "" && /[\p{N}_@/\\:=]/u.test(after) && after !== ":" &&
      !/^\\[HN]\\/.test(text.slice(start + raw.length, start + raw.length + 3))
    ) {
      prevEnd = start + raw.length;
      continue;
    }
    let nameEnd = start + raw.length;
    if (raw.endsWith(".")) {
      raw = raw.slice(0, -1);
      nameEnd--;
    }
    const poss = /['’]s$/i.exec(raw);
    if (poss) {
      raw = raw.slice(0, -2);
      nameEnd -= 2;
    }
    if (raw.length === 0) continue;
    // A month or weekday abbreviation in a date (`Thu Nov 26`, `Nov 26`, `Mon 08:00`) is no word of
    // a name (`Jan de la Cruz` is).
    if (CAL_ABBR.test(raw) && calendarContext(text, start, nameEnd)) {
      prevEnd = start + m[0].length;
      continue;
    }
    const letters = [...raw];
    const initial = letters.length === 1;
    const upper = !initial && raw === raw.toUpperCase() && raw !== raw.toLowerCase();
    out.push({
      start,
      end: start + m[0].length,
      key: raw.toLowerCase(),
      nameEnd,
      initial,
      upper,
      gap: text.slice(prevEnd, start),
    });
    prevEnd = start + m[0].length;
  }
  return out;
}

/** True when the gap joins two words of one name: one or two spaces or tabs. */
function joins(gap: string): boolean {
  return gap.length > 0 && gap.length <= 2 && /^[ \t]+$/.test(gap);
}

/**
 * Person names in `text`.
 *
 * @example
 * ```ts
 * import { findNames } from "./recognizer.ts";
 * import { nameLexicon } from "./lexicon.ts";
 * import { hl7Vocabulary, VENDOR_WORDS } from "./vocabulary.ts";
 * const found = findNames("spoke with Dana Whitfield about the Epic feed", await nameLexicon(), {
 *   never: new Set(VENDOR_WORDS),
 *   hl7: hl7Vocabulary(),
 * });
 * // [{ start: 11, end: 25, rule: "cue" }]
 * ```
 */
export function findNames(
  text: string,
  lex: NameLexicon,
  vocab: NameVocabulary,
  lowerLines = true,
): NameSpan[] {
  const words = wordsOf(text);
  const out: NameSpan[] = [];
  const n = words.length;
  const isFirst = (w: Word) => lex.first.has(w.key);
  // A double-barrelled family name is one when both halves are (`Smith-Jones`).
  const isLast = (w: Word) =>
    lex.last.has(w.key) || (w.key.indexOf("-") > 0 && w.key.split("-").every((p) => lex.last.has(p)));
  const isAny = (w: Word) => lex.any.has(w.key);
  const inLex = (w: Word) => isFirst(w) || isLast(w) || isAny(w);
  const banned = (w: Word) =>
    vocab.never.has(w.key) || lex.common.has(w.key) || TITLE.has(w.key) || CUE_WORDS.has(w.key) ||
    PLACE_WORDS.has(w.key);
  // A word that can stand in a name: not banned, and not an all-caps word of two or three letters
  // unless the lexicon knows it (segment ids, acronyms: ADT, ORU, MSH, LAB).
  const familyOk = (key: string) =>
    !vocab.never.has(key) && !lex.common.has(key) && !CUE_WORDS.has(key) && !PLACE_WORDS.has(key) &&
    !vocab.hl7.has(key);
  const nameLike = (w: Word) => !banned(w) && (w.initial || !w.upper || w.key.length > 3 || inLex(w));
  const allHl7 = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (!words[k].initial && !vocab.hl7.has(words[k].key)) return false;
    return true;
  };
  const emit = (a: number, b: number, rule: NameSpan["rule"]): number => {
    // Trim initials at the edges; a span of initials only is nothing.
    while (a < b && words[a].initial) a++;
    while (b > a && words[b - 1].initial) b--;
    if (b <= a || allHl7(a, b)) return a + 1;
    // A family name with particles goes with it (`Maria de la Cruz`, `Omar al-Rashid`).
    const end = particleTail(text, words[b - 1].nameEnd, familyOk);
    while (b < n && words[b].start < end) b++;
    out.push({ start: words[a].start, end, rule });
    return b;
  };
  /** The end (exclusive) of a run of name-like words from i, joined by spaces, at most `max` words. */
  const runFrom = (i: number, max: number): number => {
    let j = i;
    while (j < n && j - i < max && nameLike(words[j])) {
      if (j > i) {
        const p = words[j - 1];
        if (!joins(words[j].gap)) break;
        // A full stop or a possessive ends the name (an initial's full stop does not).
        if (p.end !== p.nameEnd && !p.initial) break;
      }
      j++;
    }
    return j;
  };
  const lineBefore = (pos: number) => {
    const ls = text.lastIndexOf("\n", pos - 1) + 1;
    return text.slice(Math.max(ls, pos - 40), pos);
  };

  let i = 0;
  while (i < n) {
    const w = words[i];
    // Title: the name is what follows.
    if (TITLE.has(w.key) && i + 1 < n && joins(words[i + 1].gap)) {
      const j = runFrom(i + 1, 4);
      if (j > i + 1) {
        i = emit(i + 1, j, "title");
        continue;
      }
    }
    // A given name that is also a common word (`Will`, `Pat`, `Mark`, `June`) is a name beside a
    // known family name (`Will Hamilton`) or, after a cue, beside any name word (`patient Pat
    // Nguyen`); never before a number (`June 5`).
    if (
      COMMON_WORD_NAMES.has(w.key) && lex.first.has(w.key) && !w.upper && i + 1 < n &&
      joins(words[i + 1].gap) && w.end === w.nameEnd && !words[i + 1].initial
    ) {
      const nx = words[i + 1];
      const cue = STRONG_CUE_RE.test(lineBefore(w.start)) || WEAK_CUE_RE.test(lineBefore(w.start));
      if (
        familyOk(nx.key) && !TITLE.has(nx.key) && !COMMON_WORD_NAMES.has(nx.key) &&
        (isLast(nx) || (cue && nameLike(nx)))
      ) {
        i = emit(i, i + 2, "pair");
        continue;
      }
    }
    if (!nameLike(w) || w.initial) {
      i++;
      continue;
    }
    const before = lineBefore(w.start);
    // `Last^First[^Middle]`: an HL7 person name out of its segment (a decoded `key=` value, a log
    // line), one of the two words a known name.
    if (
      i + 1 < n && words[i + 1].gap === "^" && !words[i + 1].initial && nameLike(words[i + 1]) &&
      (inLex(w) || inLex(words[i + 1]))
    ) {
      let j = i + 2;
      if (j < n && words[j].gap === "^" && nameLike(words[j])) j++;
      i = emit(i, j, "pair");
      continue;
    }
    // `LAST, First [M]`
    // (the family name may be unknown after a cue or in capitals: `Per Abernathy, Percival`)
    if (
      i + 1 < n && words[i + 1].gap === ", " && isFirst(words[i + 1]) && nameLike(words[i + 1]) &&
      (!words[i + 1].upper
        ? isLast(w) || isAny(w) || w.upper || STRONG_CUE_RE.test(before) || WEAK_CUE_RE.test(before)
        // Both in capitals (`THOMPSON, MARGARET A`): a known family name, or a cue before it.
        : w.upper && (isLast(w) || isAny(w) || STRONG_CUE_RE.test(before) || WEAK_CUE_RE.test(before)))
    ) {
      let j = i + 2;
      if (j < n && words[j].initial && joins(words[j].gap)) j++;
      i = emit(i, j, "last_first");
      continue;
    }
    const j = runFrom(i, 4);
    const len = j - i;
    // `Maria de la Cruz`, `Ludwig van Beethoven`, `Omar al-Rashid`: a name, then particles and a
    // capitalized family name, when the lexicon knows the first word or a cue stands before it.
    // (Capitalized particles, `Maria De La Cruz`, may have joined the run.)
    let jp = i + 1;
    while (jp < j && !PARTICLE_SET.has(words[jp].key)) jp++;
    // Without a cue, the first word is a given name and the family name one the lexicon knows.
    const cued = STRONG_CUE_RE.test(before) || WEAK_CUE_RE.test(before) || IS_CUE_RE.test(before);
    const knownFamily = (key: string) => familyOk(key) && (lex.last.has(key) || lex.any.has(key));
    if (
      !PARTICLE_SET.has(w.key) &&
      particleTail(text, words[jp - 1].nameEnd, cued ? familyOk : knownFamily) > words[jp - 1].nameEnd &&
      (cued || (isFirst(w) && !lex.common.has(w.key)))
    ) {
      i = emit(i, jp, "pair");
      continue;
    }
    // `Marina Fort Street`, `Williamson Orchestra`: a place or an organization, not a person.
    if (j < n && joins(words[j].gap) && PLACE_WORDS.has(words[j].key)) {
      i = j + 1;
      continue;
    }
    // `Hunter thread`, `Jordan site`: an engine object named like a person.
    if (ENGINE_NOUN_AFTER.test(text.slice(words[j - 1].end, words[j - 1].end + 16))) {
      i = j;
      continue;
    }
    // A person's context after the words: a verb only people take (`Tilly Nicholson lives at`,
    // `Marek is from`, `said`), or a possessive before a person's noun (`Sepi's address`,
    // `Timothy's daughter`). One word must be a lexicon name unless the run has two words or more.
    if (!words.slice(i, j).every((x) => x.upper || x.initial) && (len >= 2 || inLex(w))) {
      const last = words[j - 1];
      const after = text.slice(last.nameEnd, last.nameEnd + 40);
      if (PERSON_VERB_AFTER.test(after) || PERSON_NOUN_AFTER.test(after)) {
        i = emit(i, j, "context");
        continue;
      }
    }
    // A postal block's addressee: a line of two to four name words with an address in the next
    // four lines (`Lori Gairbekov` then `52 Stubben 149`, `Suite 947`).
    if (len >= 2 && len <= 4 && addresseeLine(text, w.start, words[j - 1].end)) {
      i = emit(i, j, "signature");
      continue;
    }
    // Strong cue: any name-like words.
    if (STRONG_CUE_RE.test(before) && !(len === 1 && w.upper && !inLex(w))) {
      i = emit(i, j, "cue");
      continue;
    }
    if (len >= 2) {
      const a = words[i], b = words[j - 1];
      const allCaps = words.slice(i, j).every((x) => x.upper || x.initial);
      if (allCaps) {
        // `LAST FIRST` or `FIRST LAST`, both known, anywhere in a run of capitals.
        let k = i;
        while (k + 1 < j) {
          const x = words[k], y = words[k + 1];
          if ((isLast(x) && isFirst(y)) || (isFirst(x) && isLast(y))) break;
          k++;
        }
        if (k + 1 < j) {
          emit(k, k + 2, "caps");
          i = k + 2;
          continue;
        }
      } else if (!words.slice(i, j).some((x) => x.upper)) {
        // Given then family name; the CSpell list (either kind) may stand in for one side.
        const knownPair = (isFirst(a) && (isLast(b) || isAny(b))) || ((isFirst(a) || isAny(a)) && isLast(b));
        // A given name that is also a family name (`Taylor`, `John`) with an unknown word after it,
        // but not a given name that is also a common word (`Grant Access`, `Mark Complete`).
        const firstPlus = isFirst(a) && !inLex(b) && b.key.length >= 3 && !COMMON_WORD_NAMES.has(a.key);
        const plusLast = !inLex(a) && isLast(b) && !lex.first.has(b.key) && a.key.length >= 3;
        if (knownPair || ((firstPlus || plusLast) && len <= 3)) {
          i = emit(i, j, "pair");
          continue;
        }
      }
    }
    // A lone given name at a sentence or line start, before a lowercase word or a colon (`David is
    // very`, `Amy: Remember`), or in a list of names (`Hannah, Anthony and Derek`).
    if (len === 1 && !w.upper && isFirst(w) && w.key.length >= 3 && !COMMON_WORD_NAMES.has(w.key)) {
      const lead = text.slice(Math.max(0, w.start - 3), w.start);
      const next = text.slice(w.nameEnd, w.nameEnd + 3);
      const atStart = w.start === 0 || /(?:^|[.!?]\s|\n\s*|["'>]\s*)$/.test(lead);
      const listed = (k: number) => k >= 0 && k < n && isFirst(words[k]) && !words[k].upper;
      const inList =
        (/^(?:,\s|\sand\s|\sor\s)/.test(text.slice(w.nameEnd, w.nameEnd + 5)) && listed(i + 1)) ||
        (/(?:,\s|\sand\s|\sor\s)$/.test(text.slice(Math.max(0, w.start - 5), w.start)) && listed(i - 1));
      // A name spoken to: `Velimir, can I`, `Remember me, Kelly?`, `Don't go to town, Paul!`.
      const vocative = (atStart && /^, \p{Ll}/u.test(next)) ||
        (/,[ \t]$/.test(text.slice(Math.max(0, w.start - 2), w.start)) && /^[?!]/.test(next));
      // A speaker's line of a dialogue: `Sara: "I'm`, `Amy: Remember`.
      const speaker = atStart && /^:[ \t]*\\?["“]/.test(text.slice(w.nameEnd, w.nameEnd + 4));
      if (
        (!isLast(w) && atStart && /^(?: \p{Ll}|:\s)/u.test(next)) || inList || vocative || speaker
      ) {
        i = emit(i, j, "cue");
        continue;
      }
    }
    // A lone given name in the middle of a sentence (after a lowercase word): `had given Alma his`.
    if (
      len === 1 && !w.upper && isFirst(w) && !isLast(w) && w.key.length >= 3 &&
      /(?:^|[\s(])\p{Ll}[\p{L}'’-]*[,;]?[ \t]$/u.test(text.slice(Math.max(0, w.start - 30), w.start)) &&
      !/^[ \t]*\p{Lu}/u.test(text.slice(w.end, w.end + 3))
    ) {
      i = emit(i, j, "cue");
      continue;
    }
    // Weak cue: one known word is enough.
    if (WEAK_CUE_RE.test(before) && !w.upper && inLex(w)) {
      i = emit(i, j, "cue");
      continue;
    }
    // Signature: a line of one to three words after a sign-off line.
    if (len <= 3 && /^[ \t]*$/.test(text.slice(text.lastIndexOf("\n", w.start - 1) + 1, w.start))) {
      const lineEnd = words[j - 1].end;
      const rest = text.slice(lineEnd, (text.indexOf("\n", lineEnd) + 1 || text.length + 1) - 1);
      const ls = text.lastIndexOf("\n", w.start - 1);
      const prevLineStart = ls <= 0 ? -1 : text.lastIndexOf("\n", ls - 1) + 1;
      const prevLine = prevLineStart === -1 ? "" : text.slice(prevLineStart, ls);
      if (/^[\s,.]*$/.test(rest) && SIGNOFF_RE.test(prevLine) && (len >= 2 || inLex(w))) {
        i = emit(i, j, "signature");
        continue;
      }
    }
    i++;
  }
  lowerAfterCue(text, lex, banned, out);
  if (lowerLines) lowercaseLines(text, lex, vocab, banned, out);
  return out.length > 1 ? out.sort((a, b) => a.start - b.start) : out;
}

/** Lowercase names right after a name cue, both words known names and neither a common word. */
function lowerAfterCue(
  text: string,
  lex: NameLexicon,
  banned: (w: Word) => boolean,
  out: NameSpan[],
): void {
  if (!/name/i.test(text)) return;
  LOWER_AFTER_CUE_RE.lastIndex = 0;
  for (let m = LOWER_AFTER_CUE_RE.exec(text); m; m = LOWER_AFTER_CUE_RE.exec(text)) {
    const a = m[1], b = m[3];
    const known = (k: string) => lex.first.has(k) || lex.last.has(k) || lex.any.has(k);
    const plain = (k: string) => !banned({ key: k } as Word);
    if (!known(a) || !known(b) || !plain(a) || !plain(b)) continue;
    const start = m.index + m[0].length - a.length - m[2].length - b.length;
    const end = m.index + m[0].length;
    if (out.some((o) => o.start < end && start < o.end)) continue;
    out.push({ start, end, rule: "cue" });
  }
}

/** A line with letters and not one capital: typed in lower case throughout. */
const HAS_UPPER = /\p{Lu}/u;
const HAS_LOWER2 = /\p{Ll}{2}/u;

/**
 * Names in lines typed all in lower case (`follow up with monika žilková`, `said petra to michael`),
 * where capitals are no evidence: the lines are read with each word capitalized, and a name found
 * there counts only when every word of it is a lexicon name, none a common word (stop words, months,
 * `will`, `mark`, ...) or a word of the engine's vocabulary; a single word only after a cue.
 */
function lowercaseLines(
  text: string,
  lex: NameLexicon,
  vocab: NameVocabulary,
  banned: (w: Word) => boolean,
  out: NameSpan[],
): void {
  const known = (k: string) =>
    (lex.first.has(k) || lex.last.has(k) || lex.any.has(k)) && !COMMON_WORD_NAMES.has(k) &&
    !banned({ key: k } as Word) && !vocab.hl7.has(k);
  let joined = "";
  const starts: number[] = []; // [joined start, text start] pairs
  for (let ls = 0; ls < text.length;) {
    let le = text.indexOf("\n", ls);
    if (le === -1) le = text.length;
    const line = text.slice(ls, le);
    const at = ls;
    ls = le + 1;
    if (HAS_UPPER.test(line) || !HAS_LOWER2.test(line)) continue;
    const m = { 0: line, index: at };
    // Only a line with a lexicon name word in it can hold a name (most lower-case lines of tool
    // output hold none).
    let any = false;
    for (const w of m[0].split(/[^\p{L}\p{M}'’-]+/u)) {
      if (w.length > 1 && known(w.toLowerCase())) {
        any = true;
        break;
      }
    }
    if (!any) continue;
    starts.push(joined.length, m.index);
    // Capitalize each word's first letter (when that keeps the length).
    joined += m[0].replace(/(?<![\p{L}\p{M}'’])\p{Ll}/gu, (c) => {
      const u = c.toUpperCase();
      return u.length === c.length ? u : c;
    }) + "\n";
  }
  if (joined === "") return;
  for (const f of findNames(joined, lex, vocab, false)) {
    const parts = joined.slice(f.start, f.end).toLowerCase().split(/[\s,]+/).filter((w) => w.length > 1);
    if (parts.length === 0 || !parts.every((k) => known(k.replace(/['’]s$/, "")))) continue;
    if (parts.length === 1 && (f.rule !== "cue" || !lex.first.has(parts[0]))) continue;
    // Map back to the text through the line it lies in.
    let k = 0;
    while (k + 2 < starts.length && starts[k + 2] <= f.start) k += 2;
    const start = starts[k + 1] + (f.start - starts[k]);
    const end = start + (f.end - f.start);
    if (out.some((o) => o.start < end && start < o.end)) continue;
    out.push({ start, end, rule: f.rule });
  }
}
