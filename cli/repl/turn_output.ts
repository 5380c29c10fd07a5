/**
 * What the operator sees while a turn runs, append-only: model text as it streams, `tool>` lines and
 * their short result lines, notices on a line of their own, and, after about 2 s of silence, one
 * dim elapsed-time indicator (or a retry countdown) kept on the current line with `\r` + erase-line
 * and removed before anything else is written. No cursor movement beyond that, no full redraws.
 * While a model request has been silent a while (no byte, not even a ping, for `IDLE_SHOWN_AFTER`
 * seconds, or a quarter of a shorter limit) the indicator also counts down to its idle limit, and
 * says Ctrl-C stops waiting.
 */

export interface TurnOutputOptions {
  write(s: string): void;
  /** Where whole lines (tool calls, results, notices) go when not to `write` (scripted use: stderr). */
  writeLine?(s: string): void;
  /** Indicator and dim styling (a terminal without NO_COLOR). */
  live: boolean;
  color: boolean;
  /** Style the model's markdown as it streams (markdown.ts): a live terminal with colour. */
  markdown?: boolean;
  /**
   * The terminal's width: the answer is laid out to it (answer_layout.ts: lines broken between
   * words, tables fitted) and the indicator cut to fit one line (a wrapped one could not be
   * erased). Absent: written as it came (scripted use).
   */
  columns?: () => number;
  /** Seconds of silence before the indicator appears. @default 2 */
  quietSeconds?: number;
  now?: () => number;
}

import { AnswerLayout } from "./answer_layout.ts";
import { MarkdownStyler } from "./markdown.ts";

const RETRY_RE = /retrying in (\d+(?:\.\d+)?) s/i;

/** Seconds of a silent request (no ping either) before the indicator shows the idle countdown. */
export const IDLE_SHOWN_AFTER = 10;

/** C0 and C1 controls other than tab and newline, and DEL. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROLS = new RegExp("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]", "g");
// deno-lint-ignore no-control-regex -- the same class, for a test without replacing
const HAS_CONTROL = new RegExp("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]");

/**
 * Text from outside (the model, a tool result, an API error) made safe for the terminal: an ESC is
 * shown as `^[` and other controls are dropped, so no escape sequence it holds (bracketed paste
 * off, OSC 52 clipboard writes, cursor moves) reaches the terminal; CRLF and a lone CR become LF.
 *
 * @example
 * ```ts
 * import { printable } from "./turn_output.ts";
 * printable("ok\x1b[?2004l\r\n"); // "ok^[[?2004l\n"
 * ```
 */
export function printable(text: string): string {
  if (!HAS_CONTROL.test(text)) return text; // the common case: one scan, no copy
  // A lone CR (HL7's segment end) shows as a line break, not as nothing.
  return text.replaceAll("\r\n", "\n").replace(
    CONTROLS,
    (c) => (c === "\x1b" ? "^[" : c === "\r" ? "\n" : ""),
  );
}

/** An SGR sequence (colour, bold, dim), or one control character. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const SGR_OR_CONTROL = new RegExp("\\x1b\\[[0-9;]*m|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]", "g");

/**
 * `printable`, with SGR sequences (colour, bold, dim: they cannot move the cursor or switch a
 * terminal mode) kept: for command output, which mixes our own styled lines (the status line) with
 * outside text (a tool's result, a remote command's output).
 *
 * @example
 * ```ts
 * import { printableStyled } from "./turn_output.ts";
 * printableStyled("\x1b[2mctx 3%\x1b[0m\rPID|1\x1b[2J"); // "\x1b[2mctx 3%\x1b[0m\nPID|1^[[2J"
 * ```
 */
export function printableStyled(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replaceAll("\r\n", "\n").replace(
    SGR_OR_CONTROL,
    (c) => (c.length > 1 ? c : c === "\x1b" ? "^[" : c === "\r" ? "\n" : ""),
  );
}

export class TurnOutput {
  readonly #o: TurnOutputOptions;
  #atLineStart = true;
  #indicatorShown = false;
  #lastOutput: number;
  #started: number;
  #retryUntil?: number;
  /** The idle limit of the model request in flight (none: no request is waiting), and its last byte. */
  #idleLimit?: number;
  #lastActivity = 0;
  #timer?: ReturnType<typeof setInterval>;
  #pending = "";
  #flushTimer?: ReturnType<typeof setTimeout>;

  #md?: MarkdownStyler;
  #layout?: AnswerLayout;

  constructor(o: TurnOutputOptions) {
    this.#o = o;
    if (o.markdown) this.#md = new MarkdownStyler();
    if (o.columns) this.#layout = new AnswerLayout(o.columns);
    const now = this.#now();
    this.#lastOutput = now;
    this.#started = now;
  }

