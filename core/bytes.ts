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
