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

/**
 * Whether the sidecar the pid file names (`<pid> <port>`) is there: absent or unreadable → false;
 * else a TCP connect to its loopback port must succeed (a sidecar that crashed leaves its pid file
 * behind, and its port refuses at once). Only asked when the file exists, and on 127.0.0.1 only, with
 * a cap of 300 ms: the prompt never waits on the outside network.
 *
 * @example
 * ```ts
 * import { sidecarFiles, sidecarPidAlive } from "./files.ts";
 * await sidecarPidAlive(sidecarFiles("/home/op/.assist/phi-venv").pidFile); // false when not running
 * ```
 */
export async function sidecarPidAlive(pidFile: string): Promise<boolean> {
  let text: string;
  try {
    text = await Deno.readTextFile(pidFile);
  } catch {
    return false;
  }
  const m = /^\s*(\d+)\s+(\d+)/.exec(text);
  const port = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(port) || port <= 0 || port > 65535) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((done) => timer = setTimeout(() => done(false), 300));
  const probe = Deno.connect({ hostname: "127.0.0.1", port }).then((c) => {
    c.close();
    return true;
  }, () => false);
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
    // A connect that lost the race closes when it settles.
    probe.catch(() => {});
  }
}