  #now(): number {
    return this.#o.now?.() ?? Date.now();
  }

  /** Starts the silence watch (a 250 ms tick; only on a live terminal). */
  start(): void {
    if (!this.#o.live || this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.tick(), 250);
  }

  stop(): void {
    this.flush();
    this.#endMarkdown();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clearIndicator();
  }

  /**
   * Model text, already detokenized. Text that arrives together (the deltas of one network read)
   * is written with one system call: a stream of small deltas would otherwise cost a write each.
   */
  text(chunk: string): void {
    if (!chunk) return;
    this.#pending += printable(chunk);
    if (this.#pending.length >= 1 << 16) this.flush();
    else if (this.#flushTimer === undefined) this.#flushTimer = setTimeout(() => this.flush(), 0);
  }

  /** Writes any text held back by `text`. */
  flush(): void {
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (!this.#pending) return;
    let s = this.#pending;
    this.#pending = "";
    if (this.#md) s = this.#md.push(s);
    if (this.#layout) s = this.#layout.push(s);
    if (s) this.#emit(s);
  }

  /**
   * Held-back markdown and layout written and styles closed (before a line of our own, a question).
   */
  #endMarkdown(): void {
    let tail = this.#md?.end() ?? "";
    if (this.#layout) tail = this.#layout.push(tail) + this.#layout.end();
    if (tail) this.#emit(tail);
  }

  /** A whole line of its own (tool call, result, notice). */
  line(text: string): void {
    this.flush();
    this.#endMarkdown();
    if (this.#o.writeLine) return this.#o.writeLine(`${text}\n`);
    const prefix = this.#atLineStart ? "" : "\n";
    this.#emit(`${prefix}${text}\n`);
    this.#md?.newLine();
    this.#layout?.newLine();
  }

  notice(text: string): void {
    text = printable(text);
    this.line(this.#o.color ? `\x1b[2m${text}\x1b[22m` : text);
    const m = RETRY_RE.exec(text);
    if (m) this.#retryUntil = this.#now() + Number(m[1]) * 1000;
  }

  /**
   * The model request in flight is alive (sent, or a byte came: a ping too), with its idle limit in
   * seconds; `undefined`: no request is waiting any more (a tool runs, the turn ends).
   */
  activity(limitSeconds: number | undefined): void {
    this.#idleLimit = limitSeconds;
    this.#lastActivity = this.#now();
  }

  /** Ends the turn's output on a fresh line. */
  finish(): void {
    this.stop();
    if (!this.#atLineStart) this.#emit("\n");
  }

  /** One tick of the silence watch (public for tests). */
  tick(): void {
    if (this.#pending) return; // text is on its way: not silent
    const now = this.#now();
    const quiet = (this.#o.quietSeconds ?? 2) * 1000;
    if (now - this.#lastOutput < quiet && !this.#indicatorShown) return;
    let label: string;
    if (this.#retryUntil !== undefined && now < this.#retryUntil) {
      label = `retrying in ${Math.ceil((this.#retryUntil - now) / 1000)} s`;
    } else {
      label = `… ${Math.floor((now - this.#started) / 1000)} s`;
      const silent = (now - this.#lastActivity) / 1000;
      if (this.#idleLimit !== undefined && silent >= Math.min(IDLE_SHOWN_AFTER, this.#idleLimit / 4)) {
        const left = Math.max(0, Math.ceil(this.#idleLimit - silent));
        label += ` · no reply for ${Math.floor(silent)} s; giving up in ${left} s (Ctrl-C stops waiting)`;
      }
    }
    const width = (this.#o.columns?.() ?? 80) - 1;
    if (label.length > width) label = label.slice(0, Math.max(0, width - 1)) + "…";
    const text = this.#o.color ? `\x1b[2m${label}\x1b[22m` : label;
    // On a line that already holds text, the indicator goes on the next line.
    const lead = this.#atLineStart ? "\r" : "\n";
    if (!this.#indicatorShown && !this.#atLineStart) {
      this.#atLineStart = true;
      this.#layout?.newLine(); // the answer goes on at the start of the indicator's line
    }
    this.#o.write(`${lead}\x1b[K${text}`);
    this.#indicatorShown = true;
  }

  #clearIndicator(): void {
    if (!this.#indicatorShown) return;
    this.#o.write("\r\x1b[K");
    this.#indicatorShown = false;
  }

  #emit(s: string): void {
    this.#clearIndicator();
    this.#o.write(s);
    this.#atLineStart = s.endsWith("\n");
    this.#lastOutput = this.#now();
    this.#retryUntil = undefined;
  }
}
