/**
 * HL7 inside other encodings (issue #14, class 1): segments whose separators and characters arrive
 * escaped by a carrier, so the field policy (tier 3) cannot see them in the raw text.
 *
 * Each line that holds a segment-id candidate is decoded into a plain view, with the map from every
 * view character back to its source range:
 *
 * | Carrier | Read as a segment break | Decoded to one character |
 * |---|---|---|
 * | XML / HTML | `&#13;` `&#xD;` `&#x0D;` `&#10;` `&#xA;` (also `&amp;#13;`), `<br>` `<br/>`, any tag, `<![CDATA[` `]]>` | `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NN;` |
 * | JSON (any depth), logs | `\r` `\n` `\u000d` `\u000a` behind any run of backslashes (`\\r` one level deeper) | a backslash run (`\\` `\\\\`) as the HL7 escape character, `\"` as `"` |
 * | written-out controls | `<CR>` `<LF>` `[CR]` `^M` (before a segment id or at the end of the line), `\x0d`, octal `\015`, `␍` `␊`, URL-encoded `%0D` `%0A`, quoted-printable `=0D=0A` | |
 * | Tcl lists | `{` before a segment id, its `}` | |
 * | SQL / CSV / JSON strings, Markdown code | the quote (or backtick) before a segment id and its closing quote (same escape form) | a doubled quote (`''`, `""`) inside it |
 * | log prefixes | `|` before a segment id with a field policy (`thread|IN|PID|1||...`) | |
 * | typed or pasted prose | a lower-case or title-case id (`pid|1||...`), white space around the separators (`PID | 1 | | 12345`) | the id in upper case; the white space around each `|` is dropped |
 *
 * A loose segment (the last row) is read only with the ids that have a field policy, or MSH with its
 * encoding characters, with four fields or more, one of them empty or with components, a set ID of
 * at most two digits where the segment has one, and not as a cell of a `|` table.
 *
 * A segment starts at a break, at the start of the line, or after white space, `:`, `>`, `=`, `+`,
 * `,`, `;`, `(`, `[`, `-` when its id is a known segment id (or a Z-segment); it ends at the next
 * break. Without an `MSH` the default delimiters `|^~\&` apply (a lone PID, NK1, GT1, IN1 or PV1).
 * The view goes through the HL7 sanitizer's scan (phi/hl7_sanitize.ts); each value found is mapped
 * back to the source range that encodes it, so the token replaces exactly those characters and the
 * rest of the carrier stays byte for byte. Tokens (`[[NAME_1]]`) need no escaping in any of these
 * carriers, so the token is already in the carrier's own encoding.
 *
 * Lines the primary scan (a plain HL7 message) covers are left to it unless they hold carrier
 * escapes.
 */
import { type Hl7Scan, scanHl7 } from "./hl7_sanitize.ts";
import { HL7_FIELD_POLICY } from "./hl7_policy.ts";
import { KNOWN_SEGMENTS } from "./_hl7.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { type Span, SpanSet } from "./spans.ts";

/** A segment-id candidate anywhere. */
const ANCHOR = /[A-Z][A-Z0-9]{2}\|/g;
/** Carrier escapes around segments (case-insensitive part). */
const CARRIER_I =
  /&(?:amp;)*#(?:x0*[da]|0*1[03]);|<(?:br|cr|lf)\b|<0x0[da]>|\[CR\]|CDATA|\\+(?:[rn]|u000[da]|x0[da]|01[25])|\\X0[DA]\\|[%=]0[da][A-Z%=]|[\u240d\u240a]/i;

/** Segment ids that may start a segment after a character inside a line. */
const STRONG = new Set<string>([...KNOWN_SEGMENTS, ...Object.keys(HL7_FIELD_POLICY)]);
/**
 * `^M` (the caret spelling of a carriage return, as `cat -v` and vi print it) ends a segment only
 * where it cannot be an HL7 component: at the end of the line (white space after it allowed), or
 * right before (white space allowed) a known segment id or a Z-segment id and its field separator
 * (`...^MPID|1|`). A component that starts with M (`SMITH^MARY|`, `^MARK^J`, `^MIKE|`) is data: its
 * rest (`ARY|`) is not a known segment id. The one ambiguity left, `SMITH^MPID|`, is read as a break:
 * no given name is M followed by a segment id, but for `MAIS` (the lexicon's only such name part), so
 * `^MAIS|` is a break only when a set ID (digits) follows (`^MAIS|1|`).
 */
