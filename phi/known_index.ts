/**
 * The known-value index of tier 4 (spec, "Auto-PHI detection model"): a value already in the lookup
 * table (original or canonical form); names as a run of 2–4 words in any order with spaces, `, `,
 * `^` or `/` between them (`Jane Q Doe`, `Doe, Jane`, `DOE^JANE^Q`; also without the initials);
 * single alphabetic words only for MANUAL and custom categories; numbers of 6 or more digits; a CJK
 * name joined without its separator (`王小明` for `王^小明`), also inside CJK running text. The
 * needle matching itself is phi/tier4_known.ts.
 */
import { isCanonicalAsciiName, nameWithoutInitials, normalizeName, parseDate } from "./normalize.ts";
import { SpanSet } from "./spans.ts";
import type { LookupRow, LookupTable } from "./lookup.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { isWordChar, letterOrDigitAt } from "./_chars.ts";
import { foldForm } from "./fold.ts";
import { type Needle, splitBySecond, textSecondKey, tryList, tryNeedle } from "./tier4_known.ts";

const STANDARD = new Set([
  "NAME",
  "DOB",
  "DATE",
  "SSN",
  "PHONE",
  "EMAIL",
  "NPI",
  "MRN",
  "ADDRESS",
  "ACCOUNT",
  "VISIT",
  "MEMBER",
  "LICENSE",
  "DEVICE",
  "URL",
  "IP",
  "AGE",
]);

/** Categories of identifiers (numbers that stand for a person), and MANUAL and custom categories. */
const NOT_IDENTIFIERS = new Set(["NAME", "DOB", "DATE", "PHONE", "EMAIL", "ADDRESS", "URL", "IP", "AGE"]);

/** An identifier's category: a known short number of it is swept from {@link MIN_ID_DIGITS} digits. */
function isIdentifier(category: string): boolean {
  return !NOT_IDENTIFIERS.has(category) && !category.startsWith("presidio_");
}

/** Fewest digits of a known identifier swept in later text (README, "PHI": 4 digits are years). */
export const MIN_ID_DIGITS = 5;

/** Han, kana and Hangul: scripts written without spaces between the parts of a name. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

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

// Words of a name; an initial may carry a period ("Linda Q. Sample").
// Separators: `, `, white space (with one line break at most: a name wrapped at the end of a line),
// `^`, `/`, `_` (a shell transform: `Horatio_Vanderhoeven`) and `|` (cells of a row).
const NAME_RUN =
  /[\p{L}'\u2019-]+(?:(?<=(?:^|[^\p{L}'\u2019-])\p{L})\.)?(?:(?:,[ \t]*(?:\r?\n[ \t]*)?|[ \t]*\r?\n[ \t]*|[ \t]*\|[ \t]*|[ \t]+|\^|\/|_)[\p{L}'\u2019-]+(?:(?<=(?:^|[^\p{L}'\u2019-])\p{L})\.)?){1,3}/uy;

// A title before a known name word (`Mr. Vanderhoeven`), and an initial before one (`H. Vanderhoeven`).
const TITLE_BEFORE = /(?:^|[^\p{L}])(?:mr|mrs|ms|miss|mx|dr|prof|sr|sra|herr|frau|mme|mlle)\.?[ \t]+$/iu;
const INITIAL_BEFORE = /(?:^|[^\p{L}'\u2019.-])(\p{Lu})\.?[ \t]+$/u;
// A capitalized word, or name particles, right after a name word: the name goes on.
const MORE_NAME_AFTER =
  /^[ \t]+(?:\p{Lu}[\p{Ll}'’]|(?:(?:de|del|della|der|den|di|da|das|dos|du|la|le|van|von|ter|ten|bin|ibn)[ \t]+){1,3}\p{Lu}|(?:al|el|bin|ibn)-\p{Lu})/u;
// A possessive ending (`Vanderhoeven's`): not part of the name.
const POSSESSIVE = /['\u2019]s$/i;
// Date forms a known birth date may be written in (phi/normalize.ts parseDate reads each).
const MON =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const KNOWN_DATE = new RegExp(
  "(?<![\\w\\/.-])(?:\\d{4}-\\d{1,2}-\\d{1,2}|\\d{4}\\/\\d{1,2}\\/\\d{1,2}|(?:18|19|20)\\d{6}|\\d{1,2}([-\\/.])\\d{1,2}\\1(?:\\d{4}|\\d{2})" +
    `|${MON}[ \\t]+\\d{1,2}(?:st|nd|rd|th)?,?[ \\t]+\\d{4}` +
    `|\\d{1,2}(?:st|nd|rd|th)?(?:[ \\t]+|-)(?:of[ \\t]+)?${MON}(?:,?[ \\t]+|-)\\d{4}` +
    "|\\d{1,2}(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:\\d{4}|\\d{2})" +
    ")(?![\\w\\/-]|\\.\\d)",
  "iy",
);
const MONTH_FIRST = new Uint8Array(128);
for (const c of "jfmasond") MONTH_FIRST[c.charCodeAt(0)] = 1;
const MONTH3 = new Set(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]);

/** Street suffixes and directions, each with the other ways it is written (USPS abbreviations). */
const STREET_WORDS: readonly (readonly string[])[] = [
  ["st", "street", "str"],
  ["ave", "avenue", "av"],
  ["rd", "road"],
  ["dr", "drive"],
  ["ln", "lane"],
  ["blvd", "boulevard"],
  ["ct", "court"],
  ["pl", "place"],
  ["hwy", "highway"],
  ["pkwy", "parkway"],
  ["cir", "circle"],
  ["ter", "terrace"],
  ["trl", "trail"],
  ["sq", "square"],
  ["apt", "apartment"],
  ["ste", "suite"],
  ["n", "north"],
  ["s", "south"],
  ["e", "east"],
  ["w", "west"],
  ["ne", "northeast"],
  ["nw", "northwest"],
  ["se", "southeast"],
  ["sw", "southwest"],
];
const STREET_ALT = new Map<string, readonly string[]>();
for (const set of STREET_WORDS) for (const w of set) STREET_ALT.set(w, set);

