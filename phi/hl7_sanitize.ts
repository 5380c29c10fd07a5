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
 */
import { DEFAULT_DELIMITERS, type Delimiters, type Hl7Document, parseMessages, unescape } from "./_hl7.ts";
import { type FieldRule, OBX_TEXT_TYPES, policyFor } from "./hl7_policy.ts";
import { canonicalize } from "./normalize.ts";
import type { Candidate } from "./detect.ts";
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

const NULL = '""';

function push(
  ctx: Ctx,
  start: number,
  end: number,
  category: string,
  d: Delimiters,
  where: string,
): void {
  if (end <= start) return;
  const value = ctx.text.slice(start, end);
  if (value === NULL || value.trim() === "") return;
  let plain = value;
  if (d.component !== "^" && d.component !== "") plain = plain.split(d.component).join("^");
  if (d.subcomponent !== "" && d.subcomponent !== "^") plain = plain.split(d.subcomponent).join("^");
  plain = unescape(plain, d);
  const canonical = canonicalize(category, plain);
  if (canonical === "") return;
  ctx.out.structured.push({ start, end, value, category, canonical, tier: "hl7_pipeline", context: where });
}

/** Start offsets of the parts of `[s, e)` split by `sep` (a one-character delimiter), plus `e`. */
function cuts(text: string, s: number, e: number, sep: string): number[] {
  const at = [s];
  if (sep !== "") {
    let p = text.indexOf(sep, s);
    while (p !== -1 && p < e) {
      at.push(p + 1);
      p = text.indexOf(sep, p + 1);
    }
  }
  at.push(e + 1);
  return at;
}

/** `[start, end)` of part `k` (0-based) given `cuts` output, or undefined when absent. */
function part(c: number[], k: number): [number, number] | undefined {
  if (k + 1 >= c.length) return undefined;
  return [c[k], c[k + 1] - 1];
}

/** The span from part `from` to the last non-empty part up to `to` (inclusive, 0-based). */
function spanOf(c: number[], from: number, to: number): [number, number] | undefined {
  let last = -1;
  for (let k = from; k <= to && k + 1 < c.length; k++) {
    if (c[k + 1] - 1 > c[k]) last = k;
  }
  if (last === -1) return undefined;
  return [c[from], c[last + 1] - 1];
}

function applyRule(ctx: Ctx, rule: FieldRule, fs: number, fe: number, d: Delimiters, where: string): void {
  if (rule.kind === "free") {
    if (fe > fs) ctx.out.free.push({ start: fs, end: fe });
    return;
  }
  const text = ctx.text;
  const reps = cuts(text, fs, fe, d.repetition);
  for (let r = 0; r + 1 < reps.length; r++) {
    const rs = reps[r], re = reps[r + 1] - 1;
    if (re <= rs) continue;
    const at = r === 0 ? where : `${where}[${r + 1}]`;
    switch (rule.kind) {
      case "whole":
        push(ctx, rs, re, rule.category, d, at);
        break;
      case "id":
      case "date": {
        const c = cuts(text, rs, re, d.component);
        const p = part(c, 0)!;
        push(ctx, p[0], p[1], rule.category, d, at);
        break;
      }
      case "name": {
        const c = cuts(text, rs, re, d.component);
        const s = spanOf(c, 0, 3);
        if (s) push(ctx, s[0], s[1], "NAME", d, at);
        break;
      }
      case "xcn": {
        const c = cuts(text, rs, re, d.component);
        const p = part(c, 0)!;
        push(ctx, p[0], p[1], "NPI", d, `${at}.1`);
        const s = spanOf(c, 1, 4);
        if (s) push(ctx, s[0], s[1], "NAME", d, `${at}.2`);
        break;
      }
      case "ndl": {
        const c = cuts(text, rs, re, d.component);
        const p = part(c, 0)!;
        const sc = cuts(text, p[0], p[1], d.subcomponent);
        const id = part(sc, 0)!;
        push(ctx, id[0], id[1], "NPI", d, `${at}.1.1`);
        const s = spanOf(sc, 1, 3);
        if (s) push(ctx, s[0], s[1], "NAME", d, `${at}.1.2`);
        break;
      }
      case "addr": {
        const c = cuts(text, rs, re, d.component);
        for (const k of [0, 1, 2, 4, 7, 8]) {
          const p = part(c, k);
          if (p) push(ctx, p[0], p[1], "ADDRESS", d, `${at}.${k + 1}`);
        }
        break;
      }
      case "phone": {
        const c = cuts(text, rs, re, d.component);
        for (const k of [0, 3, 5, 6, 11]) {
          const p = part(c, k);
          if (p) push(ctx, p[0], p[1], k === 3 ? "EMAIL" : "PHONE", d, `${at}.${k + 1}`);
        }
        break;
      }
    }
  }
}

