/**
 * The one seeded PRNG of the tests, fuzzers and generators (mulberry32): small, fast, and the same
 * sequence for the same seed everywhere, so a failing random case reproduces from its seed.
 *
 * @example
 * const next = mulberry32(42);
 * next(); // a number in [0, 1)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random element of `list`.
 *
 * @example
 * pick(mulberry32(1), ["a", "b"]); // "a" or "b"
 */
export function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

/**
 * Up to `maxPieces - 1` random pieces of `pieces`, joined: the fuzzers' text generator.
 *
 * @example
 * randomText(mulberry32(1), ["a", " ", "\n"], 10); // e.g. "a \na"
 */
export function randomText(rand: () => number, pieces: readonly string[], maxPieces: number): string {
  return Array.from({ length: Math.floor(rand() * maxPieces) }, () => pick(rand, pieces)).join("");
}
