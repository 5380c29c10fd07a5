/**
 * The one reader of the process environment. Every module that needs a variable reads it through
 * {@link readEnv} (or takes an {@link EnvReader}, so tests pass their own): a variable outside the
 * permission set (deno.json's "assist" env list) reads as unset instead of throwing.
 *
 * @module
 */

/** Reads an environment variable; undefined when unset or not readable. */
export type EnvReader = (name: string) => string | undefined;

/**
 * The process environment.
 *
 * @example
 * ```ts
 * import { readEnv } from "./env.ts";
 * const home: string | undefined = readEnv("HOME");
 * ```
 */
export const readEnv: EnvReader = (name) => {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // outside the permission set: treated as unset
  }
};
