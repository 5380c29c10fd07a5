/**
 * Lifecycle of the PHI sidecar (`/phi-sidecar start|stop|status|health|ensure`). The server
 * (phi/sidecar/server.py) is embedded in assist and written to `<phi-venv>/assist_phi_sidecar.py`
 * when needed; it always runs through `python3` (the one interpreter the permission set allows),
 * which re-executes itself with the venv's interpreter when `ensure` has built the venv.
 *
 * Files in `$ASSIST_PHI_VENV` (default `$ASSIST_HOME/phi-venv`, folder 0700): the script,
 * `sidecar.pid` (written by the server once it listens: `<pid> <port>`, removed when it stops) and
 * `sidecar.log` (start-up messages and errors only; request content is never logged).
 *
 * `stop` asks the server to shut down over `POST /shutdown` (no signal permission needed).
 * Results are data: `{ ok, text }`, one or a few lines for the operator.
 */
import serverSource from "./server.py" with { type: "text" };
import type { Config } from "../../core/config.ts";
import { atomicWrite } from "../../core/atomic_write.ts";
import { type HintFn, slashHint } from "../../core/hint.ts";
import { SidecarClient, type SidecarHealth } from "./client.ts";
import { sidecarFiles } from "./files.ts";

export { sidecarFiles };

export interface SidecarCommandResult {
  ok: boolean;
  text: string;
}

export interface LifecycleOptions {
  config: Pick<Config, "phiPort" | "phiVenv">;
  /** @default "python3" */
  python?: string;
  /** How long `start` waits for /health. @default 60000 (loading a spaCy model takes a while) */
  startTimeoutMs?: number;
  /** Serve with assist's regex recognizers only, even when Presidio is installed (tests). */
  regexOnly?: boolean;
  /** Package index for `ensure` (pip --index-url). */
  indexUrl?: string;
  /** How messages name a command (`assist phi-sidecar start` or `/phi-sidecar start`). @default slashHint */
  hint?: HintFn;
}

export const SIDECAR_SUBCOMMANDS = ["start", "stop", "status", "health", "ensure"] as const;
export type SidecarSubcommand = typeof SIDECAR_SUBCOMMANDS[number];

/** The embedded server source (phi/sidecar/server.py). */
export const SIDECAR_SERVER_SOURCE: string = serverSource;

async function installScript(venv: string): Promise<string> {
  const files = sidecarFiles(venv);
  await Deno.mkdir(files.dir, { recursive: true, mode: 0o700 });
  let current: string | undefined;
  try {
    current = await Deno.readTextFile(files.script);
  } catch { /* absent */ }
  if (current !== SIDECAR_SERVER_SOURCE) {
    await atomicWrite(files.script, SIDECAR_SERVER_SOURCE, { mode: 0o600 });
  }
  return files.script;
}

