/**
 * Tcl list syntax, as `Tcl_SplitList` reads it: elements separated by white space; an element in
 * braces is taken verbatim (nested braces counted, a backslash hides the next character from the
 * count); an element in double quotes or a bare word has backslash sequences substituted. Nothing is
 * ever evaluated: `[` and `$` are plain characters here, as they are in a Tcl list.
 *
 * The scanner works on ranges of one source string so that nested lists (NetConfig keyed lists are
 * six or more levels deep) are read in place, without copying each level out: brace pairs are found
 * once per top-level element and remembered, so every character is looked at a small, fixed number
 * of times however deep it sits.
 *
 * @module
 */

/** A Tcl list syntax error at a character offset of the text that was being split. */
import { AssistError } from "../../../core/errors.ts";
export class TclListError extends AssistError {
  /** Offset into the source text (or, for text produced by substitution, of the element it came from). */
  readonly offset: number;
  readonly reason: string;
  constructor(reason: string, offset: number) {
    super(reason, { level: "input" });
    this.name = "TclListError";
    this.reason = reason;
    this.offset = offset;
  }
}

// Character codes.
const SP = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d;
const LBRACE = 0x7b, RBRACE = 0x7d, QUOTE = 0x22, BSL = 0x5c;

/** Tcl's list white space (TclIsSpaceProc): space, tab, newline, vertical tab, form feed, CR. */
export function isTclSpace(c: number): boolean {
  return c === SP || (c >= TAB && c <= CR);
}

/** How an element was written. */
export const ElemKind = { Braced: 0, Quoted: 1, Bare: 2 } as const;
export type ElemKind = typeof ElemKind[keyof typeof ElemKind];

/**
 * One element found by {@link TclSource.next}: where its content lies, how it was written, and, when
 * backslash substitution changed it, the substituted text.
 */
export interface Elem {
  kind: ElemKind;
  /** Offset of the element's first character (the brace or quote when there is one). */
  at: number;
  /** Content range: inside the braces or quotes, or the bare word itself. */
  start: number;
  end: number;
  /** Position just after the element (after a closing brace or quote). */
  next: number;
  /** Set when the content differs from `text.slice(start, end)` (quoted or bare with backslashes). */
  subst: string | undefined;
}

// Work arrays of closeOf, reused (it never runs nested).
const scratchStack: number[] = [];
const scratchPairs: number[] = [];

/** A fresh, reusable element record. */
export function newElem(): Elem {
  return { kind: ElemKind.Bare, at: 0, start: 0, end: 0, next: 0, subst: undefined };
}

/**
 * A string being read as Tcl lists, with its brace pairs remembered.
 *
 * @example
 * ```ts
 * const src = new TclSource("a {b c} \"d e\"");
 * const e = newElem();
 * src.next(0, src.text.length, e); // e.kind === ElemKind.Bare, src.value(e) === "a"
 * ```
 */
export class TclSource {
  readonly text: string;
  /** When set, offsets reported in errors are this one (the text came from a substituted element). */
  readonly origin: number | undefined;
  /**
   * Brace pairs of the last top-level braced element scanned: `win[i - winStart] = j + 1` when the
   * brace at i closes at j. Elements are read left to right, so one window (one record's size) is
   * all the memory this needs.
   */
  #win: Int32Array | undefined;
  #winStart = 0;
  #winEnd = -1;

  constructor(text: string, origin?: number) {
    this.text = text;
    this.origin = origin;
  }

  /** An offset as errors should report it. */
  where(offset: number): number {
    return this.origin ?? offset;
  }

  /** A braced or quoted element must be followed by white space or the end of the list. */
  spaceAfter(at: number, limit: number, what: "braces" | "quotes"): void {
    if (at < limit && !isTclSpace(this.text.charCodeAt(at))) {
      throw new TclListError(
        `list element in ${what} followed by "${snippet(this.text, at, limit)}" instead of space`,
        this.where(at),
      );
    }
  }