/**
 * The other spellings of a street address (lowercase, words split by spaces): each suffix or
 * direction word (a period after it dropped) replaced by its other forms, at most 16 forms. Only
 * addresses that start with a house number and have a word after it.
 */
export function streetForms(address: string): string[] {
  const words = address.toLowerCase().split(/\s+/);
  if (words.length < 3 || !/^\d/.test(words[0])) return [];
  let forms = [""];
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i].replace(/\.$/, "");
    // A direction only next to the number or last (`12 N Elm St`, `12 Elm St NW`); suffixes anywhere but first.
    const alt = i > 0 ? STREET_ALT.get(w) : undefined;
    const dir = alt !== undefined &&
      /^(?:n|s|e|w|ne|nw|se|sw|north|south|east|west|northeast|northwest|southeast|southwest)$/.test(w);
    const usable = alt !== undefined && (!dir || i === 1 || i === words.length - 1);
    const next: string[] = [];
    for (const f of forms) {
      for (const x of usable ? alt : [words[i]]) {
        if (next.length < 16) next.push(f === "" ? x : `${f} ${x}`);
      }
    }
    if (usable) changed = true;
    forms = next;
  }
  return changed ? forms.filter((f) => f !== words.join(" ")) : [];
}

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
 * ```ts
 * import { KnownIndex } from "./known_index.ts";
 * import type { LookupTable } from "./lookup.ts";
 * declare const table: LookupTable;
 * const known = new KnownIndex(table);
 * known.find("seen John Smith today"); // a NAME candidate when "SMITH^JOHN" is in the table
 * ```
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
  /** The first name row holding each name word (a title or an initial before the word alone). */
  #wordRow = new Map<string, LookupRow>();
  /** Known birth (and other) dates by canonical `YYYY-MM-DD`, found in any written form. */
  #dates = new Map<string, LookupRow>();
  /**
   * CJK names by their written forms without a separator (`王小明` for a known `王^小明`): CJK text
   * has no spaces between words, so these are searched as substrings.
   */
  #cjk = new Map<string, LookupRow>();
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
    const ident = isIdentifier(row.category);
    // A one-letter first word (`E-4411`) only for identifiers, whose forms hold a digit.
    if (firstEnd < 2 && !(ident && !letters && !digitsOnly)) return;
    if (letters && (STANDARD.has(row.category) || row.category.startsWith("presidio_"))) return;
    // Short numbers (zip codes, phone parts, small ids) collide with process ids, sizes and counts:
    // identifiers from 5 digits (4 digits are years), other numbers from 6.
    if (digitsOnly && f.length < (ident ? MIN_ID_DIGITS : 6)) return;
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
          if (!this.#wordRow.has(w)) this.#wordRow.set(w, row);
        }
      }
      if (words.length >= 2 && words.length <= 4 && !this.#names.has(norm)) {
        this.#names.set(norm, { row, exact: true });
      }
      if (full >= 2 && full < words.length) {
        const sub = nameWithoutInitials(norm);
        if (!this.#names.has(sub)) this.#names.set(sub, { row, exact: false });
      }
      if (row.original !== undefined && !hasNameSeparator(row.original.trim())) {
        this.#needle(row.original, row, true);
      }
      // A CJK name (`王^小明`, `山田^太郎`, `김^민준`): also written joined, family name first (the
      // order these scripts write a name in).
      if (row.original !== undefined && CJK.test(row.original)) {
        const parts = row.original.split(/[\^,\s\/|_]+/).filter((p) => p !== "" && CJK.test(p));
        if (parts.length >= 2 && parts.length <= 3) {
          const form = parts.join("");
          if (!this.#cjk.has(form)) this.#cjk.set(form, row);
        }
      }
      return;
    }
    if ((row.category === "DOB" || row.category === "DATE") && /^\d{4}-\d{2}-\d{2}$/.test(row.canonical)) {
      if (!this.#dates.has(row.canonical)) this.#dates.set(row.canonical, row);
    }
    const key = row.original === undefined ? undefined : this.#needle(row.original, row, true);
    // The canonical form is often the original lowercased (addresses, e-mail): then it is that key.
    if (row.canonical !== row.original && row.canonical !== key) this.#needle(row.canonical, row, true);
    // A NANP phone in its other written forms (`217 555 0199`, `217.555.0199`, `2175550199` for a
    // known `217-555-0199`; the `+1` forms are tier 1's and share the token through the table).
    if (row.category === "PHONE") {
      const d = row.canonical.length === 11 && row.canonical[0] === "1"
        ? row.canonical.slice(1)
        : row.canonical;
      if (/^[2-9]\d{9}$/.test(d)) {
        const a = d.slice(0, 3), b = d.slice(3, 6), c = d.slice(6);
        for (const form of [`${a} ${b} ${c}`, `${a}.${b}.${c}`, `${a}-${b}-${c}`, d, `${a} ${b}-${c}`]) {
          if (form !== key && form !== row.canonical) this.#needle(form, row, true);
        }
      }
    }
    // A street written with its suffix or direction spelled the other way (`12 Elm Street` for a
    // known `12 Elm St`).
    if (row.category === "ADDRESS") {
      for (const form of streetForms(row.canonical)) if (form !== key) this.#needle(form, row, true);
    }
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
      let value = m[0].slice(0, ends[k - 1]);
      // "Vanderhoeven's": the name without its possessive ending.
      if (POSSESSIVE.test(value)) value = value.slice(0, -2);
      const canon = normalizeName(
        value.indexOf("_") === -1 && value.indexOf("|") === -1 ? value : value.replace(/[_|]/g, " "),
      );
      const hit = this.#names.get(canon);
      if (!hit) continue;
      const next = at + value.length;
      if (next < text.length && isWordChar(text, next) && text.charCodeAt(next) !== 95) continue;
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
      this.#wordRow = new Map();
      this.#dates = new Map();
      this.#cjk = new Map();
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
    if (this.#cjk.size > 0 && CJK.test(text)) this.#findCjk(text, out);
    if (this.#byWord.size === 0 && this.#names.size === 0 && this.#dates.size === 0) return out;
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
      // After `_` only a name may start (`Horatio_Vanderhoeven`, joined by a shell transform).
      const joined = at > 0 && text.charCodeAt(at - 1) === 95;
      if (at > 0 && !joined && isWordChar(text, at - 1)) continue;
      if (ascii) {
        h = (h >>> 0) & (WORD_BITS - 1);
        if ((this.#wordBits[h >>> 5] & (1 << (h & 31))) === 0) continue;
      }
      const word = text.slice(at, end).toLowerCase();
      if (joined && !this.#nameWords.has(word)) continue;
      const len = this.#matchWord(word, text, at, end, out);
      if (len !== -1) after = at + len;
    }
    if (this.#dates.size > 0) this.#findDates(text, out);
    return out;
  }

  /** Known CJK names written joined (`王小明`), wherever they stand in CJK running text. */
  #findCjk(text: string, out: Candidate[]): void {
    // Longest forms first, so a three-part name wins over its first two parts.
    const forms = [...this.#cjk.keys()].sort((a, b) => b.length - a.length);
    const taken = new SpanSet();
    for (const form of forms) {
      const row = this.#cjk.get(form)!;
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
        if (!taken.add(at, at + form.length)) continue;
        out.push(candidate(at, at + form.length, form, row.category, row.canonical, "known"));
      }
    }
  }

  /** Known dates written in another form (`January 5, 1950` for a known `1950-01-05`). */
  #findDates(text: string, out: Candidate[]): void {
    const taken = SpanSet.of(out);
    let added = false;
    // A sticky match only where a date can start: a run of digits, or a word whose first three
    // letters name a month (a regex scan of every position costs more than the whole word scan).
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const prev = i > 0 ? text.charCodeAt(i - 1) : 32;
      if (c >= 48 && c <= 57) {
        if (prev >= 48 && prev <= 57) continue;
      } else {
        const l = c | 32;
        if (l < 97 || l > 122 || MONTH_FIRST[l] !== 1 || ((prev | 32) >= 97 && (prev | 32) <= 122)) continue;
        if (!MONTH3.has(text.slice(i, i + 3).toLowerCase())) continue;
      }
      KNOWN_DATE.lastIndex = i;
      const m = KNOWN_DATE.exec(text);
      if (m === null) continue;
      const end = i + m[0].length;
      const iso = parseDate(m[0]);
      const row = iso === undefined ? undefined : this.#dates.get(iso);
      if (row !== undefined && !taken.overlaps(i, end)) {
        out.push(candidate(i, end, m[0], row.category, row.canonical, "known"));
        added = true;
      }
      i = end - 1;
    }
    if (added) out.sort((a, b) => a.start - b.start);
  }

  /**
   * One word of a known name with a title (`Mr. Vanderhoeven`) or an initial (`H. Vanderhoeven`)
   * before it: the name's own token.
   */
  #singleName(word: string, text: string, at: number, end: number): Candidate | undefined {
    const row = this.#wordRow.get(word);
    if (row === undefined) return undefined;
    const before = text.slice(Math.max(0, at - 12), at);
    let start = -1;
    if (TITLE_BEFORE.test(before)) start = at;
    else {
      const im = INITIAL_BEFORE.exec(before);
      if (im) {
        const initial = im[1].toLowerCase();
        const norm = isCanonicalAsciiName(row.canonical) ? row.canonical : normalizeName(row.canonical);
        if (norm.split(" ").some((w) => w !== word && w.startsWith(initial))) {
          start = at - before.length + im.index + im[0].indexOf(im[1]);
        }
      }
    }
    if (start === -1) return undefined;
    // `Dr. Maria Lopez`, `Dr. Maria von Trapp`: more name follows, so this is someone else whose
    // name shares a word with a known one (tier 5 reads the whole name).
    if (MORE_NAME_AFTER.test(text.slice(end, end + 24))) return undefined;
    return candidate(start, end, text.slice(start, end), row.category, row.canonical, "known");
  }

  /** A known value that starts with `word` (its first word, lowercased) at `at`, pushed to `out`: its length, or -1. */
  #matchWord(word: string, text: string, at: number, end: number, out: Candidate[]): number {
    if (this.#nameWords.has(word)) {
      const c = this.#nameAt(text, at) ?? this.#singleName(word, text, at, end);
      if (c) {
        if (c.value.indexOf("|") === -1) out.push(c);
        else {
          // A known name in the cells of a `|` row (`Vanderhoeven|Horatio|19800101`): one value per
          // cell, so the row keeps its cells and each comes back exactly.
          for (const w of c.value.matchAll(/[^|\s]+(?:[ \t]+[^|\s]+)*/g)) {
            const s = c.start + w.index;
            out.push(candidate(s, s + w[0].length, w[0], c.category, normalizeName(w[0]), "known"));
          }
        }
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
