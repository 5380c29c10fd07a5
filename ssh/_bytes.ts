/** Byte helpers shared by the SSH modules (kept apart so clients need not load ssh2). */

/**
 * Joins byte chunks into one array (no copy for a single chunk).
 *
 * @example
 * ```ts
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