function caretCrAt(text: string, after: number, le: number): boolean {
  let j = after;
  while (j < le && (text[j] === " " || text[j] === "\t")) j++;
  if (j >= le) return true;
  const id = segIdAt(text, j, le);
  if (id === undefined || !strong(id)) return false;
  return id !== "AIS" || /^\d/.test(text.slice(j + 4, j + 5));
}

/**
 * Carrier openers right before a segment id (case-sensitive), log-prefix pipes, and `^M` where it is
 * a carriage return (see caretCrAt): before a known segment id, or at the end of a line.
 */
const CARRIER_S = new RegExp(
  String.raw`[{'"\x60][A-Z][A-Z0-9]{2}\||&quot;[A-Z][A-Z0-9]{2}\||\|(?:PID|NK1|GT1|IN1|PV1|MSH)\||` +
    String.raw`\^M[ \t]*(?:(?:${[...STRONG].join("|")}|Z[A-Z0-9]{2})\||\r?\n|$)`,
);

/** A segment id after white space, on a line with a `|` before it (`thread|IN| PID|1|...`). */
const SPACED_ID = /[ \t](?:PID|NK1|GT1|IN1|PV1|MRG)\|/g;

/**
 * True when a line holds `|` and, later on it, white space and a segment id with a policy: the one
 * carrier of CARRIER_S's kind that a regex would find by scanning each line once per `|`.
 */
function spacedIdAfterPipe(text: string): boolean {
  SPACED_ID.lastIndex = 0;
  for (let m = SPACED_ID.exec(text); m; m = SPACED_ID.exec(text)) {
    const pipe = text.lastIndexOf("|", m.index);
    if (pipe !== -1 && pipe > text.lastIndexOf("\n", m.index) && pipe > text.lastIndexOf("\r", m.index)) {
      return true;
    }
  }
  return false;
}

/** Segment ids that may follow a log-prefix `|`: those with a field policy, and headers. */
const PIPE_START = new Set<string>([...Object.keys(HL7_FIELD_POLICY), "MSH"]);

