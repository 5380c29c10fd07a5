/**
 * Starting a master: `assist` re-runs itself in the hidden form `internal ssh-master <alias>`, in the
 * background, and waits for its one handshake line.
 *
 * Which program is "itself":
 * - A compiled binary (`deno compile`): `Deno.build.standalone` is true (and, as a second sign, this
 *   module's URL lies under the compile's virtual root `.../deno-compile-<name>/`). The program is
 *   `Deno.execPath()`, the binary itself, with `internal ssh-master <alias>`.
 * - Development (`deno run main.ts`): `Deno.execPath()` is deno, so the program is
 *   `deno run -q -P=assist --config <repo>/deno.json <repo>/main.ts internal ssh-master <alias>`,
 *   under the same permission set.
 *
 * Deno's run permission names programs: the "assist" set allows `deno` and `assist` by name, and a
 * name matches only the file PATH resolves it to. So each candidate is asked of
 * `Deno.permissions.query` first: the exact binary path when allowed (a compiled binary installed
 * on PATH), else the bare name (`assist`, or `deno` in development), resolved through PATH. A
 * compiled binary run from a folder not on PATH cannot start itself: the error says to put it on
 * PATH. Nothing broader than the two names is granted.
 *
 * The master gets a minimal environment built from a named list (core/child_env.ts) plus
 * ASSIST_HOME (and DENO_DIR in development, so it shares the module cache); no password is ever in
 * its argv or environment: it reads the credential file itself.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { childEnv } from "../core/child_env.ts";
import { SshError } from "./errors.ts";
import type { Handshake } from "./master.ts";
import { readEnv } from "../core/env.ts";

export interface MasterCommand {
  /** Candidate programs, in order of preference. */
  programs: string[];
  args: string[];
  standalone: boolean;
}

/** Whether this code runs from a `deno compile` binary. */
export function isStandalone(
  build: { standalone?: boolean } = Deno.build as { standalone?: boolean },
  moduleUrl: string = import.meta.url,
): boolean {
  if (build.standalone === true) return true;
  // Older runtimes without the flag: compiled modules live under a "deno-compile-<name>" root.
  return /[\\/]deno-compile-[^\\/]+[\\/]/.test(decodeURIComponent(moduleUrl));
}

/**
 * The command that starts the master for an alias. Pure apart from its defaults.
 *
 * @example
 * ```ts
 * masterCommand("eng1", { standalone: false, execPath: "/usr/bin/deno", repoUrl: "file:///src/assist/" });
 * // { programs: ["/usr/bin/deno", "deno"], args: ["run", "-q", "--no-prompt", "-P=assist", "--config",
 * //   "/src/assist/deno.json", "/src/assist/main.ts", "internal", "ssh-master", "eng1"], standalone: false }
 * ```
 */
export function masterCommand(
  alias: string,
  options: { standalone?: boolean; execPath?: string; repoUrl?: string; os?: string } = {},
): MasterCommand {
  const standalone = options.standalone ?? isStandalone();
  const execPath = options.execPath ?? Deno.execPath();
  const hidden = ["internal", "ssh-master", alias];
  if (standalone) {
    const name = (options.os ?? Deno.build.os) === "windows" ? "assist.exe" : "assist";
    return { programs: [execPath, name], args: hidden, standalone };
  }
  const repo = fileURLToPath(options.repoUrl ?? new URL("../", import.meta.url).href);
  const sep = repo.endsWith("/") || repo.endsWith("\\") ? "" : "/";
  return {
    programs: [execPath, "deno"],
    args: [
      "run",
      "-q",
      "--no-prompt",
      "-P=assist",
      "--config",
      `${repo}${sep}deno.json`,
      `${repo}${sep}main.ts`,
      ...hidden,
    ],
    standalone,
  };
}

