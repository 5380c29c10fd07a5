/**
 * HL7 field listings in text: the field policy applied to values that tools print next to their
 * field path, as the HL7 tools of assist do. Part of tier 3 (`hl7`): "a PHI-shaped value on a line
 * mentioning a PHI field", made exact by the path, for every field the policy names (not only the
 * spec's PID.3/5/7/11/13/18, NK1, GT1, IN1.16-20 list).
 *
 * Recognized layouts (the path first on its line, after indentation):
 *
 * | Layout | Example | Value |
 * |---|---|---|
 * | columns (hl7_show) | `  PID.5.1   Family Name   DOE` | the last column (after the label, if any), past two or more spaces |
 * | diff (hl7_diff) | `  PID.5.1  DOE -> ROE` | both sides of ` -> ` (`(empty)` and a closing `  (same ...)` note ignored) |
 * | `PATH: value`, `PATH = value`, `PATH<TAB>value` | `PID.7: 19800315` | one word, or up to four alphabetic words (a written name), or for an address up to a comma, semicolon, tab or double space |
 * | TSV with a header row of paths (hl7_field) | `PID.5\tPID.3.1` then rows | each cell (each `\|`-joined occurrence), by its column's path |
 *
 * And a path anywhere in a line followed by its value (`findFieldMentions`): `PID.11 is 12 ELM ST`,
 * `PID.3 = ...`, `PID.19: ...`, `PID.5 -> ...`, hcixlttest traces `PID.7 <- 1964-10-28`, `value`,
 * `was`, `set to`, an optional `(label)` before the connector, a quoted value, or a caret or number
 * value right after the path (`PID.3 12345678^^^H^MR`). An address runs to a comma, semicolon, tab,
 * double space or lower-case prose (`and`, `but`, ...); a name is up to four capitalized words;
 * other values one word. A count or size right after the path (`PID.18 4310 messages`, `PID.5.1:
 * 1 time(s)`, a number of one to three digits) is no value. Nothing else on the line is read.
 *
 * A field-level path (`PID.5`, `PID.3[2]`) applies the field's rule to the value as a field; a
 * component or subcomponent path (`PID.5.1`, `OBR.32.1.2`) tokenizes the whole value when the rule
 * tokenizes that component. Free-text fields (OBX.5, NTE.3, Z-segment fields) are left to the
 * pattern tiers, but for `LAST^FIRST` names in them (`findCaretNames`). These are exact field
 * decisions, so the never-tokenize heuristics do not apply to them (a zip code after the label
 * "Zip or Postal Code" is not a status code); existing tokens are still never nested.
 */
import { type Candidate, candidate } from "./candidate.ts";
import { type FieldRule, policyFor } from "./hl7_policy.ts";
import { fieldValueCandidates, hl7Canonical } from "./hl7_sanitize.ts";
import { canonicalize } from "./normalize.ts";
import { unescape } from "./_hl7.ts";
import { UNIT_RE } from "./tier2_contextual.ts";

const PATH = String.raw`[A-Z][A-Z0-9]{2}(?:\[\d{1,4}\])?[.-]\d{1,3}(?:\[\d{1,4}\])?(?:[.-]\d{1,3}){0,2}`;
const PATH_RE = new RegExp(`^(${PATH})$`);
const LINE_RE = new RegExp(`^([ \\t]*)(${PATH})(?=[\\s:=]|$)`);
/** The note hl7_diff writes after a change (hl7/diff.ts `howDiffer`): two spaces, words in parentheses. */
const DIFF_NOTE = / {2}\((?:same|one) [a-z ,:0-9]+\)$/;
const PARTS = /^([A-Z][A-Z0-9]{2})(?:\[\d+\])?[.-](\d+)(?:\[(\d+)\])?(?:[.-](\d+))?(?:[.-](\d+))?$/;

interface ParsedPath {
  segment: string;
  field: number;
  component?: number;
  sub?: number;
}

function parsePath(p: string): ParsedPath | undefined {
  const m = PARTS.exec(p);
  if (!m) return undefined;
  return {
    segment: m[1],
    field: Number(m[2]),
    component: m[4] === undefined ? undefined : Number(m[4]),
    sub: m[5] === undefined ? undefined : Number(m[5]),
  };
}