const SEG_ID = /[A-Z][A-Z0-9]{2}\|/y;
const ENTITY = /&((?:amp;)*)(?:#(?:[xX]([0-9A-Fa-f]{1,6})|(\d{1,7}))|(amp|lt|gt|quot|apos));/y;
const BREAK_TAG =
  /<(?:br\s*\/?|cr|lf|0x0[da])>|<!\[CDATA\[|\]\]>|\[CR\]|\[LF\]|<\/?[A-Za-z][\w:.-]*(?:\s[^<>|]*)?\/?>/iy;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const BREAK = "\r";

function isStartChar(c: string): boolean {
  return c === " " || c === "\t" || c === ":" || c === ">" || c === "=" || c === "+" || c === "," ||
    c === ";" || c === "(" || c === "[" || c === "-" || c === '"' || c === "'" || c === "{" || c === "`";
}

/** The segment id of `text` at `i` when a `[A-Z][A-Z0-9]{2}|` starts there. */
function segIdAt(text: string, i: number, end: number): string | undefined {
  if (i + 4 > end) return undefined;
  SEG_ID.lastIndex = i;
  return SEG_ID.test(text) ? text.slice(i, i + 3) : undefined;
}

/**
 * Segment ids that are also read written loosely: lower case (`pid|1||...`) or with white space
 * before the separator (`PID | 1 | | 12345`), as segments appear typed or pasted into prose. Only
 * ids with a field policy, and the header.
 */
const LOOSE_IDS = [...Object.keys(HL7_FIELD_POLICY), "MSH"];
const LOOSE_SET = new Set(LOOSE_IDS);
const LOWER_IDS = LOOSE_IDS.flatMap((x) => [x.toLowerCase(), x[0] + x.slice(1).toLowerCase()]);
/**
 * A loose segment-id candidate anywhere: any case with white space around its `|`, or a lower-case
 * or title-case id (the strict `PID|1` is ANCHOR's).
 */
const LOOSE_ANCHOR = new RegExp(
  `(?<![A-Za-z0-9_])(?:(?:${[...LOOSE_IDS, ...LOWER_IDS].join("|")})(?:[ \\t]+\\||\\|[ \\t])|(?:${
    LOWER_IDS.join("|")
  })\\|)`,
  "g",
);
const LOOSE_ID = /([A-Za-z][A-Za-z0-9]{2})([ \t]*)\|([ \t]*)/y;

/** A loose segment id at `i` (match groups: id as written, white space), not the strict `PID|`. */
function looseIdAt(text: string, i: number, end: number): RegExpExecArray | undefined {
  LOOSE_ID.lastIndex = i;
  const m = LOOSE_ID.exec(text);
  if (m === null || i + m[0].length > end) return undefined;
  const up = m[1].toUpperCase();
  if (!LOOSE_SET.has(up) || (m[2] === "" && m[3] === "" && up === m[1])) return undefined;
  // Not the tail of a longer word (`rapid|`), nor a cell of a table (`| PID | 5 | Patient Name |`).
  let b = i - 1;
  while (b >= 0 && (text[b] === " " || text[b] === "\t")) b--;
  if (b >= 0 && (text[b] === "|" || (b === i - 1 && /[A-Za-z0-9_]/.test(text[b])))) return undefined;
  return m;
}

/** True when `id` may start a segment inside a line (after a character, not a break). */
function strong(id: string): boolean {
  return STRONG.has(id) || id[0] === "Z";
}

/**
 * The decoded view under construction, with its map to the source: entries of either one decoded
 * character (or a zero-width break) standing for a source range, or a run of characters copied as
 * they are (view character k is source character `src + k - at`).
 */
class View {
  readonly parts: string[] = [];
  /** Per entry: view start, source start, source end, and whether it is a copied run. */
  readonly at: number[] = [];
  readonly src: number[] = [];
  readonly srcEnd: number[] = [];
  readonly copied: boolean[] = [];
  length = 0;
  last = BREAK;

  /** One decoded character (or a zero-width break) for source `[s, e)`. */
  put(ch: string, s: number, e: number): void {
    this.#entry(ch, s, e, false);
  }

  /** Source `[s, e)` of `text` copied as it is. */
  copy(text: string, s: number, e: number): void {
    this.#entry(text.slice(s, e), s, e, true);
  }

  #entry(str: string, s: number, e: number, copied: boolean): void {
    this.parts.push(str);
    this.at.push(this.length);
    this.src.push(s);
    this.srcEnd.push(e);
    this.copied.push(copied);
    this.length += str.length;
    if (str.length) this.last = str[str.length - 1];
  }

  /** Entry count, to roll back to. */
  get mark(): number {
    return this.parts.length;
  }

  rollback(mark: number): void {
    if (mark === this.parts.length) return;
    this.length = this.at[mark];
    for (const a of [this.parts, this.at, this.src, this.srcEnd, this.copied]) a.length = mark;
    const p = this.parts[mark - 1];
    this.last = p ? p[p.length - 1] ?? BREAK : BREAK;
  }

  /** The last (up to) 16 characters written, for the escape-sequence test. */
  get tail(): string {
    let t = "";
    for (let k = this.parts.length - 1; k >= 0 && t.length < 16; k--) t = this.parts[k] + t;
    return t.slice(-16);
  }

  /** The entry holding view character `k`. */
  #find(k: number): number {
    const at = this.at;
    // The last entry that starts at or before k (`at` never decreases), not an empty one (a
    // quoted-printable soft break holds no view character).
    let lo = 0, hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    while (lo > 0 && this.parts[lo].length === 0) lo--;
    return lo;
  }

  /** Source start of view character `k`. */
  startOf(k: number): number {
    const i = this.#find(k);
    return this.copied[i] ? this.src[i] + k - this.at[i] : this.src[i];
  }

  /** Source end of view character `k`. */
  endOf(k: number): number {
    const i = this.#find(k);
    return this.copied[i] ? this.src[i] + k - this.at[i] + 1 : this.srcEnd[i];
  }
}

