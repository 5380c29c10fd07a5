/**
 * The HL7-aware part of the sanitizer: finds the segments of a text and, by the field policy
 * (phi/hl7_policy.ts), the PHI values in them and the free-text ranges the pattern tiers must read.
 * It reports positions in the original text; the engine assigns tokens (shared lookup table) and
 * replaces the exact spans, so everything else in the message stays byte for byte as it was and
 * `detokenize` gives the message back exactly.
 *
 * Segments are found by the lossless parser of hl7/ (messages, MLLP and len10 framing, batches,
 * headless fragments), and also inside other text the way the shape test finds them: after a
 * grep-style `file:line:` prefix and after `\r`/`\n` written out as two characters (JSON strings,
 * logs). A text whose header delimiters cannot be read is scanned that second way only.
 *
 * An identifier field's id whose identifier type code (CX.5) is `SS` is an SSN, not an MRN: the same
 * number in PID.19 then shares its SSN token.
 */
import { isTokensOnly } from "./token.ts";
import {
  DEFAULT_DELIMITERS,
  type Delimiters,
  delimitersFrom,
  type Hl7Document,
  parseMessages,
  unescape,
} from "./_hl7.ts";
import { type FieldRule, OBX_VALUE_RULES, policyFor } from "./hl7_policy.ts";
import { canonicalize } from "./normalize.ts";
import { type Candidate, candidate } from "./candidate.ts";
import type { Span } from "./spans.ts";

export interface Hl7Scan {
  /** Values the field policy tokenizes (tier `hl7_pipeline`), in text order. */
  structured: Candidate[];
  /** Free-text field ranges (OBX-5 TX/FT/ST, NTE-3, OBR-13, Z-segment fields). */
  free: Span[];
  /** Ranges of every segment found (without terminators). */
  segments: Span[];
}

interface Ctx {
  text: string;
  out: Hl7Scan;
}

/** A field of a segment (`PID.3`) and its context strings, built once per distinct path. */
interface FieldRef {
  name: string;
  /** Index rep * 16 + tail: "PID.3", "PID.3[2]", "PID.11.5", "OBR.32.1.2", ... */
  paths: string[];
}

const NULL = '""';

/** The canonical value of a field value (delimiters as `^`, escapes decoded). */
function canonOf(category: string, value: string, d: Delimiters): string {
  {
    let plain = value;
    if (d.component !== "^" && d.component !== "" && plain.indexOf(d.component) !== -1) {
      plain = plain.split(d.component).join("^");
    }
    if (d.subcomponent !== "" && d.subcomponent !== "^" && plain.indexOf(d.subcomponent) !== -1) {
      plain = plain.split(d.subcomponent).join("^");
    }
    if (d.escape !== "" && plain.indexOf(d.escape) !== -1) plain = unescape(plain, d);
    return plain.trim() === "" ? "" : hl7Canonical(category, plain);
  }
}

/** How a date or date/time value starts (`YYYY`). */
const DATE_START = /^\d{4}$/;

const DTM_TIME = /^\s*(\d{8})(\d{2}[\d.+\-]*)\s*$/;

/**
 * The canonical value of an HL7 field value: the category's normalizer, except that a DATE keeps
 * its time of day (`20240115103000` → `2024-01-15T103000`). A date/time of care and the bare date
 * of the same day (a posting date, a log's day) are different values: the bare one is not swept as
 * the known date/time, and each comes back in its own form.
 */
export function hl7Canonical(category: string, value: string): string {
  if (category === "DATE") {
    const m = DTM_TIME.exec(value);
    if (m) {
      const day = canonicalize("DATE", m[1]);
      if (day !== m[1]) return `${day}T${m[2]}`;
    }
  }
  return canonicalize(category, value);
}

function pathOf(f: FieldRef, rep: number, tail: number): string {
  return f.paths[rep * 16 + tail] ??= rep === 0
    ? f.name + TAILS[tail]
    : `${f.name}[${rep + 1}]${TAILS[tail]}`;
}

