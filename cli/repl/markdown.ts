/**
 * Markdown in a streamed answer, styled as it arrives (a terminal with colour only): a heading's
 * `#` marks go and its text is bold; `**bold**` is bold; `` `code` `` and the lines of a fenced code
 * block are in a colour of their own, the fence lines dim; a `> quote` is dim. Everything else,
 * tables and lists included, is written as it came. Append-only: styling is decided as characters
 * arrive, holding back at most a line's first few characters (is it `#`, ` ``` `, `>`?) and one `*`,
 * never redrawing. Every style ends at the end of its line, so an unmatched marker never colours
 * the rest of the answer. Input is already `printable` (no escape sequence of the model's own).
 *
 * @example
 * ```ts
 * import { MarkdownStyler } from "./markdown.ts";
 * const md = new MarkdownStyler();
 * const out = md.push("## Next steps\nRun **now**.\n") + md.end();
 * // "\x1b[1mNext steps\x1b[22m\nRun \x1b[1mnow\x1b[22m.\n"
 * ```
 */

const BOLD = "\x1b[1m";
const BOLD_OFF = "\x1b[22m";
const DIM = "\x1b[2m";
const DIM_OFF = "\x1b[22m";
const CODE = "\x1b[36m";
const CODE_OFF = "\x1b[39m";

/** What the current line is, once its start is known. */
type LineKind = "text" | "heading" | "quote" | "fence" | "code";

/** The next character that may change a style (`re.lastIndex` is one past it). */
const SPECIAL = /[\n`*]/g;
const CODE_END = /[\n`]/g;
const NEWLINE = /\n/g;

/** A line start that may still become a block marker: hold it back. */
const MAYBE_MARKER = /^(?:`{1,2}|#{1,6}|>)$/;

export class MarkdownStyler {
  /** Characters of the current line's start held back (possible marker). */
  #held = "";
  /** Undefined while the line's kind is not known yet. */
  #line: LineKind | undefined = undefined;
  #inFence = false;
  #bold = false;
  #code = false;
  /** One `*` held back: the start of `**`, or a lone `*`. */
  #star = false;
  /** `**` held back, outside bold: whether it opens depends on the next character. */
  #opening = false;
  /** The last character of the line so far (a closing `**` does not follow whitespace). */
  #prev = " ";

  /** Styled output for `text` (possibly empty: held back until the next characters decide). */
  push(text: string): string {
    let out = "";
    let i = 0;
    while (i < text.length) {
      const line = this.#line;
      if (line !== undefined && !this.#star && !this.#opening) {
        // A run with nothing to decide in it is copied whole (streaming stays fast).
        const plain = line === "fence" || line === "code" || line === "quote";
        const re = plain ? NEWLINE : this.#code ? CODE_END : SPECIAL;
        re.lastIndex = i;
        const j = re.test(text) ? re.lastIndex - 1 : text.length;
        if (j > i) {
          out += text.slice(i, j);
          if (!plain && !this.#code) this.#prev = text[j - 1];
          i = j;
          continue;
        }
      }
      // Markers are ASCII: one UTF-16 unit at a time is enough to decide them.
      const c = text[i++];
      if (line === undefined) out += this.#lineStart(c);
      else if (c === "\n") out += this.#endLine() + "\n";
      else out += this.#char(c);
    }
    return out;
  }

  /**
   * Everything held back, written out, with every style closed (before a tool line or a question,
   * at the end). Text after it goes on as plain text of the same line.
   */
  end(): string {
    let out = "";
    if (this.#line === undefined && this.#held) {
      out += this.#held; // a line start that was still undecided, as it came
      this.#held = "";
      this.#line = "text";
    }
    out += this.#closeInline() + this.#closeLine();
    if (this.#line !== undefined) this.#line = "text";
    return out;
  }

  /** A line break written by someone else (a tool line): the next text starts a line. */
  newLine(): void {
    this.#held = "";
    this.#line = undefined;
  }

  #lineStart(c: string): string {
    if (c === "\n") {
      // A line that ended while its start was undecided (`#`, a backtick, `>`): as it came.
      const held = this.#held;
      this.#held = "";
      return (this.#inFence && held ? CODE + held + CODE_OFF : held) + "\n";
    }
    const held = this.#held + c;
    if (held === "```") {
      this.#held = "";
      this.#line = "fence";
      return DIM + held;
    }
    if (this.#inFence) {
      if (held === "`" || held === "``") {
        this.#held = held;
        return "";
      }
      this.#held = "";
      this.#line = "code";
      return CODE + held;
    }
    if (MAYBE_MARKER.test(held)) {
      this.#held = held;
      return "";
    }
    this.#held = "";
    if (/^#{1,6} $/.test(held)) {
      this.#line = "heading";
      return BOLD;
    }
    if (held === "> ") {
      this.#line = "quote";
      return DIM + held;
    }
    // Not a marker after all: plain text, its characters styled inline.
    this.#line = "text";
    let out = "";
    for (const ch of held) out += this.#char(ch);
    return out;
  }

  #char(c: string): string {
    const line = this.#line;
    if (line === "fence" || line === "code" || line === "quote") return c;
    let out = "";
    if (this.#code) {
      if (c === "`") {
        this.#code = false;
        return CODE_OFF;
      }
      return c;
    }
    if (this.#opening) {
      // `**` then this: it opens bold only if text follows at once (`2 ** 3` stays as it is).
      this.#opening = false;
      if (/\s/.test(c) || c === "*") out += "**";
      else {
        this.#bold = true;
        out += BOLD;
      }
    } else if (this.#star) {
      this.#star = false;
      if (c === "*") {
        if (!this.#bold) {
          this.#opening = true;
          return "";
        }
        if (!/\s/.test(this.#prev)) {
          this.#bold = false;
          return this.#boldOff();
        }
        out += "*"; // ` **` inside bold: not a closer
      } else out += "*";
    }
    if (c === "*") {
      this.#star = true;
      return out;
    }
    this.#prev = c;
    if (c === "`") {
      this.#code = true;
      return out + CODE;
    }
    return out + c;
  }

  /** Ends bold without ending a heading's bold. */
  #boldOff(): string {
    return this.#line === "heading" ? "" : BOLD_OFF;
  }

  #closeInline(): string {
    let out = "";
    if (this.#star) out += "*";
    if (this.#opening) out += "**";
    if (this.#code) out += CODE_OFF;
    if (this.#bold) out += this.#boldOff();
    this.#star = false;
    this.#opening = false;
    this.#code = false;
    this.#bold = false;
    this.#prev = " ";
    return out;
  }

  /** Closes the line's own style (not the fence state). */
  #closeLine(): string {
    const line = this.#line;
    if (line === "heading") return BOLD_OFF;
    if (line === "quote" || line === "fence") return DIM_OFF;
    if (line === "code") return CODE_OFF;
    return "";
  }

  #endLine(): string {
    const out = this.#closeInline() + this.#closeLine();
    if (this.#line === "fence") this.#inFence = !this.#inFence;
    this.#line = undefined;
    return out;
  }
}