/** Characters the decoder looks at inside a segment; outside one the start characters too. */
const SPECIAL_IN = new Uint8Array(128);
for (const c of "\r\\\"'`&<[]^{}%= \t") SPECIAL_IN[c.charCodeAt(0)] = 1;
const SPECIAL_OUT = SPECIAL_IN.slice();
for (const c of ":>=+,;(-|") SPECIAL_OUT[c.charCodeAt(0)] = 1;
for (let c = 65; c <= 90; c++) SPECIAL_OUT[c] = 1; // a segment id may start here

/** True when the view ends inside an HL7 escape sequence (`\T`, `\X0D`, `\.br`): a `\` closes it. */
function inEscape(tail: string): boolean {
  return /\\[A-Z.][A-Za-z0-9.]{0,10}$/.test(tail);
}

/**
 * Decodes one source line `[ls, le)` onto the view; returns true when it found a segment start and
 * whether it decoded anything (a carrier was there).
 */
function decodeLine(
  text: string,
  ls: number,
  le: number,
  v: View,
): { found: boolean; changed: boolean; loose: number[] } {
  let found = false;
  let changed = false;
  let inSeg = false;
  /** The current segment started with a loose id: white space around its `|` is not data. */
  let loose = false;
  /** View positions of the segments that started with a loose id. */
  const starts: number[] = [];
  /** The enclosure the current run of segments opened in: a quote form (`"`, `\"`, `'`) or `{`. */
  let open: string | undefined;
  const brk = (s: number, e: number) => {
    v.put(BREAK, s, e);
    inSeg = false;
    loose = false;
  };
  /**
   * A segment may start at `j` (the next view character comes from source `j`): where the decoder
   * goes on. A loose id (`pid|`, `PID | 1 |`) is written to the view as its upper-case id and
   * `|`, so the decoder goes on after its `|`.
   */
  const startAt = (j: number, afterBreak: boolean): number => {
    if (inSeg) return j;
    const lo = looseIdAt(text, j, le);
    const id = lo ? lo[1].toUpperCase() : segIdAt(text, j, le);
    if (id === undefined) return j;
    // Only known ids start a segment here (`ADT|IN|PID|...`: the thread name is not one).
    if (!strong(id)) return j;
    const prev = v.last;
    if (!afterBreak && prev !== BREAK && !isStartChar(prev)) return j;
    if (prev !== BREAK) {
      v.put(BREAK, j, j); // zero-width: the segment starts a line of the view
      changed = true;
    }
    inSeg = true;
    found = true;
    loose = lo !== undefined;
    if (lo === undefined) return j;
    starts.push(v.length);
    changed = true;
    v.put(id, j, j + 3);
    const bar = j + lo[1].length + lo[2].length;
    v.put("|", bar, bar + 1);
    return bar + 1 + lo[3].length;
  };
  v.put(BREAK, ls, ls);
  let i = ls;
  i = startAt(i, true);
  while (i < le) {
    // Ordinary characters are copied in runs.
    const table = inSeg ? SPECIAL_IN : SPECIAL_OUT;
    let j = i;
    while (j < le) {
      const k = text.charCodeAt(j);
      if ((k < 128 && table[k] === 1) || k === 0x240d || k === 0x240a) break;
      j++;
    }
    if (j > i) {
      v.copy(text, i, j);
      i = j;
      continue;
    }
    const c = text[i];
    if (c === "\r") {
      brk(i, i + 1);
      i++;
      i = startAt(i, true);
      continue;
    }
    if (c === "\\") {
      let j = i;
      while (j < le && text.charCodeAt(j) === 92) j++;
      const n = text[j];
      if ((n === "r" || n === "n") && !inEscape(v.tail)) {
        brk(i, j + 1);
        changed = true;
        i = j + 1;
        i = startAt(i, true);
        continue;
      }
      if (n === "X" && j - i === 1 && /^X0[dDaA]\\/.test(text.slice(j, j + 4))) {
        // The HL7 hex escape of a segment terminator (`\X0D\`), written where the CR was.
        brk(i, j + 4);
        changed = true;
        i = j + 4;
        i = startAt(i, true);
        continue;
      }
      if (
        (n === "u" && /^u000[dDaA]/.test(text.slice(j, j + 5))) ||
        /^x0[dDaA](?!\\)/.test(text.slice(j, j + 4)) || /^01[25](?!\d)/.test(text.slice(j, j + 4))
      ) {
        // \u000d, \x0d, and the octal \015 (Tcl, C strings).
        const len = n === "u" ? 5 : 3;
        brk(i, j + len);
        changed = true;
        i = j + len;
        i = startAt(i, true);
        continue;
      }
      if (n === '"' || n === "'") {
        const form = text.slice(i, j + 1);
        if (open === form) {
          brk(i, j + 1);
          open = undefined;
          changed = true;
          i = j + 1;
          continue;
        }
        if (!inSeg && segIdAt(text, j + 1, le) !== undefined) {
          open = form;
          brk(i, j + 1);
          changed = true;
          i = j + 1;
          i = startAt(i, true);
          continue;
        }
        v.put(n, i, j + 1);
        if (j - i > 0) changed = true;
        i = j + 1;
        continue;
      }
      v.put("\\", i, j);
      if (j - i > 1) changed = true;
      i = j;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      // An apostrophe inside a word (`O'BRIEN`, `D'ANGELO`) does not close a single-quoted run
      // (hcitpstest prints each message as `%8s: '%s'`; SQL would have doubled it).
      if (
        open === c && c === "'" && i > ls && /\p{L}/u.test(text[i - 1]) && /\p{L}/u.test(text[i + 1] ?? "")
      ) {
        v.copy(text, i, i + 1);
        i++;
        continue;
      }
      if (open === c) {
        if (text[i + 1] === c) {
          v.put(c, i, i + 2);
          changed = true;
          i += 2;
          continue;
        }
        brk(i, i + 1);
        open = undefined;
        changed = true;
        i++;
        continue;
      }
      if (!inSeg && segIdAt(text, i + 1, le) !== undefined) {
        open = c;
        brk(i, i + 1);
        changed = true;
        i++;
        i = startAt(i, true);
        continue;
      }
    } else if (c === "&") {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(text);
      if (m && i + m[0].length <= le) {
        const e = i + m[0].length;
        const code = m[2] !== undefined ? parseInt(m[2], 16) : m[3] !== undefined ? Number(m[3]) : -1;
        changed = true;
        if (code === 13 || code === 10) {
          brk(i, e);
          i = e;
          i = startAt(i, true);
          continue;
        }
        const ch = code >= 0 ? String.fromCodePoint(code) : NAMED[m[4].toLowerCase()];
        if (ch === '"' || ch === "'") {
          const form = m[0];
          if (open === form) {
            brk(i, e);
            open = undefined;
            i = e;
            continue;
          }
          if (!inSeg && segIdAt(text, e, le) !== undefined) {
            open = form;
            brk(i, e);
            i = e;
            i = startAt(i, true);
            continue;
          }
        }
        v.put(ch, i, e);
        i = e;
        continue;
      }
    } else if (c === "<" || c === "[" || c === "]") {
      BREAK_TAG.lastIndex = i;
      const m = BREAK_TAG.exec(text);
      if (m && i + m[0].length <= le) {
        const e = i + m[0].length;
        brk(i, e);
        changed = true;
        i = e;
        i = startAt(i, true);
        continue;
      }
    } else if (c === "\u240d" || c === "\u240a") {
      // The control pictures ␍ and ␊ (written-out line ends in copied logs).
      brk(i, i + 1);
      changed = true;
      i++;
      i = startAt(i, true);
      continue;
    } else if (c === "=" && (text[i + 1] === "\n" || (text[i + 1] === "\r" && text[i + 2] === "\n"))) {
      // A quoted-printable soft line break (`=\r\n`, `=\n`: e-mail alerts carry HL7 as QP): not
      // part of the data, the segment goes on after it (the line was joined with the next one).
      const e = i + (text[i + 1] === "\n" ? 2 : 3);
      v.put("", i, e);
      changed = true;
      i = e;
      continue;
    } else if ((c === "%" || c === "=") && /^[%=]0[dDaA]/.test(text.slice(i, i + 3))) {
      // URL-encoded (`%0D`) and quoted-printable (`=0D=0A`) line ends, before a segment or at the end.
      const after = i + 3;
      if (
        after >= le || text[after] === c || segIdAt(text, after, le) !== undefined ||
        !/[\w]/.test(text[after]) ||
        (c === "=" && /^[A-Z][A-Z0-9]{0,2}=\r?\n/.test(text.slice(after, after + 6))) // `=0DAI=\r\nP|`
      ) {
        brk(i, after);
        changed = true;
        i = after;
        i = startAt(i, true);
        continue;
      }
    } else if (c === "^" && text[i + 1] === "M") {
      const after = i + 2;
      if (
        caretCrAt(text, after, le) &&
        !(loose && /^[ \t]*\|/.test(text.slice(after, after + 8))) // `DOE^M | SEL` spaced: a component
      ) {
        brk(i, after);
        changed = true;
        i = after;
        i = startAt(i, true);
        continue;
      }
    } else if (c === "{" && !inSeg && segIdAt(text, i + 1, le) !== undefined) {
      open = "{";
      brk(i, i + 1);
      changed = true;
      i++;
      i = startAt(i, true);
      continue;
    } else if (c === "}" && open === "{") {
      brk(i, i + 1);
      open = undefined;
      changed = true;
      i++;
      continue;
    } else if (c === "|" && !inSeg) {
      const id = segIdAt(text, i + 1, le);
      if (id !== undefined && PIPE_START.has(id)) {
        brk(i, i + 1);
        changed = true;
        i++;
        i = startAt(i, true);
        continue;
      }
    }
    if ((c === " " || c === "\t") && inSeg) {
      // A segment terminator turned into white space (a message pasted onto one line): white space
      // before a known segment id ends the segment.
      let j = i;
      while (j < le && (text[j] === " " || text[j] === "\t")) j++;
      const id = segIdAt(text, j, le) ?? (loose ? looseIdAt(text, j, le)?.[1].toUpperCase() : undefined);
      if (id !== undefined && strong(id)) {
        brk(i, j);
        changed = true;
        i = j;
        i = startAt(i, true);
        continue;
      }
      if (loose && (j >= le || text[j] === "|" || v.last === "|")) {
        // `PID | 1 | | 12345`: the spaces around a separator are layout, not part of a value.
        i = j;
        continue;
      }
    }
    v.put(c, i, i + 1);
    i++;
    if (!inSeg && isStartChar(c)) i = startAt(i, false);
  }
  return { found, changed, loose: starts };
}

