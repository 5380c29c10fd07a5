/**
 * The shell bash_exec runs a command string with, per platform.
 *
 * @module
 */

/**
 * The shell that runs a command string: bash on POSIX; on Windows cmd.exe with the command passed
 * raw (`/s /c "<command>"`), because cmd.exe does not read the `\"` escaping Deno would apply and
 * any command with quotes would break.
 */
export function shellFor(os: string, command: string): { program: string; args: string[]; raw: boolean } {
  if (os === "windows") return { program: "cmd.exe", args: ["/d", "/s", "/c", `"${command}"`], raw: true };
  return { program: "bash", args: ["-c", command], raw: false };
}

/**
 * Commands longer than this many bytes go to bash as a script file instead of `-c <command>` (spec,
 * "Platform-specific robustness rules" and "Limits": large values go through files, not argv). Linux
 * refuses one argument over 128 KiB ("Argument list too long"), and the whole argv is visible to
 * every user in the process table, which a detokenized command should not be either.
 */
export const ARGV_COMMAND_LIMIT = 32 * 1024;

/**
 * The shell for a command written to the script file `path` (POSIX): `bash <path>`, which runs it as
 * `bash -c` would, with standard input still its own.
 */
export function shellForScript(path: string): { program: string; args: string[]; raw: boolean } {
  return { program: "bash", args: [path], raw: false };
}
