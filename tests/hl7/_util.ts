/** Helpers for the HL7 tests: fixtures and a seeded PRNG so random cases reproduce. */
import { mulberry32 } from "../support/prng.ts";

export const FIXTURES = new URL("../fixtures/hl7/", import.meta.url);

/** A fixture's exact text (no newline conversion). */
export function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(name, FIXTURES));
}

/** The shared seeded PRNG (tests/support/prng.ts) with helpers. `next()` is in [0, 1). */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
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
