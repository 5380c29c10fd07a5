/**
 * Tcl and engine output (issue #23, item 6): what Cloverleaf's Tcl and its command-line tools print,
 * read by structure. A `RecordFormat` named `engine_output` (phi/records.ts).
 *
 * | Shape | Read as |
 * |---|---|
 * | Tcl keyed lists, `{KEY value}` at any depth (`{NAME {SMITH JOHN}}`, `{MRN 00123}`, `{ADDR {{STREET {12 ELM ST}} {CITY X}}}`) | a key that names a person's data (the extract column vocabulary, phi/extracts.ts `columnCategory`) makes its value one structured value of that category; a keyed list under a name or address key gives each leaf its own value (a `STATE` or `COUNTRY` leaf stays) |
 * | `keylset var KEY value ?KEY value ...?`, `set var value` | the same by key (or variable) name |
 * | hcitpstest / hciroutetest result lines, `%8s: '%s'` (`CONTINUE: 'MSH|...'`, `ob_lab: '...'`) | the disposition or destination stays; the message, from the opening quote to the quote that ends a line (an apostrophe inside, `O'BRIEN`, does not end it), is free text (HL7 inside is the HL7 scan's, which claims it first) |
 * | engine log lines, `[pd  :pdtd:INFO/0:  adt_in:11/05/2024 09:30:12] text`, `[msg :Msg :ERR /0:adt_in:...] text`, `[pd  .PDTS.0001] text` | the bracketed prefix (category, level, thread, timestamp) stays in clear; the text after it is free |
 * | other timestamped log lines (`2024-11-05 09:30:12,345 [adt_in] ERROR text`, `Nov  5 09:30:12 host ...`) | the timestamp, levels and bracketed fields stay; the text is free. A log timestamp is never read as a date of birth. |
 * | Tcl error stacks (`while executing`, `invoked from within`, `(procedure "tps_x" line 12)`) | the frame lines stay; each quoted command line is free text (a value in it is read by the tiers) |
 *
 * Weak or ambiguous keys (`NAME`, `PHONE`, `ADDR`, `IP`, ...) count only when a strong person key
 * (`MRN`, `DOB`, `SSN`, `LAST`, ...) stands in the same text, or when the value has the category's
 * shape (two or more words of letters for a name, seven or more digits for a phone): `{NAME adt_in}`
 * in a thread listing names a thread.
 *
 * The same shapes inside a JSON string whose lines are written out (`"[pd  :...] up\n[tps ...]"`)
 * are read through phi/extracts.ts `addJsonStrings`, one level deep.
 *
 * `hcixlttest` trace lines (`PID.7 <- 1964-10-28`) are read by their field path in
 * phi/hl7_listing.ts.
 */
import type { RecordFormat, RecordScan } from "./records.ts";
import { candidate } from "./candidate.ts";
import { canonicalize } from "./normalize.ts";
import { addJsonStrings, columnCategory, type ColumnKind, nameExtent, withoutFences } from "./extracts.ts";
import type { Span } from "./spans.ts";

// ---- Tcl words ----------------------------------------------------------------------------------

const MAX_WORD = 16384;

/** End (exclusive) of the braced word that opens at `i` (`{`), or -1. */
function bracedEnd(text: string, i: number): number {
  let depth = 0;
  const limit = Math.min(text.length, i + MAX_WORD);
  for (let j = i; j < limit; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) {
      j++;
      continue;
    }
    if (c === 123) depth++;
    else if (c === 125) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** End (exclusive) of the quoted word that opens at `i` (`"`), or -1. */
function quotedEnd(text: string, i: number): number {
  const limit = Math.min(text.length, i + MAX_WORD);
  for (let j = i + 1; j < limit; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) {
      j++;
      continue;
    }
    if (c === 34) return j + 1;
    if (c === 10) return -1;
  }
  return -1;
}

/** A Tcl word at `i`: its range and the range of its content (braces or quotes off). */
interface Word {
  start: number;
  end: number;
  vs: number;
  ve: number;
  braced: boolean;
}