async function tail(path: string, lines = 5): Promise<string> {
  try {
    const text = await Deno.readTextFile(path);
    return text.trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

function describe(h: SidecarHealth, address: string): string {
  return `running on ${address} (pid ${h.pid ?? "?"}, engine ${h.engine ?? "?"}, version ${
    h.version ?? "?"
  })${personsNote(h)}`;
}

/** What the sidecar's engine cannot do: the regex engine has no person recognizer. */
function personsNote(h: SidecarHealth): string {
  const persons = Array.isArray(h.entities) ? h.entities.includes("PERSON") : h.engine !== "regex";
  return persons ? "" : `; the ${h.engine ?? "regex"} engine has no person recognizer: names in free text ` +
    "come from the built-in recognizer (ASSIST_PHI_NAMES) or are not covered";
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `GET /health` with a short timeout. */
function client(options: LifecycleOptions, timeoutMs = 2000): SidecarClient {
  return new SidecarClient({
    port: options.config.phiPort,
    timeoutMs,
    retryAfterMs: 0,
    tokenFile: sidecarFiles(options.config.phiVenv).tokenFile,
  });
}

/**
 * `/phi-sidecar status`.
 *
 * @example
 * ```ts
 * import type { Config } from "../../core/config.ts";
 * declare const config: Config;
 * (await sidecarStatus({ config })).text; // "running on 127.0.0.1:41189 (pid 4242, engine presidio, ...)"
 * ```
 */
export async function sidecarStatus(options: LifecycleOptions): Promise<SidecarCommandResult> {
  const c = client(options);
  const h = await c.health();
  if (h) return { ok: true, text: describe(h, c.address) };
  const files = sidecarFiles(options.config.phiVenv);
  let stale = "";
  try {
    await Deno.stat(files.pidFile);
    stale = ` (a stale ${files.pidFile} is left from an earlier run)`;
  } catch { /* none */ }
  return {
    ok: false,
    text: `not running on ${c.address}${stale}; start it with ${
      (options.hint ?? slashHint)("phi-sidecar", ["start"])
    }`,
  };
}

/** `/phi-sidecar health`: the raw /health answer. */
export async function sidecarHealth(options: LifecycleOptions): Promise<SidecarCommandResult> {
  const c = client(options);
  const h = await c.health();
  if (!h) return { ok: false, text: `not reachable on ${c.address}: ${c.lastError ?? "no answer"}` };
  // The answer as JSON; for an engine without a person recognizer, assist's note is added to it.
  const note = personsNote(h).replace(/^; /, "");
  return { ok: true, text: JSON.stringify(note ? { ...h, assist_note: note } : h) };
}

/** `/phi-sidecar start`: writes the server script, starts it detached, waits for /health. */
export async function startSidecar(options: LifecycleOptions): Promise<SidecarCommandResult> {
  const c = client(options);
  const already = await c.health();
  if (already) return { ok: true, text: `already ${describe(already, c.address)}` };
  const files = sidecarFiles(options.config.phiVenv);
  const script = await installScript(files.dir);
  await Deno.remove(files.pidFile).catch(() => {});
  // A fresh token each start; the server reads it from the file (never argv or environment).
  await atomicWrite(files.tokenFile, crypto.getRandomValues(new Uint8Array(32)).toHex() + "\n", {
    mode: 0o600,
  });
  const args = [
    script,
    "serve",
    "--port",
    String(options.config.phiPort),
    "--venv",
    files.dir,
    "--pid-file",
    files.pidFile,
    "--log",
    files.logFile,
    "--token-file",
    files.tokenFile,
  ];
  if (options.regexOnly) args.push("--regex-only");
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(options.python ?? "python3", {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: Deno.build.os !== "windows",
    }).spawn();
  } catch (err) {
    return { ok: false, text: `cannot run ${options.python ?? "python3"}: ${(err as Error).message}` };
  }
  let exited: number | undefined;
  child.status.then((s) => exited = s.code).catch(() => {});
  child.unref();
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    const h = await c.health();
    if (h) return { ok: true, text: `started: ${describe(h, c.address)}` };
    if (exited !== undefined) {
      const why = await tail(files.logFile);
      return { ok: false, text: `the sidecar exited at start (code ${exited})${why ? `:\n${why}` : ""}` };
    }
    await delay(100);
  }
  return { ok: false, text: `the sidecar did not answer on ${c.address} in time; see ${files.logFile}` };
}

/** `/phi-sidecar stop`: `POST /shutdown`, then waits until it no longer answers. */
export async function stopSidecar(options: LifecycleOptions): Promise<SidecarCommandResult> {
  const c = client(options);
  const h = await c.health();
  const files = sidecarFiles(options.config.phiVenv);
  if (!h) {
    await Deno.remove(files.pidFile).catch(() => {});
    return { ok: true, text: `not running on ${c.address}` };
  }
  if (!await c.shutdown()) return { ok: false, text: `the sidecar on ${c.address} did not accept /shutdown` };
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    await delay(100);
    if (!await c.health()) return { ok: true, text: `stopped (pid ${h.pid ?? "?"})` };
  }
  return { ok: false, text: `the sidecar on ${c.address} still answers after /shutdown` };
}

/**
 * `/phi-sidecar ensure`: builds `$ASSIST_PHI_VENV` with Presidio and the small spaCy model (needs
 * the package index), by running the server script's `ensure` command.
 */
export async function ensureSidecar(options: LifecycleOptions): Promise<SidecarCommandResult> {
  const files = sidecarFiles(options.config.phiVenv);
  const script = await installScript(files.dir);
  const args = [script, "ensure", "--venv", files.dir];
  if (options.indexUrl) args.push("--index-url", options.indexUrl);
  try {
    const out = await new Deno.Command(options.python ?? "python3", {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(20 * 60_000),
    }).output();
    const text = new TextDecoder().decode(out.stderr).trimEnd().split("\n").slice(-8).join("\n");
    return out.code === 0
      ? { ok: true, text: `phi-venv ready at ${files.dir}` }
      : { ok: false, text: `ensure failed (exit ${out.code}); is the package index reachable?\n${text}` };
  } catch (err) {
    return { ok: false, text: `cannot run ${options.python ?? "python3"}: ${(err as Error).message}` };
  }
}

/**
 * Dispatches a `/phi-sidecar` subcommand.
 *
 * @example
 * ```ts
 * import type { Config } from "../../core/config.ts";
 * declare const config: Config;
 * await runSidecarCommand("status", { config }); // { ok: false, text: "not running on 127.0.0.1:41189; ..." }
 * ```
 */
export function runSidecarCommand(sub: string, options: LifecycleOptions): Promise<SidecarCommandResult> {
  switch (sub.trim()) {
    case "start":
      return startSidecar(options);
    case "stop":
      return stopSidecar(options);
    case "status":
      return sidecarStatus(options);
    case "health":
      return sidecarHealth(options);
    case "ensure":
      return ensureSidecar(options);
    default:
      return Promise.resolve({
        ok: false,
        text: `usage: ${(options.hint ?? slashHint)("phi-sidecar", [SIDECAR_SUBCOMMANDS.join("|")])}`,
      });
  }
}
