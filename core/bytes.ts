/**
 * Byte helpers shared across layers (the SSH modules, exec output capture, secret input). Kept in
 * core/ so any folder may use them without reaching into another folder's private files, and so a
 * client of the SSH master need not load ssh2 to join bytes.
 *
 * @module
 */

/**
 * Joins byte chunks into one array (no copy for a single chunk).
 *
 * @example
 * ```ts
 * import { concat } from "./bytes.ts";
 * concat([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concat(parts: Uint8Array[], total = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  if (parts.length === 1 && parts[0].length === total) return parts[0];
  const all = new Uint8Array(total);
  let off = 0;
  for (const p of parts) all.set(p, off), off += p.length;
  return all;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The UTF-8 size of a text, as `new TextEncoder().encode(s).length` gives it, without encoding it
 * (a lone surrogate counts as the 3 bytes of U+FFFD, as the encoder writes it).
 *
 * @example
 * ```ts
 * utf8Length("a\u00e9\u20ac\u{1F600}"); // 1 + 2 + 3 + 4 = 10
 * ```
 */
export function utf8Length(s: string): number {
  // Mostly ASCII (HL7, logs): one native scan answers; the loop below runs only for the rest.
  if (!NON_ASCII.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else n += 2; // 3 bytes (a lone surrogate is written as U+FFFD, also 3)
  }
  return n;
}