function wordAt(text: string, i: number, stopAtBrace: boolean): Word | undefined {
  const c = text.charCodeAt(i);
  if (c === 123) {
    const e = bracedEnd(text, i);
    return e === -1 ? undefined : { start: i, end: e, vs: i + 1, ve: e - 1, braced: true };
  }
  if (c === 34) {
    const e = quotedEnd(text, i);
    return e === -1 ? undefined : { start: i, end: e, vs: i + 1, ve: e - 1, braced: false };
  }
  let j = i;
  while (j < text.length) {
    const k = text.charCodeAt(j);
    if (k === 32 || k === 9 || k === 10 || k === 13 || k === 59 /* ; */ || k === 93 /* ] */) break;
    if (stopAtBrace && k === 125) break;
    j++;
  }
  return j > i ? { start: i, end: j, vs: i, ve: j, braced: false } : undefined;
}

const skipBlanks = (text: string, i: number, lines = false) => {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || (lines && (c === 10 || c === 13))) i++;
    else break;
  }
  return i;
};

// ---- values -------------------------------------------------------------------------------------

const PLACEHOLDER = /^(?:|null|none|n\/?a|unknown|-+|0|\{\})$/i;
const TOKEN_ONLY = /^(?:\s*\[\[[A-Za-z][A-Za-z0-9_]*_\d{1,9}\]\]\s*)+$/;
const NAME_WORDS = /^[\p{L}'\u2019.-]+(?:[ ,^]+[\p{L}'\u2019.-]+)+$/u;

/** A value of a weak or ambiguous key that has its category's shape. */
function shaped(category: string, v: string): boolean {
  const digits = v.replace(/\D/g, "").length;
  switch (category) {
    case "NAME":
      return NAME_WORDS.test(v.trim()) && !/_/.test(v);
    case "PHONE":
      return digits >= 7 && /^[\d\s().+-]+$/.test(v.trim());
    case "EMAIL":
      return /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/.test(v.trim());
    case "ADDRESS":
      return /^\d+[A-Za-z]?\s+\p{L}/u.test(v.trim()) || v.indexOf("^") !== -1;
    case "AGE":
      return /^\d{1,3}$/.test(v.trim());
    case "NPI":
      return /^\d{10}$/.test(v.trim());
    default:
      return false;
  }
}

interface Ctx {
  text: string;
  out: RecordScan;
  /** A strong person key stands somewhere in the text. */
  strong: boolean;
}

function push(ctx: Ctx, s: number, e: number, category: string, context: string): boolean {
  // Blanks around the value are not part of it.
  const t = ctx.text;
  while (s < e && /\s/.test(t[s])) s++;
  while (e > s && /\s/.test(t[e - 1])) e--;
  if (e <= s) return false;
  const value = t.slice(s, e);
  if (PLACEHOLDER.test(value) || TOKEN_ONLY.test(value) || value.length > 400) return false;
  if (!/[\p{L}\p{N}]/u.test(value)) return false;
  // A name is words of letters (`{LAST tps_x.tcl}` names a file).
  if (category === "NAME" && nameExtent(value) !== value.length) return false;
  const canonical = canonicalize(category, value);
  if (canonical === "") return false;
  ctx.out.structured.push(candidate(s, e, value, category, canonical, "hl7_pipeline", context));
  return true;
}

/** A person key of the vocabulary, gated by strength. */
function personKind(ctx: Ctx, key: string, value: string): (ColumnKind & { kind: "phi" }) | undefined {
  const k = columnCategory(key);
  if (k?.kind !== "phi") return undefined;
  if (k.strength === "strong" || ctx.strong || shaped(k.category, value)) return k;
  return undefined;
}

// ---- keyed lists --------------------------------------------------------------------------------

/** `{KEY value}` at `i` (the `{`): key, value word, end of the pair; undefined when not one. */
function pairAt(text: string, i: number): { key: string; ks: number; value: Word; end: number } | undefined {
  let j = skipBlanks(text, i + 1, true);
  const ks = j;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (
      (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
      (j > ks && ((c >= 48 && c <= 57) || c === 46))
    ) {
      j++;
    } else break;
  }
  if (j === ks || j - ks > 40) return undefined;
  const key = text.slice(ks, j);
  const c = text.charCodeAt(j);
  if (c !== 32 && c !== 9) return undefined;
  const vs = skipBlanks(text, j, true);
  const value = wordAt(text, vs, true);
  if (!value) return undefined;
  const e = skipBlanks(text, value.end, true);
  if (text.charCodeAt(e) !== 125) return undefined;
  return { key, ks, value, end: e + 1 };
}

