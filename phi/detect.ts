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
 * | 4 | known | a value already in the lookup table (original or canonical form; names also as `Last, First`, `LAST^FIRST`, `First Last`); single alphabetic words only for MANUAL and custom categories; numbers of 6 or more digits |
 *
 * Phones written with spaces only (`555 123 4567`) are not tier 1: too many tables of numbers look
 * like that. Tier-2 numbers get category DOB when date-shaped, else MRN.
 */
import { canonicalize, detectCategory, isDateShaped, normalizeName } from "./normalize.ts";
import { hasDobContext } from "./exclusions.ts";
import { SpanSet } from "./spans.ts";
import { findFieldListings } from "./hl7_listing.ts";
import type { LookupRow, LookupTable } from "./lookup.ts";

/** Audit tiers (spec, "Auto-PHI audit record"), plus `sidecar` for tier 5 and `manual` for markers. */
export type Tier = "definite" | "contextual" | "hl7" | "known" | "sidecar" | "hl7_pipeline" | "manual";

/** A value found in a text, not yet replaced. */
export interface Candidate {
  start: number;
  end: number;
  /** The exact text at `[start, end)`. */
  value: string;
  category: string;
  canonical: string;
  tier: Tier;
  /** Where it was found, for the audit record (a field path, a tool name). */
  context?: string;
  /** The token it gets, once assigned by the engine. */
  token?: string;
  /**
   * An exact field-policy decision (an HL7 field listing): the never-tokenize heuristics do not
   * apply, only "never inside an existing token".
   */
  exact?: boolean;
}

function cand(text: string, start: number, end: number, category: string, tier: Tier): Candidate | undefined {
  const value = text.slice(start, end);
  const canonical = canonicalize(category, value);
  if (canonical === "") return undefined;
  return { start, end, value, category, canonical, tier };
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
function findEmails(text: string): Candidate[] {
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
    if (s < at && e > at + 1 && !/[\w@]/.test(next) && EMAIL_RE.test(text.slice(s, e))) {
      const c = cand(text, s, e, "EMAIL", "definite");
      if (c) out.push(c);
      last = e;
    }
    at = text.indexOf("@", at + 1);
  }
  return out;
}

/**
 * Tier 1 (definite) candidates of a text, unfiltered.
 *
 * @example
 * findDefinite("call 555-123-4567").map((c) => c.category); // ["PHONE"]
 */
export function findDefinite(text: string): Candidate[] {
  const out: Candidate[] = findEmails(text);
  for (const { re, category, group } of TIER1) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const g = group === undefined ? m[0] : m[group];
      const start = m.index + (group === undefined ? 0 : m[0].lastIndexOf(g));
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
export function findContextual(text: string): Candidate[] {
  const out: Candidate[] = [];
  NUMBER_RE.lastIndex = 0;
  for (let m = NUMBER_RE.exec(text); m; m = NUMBER_RE.exec(text)) {
    if (digitCount(m[0]) < 4) continue;
    const from = Math.max(lineStartOf(text, m.index), m.index - 20);
    if (!CONTEXT_RE.test(text.slice(from, m.index))) continue;
    const category = isDateShaped(m[0]) ? "DOB" : "MRN";
    const c = cand(text, m.index, m.index + m[0].length, category, "contextual");
    if (c) out.push(c);
  }
  return out;
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

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const p of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...p]);
  });
  return out;
}

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
  return /[\p{L}\p{N}]/u.test(text[i]);
}

const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 160;

/** Length of the match of `needle` at `at` in `text`, or -1 (case-insensitive, flexible spaces). */
function matchAt(text: string, at: number, needle: string): number {
  let i = at;
  for (let k = 0; k < needle.length; k++) {
    const nc = needle.charCodeAt(k);
    if (nc === 32) {
      const comma = k > 0 && needle.charCodeAt(k - 1) === 44;
      if (!comma && (i >= text.length || !isSpace(text.charCodeAt(i)))) return -1;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      continue;
    }
    if (i >= text.length) return -1;
    const tc = text.charCodeAt(i);
    if (tc !== nc && (tc < 65 || tc > 90 || tc + 32 !== nc)) {
      if (tc < 128 || text[i].toLowerCase() !== needle[k]) return -1;
    }
    i++;
  }
  if (i < text.length && isWordChar(text, i)) return -1;
  return i - at;
}