const within = (n: number, from: number, to: number) => n >= from && n <= to;

/** The category a rule gives one component (or subcomponent), or undefined when it stays. */
export function componentCategory(rule: FieldRule, c: number, s?: number): string | undefined {
  switch (rule.kind) {
    case "whole":
      return rule.category;
    case "date":
      return (rule.components ?? [1]).includes(c) ? rule.category : undefined;
    case "id":
      return c === 1 ? rule.category : undefined;
    case "name":
      return within(c, 1, 4) ? "NAME" : undefined;
    case "xcn":
      return c === 1 ? "NPI" : within(c, 2, 5) ? "NAME" : undefined;
    case "ndl":
      if (c !== 1) return undefined;
      return s === undefined ? "NAME" : s === 1 ? "NPI" : within(s, 2, 4) ? "NAME" : undefined;
    case "addr":
      return [1, 2, 3, 5, 8, 9].includes(c) ? "ADDRESS" : undefined;
    case "phone":
      return c === 4 ? "EMAIL" : [1, 6, 7, 12].includes(c) ? "PHONE" : undefined;
    case "free":
      return undefined;
  }
}

/** Caret names found in free fields of a listing, by field path (`ZPI.2` → its name parts). */
type FreeNames = Map<string, Set<string>>;

/**
 * Whether a value written inline after a path (not a tool's column) has its category's shape: a
 * date or number has digits, a name letters, an e-mail an `@`, an identifier a digit. A label
 * after the path (`PID.7: Date/Time of Birth`, `PV1.19 is Visit Number`) is no value.
 */
function fits(category: string, value: string): boolean {
  switch (category) {
    case "NAME":
      return /\p{L}/u.test(value);
    case "ADDRESS":
      return /[\p{L}\p{N}]/u.test(value);
    case "EMAIL":
      return value.includes("@");
    case "DOB":
    case "DATE":
      return (value.match(/\d/g)?.length ?? 0) >= 4;
    default: // phones, SSN, MRN, ACCOUNT, VISIT, MEMBER, LICENSE, NPI: numbers, or ids with digits
      return /\d/.test(value);
  }
}

function valueCandidates(
  text: string,
  start: number,
  end: number,
  path: string,
  out: Candidate[],
  names?: FreeNames,
  inline = false,
): void {
  // Trim the value and skip placeholders.
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (end <= start) return;
  const value = text.slice(start, end);
  if (value === "(empty)" || value === '""') return;
  const p = parsePath(path);
  if (!p) return;
  const rule = policyFor(p.segment)?.[p.field];
  if (!rule) return;
  if (rule.kind === "free") {
    if (p.component === undefined) {
      for (const c of findCaretNames(text, start, end, path)) {
        out.push(c);
        if (names) {
          const field = `${p.segment}.${p.field}`;
          let set = names.get(field);
          if (!set) names.set(field, set = new Set());
          for (const part of c.value.split("^")) set.add(part);
        }
      }
    } else if (names?.get(`${p.segment}.${p.field}`)?.has(value)) {
      // A component of a caret name listed for the whole field just above (hl7_show).
      const canonical = canonicalize("NAME", value);
      if (canonical !== "") {
        out.push(candidate(start, end, value, "NAME", canonical, "hl7", path, true));
      }
    }
    return;
  }
  if (p.component === undefined) {
    for (const c of fieldValueCandidates(text, start, end, rule, path)) {
      if (c.category === "NAME" && !/\p{L}/u.test(c.value)) continue; // a number is no name
      if (inline && !fits(c.category, c.value)) continue;
      out.push(candidate(c.start, c.end, c.value, c.category, c.canonical, "hl7", path, true));
    }
    return;
  }
  const category = componentCategory(rule, p.component, p.sub);
  if (!category || (category === "NAME" && !/\p{L}/u.test(value))) return;
  if (inline && !fits(category, value)) return;
  // Repetitions of a component are listed joined with "~" (hl7_field): one value each, so a
  // repetition is never left raw when another tier claims its neighbour.
  let at = start;
  for (const rep of value.split("~")) {
    const repStart = at;
    at += rep.length + 1;
    const trimmed = rep.trim();
    if (trimmed === "" || trimmed === '""') continue;
    const s = repStart + rep.indexOf(trimmed);
    const canonical = hl7Canonical(category, unescape(trimmed).split("&").join("^"));
    if (canonical === "") continue;
    out.push(candidate(s, s + trimmed.length, trimmed, category, canonical, "hl7", path, true));
  }
}