/** `{KEY elem elem ...}` at `i`: a key and the plain list after it (`{ADDR {12 ELM ST} {X} {IL}}`). */
function listAt(text: string, i: number): { key: string; elems: Word[]; end: number } | undefined {
  let j = skipBlanks(text, i + 1, true);
  const ks = j;
  while (j < text.length && /[A-Za-z0-9_.]/.test(text[j])) j++;
  if (j === ks || j - ks > 40) return undefined;
  const key = text.slice(ks, j);
  const elems: Word[] = [];
  let at = skipBlanks(text, j, true);
  for (let n = 0; n < 16 && at < text.length && text.charCodeAt(at) !== 125; n++) {
    const w = wordAt(text, at, true);
    if (!w) return undefined;
    elems.push(w);
    at = skipBlanks(text, w.end, true);
  }
  return text.charCodeAt(at) === 125 ? { key, elems, end: at + 1 } : undefined;
}

/**
 * A person key followed by a plain list (an address as its lines, a name as its parts): each element
 * its own value of the key's category; for an address a two-letter state code or a country stays.
 */
function listLeaves(ctx: Ctx, l: { key: string; elems: Word[]; end: number }, start: number): void {
  const text = ctx.text;
  const k = personKind(ctx, l.key, text.slice(l.elems[0].vs, l.elems[l.elems.length - 1].ve));
  if (!k || (k.category !== "ADDRESS" && k.category !== "NAME")) return;
  const before = ctx.out.structured.length;
  for (const w of l.elems) {
    const v = text.slice(w.vs, w.ve).trim();
    if (k.category === "ADDRESS" && (/^[A-Z]{2}$/.test(v) || /^(?:USA?|United States)$/i.test(v))) continue;
    push(ctx, w.vs, w.ve, k.category, `Tcl ${l.key}`);
  }
  if (ctx.out.structured.length > before) ctx.out.segments.push({ start, end: l.end });
}

/** The leaves of a keyed list in `[s, e)` under a name or address key. */
function leaves(ctx: Ctx, s: number, e: number, category: string, path: string, depth: number): void {
  const text = ctx.text;
  let i = skipBlanks(text, s, true);
  while (i < e) {
    if (text.charCodeAt(i) !== 123) return;
    const p = pairAt(text, i);
    if (!p) {
      // `{ADDR {12 ELM ST} {X} {IL}}` inside a record: the key's plain list.
      const l = listAt(text, i);
      if (!l || l.end > e || l.elems.length < 2) return;
      listLeaves(ctx, l, i);
      i = skipBlanks(text, l.end, true);
      continue;
    }
    if (p.end > e) return;
    const k = columnCategory(p.key);
    const sub = `${path}.${p.key}`;
    if (k?.kind !== "safe") {
      const cat = k?.kind === "phi" ? k.category : category;
      if (p.value.braced && text.charCodeAt(skipBlanks(text, p.value.vs, true)) === 123 && depth < 8) {
        leaves(ctx, p.value.vs, p.value.ve, cat, sub, depth + 1);
      } else push(ctx, p.value.vs, p.value.ve, cat, `Tcl ${sub}`);
    }
    i = skipBlanks(text, p.end, true);
  }
}

const PAIR_START = /\{[ \t\r\n]*[A-Za-z_][A-Za-z0-9_.]{0,39}[ \t]/g;

function keyedLists(ctx: Ctx): void {
  const text = ctx.text;
  PAIR_START.lastIndex = 0;
  for (let m = PAIR_START.exec(text); m; m = PAIR_START.exec(text)) {
    const p = pairAt(text, m.index);
    if (!p) {
      const l = listAt(text, m.index);
      if (l && l.elems.length > 1) listLeaves(ctx, l, m.index);
      continue;
    }
    const k = personKind(ctx, p.key, text.slice(p.value.vs, p.value.ve));
    if (!k) continue;
    const before = ctx.out.structured.length;
    const nested = p.value.braced && text.charCodeAt(skipBlanks(text, p.value.vs, true)) === 123;
    if (nested) leaves(ctx, p.value.vs, p.value.ve, k.category, p.key, 0);
    else push(ctx, p.value.vs, p.value.ve, k.category, `Tcl ${p.key}`);
    if (ctx.out.structured.length > before) ctx.out.segments.push({ start: m.index, end: p.end });
    PAIR_START.lastIndex = p.end;
  }
}

const KEYLSET = /\bkeylset[ \t]+[^\s;\]]+[ \t]+/g;
const SET = /\bset[ \t]+([A-Za-z_][\w]{0,39})[ \t]+/g;

