/**
 * Whether golden tests rewrite their files: `UPDATE_GOLDEN=1` on a developer's machine, never in CI.
 * CI (`CI=1`, which .ci/run exports) refuses, so a run there can only compare, never bless output.
 *
 * @module
 */

/**
 * true when goldens are to be rewritten; throws when asked to in CI.
 *
 * @example
 * ```ts
 * import { goldenUpdate } from "./golden.ts";
 * goldenUpdate((n) => ({ UPDATE_GOLDEN: "1" } as Record<string, string>)[n]); // true
 * ```
 */
export function goldenUpdate(env: (name: string) => string | undefined = (n) => Deno.env.get(n)): boolean {
  if (env("UPDATE_GOLDEN") !== "1") return false;
  const ci = env("CI");
  if (ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false") {
    throw new Error(
      "UPDATE_GOLDEN=1 is refused in CI (CI is set): goldens are rewritten and reviewed by hand",
    );
  }
  return true;
}
