/**
 * Character classes as tier 4 reads text (phi/tier4_known.ts, phi/known_index.ts): word characters,
 * white space, letters and digits, ASCII by char code and the rest by Unicode class. Private to phi/.
 */

/** A letter, digit or `_` at `i` (ASCII by char code, others by Unicode class). */
export function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // Either half of a surrogate pair stands for its whole character (a letter outside the BMP).
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
    const h = text.charCodeAt(i - 1);
    if (h >= 0xd800 && h <= 0xdbff) return /[\p{L}\p{N}]/u.test(text.slice(i - 1, i + 1));
  }
  if (c >= 0xd800 && c <= 0xdbff) {
    const l = text.charCodeAt(i + 1);
    return l >= 0xdc00 && l <= 0xdfff && /^[\p{L}\p{N}]$/u.test(text.slice(i, i + 2));
  }
  return /[\p{L}\p{N}]/u.test(text[i]);
}

export const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 160;

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;

/** UTF-16 length of the letter or digit (`[\p{L}\p{N}]`) at `i`, or 0. */
export function letterOrDigitAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  if (c !== c) return 0; // past the end (NaN)
  const cp = text.codePointAt(i)!;
  const w = cp > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + w)) ? w : 0;
}

/** Start of the line holding `pos` (a backward scan to the previous `\n` or `\r`). */
export function lineStart(text: string, pos: number): number {
  let i = pos - 1;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i + 1;
}