  /**
   * The offset of the brace that closes the one at `open`, counting nested braces and skipping
   * backslash-escaped characters (Tcl's rule). Every pair inside is remembered on the way, so the
   * nested elements later cost nothing to find. Throws when the brace is never closed.
   */
  closeOf(open: number, limit: number): number {
    if (open >= this.#winStart && open <= this.#winEnd) {
      const known = this.#win![open - this.#winStart];
      if (known !== 0) {
        if (known - 1 >= limit) throw new TclListError("unmatched open brace in list", this.where(open));
        return known - 1;
      }
    }
    const t = this.text;
    const stack = scratchStack;
    const pairs = scratchPairs;
    let depth = 0;
    let npairs = 0;
    stack.push(open);
    depth = 1;
    let i = open + 1;
    while (i < limit) {
      const c = t.charCodeAt(i);
      if (c === LBRACE) {
        stack.push(i);
        depth++;
      } else if (c === RBRACE) {
        const o = stack.pop()!;
        depth--;
        pairs[npairs++] = o;
        pairs[npairs++] = i;
        if (depth === 0) break;
      } else if (c === BSL) {
        i++; // the escaped character does not count (\x7b and friends contain no braces)
      }
      i++;
    }
    if (depth !== 0) {
      const first = stack[0];
      stack.length = 0;
      pairs.length = 0;
      throw new TclListError("unmatched open brace in list", this.where(first));
    }
    const close = i;
    const win = new Int32Array(close - open + 1);
    for (let p = 0; p < npairs; p += 2) win[pairs[p] - open] = pairs[p + 1] + 1;
    pairs.length = 0;
    this.#win = win;
    this.#winStart = open;
    this.#winEnd = close;
    return close;
  }

  /**
   * Reads the next element in `[pos, limit)` into `out`; returns false when only white space is
   * left. `stopAtNewline` ends the list at a newline between elements (how `lgets` reads a record).
   */
  next(pos: number, limit: number, out: Elem, stopAtNewline = false): boolean {
    const t = this.text;
    let c = 0;
    while (pos < limit) {
      c = t.charCodeAt(pos);
      if (!isTclSpace(c)) break;
      if (stopAtNewline && c === LF) return false;
      pos++;
    }
    if (pos >= limit) return false;
    out.at = pos;
    out.subst = undefined;
    if (c === LBRACE) {
      const close = this.closeOf(pos, limit);
      out.kind = ElemKind.Braced;
      out.start = pos + 1;
      out.end = close;
      out.next = close + 1;
      this.spaceAfter(close + 1, limit, "braces");
      return true;
    }
    if (c === QUOTE) {
      let i = pos + 1;
      let escaped = false;
      while (i < limit) {
        const d = t.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === BSL) {
          escaped = true;
          i++;
        }
        i++;
      }
      if (i >= limit) throw new TclListError("unmatched open quote in list", this.where(pos));
      out.kind = ElemKind.Quoted;
      out.start = pos + 1;
      out.end = i;
      out.next = i + 1;
      this.spaceAfter(i + 1, limit, "quotes");
      if (escaped) out.subst = substitute(t, pos + 1, i);
      return true;
    }
    let i = pos;
    let escaped = false;
    while (i < limit) {
      const d = t.charCodeAt(i);
      if (isTclSpace(d)) break;
      if (d === BSL) {
        escaped = true;
        if (i + 1 < limit && t.charCodeAt(i + 1) === LF) {
          // backslash-newline and the blanks after it are one space inside the word
          i += 2;
          while (i < limit && (t.charCodeAt(i) === SP || t.charCodeAt(i) === TAB)) i++;
          continue;
        }
        i += 2;
        continue;
      }
      i++;
    }
    if (i > limit) i = limit;
    out.kind = ElemKind.Bare;
    out.start = pos;
    out.end = i;
    out.next = i;
    if (escaped) out.subst = substitute(t, pos, i);
    return true;
  }

  /** The element's value as a string. */
  value(e: Elem): string {
    return e.subst ?? this.text.slice(e.start, e.end);
  }
}