function commands(ctx: Ctx): void {
  const text = ctx.text;
  if (text.indexOf("keylset") !== -1) {
    KEYLSET.lastIndex = 0;
    for (let m = KEYLSET.exec(text); m; m = KEYLSET.exec(text)) {
      let i = m.index + m[0].length;
      for (let n = 0; n < 32; n++) {
        const key = wordAt(text, i, false);
        if (!key) break;
        const vs = skipBlanks(text, key.end);
        if (vs === key.end) break;
        const value = wordAt(text, vs, false);
        if (!value) break;
        const k = personKind(ctx, text.slice(key.vs, key.ve), text.slice(value.vs, value.ve));
        if (k) {
          const before = ctx.out.structured.length;
          if (value.braced && text.charCodeAt(skipBlanks(text, value.vs, true)) === 123) {
            leaves(ctx, value.vs, value.ve, k.category, text.slice(key.vs, key.ve), 0);
          } else push(ctx, value.vs, value.ve, k.category, `Tcl keylset ${text.slice(key.vs, key.ve)}`);
          if (ctx.out.structured.length > before) {
            ctx.out.segments.push({ start: value.start, end: value.end });
          }
        }
        i = skipBlanks(text, value.end);
        const c = text.charCodeAt(i);
        if (i >= text.length || c === 10 || c === 13 || c === 59 || c === 93) break;
      }
      KEYLSET.lastIndex = Math.max(KEYLSET.lastIndex, i);
    }
  }
  if (text.indexOf("set ") !== -1) {
    SET.lastIndex = 0;
    for (let m = SET.exec(text); m; m = SET.exec(text)) {
      const vs = m.index + m[0].length;
      const value = wordAt(text, vs, false);
      if (!value) continue;
      // `set x [cmd ...]` and `set x $y` hold no value.
      const c0 = text.charCodeAt(value.vs);
      if (c0 === 91 || c0 === 36) continue;
      const k = personKind(ctx, m[1], text.slice(value.vs, value.ve));
      if (!k) continue;
      if (push(ctx, value.vs, value.ve, k.category, `Tcl set ${m[1]}`)) {
        ctx.out.segments.push({ start: value.start, end: value.end });
      }
      SET.lastIndex = value.end;
    }
  }
}

// ---- test-tool output, logs, stacks -------------------------------------------------------------

/** `%8s: '` (hcitpstest's send-to proc), `dest: '` (hciroutetest): the disposition or destination. */
const RESULT_LINE = /^[ \t]*([A-Za-z_][\w.*-]{0,39}):[ \t]+'/gm;
const SEGMENT_LINE = /^[A-Z][A-Z0-9]{2}\|/;

