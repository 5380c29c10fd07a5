/**
 * HL7 on a terminal: segments end in a bare CR, which returns the cursor to the start of the same
 * line, so every segment overwrites the one before. For the screen only, each bare CR becomes a
 * newline; output that is piped or written to a file keeps the exact bytes.
 *
 * @module
 */

// deno-lint-ignore no-control-regex -- MLLP's start block (0x0B) may lead the text
const HL7_START = /^(\uFEFF|\x0b)?(MSH|FHS|BHS)\|/;
const BARE_CR = /\r(?!\n)/g;

/** True when `text` starts as HL7 does (MSH, FHS or BHS, after a BOM or MLLP start block). */
export function startsLikeHl7(text: string): boolean {
  return HL7_START.test(text);
}

/**
 * `text` with each bare CR (a segment end) as a newline, to show on a terminal.
 *
 * @example
 * ```ts
 * import { crToNewlines } from "./screen.ts";
 * crToNewlines("MSH|^~\\&|A\rPID|1\r"); // "MSH|^~\\&|A\nPID|1\n"
 * crToNewlines("a\r\nb"); // unchanged
 * ```
 */
export function crToNewlines(text: string): string {
  return text.replace(BARE_CR, "\n");
}

/**
 * What a tool shows on a terminal: HL7 with its segments on their own lines; other text as is.
 *
 * @example
 * ```ts
 * import { hl7ForTerminal } from "./screen.ts";
 * hl7ForTerminal("MSH|^~\\&|A\rPID|1"); // "MSH|^~\\&|A\nPID|1"
 * hl7ForTerminal("note\rmore"); // unchanged: not HL7
 * ```
 */
export function hl7ForTerminal(text: string): string {
  return startsLikeHl7(text) ? crToNewlines(text) : text;
}