/** Component paths, by index (the `tail` arguments below). */
const TAILS = ["", ".1", ".2", ".1.1", ".1.2", ".3", ".4", ".5", ".6", ".7", ".8", ".9", ".12"];
const T_WHOLE = 0, T_1 = 1, T_2 = 2, T_1_1 = 3, T_1_2 = 4;

function push(
  ctx: Ctx,
  start: number,
  end: number,
  category: string,
  d: Delimiters,
  f: FieldRef,
  rep: number,
  tail: number,
): void {
  if (end <= start) return;
  const value = ctx.text.slice(start, end);
  if (value === NULL) return;
  // A value that is already tokens (text sanitized once, e.g. a /load attachment, or a message the
  // model wrote back with its tokens) is never tokenized again: no token of a token.
  // Only tokens of the form this program mints count: `[[55120987]]` typed in a field is a value.
  if (isTokensOnly(value)) return;
  const canonical = canonOf(category, value, d);
  if (canonical === "") return;
  ctx.out.structured.push(
    candidate(start, end, value, category, canonical, "hl7_pipeline", pathOf(f, rep, tail)),
  );
}

// Scratch buffers for part offsets (two levels: components, subcomponents); the scan is synchronous.
const C1: number[] = [];
const C2: number[] = [];

/**
 * Fills `at` with the start offsets of the parts of `[s, e)` split by `sep`, plus `e + 1`; returns
 * the number of parts.
 */
function cuts(at: number[], text: string, s: number, e: number, sep: string): number {
  let n = 0;
  at[n++] = s;
  if (sep !== "") {
    let p = text.indexOf(sep, s);
    while (p !== -1 && p < e) {
      at[n++] = p + 1;
      p = text.indexOf(sep, p + 1);
    }
  }
  at[n] = e + 1;
  return n;
}

/** Pushes part `k` (0-based) of a `cuts` result when present. */
function pushPart(
  ctx: Ctx,
  at: number[],
  n: number,
  k: number,
  category: string,
  d: Delimiters,
  f: FieldRef,
  rep: number,
  tail: number,
): void {
  if (k < n) push(ctx, at[k], at[k + 1] - 1, category, d, f, rep, tail);
}

/** Pushes the span from part `from` to the last non-empty part up to `to` (inclusive, 0-based). */
function pushSpan(
  ctx: Ctx,
  at: number[],
  n: number,
  from: number,
  to: number,
  category: string,
  d: Delimiters,
  f: FieldRef,
  rep: number,
  tail: number,
): void {
  let last = -1;
  for (let k = from; k <= to && k < n; k++) {
    if (at[k + 1] - 1 > at[k]) last = k;
  }
  if (last !== -1) push(ctx, at[from], at[last + 1] - 1, category, d, f, rep, tail);
}

const ADDR_PARTS = [0, 1, 2, 4, 7, 8];
const ADDR_TAILS = [1, 2, 5, 7, 10, 11];
const PHONE_PARTS = [0, 3, 5, 6, 11];
const PHONE_TAILS = [1, 6, 8, 9, 12];

/** The identifier (CX) in `[s, e)` has identifier type code `SS` (CX.5): its id is an SSN. */
function ssType(text: string, s: number, e: number, sep: string): boolean {
  const n = cuts(C2, text, s, e, sep);
  return n > 4 && C2[5] - 1 - C2[4] === 2 && text.startsWith("SS", C2[4]);
}

