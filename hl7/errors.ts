/**
 * The HL7 library's own errors. The parser throws nothing but {@link Hl7ParseError}; the path
 * language throws nothing but {@link Hl7PathError}. Both carry what a caller needs to act on them
 * without parsing the message.
 *
 * @module
 */

/**
 * Malformed input: a header segment whose delimiters cannot be read, or text that is not the one
 * message `parseMessage` expects. `offset` is the 0-based character index into the parsed text;
 * `line` and `column` are 1-based (a `\r`, `\n` or `\r\n` ends a line).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * try {
 *   parseMessage("MSH|^^~\\&|A");
 * } catch (e) {
 *   if (e instanceof Hl7ParseError) console.log(e.line, e.column, e.message);
 * }
 * ```
 */
import { AssistError } from "../core/errors.ts";
export class Hl7ParseError extends AssistError {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** The message without the "line N, column C: " prefix. */
  readonly reason: string;
  constructor(reason: string, offset: number, line: number, column: number) {
    super(`line ${line}, column ${column}: ${reason}`, { level: "input" });
    this.name = "Hl7ParseError";
    this.reason = reason;
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/**
 * A field path that does not parse (`PID.0`, `PID.x`, `P1D.3`) or cannot be used where it was
 * given (setting MSH.2, a path with no field for a value). `path` is the text as given.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * try {
 *   parsePath("PID.0");
 * } catch (e) {
 *   if (e instanceof Hl7PathError) console.log(e.message); // bad HL7 path "PID.0": ...
 * }
 * ```
 */
export class Hl7PathError extends AssistError {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message, { level: "input" });
    this.name = "Hl7PathError";
    this.path = path;
  }
}

/**
 * 1-based line and column of `offset` in `text` (`\r\n` counts as one line end).
 *
 * @example
 * ```ts
 * locate("MSH|x\r\nPID|1", 8); // { line: 2, column: 2 }
 * ```
 */
export function locate(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (i + 1 < end && text.charCodeAt(i + 1) === 10) i++;
      line++;
      lineStart = i + 1;
    } else if (c === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * An {@link Hl7ParseError} at `offset` of `text`.
 *
 * @example
 * ```ts
 * declare const text: string, start: number;
 * throw parseErrorAt(text, start + 4, "MSH-2 (encoding characters) is empty");
 * ```
 */
export function parseErrorAt(text: string, offset: number, reason: string): Hl7ParseError {
  const { line, column } = locate(text, offset);
  return new Hl7ParseError(reason, offset, line, column);
}
