/**
 * One segment of a message, kept as the exact text it was read from plus its own terminator, so
 * that writing it back gives the same bytes. Fields are split on first use only.
 *
 * Field numbers are HL7's, 1-based. In a header segment (MSH, FHS, BHS) field 1 is the field
 * separator itself and field 2 the encoding characters, so MSH.3 is the first field after `^~\&`;
 * `fields()[0]` is always the segment id.
 *
 * @module
 */
import type { Delimiters } from "./delimiters.ts";

/**
 * One segment: its text (without terminator), its terminator, and the delimiters it uses.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const s = parseMessage("MSH|^~\\&|A\r\nPID|1||123\n").segments[1];
 * [s.id, s.field(3), s.terminator]; // ["PID", "123", "\n"]
 * ```
 */
export class Segment {
  /** The segment's text as read, without its terminator. */
  readonly raw: string;
  /** What ended the segment in the input: `"\r"`, `"\n"`, `"\r\n"`, or `""` at the end of input. */
  readonly terminator: string;
  readonly delimiters: Delimiters;
  /** Character offset of the segment in the parsed text (0 when built by hand). */
  readonly offset: number;
  #id: string | undefined;
  #fields: string[] | undefined;

  /**
   * @example
   * ```ts
   * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
   * const pid = new Segment("PID|1||12345^^^MRN", "\r", DEFAULT_DELIMITERS);
   * pid.field(3); // "12345^^^MRN"
   * ```
   */
  constructor(raw: string, terminator: string, delimiters: Delimiters, offset = 0) {
    this.raw = raw;
    this.terminator = terminator;
    this.delimiters = delimiters;
    this.offset = offset;
  }

  /** The segment id: the text before the first field separator (`PID`, `ZPI`). */
  get id(): string {
    if (this.#id === undefined) {
      const i = this.raw.indexOf(this.delimiters.field);
      this.#id = i === -1 ? this.raw : this.raw.slice(0, i);
    }
    return this.#id;
  }

  /** True for MSH, FHS and BHS, whose fields 1 and 2 are the delimiters themselves. */
  get isHeader(): boolean {
    const id = this.id;
    return (id === "MSH" || id === "FHS" || id === "BHS") && this.raw.charAt(3) === this.delimiters.field;
  }

  /**
   * The raw fields, indexed by HL7 field number (index 0 is the segment id). Escapes are intact.
   *
   * @example
   * ```ts
   * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
   * new Segment("MSH|^~\\&|APP", "", DEFAULT_DELIMITERS).fields(); // ["MSH", "|", "^~\\&", "APP"]
   * ```
   */
  fields(): readonly string[] {
    if (this.#fields === undefined) this.#fields = splitFields(this.raw, this.delimiters, this.isHeader);
    return this.#fields;
  }

  /** The number of the last field present (0 when the segment has only its id). */
  get fieldCount(): number {
    return this.fields().length - 1;
  }

  /**
   * The raw text of field `n` (1-based), or undefined when the segment ends before it.
   *
   * @example
   * ```ts
   * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
   * new Segment("PID|1||12345", "", DEFAULT_DELIMITERS).field(3); // "12345"
   * ```
   */
  field(n: number): string | undefined {
    return n >= 1 ? this.fields()[n] : undefined;
  }

  /** A copy with other fields (index 0 the id, as `fields()` gives them) and the same terminator. */
  withFields(fields: readonly string[]): Segment {
    return new Segment(
      joinFields(fields, this.delimiters, this.isHeader),
      this.terminator,
      this.delimiters,
      this.offset,
    );
  }

  /** The segment's text and terminator, exactly as read. */
  toString(): string {
    return this.raw + this.terminator;
  }
}

/**
 * Splits a segment's text into fields by HL7 numbering (see {@link Segment.fields}).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * splitFields("MSH|^~\\&|A", DEFAULT_DELIMITERS, true); // ["MSH", "|", "^~\\&", "A"]
 * ```
 */
export function splitFields(raw: string, d: Delimiters, header: boolean): string[] {
  if (!header) return raw.split(d.field);
  // "MSH" sep enc [sep rest...]: MSH-1 is the separator, MSH-2 runs to the next separator.
  const encEnd = raw.indexOf(d.field, 4);
  const fields = [raw.slice(0, 3), d.field, encEnd === -1 ? raw.slice(4) : raw.slice(4, encEnd)];
  if (encEnd !== -1) {
    for (const f of raw.slice(encEnd + 1).split(d.field)) fields.push(f);
  }
  return fields;
}

/**
 * The inverse of {@link splitFields}.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * joinFields(["PID", "1", "", "123"], DEFAULT_DELIMITERS, false); // "PID|1||123"
 * ```
 */
export function joinFields(fields: readonly string[], d: Delimiters, header: boolean): string {
  if (!header) return fields.join(d.field);
  let text = fields[0] + d.field + (fields[2] ?? "");
  for (let i = 3; i < fields.length; i++) text += d.field + fields[i];
  return text;
}

/**
 * The repetitions of a raw field (one when the message declares no repetition character).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * splitRepetitions("A~B", DEFAULT_DELIMITERS); // ["A", "B"]
 * ```
 */
export function splitRepetitions(field: string, d: Delimiters): string[] {
  return d.repetition === "" ? [field] : field.split(d.repetition);
}

/**
 * The components of one raw repetition.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * splitComponents("DOE^JOHN", DEFAULT_DELIMITERS); // ["DOE", "JOHN"]
 * ```
 */
export function splitComponents(repetition: string, d: Delimiters): string[] {
  return repetition.split(d.component);
}

/**
 * The subcomponents of one raw component (one when the message declares no subcomponent character).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * splitSubcomponents("SYN&1.2&ISO", DEFAULT_DELIMITERS); // ["SYN", "1.2", "ISO"]
 * ```
 */
export function splitSubcomponents(component: string, d: Delimiters): string[] {
  return d.subcomponent === "" ? [component] : component.split(d.subcomponent);
}
