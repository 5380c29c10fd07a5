/**
 * Reads everything one input holds: any number of messages, however they are framed.
 *
 * - Segments end with `\r`, `\n` or `\r\n`; each segment keeps its own terminator.
 * - A message starts at an MSH segment and runs until the next MSH, a blank line, a batch segment
 *   (FHS, BHS, BTS, FTS) or the end of its frame. So newline-separated files, Cloverleaf's
 *   one-message-per-line files (segments ended by `\r`, messages by `\n`) and whole files of
 *   `\r`-separated messages all read the same way.
 * - MLLP framing: 0x0B starts a frame at a line start; the frame runs to 0x1C, optionally followed
 *   by 0x0D. An unterminated frame is read to the end of the input with a warning.
 * - len10 framing (Cloverleaf): ten ASCII digits at a line start, directly followed by MSH, FHS or
 *   BHS, give the length in bytes (UTF-8, or one a character for text read in a single-byte set:
 *   `ParseOptions.len10`) of the message that follows. A length that runs past the end of the input
 *   is read to the end with a warning.
 * - FHS/BHS batch headers declare delimiters like MSH; BTS/FTS trailers and the headers are kept as
 *   batch parts between the messages.
 * - Segments that come without an MSH (a pasted PID line) form a "headless" message with the
 *   batch's delimiters or `|^~\&`, when their first line looks like a segment (three capitals or
 *   digits, starting with a capital, then the field separator or the end of the line).
 * - Blank lines and other text outside messages are kept as text parts, so nothing is lost.
 *
 * The only error thrown is an Hl7ParseError, for a header segment whose delimiters cannot be read.
 *
 * @module
 */
import {
  DEFAULT_DELIMITERS,
  type Delimiters,
  isHeaderAt,
  isSeparatorCode,
  readDelimiters,
} from "./delimiters.ts";
import { locate } from "./errors.ts";
import { type DocumentPart, type Hl7Document, type Hl7Warning, Message } from "./message.ts";
import { Segment } from "./segment.ts";

/** Options of {@link parseMessages}. */
export interface ParseOptions {
  /**
   * How a len10 prefix counts the characters of `text`: as UTF-8 bytes (the default), or one byte
   * each, for text decoded from a single-byte set such as ISO-8859-1 (`len10Counting` in charset.ts).
   */
  len10?: "utf-8" | "single-byte";
}

/**
 * Parses every message, batch segment and framing byte of `text`; `serializeDocument` of the
 * result gives `text` back exactly.
 *
 * @example
 * ```ts
 * const doc = parseMessages("MSH|^~\\&|A|||||||1\rPID|1\n\nMSH|^~\\&|A|||||||2\rPID|2\n");
 * doc.messages.length; // 2
 * ```
 */
export function parseMessages(text: string, options: ParseOptions = {}): Hl7Document {
  const scanner = new Scanner(text, options.len10 === "single-byte");
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    scanner.gap(0, 1); // a byte-order mark
    start = 1;
  }
  scanner.region(start, text.length, true);
  scanner.endMessage();
  scanner.flushGap();
  return { parts: scanner.parts, messages: scanner.messages, warnings: scanner.warnings };
}

class Scanner {
  readonly text: string;
  readonly parts: DocumentPart[] = [];
  readonly messages: Message[] = [];
  readonly warnings: Hl7Warning[] = [];
  /** Segments of the message being read, or null between messages. */
  #segments: Segment[] | null = null;
  #delims: Delimiters = DEFAULT_DELIMITERS;
  #headless = false;
  /** Delimiters of the last FHS/BHS, for headless segments and trailers. */
  #batch: Delimiters | null = null;
  /** Pending run of text between messages. */
  #gapStart = -1;
  #gapEnd = -1;
  /** Cached positions of the next CR and LF (text.length when none): one indexOf pass each. */
  #cr = -1;
  #lf = -1;

  /** len10 lengths count one byte a character (text read in a single-byte set). */
  readonly #singleByte: boolean;

  constructor(text: string, singleByte = false) {
    this.text = text;
    this.#singleByte = singleByte;
  }

  /** Reads lines in [start, end); `top` allows frames to start. */
  region(start: number, end: number, top: boolean): void {
    const text = this.text;
    let pos = start;
    while (pos < end) {
      if (top) {
        const c = text.charCodeAt(pos);
        if (c === 0x0b) {
          pos = this.#mllp(pos, end);
          continue;
        }
        if (c >= 48 && c <= 57 && this.#isLen10(pos, end)) {
          pos = this.#len10(pos, end);
          continue;
        }
      }
      const le = this.#eol(pos, end);
      let te = le;
      if (le < end) {
        te = le + 1;
        if (text.charCodeAt(le) === 13 && te < end && text.charCodeAt(te) === 10) te++;
      }
      this.#line(pos, le, te);
      pos = te;
    }
  }

