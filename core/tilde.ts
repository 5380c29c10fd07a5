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
 * Whether this (Windows) process runs inside a POSIX emulation: MSYS2 or Git Bash (`MSYSTEM`), or
 * Cygwin (`TERM=cygwin`). Paths typed there are in the emulation's form (`/c/Users/op`).
 *
 * @example
 * ```ts
 * import { posixEmulation } from "./tilde.ts";
 * posixEmulation((n) => (n === "MSYSTEM" ? "MINGW64" : undefined)); // true
 * ```
 */
export function posixEmulation(env: (name: string) => string | undefined = readEnv): boolean {
  return !!env("MSYSTEM") || /cygwin|msys/i.test(env("TERM") ?? "");
}

/**
 * A POSIX-emulation drive path in Windows form (spec, "Platform-specific robustness rules": paths
 * handed to a Windows-native processor are translated): `/c/x` (MSYS2, Git Bash) and
 * `/cygdrive/c/x` (Cygwin) become `C:\x`; any other path is returned as given.
 *
 * @example
 * ```ts
 * import { windowsDrivePath } from "./tilde.ts";
 * windowsDrivePath("/c/Users/op/adt.hl7"); // "C:\\Users\\op\\adt.hl7"
 * windowsDrivePath("/cygdrive/d"); // "D:\\"
 * windowsDrivePath("/tmp/x"); // unchanged
 * ```
 */
export function windowsDrivePath(path: string): string {
  const m = /^\/(?:cygdrive\/)?([A-Za-z])(?:\/(.*))?$/.exec(path);
  if (!m) return path;
  return `${m[1].toUpperCase()}:\\${(m[2] ?? "").replace(/\//g, "\\")}`;
}

/**
 * `~` and `~/x` (also `~\x` on Windows) against `home` (default {@link userHome}). On Windows inside
 * a POSIX emulation (`emulated`, default {@link posixEmulation}), the emulation's drive forms
 * (`/c/x`, `/cygdrive/c/x`) become Windows paths, so a path typed in Git Bash opens the same file.
 *
 * @example
 * ```ts
 * expandTilde("~/hci/NetConfig", "/home/op", false); // "/home/op/hci/NetConfig"
 * expandTilde("notes/~draft", "/home/op", false); // unchanged
 * expandTilde("/c/hci/NetConfig", "C:\\Users\\op", true, true); // "C:\\hci\\NetConfig"
 * ```
 */
export function expandTilde(
  path: string,
  home: string | undefined = userHome(),
  windows = Deno.build.os === "windows",
  emulated = windows && posixEmulation(),
): string {
  if (windows && emulated && path.startsWith("/")) return windowsDrivePath(path);
  if (!home) return path;
  if (path === "~") return home;
  if (path.startsWith("~/") || (windows && path.startsWith("~\\"))) {
    return home.replace(/[\\/]+$/, "") + (windows ? "\\" : "/") + path.slice(2);
  }
  return path;
}