const WORD_RE = /[\p{L}\p{N}]+/gu;

function firstWord(s: string): string | undefined {
  WORD_RE.lastIndex = 0;
  const m = WORD_RE.exec(s);
  return m ? m[0].toLowerCase() : undefined;
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
  #byWord = new Map<string, Needle[]>();
  #seen = new Set<string>();

  constructor(table: LookupTable) {
    this.#table = table;
  }

  #needle(form: string, row: LookupRow, exact: boolean): void {
    const f = form.trim();
    if (f.length < 4) return;
    const key = f.toLowerCase();
    if (this.#seen.has(key)) return;
    const w = firstWord(f);
    if (w === undefined || !/[\p{L}\p{N}]/u.test(f[0]) || !/[\p{L}\p{N}]/u.test(f[f.length - 1])) return;
    const single = /^\p{L}+$/u.test(f);
    if (single && (STANDARD.has(row.category) || row.category.startsWith("presidio_"))) return;
    // Short numbers (zip codes, phone parts, small ids) collide with process ids, sizes and counts.
    if (/^\d+$/.test(f) && f.length < 6) return;
    this.#seen.add(key);
    const lower = key.replace(/\s+/g, " ").replace(/,\s*/g, ", ");
    const needle: Needle = { lower, row, exact };
    const list = this.#byWord.get(w);
    if (!list) this.#byWord.set(w, [needle]);
    else {
      // Longest needles first, so "John A Smith" wins over "John Smith".
      let i = 0;
      while (i < list.length && list[i].lower.length >= lower.length) i++;
      list.splice(i, 0, needle);
    }
  }

  #index(row: LookupRow): void {
    if (row.original !== undefined) this.#needle(row.original, row, true);
    this.#needle(row.canonical, row, true);
    if (row.category === "NAME" || row.category === "presidio_PERSON") {
      const words = normalizeName(row.canonical).split(" ");
      const full = words.filter((w) => w.length > 1);
      const sets = [words];
      if (full.length >= 2 && full.length < words.length) sets.push(full);
      for (const ws of sets) {
        if (ws.length < 2 || ws.length > 3) continue;
        const exact = ws === words;
        for (const p of permutations(ws)) {
          this.#needle(p.join(" "), row, exact);
          this.#needle(p.join("^"), row, exact);
          this.#needle(p.join(", "), row, exact);
        }
      }
    }
  }

  #update(): void {
    if (this.#version === this.#table.version) return;
    const rows = this.#table.rows();
    if (rows.length < this.#indexed || this.#generation !== this.#table.generation) {
      this.#generation = this.#table.generation;
      this.#byWord = new Map();
      this.#seen = new Set();
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
    if (this.#byWord.size === 0) return out;
    WORD_RE.lastIndex = 0;
    let after = 0;
    for (let m = WORD_RE.exec(text); m; m = WORD_RE.exec(text)) {
      if (m.index < after) continue;
      if (m.index > 0 && isWordChar(text, m.index - 1)) continue;
      const list = this.#byWord.get(m[0].toLowerCase());
      if (!list) continue;
      for (const n of list) {
        const len = matchAt(text, m.index, n.lower);
        if (len === -1) continue;
        const value = text.slice(m.index, m.index + len);
        const canonical = n.exact ? n.row.canonical : canonicalize(n.row.category, value);
        if (canonical) {
          out.push({
            start: m.index,
            end: m.index + value.length,
            value,
            category: n.row.category,
            canonical,
            tier: "known",
          });
        }
        after = m.index + value.length;
        break;
      }
    }
    return out;
  }
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