function applyRule(ctx: Ctx, rule: FieldRule, fs: number, fe: number, d: Delimiters, field: FieldRef): void {
  if (rule.kind === "free") {
    if (fe > fs) ctx.out.free.push({ start: fs, end: fe });
    return;
  }
  const text = ctx.text;
  let rs = fs;
  for (let r = 0; rs <= fe; r++) {
    let re = d.repetition === "" ? -1 : text.indexOf(d.repetition, rs);
    if (re === -1 || re > fe) re = fe;
    if (re > rs) {
      switch (rule.kind) {
        case "whole":
          push(ctx, rs, re, rule.category, d, field, r, T_WHOLE);
          break;
        case "date":
          if (rule.components) {
            const n = cuts(C1, text, rs, re, d.component);
            for (const k of rule.components) {
              pushPart(ctx, C1, n, k - 1, rule.category, d, field, r, TAILS.indexOf(`.${k}`));
            }
            break;
          }
          // A date field that holds no date (a broken sender shifted a name or an address into it):
          // the whole repetition is one value, so no part of it stays in clear.
          if (rule.kind === "date" && !DATE_START.test(text.slice(rs, Math.min(re, rs + 4)))) {
            push(ctx, rs, re, rule.category, d, field, r, T_WHOLE);
            break;
          }
        /* falls through */
        case "id": {
          const cs = d.component === "" ? -1 : text.indexOf(d.component, rs);
          const category = rule.kind === "id" && cs !== -1 && cs < re && ssType(text, rs, re, d.component)
            ? "SSN"
            : rule.category;
          push(ctx, rs, cs === -1 || cs > re ? re : cs, category, d, field, r, T_WHOLE);
          break;
        }
        case "name": {
          const n = cuts(C1, text, rs, re, d.component);
          pushSpan(ctx, C1, n, 0, 3, "NAME", d, field, r, T_WHOLE);
          break;
        }
        case "xcn": {
          const n = cuts(C1, text, rs, re, d.component);
          pushPart(ctx, C1, n, 0, "NPI", d, field, r, T_1);
          pushSpan(ctx, C1, n, 1, 4, "NAME", d, field, r, T_2);
          break;
        }
        case "ndl": {
          const n = cuts(C1, text, rs, re, d.component);
          const m = cuts(C2, text, C1[0], C1[1] - 1, d.subcomponent);
          if (n > 0) {
            pushPart(ctx, C2, m, 0, "NPI", d, field, r, T_1_1);
            pushSpan(ctx, C2, m, 1, 3, "NAME", d, field, r, T_1_2);
          }
          break;
        }
        case "addr": {
          const n = cuts(C1, text, rs, re, d.component);
          for (let i = 0; i < ADDR_PARTS.length; i++) {
            pushPart(ctx, C1, n, ADDR_PARTS[i], "ADDRESS", d, field, r, ADDR_TAILS[i]);
          }
          break;
        }
        case "phone": {
          const n = cuts(C1, text, rs, re, d.component);
          for (let i = 0; i < PHONE_PARTS.length; i++) {
            pushPart(ctx, C1, n, PHONE_PARTS[i], i === 1 ? "EMAIL" : "PHONE", d, field, r, PHONE_TAILS[i]);
          }
          break;
        }
      }
    }
    rs = re + 1;
  }
}

/**
 * The rule of OBX-5 by OBX-2 (value type: its first component, case-insensitive, spaces around
 * allowed): free text for TX, FT, ST; an identifier, name, address, phone or date by its type.
 */
function obxValueRule(text: string, fs: number, fe: number, component: string): FieldRule | undefined {
  const cs = component === "" ? -1 : text.indexOf(component, fs);
  const end = cs === -1 || cs > fe ? fe : cs;
  if (end - fs <= 5) return OBX_VALUE_RULES.get(text.slice(fs, end).trim().toUpperCase());
  return undefined;
}

/** A segment's rules with its field references, by segment id as a number (three char codes). */
interface SegPolicy {
  id: string;
  rules: readonly (FieldRule | undefined)[];
  fields: FieldRef[];
}
const SEGMENTS = new Map<number, SegPolicy | null>();

const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;

function segPolicy(text: string, s: number): SegPolicy | null {
  const c0 = text.charCodeAt(s), c1 = text.charCodeAt(s + 1), c2 = text.charCodeAt(s + 2);
  // Only ids shaped like segment ids are cached (at most 26 * 36 * 36 of them, whatever the input).
  if (!(isUpper(c0) && (isUpper(c1) || isDigit(c1)) && (isUpper(c2) || isDigit(c2)))) {
    const rules = policyFor(text.slice(s, s + 3));
    return rules ? { id: text.slice(s, s + 3), rules, fields: [] } : null;
  }
  const key = (c0 << 16) | (c1 << 8) | c2;
  let p = SEGMENTS.get(key);
  if (p === undefined) {
    const id = text.slice(s, s + 3);
    const rules = policyFor(id);
    p = rules ? { id, rules, fields: [] } : null;
    SEGMENTS.set(key, p);
  }
  return p;
}

