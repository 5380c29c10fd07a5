/**
 * `~` in a local path the operator (or the model) gives: the operator's home folder, as a shell
 * would expand it, for paths that reach the program unexpanded (quoted, `--flag=~/x`, the model's
 * tool calls, `@~/file`). `~user` is left as written.
 *
 * @module
 */
import { readEnv } from "./env.ts";

/** The operator's home folder: HOME, else USERPROFILE (Windows); undefined when neither is set. */
export function userHome(): string | undefined {
  for (const name of ["HOME", "USERPROFILE"]) {
    const v = readEnv(name);
    if (v) return v;
  }
  return undefined;
}

/**
 * `~` and `~/x` (also `~\x` on Windows) against `home` (default {@link userHome}).
 *
 * @example
 * ```ts
 * expandTilde("~/hci/NetConfig", "/home/op", false); // "/home/op/hci/NetConfig"
 * expandTilde("notes/~draft", "/home/op", false); // unchanged
 * ```
 */
export function expandTilde(
  path: string,
  home: string | undefined = userHome(),
  windows = Deno.build.os === "windows",
): string {
  if (!home) return path;
  if (path === "~") return home;
  if (path.startsWith("~/") || (windows && path.startsWith("~\\"))) {
    return home.replace(/[\\/]+$/, "") + (windows ? "\\" : "/") + path.slice(2);
  }
  return path;
}