  #eol(pos: number, end: number): number {
    const text = this.text;
    if (this.#cr < pos) {
      const i = text.indexOf("\r", pos);
      this.#cr = i === -1 ? text.length : i;
    }
    if (this.#lf < pos) {
      const i = text.indexOf("\n", pos);
      this.#lf = i === -1 ? text.length : i;
    }
    const e = this.#cr < this.#lf ? this.#cr : this.#lf;
    return e < end ? e : end;
  }

  #line(ls: number, le: number, te: number): void {
    const text = this.text;
    const first = text.charCodeAt(ls);
    if (ls === le || first < 32 && first !== 9 || isBlank(text, ls, le)) {
      // Blank lines and control characters (a stray MLLP byte) end a message.
      this.endMessage();
      this.gap(ls, te);
      return;
    }
    if (isHeaderAt(text, ls, le)) {
      this.endMessage();
      const d = readDelimiters(text, ls, le);
      const seg = new Segment(text.slice(ls, le), text.slice(le, te), d, ls);
      if (first === 77 /* M */) {
        this.#start(seg, d, false);
      } else {
        this.#batch = d;
        this.#push({ kind: "batch", segment: seg });
      }
      return;
    }
    if (isTrailerAt(text, ls, le)) {
      this.endMessage();
      const d = this.#batch ?? DEFAULT_DELIMITERS;
      this.#push({ kind: "batch", segment: new Segment(text.slice(ls, le), text.slice(le, te), d, ls) });
      return;
    }
    if (this.#segments !== null) {
      this.#segments.push(new Segment(text.slice(ls, le), text.slice(le, te), this.#delims, ls));
      return;
    }
    const d = this.#batch ?? DEFAULT_DELIMITERS;
    if (isSegmentShaped(text, ls, le, d)) {
      this.#start(new Segment(text.slice(ls, le), text.slice(le, te), d, ls), d, true);
      return;
    }
    this.gap(ls, te);
  }

  #start(seg: Segment, d: Delimiters, headless: boolean): void {
    this.#segments = [seg];
    this.#delims = d;
    this.#headless = headless;
  }

  endMessage(): void {
    if (this.#segments === null) return;
    const message = new Message(this.#delims, this.#segments, this.#headless);
    this.#segments = null;
    this.#push({ kind: "message", message });
    this.messages.push(message);
  }

  gap(start: number, end: number): void {
    if (this.#gapStart === -1) this.#gapStart = start;
    this.#gapEnd = end;
  }

  flushGap(): void {
    if (this.#gapStart === -1) return;
    const offset = this.#gapStart;
    this.parts.push({ kind: "text", text: this.text.slice(offset, this.#gapEnd), offset });
    this.#gapStart = -1;
  }

  #push(part: DocumentPart): void {
    this.flushGap();
    this.parts.push(part);
  }

  #warn(offset: number, message: string): void {
    this.warnings.push({ offset, line: locate(this.text, offset).line, message });
  }

  #mllp(pos: number, end: number): number {
    const text = this.text;
    this.endMessage();
    this.#push({ kind: "framing", text: "\x0b", offset: pos });
    let close = text.indexOf("\x1c", pos + 1);
    if (close === -1 || close >= end) {
      this.#warn(pos, "MLLP frame has no end block (0x1C); read to the end of the input");
      close = end;
    }
    this.region(pos + 1, close, false);
    this.endMessage();
    if (close >= end) return end;
    let after = close + 1;
    if (after < end && text.charCodeAt(after) === 13) after++;
    this.#push({ kind: "framing", text: text.slice(close, after), offset: close });
    return after;
  }

  #isLen10(pos: number, end: number): boolean {
    const text = this.text;
    if (pos + 14 > end) return false;
    for (let i = pos; i < pos + 10; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return false;
    }
    return isHeaderAt(text, pos + 10, end);
  }

  #len10(pos: number, end: number): number {
    const text = this.text;
    this.endMessage();
    const declared = Number(text.slice(pos, pos + 10));
    this.#push({ kind: "framing", text: text.slice(pos, pos + 10), offset: pos });
    const start = pos + 10;
    let payloadEnd = this.#singleByte
      ? (start + declared <= end ? start + declared : -1)
      : advanceUtf8(text, start, declared, end);
    if (payloadEnd < 0) {
      this.#warn(
        pos,
        `len10 prefix declares ${declared} bytes but fewer remain; read to the end of the input`,
      );
      payloadEnd = end;
    }
    this.region(start, payloadEnd, false);
    this.endMessage();
    return payloadEnd;
  }
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isUpperOrDigit(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** `BTS` or `FTS`, then the end of the line or a separator. */
function isTrailerAt(text: string, ls: number, le: number): boolean {
  if (le - ls < 3 || text.charCodeAt(ls + 1) !== 84 || text.charCodeAt(ls + 2) !== 83) return false;
  const a = text.charCodeAt(ls);
  if (a !== 66 && a !== 70) return false;
  return le === ls + 3 || isSeparatorCode(text.charCodeAt(ls + 3));
}

/** A capital and two capitals or digits, then the field separator or the end of the line. */
function isSegmentShaped(text: string, ls: number, le: number, d: Delimiters): boolean {
  if (le - ls < 3) return false;
  if (!isUpper(text.charCodeAt(ls)) || !isUpperOrDigit(text.charCodeAt(ls + 1))) return false;
  if (!isUpperOrDigit(text.charCodeAt(ls + 2))) return false;
  return le === ls + 3 || text.charAt(ls + 3) === d.field;
}

/**
 * The index after `bytes` UTF-8 bytes of `text` from `start`, or -1 when fewer remain before
 * `end`. A count that ends inside a character stops after that character.
 */
function advanceUtf8(text: string, start: number, bytes: number, end: number): number {
  let i = start;
  let n = 0;
  while (n < bytes) {
    if (i >= end) return -1;
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      n += 4;
      i++;
    } else n += 3;
    i++;
  }
  return i;
}