/** Applies the field policy to one segment `[s, e)` of the text. */
function segment(ctx: Ctx, s: number, e: number, d: Delimiters): void {
  const text = ctx.text;
  const idEnd = text.indexOf(d.field, s);
  if (idEnd === -1 || idEnd > e) return;
  ctx.out.segments.push({ start: s, end: e });
  if (idEnd - s !== 3) return;
  const policy = segPolicy(text, s);
  if (policy) fields(ctx, policy, idEnd + 1, e, d, 1);
}

/** Applies a segment's rules to its fields from `fs` (field number `n`) to `e`. */
function fields(ctx: Ctx, policy: SegPolicy, fs: number, e: number, d: Delimiters, n: number): void {
  const text = ctx.text;
  const sep = d.field;
  const rules = policy.rules;
  const last = rules.length - 1;
  const obx = rules === OBX_RULES;
  let obxValue: FieldRule | undefined;
  for (;;) {
    let fe = text.indexOf(sep, fs);
    if (fe === -1 || fe > e) fe = e;
    if (n === 2 && obx) obxValue = obxValueRule(text, fs, fe, d.component);
    let rule = rules[n];
    if (rule?.kind === "free" && rule.when === "obx_text") rule = obxValue;
    if (rule && fe > fs) {
      applyRule(ctx, rule, fs, fe, d, policy.fields[n] ??= { name: `${policy.id}.${n}`, paths: [] });
    }
    if (fe >= e || n >= last) break;
    fs = fe + 1;
    n++;
  }
}

/** The shape of a field for alignment: empty, or its number of components and repetitions. */
function shapeOf(text: string, s: number, e: number, d: Delimiters): string {
  if (e <= s) return "";
  let c = 1, r = 1;
  for (let i = s; i < e; i++) {
    const ch = text[i];
    if (ch === d.component) c++;
    else if (ch === d.repetition) r++;
  }
  return `${c}.${r}`;
}

/** Start offsets of the fields of `[s, e)` (split on the field separator), and `e + 1` last. */
function fieldStarts(text: string, s: number, e: number, sep: string): number[] {
  const at = [s];
  for (let p = text.indexOf(sep, s); p !== -1 && p < e; p = text.indexOf(sep, p + 1)) at.push(p + 1);
  at.push(e + 1);
  return at;
}

/**
 * A capture that begins in the middle of a message (an MLLP trace started mid-frame: the tail of a
 * segment, then full frames) keeps the field policy for that tail when the segment can be told: it
 * is aligned from the right with each full segment of the same text (same delimiters) that has a
 * policy, field by field (empty or not, number of components and repetitions); the first segment
 * whose last fields all have the tail's shapes, with at least three non-empty ones, gives the
 * segment id and the field numbers. The cut first field is read as the end of its field. With no
 * such segment the tail is left to the free-text tiers. Returns whether the tail was read.
 */
function partialHead(ctx: Ctx, s: number, e: number, doc: Hl7Document): boolean {
  const text = ctx.text;
  for (const part of doc.parts) {
    if (part.kind !== "message") continue;
    const d = part.message.delimiters;
    const tail = fieldStarts(text, s, e, d.field);
    const k = tail.length - 1; // fields in the tail (the first one cut)
    if (k < 4) return false;
    for (const seg of part.message.segments) {
      const policy = seg.raw.length > 4 && seg.raw[3] === d.field ? segPolicy(text, seg.offset) : null;
      if (!policy || policy.id[0] === "Z") continue;
      const full = fieldStarts(text, seg.offset + 4, seg.offset + seg.raw.length, d.field);
      const m = full.length - 1; // fields 1..m
      if (m < k) continue;
      let filled = 0;
      let ok = true;
      for (let i = 1; i < k && ok; i++) {
        const a = shapeOf(text, tail[i], tail[i + 1] - 1, d);
        const j = m - k + i; // 0-based field index in `full`
        ok = a === shapeOf(text, full[j], full[j + 1] - 1, d);
        if (a !== "") filled++;
      }
      if (!ok || filled < 3) continue;
      ctx.out.segments.push({ start: s, end: e });
      fields(ctx, policy, s, e, d, m - k + 1);
      return true;
    }
  }
  return false;
}

