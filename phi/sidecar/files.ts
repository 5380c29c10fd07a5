/**
 * Where the sidecar's files live, in a module of its own: the REPL's start-up asks whether the
 * sidecar runs (its pid file) without loading the lifecycle, which embeds the server's source.
 */

const sep = Deno.build.os === "windows" ? "\\" : "/";

/**
 * The sidecar's files in `$ASSIST_PHI_VENV`.
 *
 * @example
 * ```ts
 * import { sidecarFiles } from "./files.ts";
 * sidecarFiles("/home/op/.assist/phi-venv").pidFile; // "/home/op/.assist/phi-venv/sidecar.pid" on Unix
 * ```
 */
export function sidecarFiles(venv: string) {
  const at = (name: string) => `${venv.replace(/[\\/]+$/, "")}${sep}${name}`;
  return {
    dir: venv,
    script: at("assist_phi_sidecar.py"),
    pidFile: at("sidecar.pid"),
    /** The shared secret of client and server (0600): see client.ts, "Authentication". */
    tokenFile: at("sidecar.token"),
    logFile: at("sidecar.log"),
  };
}