/** Segments whose field 1 is a set ID (a number, or empty). */
const SET_ID_SEGMENTS = new Set([
  "PID",
  "NK1",
  "GT1",
  "IN1",
  "PV1",
  "OBX",
  "OBR",
  "NTE",
  "DG1",
  "PR1",
  "AL1",
  "AIP",
  "FT1",
  "TXA",
]);

/** False for a segment of a set-ID kind whose field 1 is not a number. */
function plausible(view: string, g: Span): boolean {
  const id = view.slice(g.start, g.start + 3);
  if (!SET_ID_SEGMENTS.has(id)) return true;
  let e = view.indexOf("|", g.start + 4);
  if (e === -1 || e > g.end) e = g.end;
  return /^\s*\d{0,4}\s*$/.test(view.slice(g.start + 4, e));
}

/**
 * A segment written with a loose id is read only when it looks like one: a header with its
 * encoding characters (`msh|^~\\&|`), or at least four fields, one of them empty or with components, with a set ID of
 * at most two digits (or empty) where the segment has one (`pid|1||...`; not `pid|4211|hcimonitor`,
 * not a row of a field table `PID | 3 | Patient Identifier List | CX`).
 */
function looseOk(view: string, g: Span): boolean {
  const seg = view.slice(g.start, g.end);
  if (seg.startsWith("MSH")) return /^MSH\|\^~\\&?\|/.test(seg);
  let bars = 0;
  for (let i = 3; i < seg.length; i++) if (seg.charCodeAt(i) === 124) bars++;
  if (bars < 4 || (seg.indexOf("||", 3) === -1 && seg.indexOf("^", 3) === -1)) return false;
  if (!SET_ID_SEGMENTS.has(seg.slice(0, 3))) return true;
  let e = seg.indexOf("|", 4);
  if (e === -1) e = seg.length;
  return /^\d{0,2}$/.test(seg.slice(4, e));
}