/** The quote that ends a message opened at `from`: a `'` that ends its line, the next line no segment. */
function messageEnd(text: string, from: number): number {
  let i = from;
  for (;;) {
    const q = text.indexOf("'", i);
    if (q === -1) return -1;
    let a = q + 1;
    while (a < text.length && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
    const c = text.charCodeAt(a);
    if (a >= text.length) return q;
    if (c === 10 || c === 13) {
      let n = a + 1;
      if (c === 13 && text.charCodeAt(n) === 10) n++;
      // A segment on the next line continues the message (segments written one per line).
      if (!SEGMENT_LINE.test(text.slice(n, n + 4))) return q;
    }
    i = q + 1;
    if (i - from > 200_000) return -1;
  }
}

function resultLines(ctx: Ctx): void {
  const text = ctx.text;
  RESULT_LINE.lastIndex = 0;
  for (let m = RESULT_LINE.exec(text); m; m = RESULT_LINE.exec(text)) {
    const open = m.index + m[0].length;
    const close = messageEnd(text, open);
    if (close === -1) continue;
    ctx.out.segments.push({ start: m.index, end: open });
    if (close > open) {
      ctx.out.segments.push({ start: open, end: close });
      ctx.out.free.push({ start: open, end: close });
    }
    RESULT_LINE.lastIndex = close + 1;
  }
}

/** Cloverleaf's process log prefix: `[cat :sub :LEVEL/n:thread:timestamp]` or `[cat .SUB.0001]`. */
const ENGINE_PREFIX = /\[[A-Za-z]{2,4} {0,3}[:.][^\]\r\n]{1,160}\][ \t]*/y;
/** Other log prefixes: a timestamp first, then levels, bracketed fields, a pid. */
const LOG_PREFIX = new RegExp(
  String.raw`\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?` +
    String.raw`|\d{1,2}\/\d{1,2}\/\d{4}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?` +
    String.raw`|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}(?: \d{4})?)\]?` +
    String
      .raw`(?:[ \t]+(?:\[[^\]\r\n]{1,80}\]|\((?:[^)\r\n]{1,40})\)|(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRIT|SEVERE)\b:?|<\w{1,10}>|[\w.-]{1,40}\[\d{1,10}\]:))*[ \t]*`,
  "y",
);

/** Log lines: each line start that opens with `[`, a digit or a capital is tried (sticky). */
function logLines(ctx: Ctx): void {
  const text = ctx.text;
  let ls = 0;
  while (ls < text.length) {
    let nl = text.indexOf("\n", ls);
    if (nl === -1) nl = text.length;
    const c = text.charCodeAt(ls);
    let pe = -1;
    if (c === 91 /* [ */) {
      ENGINE_PREFIX.lastIndex = ls;
      if (ENGINE_PREFIX.test(text)) pe = ENGINE_PREFIX.lastIndex;
    }
    if (pe === -1 && (c === 91 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90))) {
      LOG_PREFIX.lastIndex = ls;
      if (LOG_PREFIX.test(text)) pe = LOG_PREFIX.lastIndex;
    }
    if (pe !== -1 && pe <= nl) {
      let le = nl;
      if (le > pe && text.charCodeAt(le - 1) === 13) le--;
      ctx.out.segments.push({ start: ls, end: Math.min(pe, le) });
      if (le > pe) {
        ctx.out.segments.push({ start: pe, end: le });
        ctx.out.free.push({ start: pe, end: le });
      }
    }
    ls = nl + 1;
  }
}