/**
 * `LAST^FIRST[^MIDDLE]` names (capitalized words joined by carets) in `[start, end)` of `text`: the
 * sidecar's HL7_CARET_NAME pattern, applied locally to free-text and Z-segment fields so their
 * names are tokenized without the sidecar.
 *
 * @example
 * ```ts
 * findCaretNames("ZPI|1|BARNABY^ELSPETH", 6, 21, "ZPI.2").map((c) => c.value); // ["BARNABY^ELSPETH"]
 * ```
 */
export function findCaretNames(text: string, start: number, end: number, context?: string): Candidate[] {
  const out: Candidate[] = [];
  const part = text.slice(start, end);
  if (part.indexOf("^") === -1) return out;
  CARET_NAME.lastIndex = 0;
  for (let m = CARET_NAME.exec(part); m; m = CARET_NAME.exec(part)) {
    const canonical = canonicalize("NAME", m[0]);
    if (canonical === "") continue;
    out.push(
      candidate(
        start + m.index,
        start + m.index + m[0].length,
        m[0],
        "NAME",
        canonical,
        "hl7",
        context,
        true,
      ),
    );
  }
  return out;
}

/** The sidecar's HL7_CARET_NAME regex (phi/sidecar/server.py). */
const CARET_NAME = /(?<![\w^])[A-Z][A-Za-z'\-]+\^[A-Z][A-Za-z'\-]+(?:\^[A-Z][A-Za-z'\-]*)?(?!\w)/g;

/**
 * How much of the text after `PATH:` is the value. Addresses run to a comma, semicolon, tab or
 * double space; other values are one word (with carets, digits) or up to four alphabetic words
 * (a name written out), so prose after the value is left alone.
 */
function inlineValueLength(rest: string, path: string): number {
  const p = parsePath(path);
  const rule = p ? policyFor(p.segment)?.[p.field] : undefined;
  const isAddress = rule?.kind === "addr" || (rule?.kind === "whole" && rule.category === "ADDRESS");
  if (isAddress) {
    const m = /^[^,;\t]*?(?=\s{2,}|[,;\t]|\s*$)/.exec(rest);
    return m ? m[0].length : rest.length;
  }
  const word = /^\S+/.exec(rest)?.[0] ?? "";
  if (/[\^\d@]/.test(word)) return word.replace(/[.,;:)]+$/, "").length;
  const words = /^\p{L}[\p{L}'.-]*(?: \p{L}[\p{L}'.-]*){0,3}/u.exec(rest);
  return words ? words[0].replace(/[.,;:)]+$/, "").length : 0;
}

/** A field path anywhere in text, not inside a longer word or path. */
const MENTION_RE = new RegExp(`(?<![A-Za-z0-9_.\\-\\[])(${PATH})(?![A-Za-z0-9_\\[])`, "g");
/**
 * What joins a field path to its value in a line of prose, a log or a trace: an optional `(label)`,
 * then `=`, `==`, `:`, `:=`, `->`, `<-`, `=>`, or a word (`is`, `was`, `value`, `now`, `becomes`,
 * `equals`, `set to`, `changed to`).
 */
const CONNECTOR =
  /^(?:[ \t]*\([^()\r\n]{0,40}\))?(?:[ \t]*(?:==|=>|->|<-|:=|=|:)[ \t]*|[ \t]+(?:is|was|value|now|becomes|equals|(?:set|changed) to)[ \t]+)/i;