function snippet(t: string, from: number, limit: number): string {
  let s = t.slice(from, Math.min(limit, from + 20));
  const ws = s.search(/\s/);
  if (ws !== -1) s = s.slice(0, ws);
  // A binary byte is shown escaped, never sent raw to a terminal.
  // deno-lint-ignore no-control-regex -- control characters are what is escaped
  return s.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/**
 * Backslash substitution as Tcl applies it to quoted and bare list elements (TclParseBackslash):
 * `\a \b \f \n \r \t \v`, `\<newline><blanks>` → one space, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal
 * `\ooo`, and `\c` → `c` for anything else.
 *
 * @example
 * ```ts
 * substitute("a\\tb\\{", 0, 6); // "a\tb{"
 * ```
 */
export function substitute(t: string, start: number, end: number): string {
  let out = "";
  let run = start;
  let i = start;
  while (i < end) {
    if (t.charCodeAt(i) !== BSL) {
      i++;
      continue;
    }
    out += t.slice(run, i);
    i++;
    if (i >= end) {
      out += "\\";
      run = i;
      break;
    }
    const c = t[i];
    i++;
    switch (c) {
      case "a":
        out += "\x07";
        break;
      case "b":
        out += "\b";
        break;
      case "f":
        out += "\f";
        break;
      case "n":
        out += "\n";
        break;
      case "r":
        out += "\r";
        break;
      case "t":
        out += "\t";
        break;
      case "v":
        out += "\v";
        break;
      case "\n":
        while (i < end && (t[i] === " " || t[i] === "\t")) i++;
        out += " ";
        break;
      case "x":
      case "u":
      case "U": {
        const max = c === "x" ? 2 : c === "u" ? 4 : 8;
        let j = i;
        while (j < end && j - i < max && /[0-9a-fA-F]/.test(t[j])) j++;
        if (j === i) {
          out += c;
        } else {
          const cp = parseInt(t.slice(i, j), 16);
          out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
          i = j;
        }
        break;
      }
      default:
        if (c >= "0" && c <= "7") {
          let j = i;
          while (j < end && j - i < 2 && t[j] >= "0" && t[j] <= "7") j++;
          out += String.fromCharCode(parseInt(t.slice(i - 1, j), 8) & 0xff);
          i = j;
        } else {
          out += c;
        }
    }
    run = i;
  }
  return out + t.slice(run, end);
}

/**
 * Splits a Tcl list into its elements (Tcl's `split` of a list, i.e. `lrange $l 0 end`).
 * Throws {@link TclListError} on unbalanced braces or quotes.
 *
 * @example
 * ```ts
 * splitList("lab_out {billing out} \"x y\""); // ["lab_out", "billing out", "x y"]
 * ```
 */
export function splitList(text: string): string[] {
  const src = new TclSource(text);
  const e = newElem();
  const out: string[] = [];
  let pos = 0;
  while (src.next(pos, text.length, e)) {
    out.push(src.value(e));
    pos = e.next;
  }
  return out;
}

/**
 * Quotes one string as a Tcl list element (Tcl_Merge's rules, simplified to always-safe choices):
 * bare when it needs nothing, braced when braces are balanced and it has no backslash at the end,
 * else backslash-escaped.
 *
 * @example
 * ```ts
 * quoteElement(""); // "{}"
 * quoteElement("a b"); // "{a b}"
 * ```
 */
export function quoteElement(s: string): string {
  if (s === "") return "{}";
  if (/^[^\s{}"\\;$[\]]+$/.test(s)) return s;
  let depth = 0;
  let balanced = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BSL) {
      i++;
      continue;
    }
    if (c === LBRACE) depth++;
    else if (c === RBRACE && --depth < 0) {
      balanced = false;
      break;
    }
  }
  if (balanced && depth === 0 && !s.endsWith("\\")) return `{${s}}`;
  return s.replace(/[\\{}"\s;$[\]]/g, (ch) => {
    switch (ch) {
      case "\n":
        return "\\n";
      case "\t":
        return "\\t";
      case "\r":
        return "\\r";
      case "\v":
        return "\\v";
      case "\f":
        return "\\f";
      default:
        return `\\${ch}`;
    }
  });
}

/** Joins strings into one Tcl list. */
export function joinList(items: readonly string[]): string {
  return items.map(quoteElement).join(" ");
}
