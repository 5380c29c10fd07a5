/** Helpers for the HL7 tests: fixtures and a seeded PRNG so random cases reproduce. */

export const FIXTURES = new URL("../fixtures/hl7/", import.meta.url);

/** A fixture's exact text (no newline conversion). */
export function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(name, FIXTURES));
}

/** mulberry32: small, fast, deterministic. `next()` is in [0, 1). */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Seed from HL7_SEED (to reproduce a failure) or the given default. */
export function seedFrom(fallback: number): number {
  const env = Deno.env.get("HL7_SEED");
  return env ? Number(env) : fallback;
}