const OBX_RULES = policyFor("OBX");

/**
 * The values a field rule tokenizes in `[start, end)` of `text`, read as one field (repetitions
 * split on `~`) with the conventional delimiters; for field listings in text (phi/hl7_listing.ts).
 */
export function fieldValueCandidates(
  text: string,
  start: number,
  end: number,
  rule: FieldRule,
  field: string,
): Candidate[] {
  const ctx: Ctx = { text, out: { structured: [], free: [], segments: [] } };
  applyRule(ctx, rule, start, end, DEFAULT_DELIMITERS, { name: field, paths: [] });
  return ctx.out.structured;
}

const SEG_AT = /[A-Z][A-Z0-9]{2}\|/y;
const SEG_AT_START = /^\s*[A-Z][A-Z0-9]{2}[^A-Za-z0-9\s]/;
/** A segment id after a character that may stand before a segment embedded in a line. */
const EMBEDDED_START = /(?:^|[:\s"'>=+,\[-])([A-Z][A-Z0-9]{2})([^A-Za-z0-9\s])/g;
/** The next segment of the same run: after a written-out `\r`/`\n` or an opening quote. */
const NEXT_START = /(?:\\[rn]|")([A-Z][A-Z0-9]{2})([^A-Za-z0-9\s])/g;

/** True when the character at `i` is preceded by an odd number of backslashes (it is escaped). */
function escapedAt(line: string, i: number): boolean {
  let n = 0;
  while (i - n - 1 >= 0 && line.charCodeAt(i - n - 1) === 92) n++;
  return (n & 1) === 1;
}

/**
 * The delimiters of a header (`MSH`, `FHS`, `BHS`) at `pos` of `line`: the separator, then one to
 * five distinct encoding characters (a doubled backslash, as JSON writes it, counts once), then the
 * separator again; undefined when that is not there.
 */
function headerDelimiters(line: string, pos: number): Delimiters | undefined {
  const id = line.slice(pos, pos + 3);
  if (id !== "MSH" && id !== "FHS" && id !== "BHS") return undefined;
  const sep = line[pos + 3];
  if (sep === undefined || /[A-Za-z0-9\s]/.test(sep)) return undefined;
  const used: string[] = [];
  for (let i = pos + 4; i < line.length && used.length <= 5; i++) {
    const c = line[i];
    if (c === sep) {
      if (used.length === 0) return undefined;
      return delimitersFrom(sep, used);
    }
    if (/[A-Za-z0-9\s]/.test(c) || used.includes(c)) return undefined;
    used.push(c);
    if (c === "\\" && line[i + 1] === "\\") i++;
  }
  return undefined;
}

/**
 * Where a segment that starts at `pos` of `line` ends: at a written-out `\r` or `\n` (not itself
 * escaped), at an unescaped `"` when the segment began after a quote (a JSON string), or at the end
 * of the line.
 */
function looseSegmentEnd(line: string, pos: number, quoted: boolean): number {
  for (let i = pos; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92 /* \ */) {
      const n = line.charCodeAt(i + 1);
      if ((n === 114 || n === 110) && !escapedAt(line, i)) return i;
      if (quoted) i++; // a JSON escape: the next character is part of it
      continue;
    }
    if (quoted && c === 34 /* " */) return i;
  }
  return line.length;
}

/**
 * Segments inside ordinary text, the way the shape test finds them: at the start of a line (after
 * indentation, a len10 prefix), or embedded after white space, `:`, `>`, `=`, `+`, `-`, `"`, ... ,
 * then further segments of the same run after a written-out `\r`/`\n` or a new opening quote. A
 * header in the run declares the delimiters of the segments after it (JSON doubles the escape
 * character; a doubled one counts once); otherwise `|^~\&` is assumed.
 */
function looseRegion(ctx: Ctx, start: number, end: number): void {
  const text = ctx.text;
  let ls = start;
  while (ls < end) {
    let le = ls;
    while (le < end) {
      const c = text.charCodeAt(le);
      if (c === 13 || c === 10) break;
      le++;
    }
    if (le > ls) looseLine(ctx, text.slice(ls, le), ls);
    ls = le;
    if (ls < end && text.charCodeAt(ls) === 13) ls++;
    if (ls < end && text.charCodeAt(ls) === 10) ls++;
  }
}

/**
 * Where the next segment starts in `line` from `from`, by a start pattern whose group 1 is the
 * segment id and group 2 the character after it: that character must be the field separator, or
 * the id must open a header (which declares its own); -1 when there is none.
 */
function nextStart(line: string, re: RegExp, from: number, field: string): number {
  re.lastIndex = from;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const pos = m.index + m[0].length - 4;
    if (m[2] === field || headerDelimiters(line, pos)) return pos;
    re.lastIndex = pos + 1;
  }
  return -1;
}

/** The segments of one line of ordinary text at offset `at`. */
function looseLine(ctx: Ctx, line: string, at: number): void {
  const pipe = line.indexOf("|");
  if (pipe === -1 && !/(?:MSH|FHS|BHS)[^A-Za-z0-9\s]/.test(line)) return;
  let d: Delimiters = DEFAULT_DELIMITERS;
  // The first segment: at the line start (after indentation or a len10 prefix), else embedded.
  let s = -1;
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t" || line[i] === "\x0b")) i++;
  if (/^\d{10}/.test(line.slice(i, i + 10))) {
    SEG_AT.lastIndex = i + 10;
    if (SEG_AT.test(line) || headerDelimiters(line, i + 10)) i += 10;
  }
  SEG_AT.lastIndex = i;
  if (SEG_AT.test(line) || headerDelimiters(line, i)) s = i;
  else {
    s = nextStart(line, EMBEDDED_START, 0, "|");
    if (s === -1) s = nextStart(line, NEXT_START, 0, "|");
  }
  let quoted = false;
  while (s !== -1) {
    const header = headerDelimiters(line, s);
    if (header) d = header;
    // A run that began after a quote is a JSON string: its segments end at the closing quote.
    if (s > 0 && line[s - 1] === '"') quoted = true;
    const e = looseSegmentEnd(line, s, quoted);
    if (line[s + 3] === d.field) segment(ctx, at + s, at + e, d);
    // The next segment of the run.
    s = nextStart(line, NEXT_START, e, d.field);
  }
}

/**
 * Finds the segments, policy values and free-text ranges of `text`.
 *
 * @example
 * ```ts
 * const scan = scanHl7("MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||12345678^^^H^MR||DOE^JANE");
 * scan.structured.map((c) => [c.context, c.value]); // [["PID.3", "12345678"], ["PID.5", "DOE^JANE"]]
 * ```
 */
export function scanHl7(text: string): Hl7Scan {
  const ctx: Ctx = { text, out: { structured: [], free: [], segments: [] } };
  let doc: Hl7Document | undefined;
  try {
    doc = parseMessages(text);
  } catch {
    doc = undefined; // unreadable header delimiters: fall back to the loose scan
  }
  if (!doc) {
    looseRegion(ctx, 0, text.length);
  } else {
    let first = true;
    for (const p of doc.parts) {
      if (first && p.kind === "text" && doc.messages.length > 0) {
        // The tail of a message before the first full one (a capture begun mid-frame).
        first = false;
        let le = p.offset;
        const pe = p.offset + p.text.length;
        while (le < pe && text.charCodeAt(le) !== 13 && text.charCodeAt(le) !== 10) le++;
        if (!SEG_AT_START.test(p.text) && partialHead(ctx, p.offset, le, doc)) {
          looseRegion(ctx, le, pe);
          continue;
        }
      }
      first = false;
      if (p.kind === "message") {
        for (const seg of p.message.segments) {
          segment(ctx, seg.offset, seg.offset + seg.raw.length, seg.delimiters);
        }
      } else if (p.kind === "text" && (p.text.indexOf("|") !== -1 || /[FBM][HS][SH]/.test(p.text))) {
        looseRegion(ctx, p.offset, p.offset + p.text.length);
      }
    }
  }
  ctx.out.structured.sort((a, b) => a.start - b.start);
  return ctx.out;
}
