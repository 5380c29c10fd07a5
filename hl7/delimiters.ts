/**
 * The delimiters of a message, as its header segment (MSH, FHS or BHS) declares them: MSH-1 is the
 * field separator, MSH-2 the encoding characters in the order component, repetition, escape,
 * subcomponent and (HL7 v2.7 and later) truncation. Older senders omit the trailing ones; an
 * absent delimiter is the empty string and is simply never split on.
 *
 * @module
 */
import { parseErrorAt } from "./errors.ts";

/** The delimiters one message uses. A delimiter the message does not declare is `""`. */
export interface Delimiters {
  /** MSH-1, `|` by convention. */
  readonly field: string;
  /** MSH-2 first character, `^` by convention. */
  readonly component: string;
  /** MSH-2 second character, `~` by convention. */
  readonly repetition: string;
  /** MSH-2 third character, `\` by convention. */
  readonly escape: string;
  /** MSH-2 fourth character, `&` by convention. */
  readonly subcomponent: string;
  /** MSH-2 fifth character (v2.7+), `#` by convention; `""` when absent. */
  readonly truncation: string;
}

/**
 * The conventional delimiters `|^~\&`, used for text that has no header segment of its own.
 *
 * @example
 * ```ts
 * DEFAULT_DELIMITERS.component; // "^"
 * ```
 */
export const DEFAULT_DELIMITERS: Delimiters = Object.freeze({
  field: "|",
  component: "^",
  repetition: "~",
  escape: "\\",
  subcomponent: "&",
  truncation: "",
});

/**
 * Segment ids whose first two fields are the delimiters themselves.
 *
 * @example
 * ```ts
 * HEADER_IDS.includes("BHS"); // true
 * ```
 */
export const HEADER_IDS: readonly string[] = ["MSH", "FHS", "BHS"];

/**
 * True when `code` can be a field separator: anything but a letter, a digit, white space, or a
 * line or MLLP framing character.
 *
 * @example
 * ```ts
 * isSeparatorCode("|".charCodeAt(0)); // true
 * isSeparatorCode("A".charCodeAt(0)); // false
 * ```
 */
export function isSeparatorCode(code: number): boolean {
  if (code >= 48 && code <= 57) return false; // 0-9
  if (code >= 65 && code <= 90) return false; // A-Z
  if (code >= 97 && code <= 122) return false; // a-z
  // space, tab, CR, LF, VT (MLLP start), FS (MLLP end)
  return !(code === 32 || code === 9 || code === 13 || code === 10 || code === 11 || code === 28);
}

/**
 * True when `text` at `start` opens a header segment (`MSH`, `FHS` or `BHS` followed by a field
 * separator) within `end`.
 *
 * @example
 * ```ts
 * isHeaderAt("x\rMSH#$*!%#A", 2, 13); // true
 * ```
 */
export function isHeaderAt(text: string, start: number, end: number): boolean {
  if (start + 3 >= end) return false;
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  const known = (a === 77 && b === 83 && c === 72) || // MSH
    (a === 70 && b === 72 && c === 83) || // FHS
    (a === 66 && b === 72 && c === 83); // BHS
  return known && isSeparatorCode(text.charCodeAt(start + 3));
}

/**
 * Reads the delimiters of the header segment that starts at `start` and ends (before its
 * terminator) at `end` in `text`. Throws an Hl7ParseError when MSH-2 is empty or repeats a
 * character. Characters of MSH-2 after the fifth are not delimiters and are ignored.
 *
 * @example
 * ```ts
 * const d = readDelimiters("MSH|^~\\&|APP", 0, 12);
 * d.escape; // "\\"
 * ```
 */
export function readDelimiters(text: string, start: number, end: number): Delimiters {
  const field = text.charAt(start + 3);
  let encEnd = text.indexOf(field, start + 4);
  if (encEnd === -1 || encEnd > end) encEnd = end;
  const enc = text.slice(start + 4, encEnd);
  const id = text.slice(start, start + 3);
  if (enc.length === 0) {
    throw parseErrorAt(text, start + 4, `${id}-2 (encoding characters) is empty; expected e.g. ^~\\&`);
  }
  const used = enc.slice(0, 5);
  for (let i = 0; i < used.length; i++) {
    if (used.indexOf(used[i]) !== i) {
      throw parseErrorAt(
        text,
        start + 4 + i,
        `${id}-2 (encoding characters) "${enc}" uses "${used[i]}" twice; each delimiter must differ`,
      );
    }
  }
  return delimitersFrom(field, used);
}

/**
 * The delimiters named by a field separator and the encoding characters in MSH-2 order (component,
 * repetition, escape, subcomponent, truncation; missing ones empty). The standard set is returned as
 * the shared DEFAULT_DELIMITERS object.
 *
 * @example
 * ```ts
 * delimitersFrom("#", "^~").repetition; // "~"
 * ```
 */
export function delimitersFrom(field: string, encoding: string | readonly string[]): Delimiters {
  const enc = typeof encoding === "string" ? encoding : encoding.join("");
  if (field === DEFAULT_DELIMITERS.field && enc === "^~\\&") return DEFAULT_DELIMITERS;
  return {
    field,
    component: enc[0] ?? "",
    repetition: enc[1] ?? "",
    escape: enc[2] ?? "",
    subcomponent: enc[3] ?? "",
    truncation: enc[4] ?? "",
  };
}

/**
 * The MSH-1 + MSH-2 text that declares `d`, e.g. `|^~\&`.
 *
 * @example
 * ```ts
 * encodingCharacters(DEFAULT_DELIMITERS); // "^~\\&"
 * ```
 */
export function encodingCharacters(d: Delimiters): string {
  return d.component + d.repetition + d.escape + d.subcomponent + d.truncation;
}