/** Applies the field policy to one segment `[s, e)` of the text. */
function segment(ctx: Ctx, s: number, e: number, d: Delimiters): void {
  const text = ctx.text;
  const sep = d.field;
  const idEnd = text.indexOf(sep, s);
  if (idEnd === -1 || idEnd > e) return;
  ctx.out.segments.push({ start: s, end: e });
  if (idEnd - s !== 3) return;
  const id = text.slice(s, idEnd);
  const rules = policyFor(id);
  if (!rules) return;
  let n = 1;
  let fs = idEnd + 1;
  let obxType = "";
  for (;;) {
    let fe = text.indexOf(sep, fs);
    if (fe === -1 || fe > e) fe = e;
    if (id === "OBX" && n === 2) obxType = text.slice(fs, fe).split(d.component)[0].trim().toUpperCase();
    const rule = rules[n];
    if (
      rule && fe > fs && (rule.kind !== "free" || rule.when !== "obx_text" || OBX_TEXT_TYPES.has(obxType))
    ) {
      applyRule(ctx, rule, fs, fe, d, `${id}.${n}`);
    }
    if (fe >= e) break;
    fs = fe + 1;
    n++;
  }
}

const SEG_AT = /[A-Z][A-Z0-9]{2}\|/y;
const EMBEDDED_START = /(?:^|[:\s"'>=,\[-])([A-Z][A-Z0-9]{2})\|/g;
const ESCAPED_BREAK = /\\[rn](?=[A-Z][A-Z0-9]{2}\|)/g;

/**
 * Segments inside ordinary text, the way the shape test finds them (conventional delimiters).
 * Header segments here cannot declare other delimiters reliably (JSON doubles the escape
 * character), so `|^~\&` is assumed.
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
    if (le > ls && text.indexOf("|", ls) !== -1 && text.indexOf("|", ls) < le) {
      const line = text.slice(ls, le);
      let s = -1;
      let i = 0;
      while (i < line.length && (line[i] === " " || line[i] === "\t" || line[i] === "\x0b")) i++;
      if (/^\d{10}/.test(line.slice(i, i + 10))) {
        SEG_AT.lastIndex = i + 10;
        if (SEG_AT.test(line)) i += 10;
      }
      SEG_AT.lastIndex = i;
      if (SEG_AT.test(line)) s = i;
      else {
        EMBEDDED_START.lastIndex = 0;
        const m = EMBEDDED_START.exec(line.slice(0, 1024));
        if (m) s = m.index + m[0].length - 4;
        else {
          ESCAPED_BREAK.lastIndex = 0;
          const b = ESCAPED_BREAK.exec(line);
          if (b) s = b.index + 2;
        }
      }
      if (s !== -1) {
        // Further segments on the same line after an escaped \r or \n.
        const starts = [s];
        ESCAPED_BREAK.lastIndex = s;
        for (let b = ESCAPED_BREAK.exec(line); b; b = ESCAPED_BREAK.exec(line)) starts.push(b.index + 2);
        for (let k = 0; k < starts.length; k++) {
          const segEnd = k + 1 < starts.length ? starts[k + 1] - 2 : line.length;
          segment(ctx, ls + starts[k], ls + segEnd, DEFAULT_DELIMITERS);
        }
      }
    }
    ls = le;
    if (ls < end && text.charCodeAt(ls) === 13) ls++;
    if (ls < end && text.charCodeAt(ls) === 10) ls++;
  }
}

/**
 * Finds the segments, policy values and free-text ranges of `text`.
 *
 * @example
 * const scan = scanHl7("MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||12345678^^^H^MR||DOE^JANE");
 * scan.structured.map((c) => [c.context, c.value]); // [["PID.3", "12345678"], ["PID.5", "DOE^JANE"]]
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
    for (const p of doc.parts) {
      if (p.kind === "message") {
        for (const seg of p.message.segments) {
          segment(ctx, seg.offset, seg.offset + seg.raw.length, seg.delimiters);
        }
      } else if (p.kind === "text" && p.text.indexOf("|") !== -1) {
        looseRegion(ctx, p.offset, p.offset + p.text.length);
      }
    }
  }
  ctx.out.structured.sort((a, b) => a.start - b.start);
  return ctx.out;
}
