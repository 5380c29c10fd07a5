/**
 * A message (a header segment and the segments after it) and a document (everything one input
 * holds: messages, batch header and trailer segments, framing bytes and text between messages).
 * Both are plain containers; writing them back with `serialize*` gives the input byte for byte.
 *
 * @module
 */
import type { Delimiters } from "./delimiters.ts";
import type { Segment } from "./segment.ts";

/**
 * One HL7 message.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const m = parseMessage("MSH|^~\\&|A\rPID|1\rOBX|1\rOBX|2");
 * m.segmentsById("OBX").length; // 2
 * ```
 */
export class Message {
  readonly delimiters: Delimiters;
  /** The segments in order, the header (MSH) first unless `headless`. Replaceable in place. */
  readonly segments: Segment[];
  /**
   * True when the segments came without an MSH (a fragment such as a lone PID line); the
   * delimiters are then those of the enclosing batch header or the conventional `|^~\&`.
   */
  readonly headless: boolean;

  /**
   * @example
   * ```ts
   * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
   * const m = parseMessage("MSH|^~\\&|A\rPID|1");
   * m.segments.length; // 2
   * ```
   */
  constructor(delimiters: Delimiters, segments: Segment[], headless = false) {
    this.delimiters = delimiters;
    this.segments = segments;
    this.headless = headless;
  }

  /** Character offset of the first segment in the parsed text. */
  get offset(): number {
    return this.segments[0]?.offset ?? 0;
  }

  /** The segments with this id, in order. */
  segmentsById(id: string): Segment[] {
    return this.segments.filter((s) => s.id === id);
  }

  /** The message text, exactly as read (each segment with its own terminator). */
  toString(): string {
    let text = "";
    for (const s of this.segments) text += s.raw + s.terminator;
    return text;
  }
}

/** A part of a document, in input order. Concatenating the parts' text gives the input back. */
export type DocumentPart =
  | { readonly kind: "message"; readonly message: Message }
  /** FHS, BHS, BTS or FTS: a batch or file header or trailer. */
  | { readonly kind: "batch"; readonly segment: Segment }
  /** MLLP start (0x0B) or end (0x1C 0x0D) bytes, or a len10 10-digit length prefix. */
  | { readonly kind: "framing"; readonly text: string; readonly offset: number }
  /** Blank lines, and lines outside any message that are not segments. */
  | { readonly kind: "text"; readonly text: string; readonly offset: number };

/** A note about input that was read but looked damaged (an unterminated MLLP frame, say). */
export interface Hl7Warning {
  readonly offset: number;
  readonly line: number;
  readonly message: string;
}

/** Everything one input holds. */
export interface Hl7Document {
  readonly parts: readonly DocumentPart[];
  /** The messages of `parts`, in order. */
  readonly messages: readonly Message[];
  readonly warnings: readonly Hl7Warning[];
}