/** The first candidate this process may run, by Deno's run permission. */
async function allowedProgram(programs: string[]): Promise<string | undefined> {
  for (const p of programs) {
    try {
      const s = await Deno.permissions.query({ name: "run", command: p });
      if (s.state === "granted") return p;
    } catch { /* not resolvable */ }
  }
  return undefined;
}

function envOf(home: string, standalone: boolean): Record<string, string> {
  const get = readEnv;
  const env = childEnv(get);
  env.ASSIST_HOME = home;
  if (!standalone) {
    const dir = get("DENO_DIR");
    if (dir) env.DENO_DIR = dir;
  }
  return env;
}

/** How long setup waits for the master's answer (connect bound plus start-up). */
export const HANDSHAKE_TIMEOUT_MS = 45_000;

/**
 * How the master is spawned: detached on every OS. POSIX: its own session and process group, so
 * Ctrl-C at the terminal does not reach it. Windows: Deno creates it with `DETACHED_PROCESS |
 * CREATE_NEW_PROCESS_GROUP` and leaves it out of the job object every other child of a Deno process
 * joins, a job that kills its members when Deno exits (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`): without
 * `detached`, the master died with `assist ssh setup` (issue 26 item 9).
 */
export const MASTER_SPAWN = { stdin: "null", stdout: "piped", stderr: "piped", detached: true } as const;

/**
 * Starts the master in the background and returns its handshake. The master runs detached (see
 * MASTER_SPAWN) and outlives this process. `cmd` replaces the master's command (tests only).
 */
export async function spawnMaster(
  home: string,
  alias: string,
  timeoutMs = HANDSHAKE_TIMEOUT_MS,
  cmd: MasterCommand = masterCommand(alias),
): Promise<Handshake> {
  const program = await allowedProgram(cmd.programs);
  if (!program) {
    throw new SshError(
      "io_error",
      cmd.standalone
        ? "cannot start the SSH master: this assist binary may only re-run itself as `assist` found on PATH; " +
          "put the binary on PATH (or run it from there)"
        : "cannot start the SSH master: `deno` is not on PATH for the development run",
    );
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args: cmd.args,
      clearEnv: true,
      env: envOf(home, cmd.standalone),
      ...MASTER_SPAWN,
    }).spawn();
  } catch (err) {
    throw new SshError("io_error", `cannot start the SSH master (${program}): ${(err as Error).message}`);
  }
  const decoder = new TextDecoder();
  const outReader = child.stdout.getReader();
  const errReader = child.stderr.getReader();
  let errText = "";
  const errDone = (async () => {
    try {
      while (errText.length < 4096) {
        const { value, done } = await errReader.read();
        if (done) break;
        errText += decoder.decode(value, { stream: true });
      }
    } catch { /* closed */ }
  })();
  let line = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
  const read = (async () => {
    while (!line.includes("\n")) {
      const { value, done } = await outReader.read();
      if (done) return "eof" as const;
      line += decoder.decode(value, { stream: true });
    }
    return "line" as const;
  })();
  const how = await Promise.race([read, timeout]);
  clearTimeout(timer);
  if (how === "eof") await Promise.race([errDone, new Promise((r) => setTimeout(r, 1000))]);
  // Let go of the pipes and the child: the master must outlive us.
  outReader.cancel().catch(() => {});
  errReader.cancel().catch(() => {});
  child.unref();
  if (how === "timeout") {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    throw new SshError("timeout", `the SSH master for ${alias} did not answer within ${timeoutMs / 1000} s`);
  }
  if (how === "eof") {
    const detail = errText.trim().split("\n").filter((l) => l.trim() !== "").slice(-1)[0] ?? "no message";
    throw new SshError("io_error", `the SSH master for ${alias} exited before it was ready: ${detail}`);
  }
  try {
    return JSON.parse(line.slice(0, line.indexOf("\n"))) as Handshake;
  } catch {
    throw new SshError("protocol", `the SSH master for ${alias} sent an unreadable answer`);
  }
}