/** No connector: a value written right after the path (`PID.3 12345678^^^H^MR`, `PID.7 19800315`). */
const BARE = /^[ \t]+(?=[^\s^]*\^|\d{4}|\d[\d-]{6,})/;
/** Prose that ends an address value written after a path (`PID.11 is 12 ELM ST and the zip ...`). */
const PROSE_END =
  /\s+(?:and|but|or|which|with|for|in|on|was|is|not|should|instead|from|to|because|see|per)\b|\s+[-–(]|[.!?](?:\s|$)/;

/**
 * Values written right after a field path anywhere in a line (the tier-3 line rule): `PID.11 is 12
 * ELM ST`, `PID.11 = ...`, `PID.5.1 <- SMITH` (hcixlttest traces), `PID.7: 19800315`, a quoted
 * value, or a caret or number value right after the path. The value is read by the field's rule
 * (an XAD `455 OAK AVE^^DENVER^CO^80202` gives each address component its ADDRESS value, the same
 * tokens as in the message) or, for a component path, as one value of the component's category.
 * Nothing else on the line is read: counts, sizes, control ids and timestamps stay.
 */
export function findFieldMentions(text: string): Candidate[] {
  const out: Candidate[] = [];
  MENTION_RE.lastIndex = 0;
  for (let m = MENTION_RE.exec(text); m; m = MENTION_RE.exec(text)) {
    const path = m[1];
    const p = parsePath(path);
    const rule = p ? policyFor(p.segment)?.[p.field] : undefined;
    if (!p || !rule || rule.kind === "free") continue;
    if (p.component !== undefined && componentCategory(rule, p.component, p.sub) === undefined) continue;
    const at = m.index + m[0].length;
    let le = at;
    while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    const rest = text.slice(at, le);
    const conn = CONNECTOR.exec(rest) ?? BARE.exec(rest);
    if (!conn) continue;
    let from = at + conn[0].length;
    let value = text.slice(from, le);
    const q = value[0];
    let len: number;
    if (q === '"' || q === "'" || q === "`") {
      const close = value.indexOf(q, 1);
      if (close === -1) continue;
      from++;
      len = close - 1;
      value = value.slice(1, close);
    } else {
      len = mentionValueLength(value, rule, p.component);
      if (len === 0) continue;
      // A count or size right after the path (`PID.18 4310 messages`, `PID.5.1: 1 time(s)`) is
      // not a value; nor is a number of one to three digits.
      const e = from + len;
      const v = value.slice(0, len);
      if (/^\d{1,3}$/.test(v) || isCount(v, text.slice(e, e + 16))) continue;
    }
    valueCandidates(text, from, from + len, path, out, undefined, true);
  }
  return out;
}

/** A number followed by a unit (`4310 messages`, `1 time(s)`, `12 KB`): a count or size, not a value. */
function isCount(value: string, after: string): boolean {
  return /^[\d,.]+$/.test(value) && (UNIT_RE.test(after) || /^[ \t]*[A-Za-z]+\(s\)/.test(after));
}

/** How much of `rest` (after the connector) is the value of a mentioned field (see findFieldMentions). */
function mentionValueLength(rest: string, rule: FieldRule, component: number | undefined): number {
  const category = component === undefined ? undefined : componentCategory(rule, component);
  const isAddress = category === "ADDRESS" || (component === undefined &&
    (rule.kind === "addr" || (rule.kind === "whole" && rule.category === "ADDRESS")));
  if (isAddress) {
    const m = /^[^,;\t]*?(?=\s{2,}|[,;\t]|\s*$)/.exec(rest);
    let v = m ? m[0] : rest;
    const end = PROSE_END.exec(v);
    if (end) v = v.slice(0, end.index);
    return v.replace(/[.,;:)]+$/, "").length;
  }
  const word = /^\S+/.exec(rest)?.[0] ?? "";
  if (/[\^\d@]/.test(word)) return word.replace(/[.,;:)]+$/, "").length;
  // A name written out: capitalized words (prose after it is lower case).
  const words = /^\p{Lu}[\p{L}'.-]*(?: \p{Lu}[\p{L}'.-]*){0,3}/u.exec(rest);
  return words ? words[0].replace(/[.,;:)]+$/, "").length : 0;
}

/**
 * Policy values in field listings (see the module notes), in text order.
 *
 * @example
 * ```ts
 * findFieldListings("  PID.5.1   Family Name   DOE").map((c) => c.value); // ["DOE"]
 * ```
 */
