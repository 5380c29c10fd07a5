/**
 * Reversal of tokens, locally only: for text shown to the operator (also while it streams in, where
 * a token can be split across chunks) and for tool inputs before a tool runs. A token not in the
 * lookup table (invented by the model) is left as it is and reported.
 */
import { ANY_TOKEN_RE, MAX_TOKEN_LENGTH } from "./token.ts";

/**
 * Where the values come from: the lookup table (`LookupTable.valueOf`). `field` tells whether the
 * token sits inside an HL7 field (`inHl7Field`), so a name comes back in the form of its context.
 */
export type TokenResolver = (token: string, field: boolean) => string | undefined;

// A segment start (`PID|`, `MSH|`; an X12 `NM1*`, `N3*`) after a line break, a quote or the start.
const SEGMENT = /(?:^|[^A-Za-z0-9])(?:[A-Z][A-Z0-9]{2}\||[A-Z][A-Z0-9]{1,2}\*)/;
const SEGMENT_ID = /[A-Z][A-Z0-9]{2}\||[A-Z][A-Z0-9]{1,2}\*/g;
// HL7's delimiters, and X12's element separator (its component `:` and terminator `~` end a field).
const DELIMS = "|^~&*";

/**
 * True when `text[start, end)` (a value, or the token that replaced it) is inside an HL7 field (or an
 * X12 element): it sits between delimiters (`|`, `^`, `~`, `&`, X12's `*`; a segment may end after
 * it) on a line (a CR or LF ends one) that holds a segment start (`PID|`, `"PV1|`,
 * `thread|IN|PID|`, `NM1*`) before it. The decision
 * needs only the line up to the span and one character after it, so the stream detokenizer makes
 * the same one whatever the chunking.
 *
 * @example
 * ```ts
 * import { inHl7Field } from "./detokenize.ts";
 * const msg = "PID|1||[[NAME_1]]||19800101";
 * inHl7Field(msg, 7, 17); // true
 * inHl7Field("seen [[NAME_1]] today", 5, 15); // false
 * ```
 */
export function inHl7Field(text: string, start: number, end: number): boolean {
  if (!betweenDelimiters(text, start, end)) return false;
  let ls = start;
  while (ls > 0 && text.charCodeAt(ls - 1) !== 10 && text.charCodeAt(ls - 1) !== 13) ls--;
  return SEGMENT.test(text.slice(ls, start));
}

/** The delimiter half of `inHl7Field`: HL7 delimiters before and after the span (or a line end). */
export function betweenDelimiters(text: string, start: number, end: number): boolean {
  if (start === 0 || !DELIMS.includes(text[start - 1])) return false;
  return endsField(end < text.length ? text[end] : "\r");
}

/** A character that may end an HL7 field: a delimiter, a line end, or the quote a quoted segment ends with. */
function endsField(c: string): boolean {
  return DELIMS.includes(c) || c === "\r" || c === "\n" || c === '"' || c === "'" || c === "`" || c === ":";
}

/**
 * Line state for `inHl7Field`'s question asked of span after span in order, in one text or across
 * the chunks of a stream: whether the current line has shown a segment start, and its last few
 * characters (a segment id may be split across chunks). Linear in the text, whatever the number of
 * spans.
 */
class LineState {
  /** A segment start has been seen on the current line. */
  seg = false;
  /** The current line's last characters (at most 5). */
  tail = "";
  /** `tail` is the whole line so far (its first character starts the line). */
  whole = true;
  /** The character before the first one not yet read ("" at the start of the text). */
  prev = "";

