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

// A segment start (`PID|`, `MSH|`) after a line break, a quote or the start: the text is HL7-shaped.
const SEGMENT = /(?:^|[^A-Za-z0-9])[A-Z][A-Z0-9]{2}\|/;
const DELIMS = "|^~&";

/**
 * True when `text[start, end)` (a value, or the token that replaced it) is inside an HL7 field: the
 * text is HL7-shaped and the span sits between HL7 delimiters (`|`, `^`, `~`, `&`; a segment may end
 * after it).
 *
 * @example
 * ```ts
 * import { inHl7Field } from "./detokenize.ts";
 * const msg = "PID|1||[[NAME_1]]||19800101";
 * inHl7Field(msg, 7, 17); // true
 * inHl7Field("seen [[NAME_1]] today", 5, 15); // false
 * ```
 */
export function inHl7Field(text: string, start: number, end: number, shaped?: boolean): boolean {
  return betweenDelimiters(text, start, end) && (shaped ?? hasSegment(text));
}

/** The delimiter half of `inHl7Field`: HL7 delimiters before and after the span (or a line end). */
export function betweenDelimiters(text: string, start: number, end: number): boolean {
  if (start === 0 || !DELIMS.includes(text[start - 1])) return false;
  const after = end < text.length ? text[end] : "\r";
  return DELIMS.includes(after) || after === "\r" || after === "\n";
}

/** True when `text` holds an HL7 segment start (`PID|`): `inHl7Field`'s `shaped`, computed once per text. */
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
 * Replaces every known token in `text` by its value (column 4 of its row, else column 3).
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
  let shaped: boolean | undefined;
  const out = text.replace(ANY_TOKEN_RE, (token: string, _inner: string, at: number) => {
    shaped ??= SEGMENT.test(text);
    const v = resolve(token, inHl7Field(text, at, at + token.length, shaped));
    if (v === undefined) {
      unknown.push(token);
      return token;
    }
    restored.push(token);
    return v;
  });
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

/**
 * A stream detokenizer: `push` each chunk, show what it returns, `flush` at the end. A token split
 * across chunks (`"[[NA"`, `"ME_1]]"`) comes out whole and restored; at most the length of the
 * longest token is ever held back.
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
  const run = (text: string) => {
    const d = detokenizeText(text, resolve);
    for (const t of d.restored) restored.push(t);
    return d.text;
  };
  return {
    push(chunk: string): string {
      const s = held + chunk;
      held = "";
      const tail = s.slice(-MAX_TOKEN_LENGTH);
      const m = PARTIAL.exec(tail);
      if (m && m[0].length < MAX_TOKEN_LENGTH) {
        const cut = s.length - m[0].length;
        held = s.slice(cut);
        return run(s.slice(0, cut));
      }
      return run(s);
    },
    flush(): string {
      const s = held;
      held = "";
      return run(s);
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
