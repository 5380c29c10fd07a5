/**
 * The environment a child process gets: built from a named list, never inherited whole, so our
 * secrets (ASSIST_API_KEY, ASSIST_ORIGIN_TOKEN, ORIGIN_TOKEN) and our own ASSIST_* settings can
 * never reach a command the model runs. The names are also in deno.json's "assist" env list.
 * Shared by bash_exec (tools/bash) and the SSH master's start (ssh/spawn.ts), so it lives in core/.
 *
 * @module
 */
import { SECRET_ENV_NAMES } from "./secret.ts";

/** Variables passed through to bash_exec children when set. */
export const CHILD_ENV_NAMES = [
  "PATH",
  "HOME",
  "USER",
  "USERNAME",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TERM",
  "TMPDIR",
  "TMP",
  "TEMP",
  "PATHEXT",
  "SystemRoot",
  "SYSTEMROOT",
  "windir",
  "ComSpec",
  "COMSPEC",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramFiles",
  "ProgramData",
  "MSYSTEM",
  "HCIROOT",
  "HCISITE",
  "HCISITEDIR",
  "HCIVERSION",
] as const;

/**
 * The variables of the named list that are set, read through `get`; never a secret or an ASSIST_*
 * setting.
 *
 * @example
 * ```ts
 * import { childEnv } from "./child_env.ts";
 * import { readEnv } from "./env.ts";
 * const env = childEnv(readEnv); // { PATH: "...", HOME: "..." } and never ASSIST_API_KEY
 * ```
 */
export function childEnv(get: (name: string) => string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  const secret = new Set<string>(SECRET_ENV_NAMES);
  for (const name of CHILD_ENV_NAMES) {
    if (secret.has(name) || name.startsWith("ASSIST_")) continue;
    let value: string | undefined;
    try {
      value = get(name);
    } catch {
      value = undefined;
    }
    if (value !== undefined) env[name] = value;
  }
  return env;
}