  /** Reads `text[from, to)`. */
  advance(text: string, from: number, to: number): void {
    if (to <= from) return;
    let br = to - 1;
    while (br >= from && text.charCodeAt(br) !== 10 && text.charCodeAt(br) !== 13) br--;
    if (br >= from) {
      this.seg = false;
      this.tail = "";
      this.whole = true;
      from = br + 1;
    }
    if (to > from && !this.seg) {
      const cand = this.tail + text.slice(from, to);
      const re = new RegExp(SEGMENT_ID.source, "g");
      for (let m = re.exec(cand); m; m = re.exec(cand)) {
        const i = m.index;
        const ok = i === 0 ? this.whole : !isAlnum(cand.charCodeAt(i - 1));
        if (ok) {
          this.seg = true;
          break;
        }
        re.lastIndex = i + 1;
      }
    }
    if (to > from) {
      // The tail is the whole line only while the line has at most 5 characters.
      if (this.tail.length + (to - from) > 5) this.whole = false;
      this.tail = (this.tail + text.slice(Math.max(from, to - 5), to)).slice(-5);
    }
    this.prev = text[to - 1];
  }
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * `inHl7Field` for each of `spans` (sorted by start, disjoint) of one text, in one linear walk.
 *
 * @example
 * ```ts
 * import { fieldFlags } from "./detokenize.ts";
 * fieldFlags("PID|1||X||Y\nsee |X|", [{ start: 7, end: 8 }, { start: 17, end: 18 }]); // [true, false]
 * ```
 */
export function fieldFlags(text: string, spans: readonly { start: number; end: number }[]): boolean[] {
  const line = new LineState();
  const out: boolean[] = [];
  let at = 0;
  for (const sp of spans) {
    if (sp.start < at) {
      out.push(false);
      continue;
    }
    line.advance(text, at, sp.start);
    at = sp.start;
    out.push(line.seg && betweenDelimiters(text, sp.start, sp.end));
  }
  return out;
}

/** True when `text` holds an HL7 segment start (`PID|`) anywhere. */
export function hasSegment(text: string): boolean {
  return SEGMENT.test(text);
}

export interface Detokenized {
  text: string;
  /** Tokens replaced by their values, in order of appearance (repeats included). */
  restored: string[];
  /** `[[...]]` texts with no row in the lookup table. */
  unknown: string[];
}

/**
 * Detokenizes `text[0, cut)` with `line` as the state before it; `text` beyond `cut` (held back by a
 * stream) is read only as the character after a token. Leaves `line` at `cut`.
 */
function detokenizeUpTo(
  text: string,
  cut: number,
  resolve: TokenResolver,
  line: LineState,
  restored: string[],
  unknown: string[],
): string {
  if (text.indexOf("[[") === -1 || cut === 0) {
    line.advance(text, 0, cut);
    return text.slice(0, cut);
  }
  const parts: string[] = [];
  let at = 0;
  const re = new RegExp(ANY_TOKEN_RE.source, "g");
  for (let m = re.exec(text); m && m.index < cut; m = re.exec(text)) {
    const start = m.index, end = start + m[0].length;
    if (end > cut) break;
    line.advance(text, at, start);
    const before = start > 0 ? text[start - 1] : line.prev;
    const after = end < text.length ? text[end] : "\r";
    const field = DELIMS.includes(before) && endsField(after) && line.seg;
    const v = resolve(m[0], field);
    parts.push(text.slice(at, start));
    if (v === undefined) {
      unknown.push(m[0]);
      parts.push(m[0]);
    } else {
      restored.push(m[0]);
      parts.push(v);
    }
    line.advance(text, start, end);
    at = end;
  }
  line.advance(text, at, cut);
  parts.push(text.slice(at, cut));
  return parts.join("");
}

/**
 * Replaces every known token in `text` by its value (column 4 of its row, else column 3; a name in
 * the form it had in an HL7 field or in prose, by `inHl7Field`).
 *
 * @example
 * ```ts
 * detokenizeText("hello [[NAME_1]]", (t) => t === "[[NAME_1]]" ? "SMITH^JOHN" : undefined).text;
 * // "hello SMITH^JOHN"
 * ```
 */
export function detokenizeText(text: string, resolve: TokenResolver): Detokenized {
  const restored: string[] = [];
  const unknown: string[] = [];
  if (text.indexOf("[[") === -1) return { text, restored, unknown };
  const out = detokenizeUpTo(text, text.length, resolve, new LineState(), restored, unknown);
  return { text: out, restored, unknown };
}

/** A detokenizer for a stream of chunks. */
export interface StreamDetokenizer {
  /** Text that can be shown now (a possibly partial token at the end is held back). */
  push(chunk: string): string;
  /** Whatever is still held back, detokenized; call once at the end of the stream. */
  flush(): string;
  /** Tokens restored so far. */
  readonly restored: readonly string[];
}

const PARTIAL = /\[(?:\[[^\[\]\s]*\]?)?$/;
const WHOLE_AT_END = /\[\[[^\[\]\s]{1,80}\]\]$/;

/**
 * A stream detokenizer: `push` each chunk, show what it returns, `flush` at the end. The text shown
 * is the same as `detokenizeText` of the whole stream, whatever the chunking: a token split across
 * chunks (`"[[NA"`, `"ME_1]]"`) comes out whole and restored, a token at the end of a chunk waits for
 * the character after it (which decides the HL7 form of a name), and the line before it is
 * remembered. At most the length of the longest token is ever held back.
 *
 * @example
 * ```ts
 * declare const resolve: Parameters<typeof createStreamDetokenizer>[0];
 * const s = createStreamDetokenizer(resolve);
 * s.push("Patient [[NA") + s.push("ME_1]] is ...") + s.flush(); // "Patient SMITH^JOHN is ..."
 * ```
 */
export function createStreamDetokenizer(resolve: TokenResolver): StreamDetokenizer {
  let held = "";
  const restored: string[] = [];
  const unknown: string[] = [];
  const line = new LineState();
  return {
    push(chunk: string): string {
      const s = held + chunk;
      held = "";
      let cut = s.length;
      const tail = s.slice(-MAX_TOKEN_LENGTH);
      const m = PARTIAL.exec(tail) ?? WHOLE_AT_END.exec(tail);
      if (m && m[0].length < MAX_TOKEN_LENGTH + 1) cut = s.length - m[0].length;
      held = s.slice(cut);
      return detokenizeUpTo(s, cut, resolve, line, restored, unknown);
    },
    flush(): string {
      const s = held;
      held = "";
      return detokenizeUpTo(s, s.length, resolve, line, restored, unknown);
    },
    get restored() {
      return restored;
    },
  };
}

/**
 * Detokenizes every string inside a JSON value (a tool input), keys untouched; returns a new value.
 *
 * @example
 * ```ts
 * declare const resolve: Parameters<typeof detokenizeJson>[1];
 * detokenizeJson({ pattern: "[[MRN_1]]", n: 3 }, resolve).value; // { pattern: "12345678", n: 3 }
 * ```
 */
export function detokenizeJson<T>(value: T, resolve: TokenResolver): { value: T; restored: string[] } {
  const restored: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const d = detokenizeText(v, resolve);
      for (const t of d.restored) restored.push(t);
      return d.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return { value: walk(value) as T, restored };
}