/** A quoted-printable soft line break after data (`...DENV=\r\nER^CO`). */
const SOFT_BREAK = /[^\s=]=\r?\n/;

/**
 * Lines joined across quoted-printable soft line breaks: a line that ends with `=` (before its
 * `\r\n` or `\n`) goes on with the next one, so a segment wrapped by the encoder is read whole.
 */
function joinSoftBreaks(text: string, lines: Span[]): Span[] {
  const out: Span[] = [];
  for (const l of lines) {
    const prev = out[out.length - 1];
    if (prev && l.start < prev.end) continue; // already joined into the previous line
    let end = l.end;
    for (;;) {
      const eq = text.charCodeAt(end - 1) === 13 ? end - 2 : end - 1;
      if (eq < l.start || text.charCodeAt(eq) !== 61 || end >= text.length) break;
      let next = text.indexOf("\n", end + 1);
      if (next === -1) next = text.length;
      end = next;
    }
    out.push({ start: l.start, end });
  }
  return out;
}

/**
 * The source lines (`\n`-separated) worth decoding: those holding a segment-id candidate; unless
 * `all`, only candidates outside the primary scan's segments count (searched gap by gap).
 */
function candidateLines(text: string, primary: SpanSet | undefined, all: boolean): Span[] {
  const strict = anchorLines(text, primary, all, ANCHOR);
  // Loose ids (`pid|`, `PID | 1`) between the primary scan's segments, and a proper segment id
  // with spaced separators at the start of one of them (the primary scan took it as a segment).
  // (One pass over the whole text: a search per gap would scan on past the gap each time.)
  const loose = anchorLines(text, undefined, true, LOOSE_ANCHOR);
  for (let i = 0; primary && i < primary.size; i++) {
    const s = primary.starts[i];
    // Most segments start `PID|1`: only white space around the `|` or a lower-case id is loose.
    const c3 = text.charCodeAt(s + 3), c4 = text.charCodeAt(s + 4), c1 = text.charCodeAt(s + 1);
    if (c3 === 124 && c4 !== 32 && c4 !== 9 && !(c1 >= 97 && c1 <= 122)) continue;
    if (looseIdAt(text, s, Math.min(text.length, s + 16)) === undefined) continue;
    const ls = text.lastIndexOf("\n", s) + 1;
    let le = text.indexOf("\n", s);
    if (le === -1) le = text.length;
    loose.push({ start: ls, end: le });
  }
  if (loose.length === 0) return strict;
  const byStart = new Map<number, Span>();
  for (const l of [...strict, ...loose]) byStart.set(l.start, l);
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** The source lines holding a match of `anchor` (see candidateLines). */
function anchorLines(text: string, primary: SpanSet | undefined, all: boolean, anchor: RegExp): Span[] {
  const out: Span[] = [];
  const lineOf = (p: number) => {
    let ls = text.lastIndexOf("\n", p) + 1;
    if (out.length && out[out.length - 1].end >= ls) ls = out[out.length - 1].end;
    let le = text.indexOf("\n", p);
    if (le === -1) le = text.length;
    if (le > ls) out.push({ start: ls, end: le });
    return le;
  };
  if (all || !primary) {
    anchor.lastIndex = 0;
    for (let m = anchor.exec(text); m; m = anchor.exec(text)) anchor.lastIndex = lineOf(m.index);
    return out;
  }
  let done = 0;
  const gap = (a: number, b: number) => {
    a = Math.max(a, done);
    while (a < b) {
      anchor.lastIndex = a;
      const m = anchor.exec(text);
      if (!m || m.index >= b) return;
      done = lineOf(m.index);
      a = done;
    }
  };
  let at = 0;
  for (let i = 0; i < primary.size; i++) {
    if (primary.starts[i] > at) gap(at, primary.starts[i]);
    at = Math.max(at, primary.ends[i]);
  }
  gap(at, text.length);
  return out;
}

/**
 * The scan of `text` with segments found inside carriers added to the primary scan (the HL7
 * sanitizer's, when the text is HL7-shaped); undefined when there are none. Positions are in `text`.
 *
 * @example
 * ```ts
 * import { embeddedScan } from "./embedded_hl7.ts";
 * const xml = "<m>MSH|^~\\&amp;|A|B|C|D|2024||ADT^A01|1|P|2.5&#13;PID|1||12345678^^^H^MR||DOE^JANE</m>";
 * embeddedScan(xml)?.structured.map((c) => xml.slice(c.start, c.end)); // ["12345678", "DOE^JANE"]
 * ```
 */
export function embeddedScan(
  text: string,
  primary?: Hl7Scan,
  scanner: (view: string) => Hl7Scan = scanHl7,
): Hl7Scan | undefined {
  if (text.indexOf("|") === -1) return undefined;
  const carriers = CARRIER_I.test(text) || CARRIER_S.test(text) || spacedIdAfterPipe(text);
  // Only segments with a proper id cover their line (a headless fragment's `then NK1|...` line is
  // a "segment" of the parser's, with no policy).
  const proper = primary?.segments.filter((g) => segIdAt(text, g.start, g.end + 1) !== undefined) ?? [];
  const covered = proper.length ? SpanSet.of(proper) : undefined;
  const soft = SOFT_BREAK.test(text);
  const lines = soft
    ? joinSoftBreaks(text, candidateLines(text, covered, true))
    : candidateLines(text, covered, carriers);
  if (lines.length === 0) return undefined;
  const v = new View();
  const taken: Span[] = [];
  const looseStarts = new Set<number>();
  for (const l of lines) {
    const mark = v.mark;
    const r = decodeLine(text, l.start, l.end, v);
    const mine = r.found && (r.changed || !covered || !covered.overlaps(l.start, l.end));
    if (!mine) {
      v.rollback(mark);
      continue;
    }
    for (const p of r.loose) looseStarts.add(p);
    taken.push(l);
  }
  if (taken.length === 0) return undefined;
  const view = v.parts.join("");
  const inner = scanner(view);
  const toSpan = (s: number, e: number): Span => ({ start: v.startOf(s), end: v.endOf(e - 1) });
  // A segment whose set ID (field 1) is not a number is text that only looks like one
  // (`{PID|MSH|OBX}` in a Tcl list of names): nothing in it is read.
  const bogus = SpanSet.of(
    inner.segments.filter((g) => !plausible(view, g) || (looseStarts.has(g.start) && !looseOk(view, g))),
  );
  if (bogus.size > 0) {
    const ok = (x: Span) => !bogus.overlaps(x.start, x.end);
    inner.structured = inner.structured.filter(ok);
    inner.free = inner.free.filter(ok);
    inner.segments = inner.segments.filter(ok);
  }
  const structured: Candidate[] = [];
  for (const c of inner.structured) {
    const sp = toSpan(c.start, c.end);
    structured.push(
      candidate(sp.start, sp.end, c.value, c.category, c.canonical, c.tier, c.context, c.exact),
    );
  }
  const free = inner.free.filter((f) => f.end > f.start).map((f) => toSpan(f.start, f.end));
  const segments = inner.segments.filter((f) => f.end > f.start).map((f) => toSpan(f.start, f.end));
  if (segments.length === 0) return undefined;
  const mineSet = SpanSet.of(taken);
  const keep = <T extends Span>(xs: readonly T[]) => xs.filter((x) => !mineSet.overlaps(x.start, x.end));
  const bySpan = (a: Span, b: Span) => a.start - b.start;
  return {
    structured: [...keep(primary?.structured ?? []), ...structured].sort(bySpan),
    free: [...keep(primary?.free ?? []), ...free].sort(bySpan),
    segments: [...keep(primary?.segments ?? []), ...segments].sort(bySpan),
  };
}