/** A Tcl stack frame line. */
const FRAME =
  /^[ \t]*(?:while executing|invoked from within|while compiling|\("[^"\r\n]{1,60}" (?:body|arm|test expression|then script|else script) line \d+\)|\((?:procedure|file|command bound to event|"uplevel" body|"eval" body) "?[^\r\n]{0,200}?"? line \d+\)|\(compiling [^\r\n]{1,80}\))[ \t]*$/gm;

function stacks(ctx: Ctx): void {
  const text = ctx.text;
  FRAME.lastIndex = 0;
  for (let m = FRAME.exec(text); m; m = FRAME.exec(text)) {
    ctx.out.segments.push({ start: m.index, end: m.index + m[0].length });
    // The quoted command on the next line(s): `"set y $x"`.
    if (!/executing|within|compiling$/.test(m[0].trimEnd())) continue;
    let n = m.index + m[0].length;
    if (text.charCodeAt(n) === 13) n++;
    if (text.charCodeAt(n) !== 10) continue;
    n++;
    if (text.charCodeAt(n) !== 34) continue;
    const e = quotedCommandEnd(text, n);
    if (e === -1) continue;
    ctx.out.segments.push({ start: n, end: e });
    if (e - 1 > n + 1) ctx.out.free.push({ start: n + 1, end: e - 1 });
    FRAME.lastIndex = e;
  }
}

/** A command Tcl quotes in a stack: to the `"` that ends a line (it may hold quotes and lines). */
function quotedCommandEnd(text: string, open: number): number {
  let i = open + 1;
  const limit = Math.min(text.length, open + 20000);
  while (i < limit) {
    const q = text.indexOf('"', i);
    if (q === -1 || q >= limit) return -1;
    const c = text.charCodeAt(q + 1);
    if (q + 1 >= text.length || c === 10 || c === 13) return q + 1;
    i = q + 1;
  }
  return -1;
}

// ---- the format ---------------------------------------------------------------------------------

const STRONG_KEY =
  /\{[ \t]*([A-Za-z_][A-Za-z0-9_.]{0,39})[ \t]|keylset[ \t]+\S+[ \t]+([A-Za-z_][\w.]{0,39})/g;

function hasStrongKey(text: string): boolean {
  STRONG_KEY.lastIndex = 0;
  for (let m = STRONG_KEY.exec(text); m; m = STRONG_KEY.exec(text)) {
    const k = columnCategory(m[1] ?? m[2]);
    if (k?.kind === "phi" && k.strength === "strong") return true;
  }
  return false;
}

/**
 * The Tcl and engine output of `text` (see the module doc), or undefined when there is none.
 *
 * @example
 * ```ts
 * import { scanEngineOutput } from "./engine_output.ts";
 * scanEngineOutput("{MRN 00123} {NAME {SMITH JOHN}}")?.structured.map((c) => c.value); // ["00123", "SMITH JOHN"]
 * ```
 */
export function scanEngineOutput(text: string): RecordScan | undefined {
  const ctx: Ctx = { text, out: { structured: [], free: [], segments: [] }, strong: false };
  const brace = text.indexOf("{") !== -1;
  if (brace || text.indexOf("keylset") !== -1) ctx.strong = hasStrongKey(text);
  if (brace) keyedLists(ctx);
  if (text.indexOf("set") !== -1) commands(ctx);
  if (text.indexOf(": '") !== -1 || text.indexOf(":\t'") !== -1) resultLines(ctx);
  logLines(ctx);
  if (text.indexOf(" within") !== -1 || text.indexOf("executing") !== -1) stacks(ctx);
  addJsonStrings(text, scanEngineOutput, ctx.out);
  const out = withoutFences(text, ctx.out);
  if (out.segments.length === 0) return undefined;
  return tidy(out);
}

/**
 * Sorted parts, with segments that overlap an earlier one dropped (a keyed list inside a log line:
 * the keyed list's value is structured, the line's text around it stays free).
 */
function tidy(out: RecordScan): RecordScan {
  const bySpan = (a: Span, b: Span) => a.start - b.start || b.end - a.end;
  out.structured.sort(bySpan);
  // Structured values first: a segment holding one stays whole; other segments may not overlap it.
  const segs = out.segments.sort(bySpan);
  const kept: Span[] = [];
  let end = -1;
  for (const s of segs) {
    if (s.start >= end) {
      kept.push(s);
      end = s.end;
    } else if (s.end > end) {
      // Overlaps the previous one: keep the part after it.
      kept.push({ start: end, end: s.end });
      end = s.end;
    }
  }
  out.segments = kept;
  out.free.sort(bySpan);
  // Free spans must not hold a structured value: cut them around each.
  if (out.structured.length > 0 && out.free.length > 0) {
    const free: Span[] = [];
    let k = 0;
    for (const f of out.free) {
      let s = f.start;
      while (k < out.structured.length && out.structured[k].end <= s) k++;
      let j = k;
      while (j < out.structured.length && out.structured[j].start < f.end) {
        const c = out.structured[j];
        if (c.start > s) free.push({ start: s, end: c.start });
        s = Math.max(s, c.end);
        j++;
      }
      if (s < f.end) free.push({ start: s, end: f.end });
    }
    out.free = free;
  }
  return out;
}

/** Tcl keyed lists, test-tool output, engine logs and Tcl stacks (phi/records.ts). */
export const ENGINE_OUTPUT_FORMAT: RecordFormat = {
  name: "engine_output",
  maybe(text: string): boolean {
    return text.indexOf("{") !== -1 || text.indexOf("[") !== -1 || text.indexOf(": '") !== -1 ||
      text.indexOf("set ") !== -1 || text.indexOf(":") !== -1;
  },
  scan: scanEngineOutput,
};
