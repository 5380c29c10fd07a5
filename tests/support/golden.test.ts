import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { goldenUpdate } from "./golden.ts";

const env = (vars: Record<string, string>) => (n: string) => vars[n];

Deno.test("goldens are rewritten only with UPDATE_GOLDEN=1, and never in CI", () => {
  assertEquals(goldenUpdate(env({})), false);
  assertEquals(goldenUpdate(env({ CI: "1" })), false);
  assertEquals(goldenUpdate(env({ UPDATE_GOLDEN: "1" })), true);
  assertEquals(goldenUpdate(env({ UPDATE_GOLDEN: "1", CI: "0" })), true);
  throws(() => goldenUpdate(env({ UPDATE_GOLDEN: "1", CI: "1" })), /refused in CI/);
  throws(() => goldenUpdate(env({ UPDATE_GOLDEN: "1", CI: "true" })), /refused in CI/);
});
