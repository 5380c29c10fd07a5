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