export function findFieldListings(text: string): Candidate[] {
  const out: Candidate[] = [];
  if (!/[A-Z][A-Z0-9]{2}(?:\[\d+\])?[.-]\d/.test(text)) return out;
  const mentions = findFieldMentions(text);
  if (!/(?:^|[\r\n\t])[ \t]*[A-Z][A-Z0-9]{2}(?:\[\d+\])?[.-]\d/.test(text)) return mentions;
  const names: FreeNames = new Map();
  let header: string[] | undefined;
  let base = 0;
  while (base <= text.length) {
    let le = base;
    while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
    const line = text.slice(base, le);
    const lineStart = base;
    base = le + (text.charCodeAt(le) === 13 && text.charCodeAt(le + 1) === 10 ? 2 : 1);
    if (line.trim() === "") {
      header = undefined;
      continue;
    }
    processLine(text, line, lineStart);
  }
  if (mentions.length === 0) return out;
  // A mention the layouts above already read is theirs (same value, same category).
  const all = [...out];
  for (const c of mentions) if (!out.some((x) => x.start < c.end && c.start < x.end)) all.push(c);
  return all.sort((a, b) => a.start - b.start);

  /** Handles one line; false when it was a TSV header or row. */
  function processLine(text: string, line: string, base: number): boolean {
    // TSV: a header row of paths, then rows of values.
    if (line.includes("\t")) {
      const cells = line.split("\t");
      if (cells.every((c) => c === "#" || PATH_RE.test(c)) && cells.some((c) => c !== "#")) {
        header = cells;
        return false;
      }
      if (header && cells.length === header.length) {
        let at = base;
        cells.forEach((cell, i) => {
          // Occurrences of a repeated segment (every NK1 for NK1.2) are joined with "|".
          let o = at;
          if (header![i] !== "#") {
            for (const occ of cell.split("|")) {
              valueCandidates(text, o, o + occ.length, header![i], out, names);
              o += occ.length + 1;
            }
          }
          at += cell.length + 1;
        });
        return false;
      }
      header = undefined;
    } else {
      header = undefined;
    }
    const m = LINE_RE.exec(line);
    if (!m) return true;
    const path = m[2];
    const restAt = m[0].length;
    const rest = line.slice(restAt);
    // The diff layout: the path, two spaces, the old value, ` -> `, the new value (not a `PATH = v`
    // line with an arrow further on, as in `PID.3 = 1; PID.5 -> X`).
    const arrow = rest.indexOf(" -> ");
    if (
      arrow !== -1 && /^(?:[ \t]{2,}|[ \t]*->)/.test(rest) &&
      !/[A-Z][A-Z0-9]{2}[.-]\d/.test(rest.slice(0, arrow))
    ) {
      const left = rest.search(/\S/);
      valueCandidates(text, base + restAt + left, base + restAt + arrow, path, out, names);
      // hl7_diff's note on how the sides differ (`  (same apart from case)`) is not a value.
      const note = DIFF_NOTE.exec(rest);
      const end = note ? restAt + note.index : line.length;
      valueCandidates(text, base + restAt + arrow + 4, base + end, path, out, names);
      return true;
    }
    const sep = /^[ \t]*[:=\t][ \t]*/.exec(rest);
    if (sep) {
      const from = restAt + sep[0].length;
      const q = line[from];
      if (q === '"' || q === "'" || q === "`") {
        // A quoted value: what is inside the quotes.
        const close = line.indexOf(q, from + 1);
        if (close !== -1) valueCandidates(text, base + from + 1, base + close, path, out, names, true);
        return true;
      }
      const len = inlineValueLength(line.slice(from), path);
      if (!isCount(line.slice(from, from + len), line.slice(from + len, from + len + 16))) {
        valueCandidates(text, base + from, base + from + len, path, out, names, true);
      }
      return true;
    }
    // Columns: path, label, value, separated by two or more spaces; the last column is the value
    // (no label when the schema does not name the field).
    const cols = /^\s{2,}(?:\S(?:.*?\S)?\s{2,})?(\S.*)$/.exec(rest);
    if (cols) {
      const valueAt = restAt + rest.length - cols[1].length;
      valueCandidates(text, base + valueAt, base + line.length, path, out, names);
    }
    return true;
  }
}
