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
