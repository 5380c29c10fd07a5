/**
 * Where route tests run: this machine, or an engine host over SSH (the alias's master, or a direct
 * connection). The same five steps either way, each one SSH round trip on a remote host: make a
 * scratch folder and check for `hciroutetest`, push the bundle and unpack it, run it in the engine's
 * environment (the login shell, or the alias's pinned root), pull `results.txt`, remove the scratch
 * folder. Nothing outside the scratch folder is written on the host.
 *
 * Remote time is counted per host ({@link HostStats}), so a run can say what share went to SSH.
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import { posix } from "node:path";
import type { ToolContext } from "../types.ts";
import { openRemote, pullToFile, type Remote, shQuote, SshError, wrapCommand } from "../../ssh/mod.ts";

export interface HostStats {
  /** Remote operations (exec, push, pull), each one round trip or more. */
  roundTrips: number;
  /** Milliseconds spent waiting on them. */
  ms: number;
  /** Of those, the time the host itself spent running the route tests (run.sh's own count, whole seconds). */
  remoteMs: number;
  /** Milliseconds per operation (`prepare`, `push`, `unpack`, `run`, `fetch`, `cleanup`). */
  byOp?: Record<string, number>;
}

export interface Prepared {
  scratch: string;
  /** `hciroutetest` is on the engine environment's PATH. */
  hasRouteTest: boolean;
  /** HCIROOT is set in the engine environment. */
  hasRoot: boolean;
}

export interface RunOutcome {
  code: number | null;
  /** stderr, trimmed to a few lines. */
  stderr: string;
}

export interface RouteTestHost {
  /** The alias, or `local`. Never user@host. */
  readonly label: string;
  readonly stats: HostStats;
  prepare(): Promise<Prepared>;
  upload(scratch: string, bundle: string): Promise<void>;
  run(scratch: string): Promise<RunOutcome>;
  fetch(scratch: string, localFile: string): Promise<void>;
  cleanup(scratch: string): Promise<void>;
  close(): Promise<void>;
}

/** Scratch folders are made with this prefix; cleanup removes nothing else. */
const SCRATCH_PREFIX = "assist-rt.";

/** A host step that could not be done (no scratch folder, the bundle did not unpack, no shell). */
export class HostError extends AssistError {
  constructor(message: string) {
    super(message, { level: "input" });
    this.name = "HostError";
  }
}
const RUN_TIMEOUT_MS = 60 * 60_000;

function scratchOk(path: string): boolean {
  return posix.isAbsolute(path) && posix.basename(path).startsWith(SCRATCH_PREFIX) && !path.includes("..");
}

function tail(text: string, lines = 5): string {
  return text.replace(/\r/g, "").trim().split("\n").slice(-lines).join("\n");
}

const PREPARE = `d=$(mktemp -d "\${TMPDIR:-/tmp}/${SCRATCH_PREFIX}XXXXXX") || exit 5; ` +
  `echo "SCRATCH=$d"; ` +
  `if command -v hciroutetest >/dev/null 2>&1; then echo ROUTETEST=1; else echo ROUTETEST=0; fi; ` +
  `if [ -n "\${HCIROOT:-}" ]; then echo ROOT=1; else echo ROOT=0; fi`;

function parsePrepare(text: string, where: string): Prepared {
  const m = text.match(/^SCRATCH=(\/\S*)$/m);
  if (!m || !scratchOk(m[1])) throw new HostError(`no scratch folder could be made on ${where}`);
  return {
    scratch: m[1],
    hasRouteTest: /^ROUTETEST=1$/m.test(text),
    hasRoot: /^ROOT=1$/m.test(text),
  };
}

/** An engine host over SSH. Throws SshError (e.g. `master_closed`) from the first call that needs it. */
export class RemoteRouteTestHost implements RouteTestHost {
  readonly stats: HostStats = { roundTrips: 0, ms: 0, remoteMs: 0 };
  #opened: Promise<{ remote: Remote; hciroot?: string }> | undefined;

  constructor(readonly ctx: ToolContext, readonly label: string) {}

  #remote(): Promise<{ remote: Remote; hciroot?: string }> {
    return this.#opened ??= openRemote(this.ctx.config.home, this.label, { hint: this.ctx.hint }).then((
      o,
    ) => ({
      remote: o.remote,
      hciroot: o.options.hciroot,
    }));
  }

  async #timed<T>(op: string, fn: (r: Remote, hciroot?: string) => Promise<T>): Promise<T> {
    const { remote, hciroot } = await this.#remote();
    const t0 = performance.now();
    try {
      return await fn(remote, hciroot);
    } finally {
      const ms = performance.now() - t0;
      this.stats.roundTrips++;
      this.stats.ms += ms;
      this.stats.byOp ??= {};
      this.stats.byOp[op] = (this.stats.byOp[op] ?? 0) + ms;
    }
  }

  #engineCommand(command: string, hciroot?: string): string {
    return wrapCommand(command, { noLogin: this.ctx.config.sshNoLogin, hciroot }).command;
  }

  async prepare(): Promise<Prepared> {
    const r = await this.#timed(
      "prepare",
      (remote, root) =>
        remote.exec(this.#engineCommand(PREPARE, root), { timeoutMs: 60_000, signal: this.ctx.signal }),
    );
    return parsePrepare(new TextDecoder().decode(r.stdout), this.label);
  }

  async upload(scratch: string, bundle: string): Promise<void> {
    if (!scratchOk(scratch)) throw new HostError(`refusing scratch folder ${scratch}`);
    const bytes = new TextEncoder().encode(bundle);
    const path = `${scratch}/bundle.sh`;
    await this.#timed("push", (remote) =>
      remote.push(
        {
          size: bytes.length,
          chunks: (async function* () {
            yield bytes;
          })(),
        },
        path,
        {
          signal: this.ctx.signal,
        },
      ));
    const r = await this.#timed(
      "unpack",
      (remote) =>
        remote.exec(`sh ${shQuote(path)} ${shQuote(scratch)}`, {
          timeoutMs: 300_000,
          signal: this.ctx.signal,
        }),
    );
    if (r.code !== 0) {
      throw new SshError(
        "io_error",
        `unpacking the route tests on ${this.label} failed: ${tail(new TextDecoder().decode(r.stderr))}`,
      );
    }
  }

  async run(scratch: string): Promise<RunOutcome> {
    const r = await this.#timed(
      "run",
      (remote, root) =>
        remote.exec(this.#engineCommand(`sh ${shQuote(`${scratch}/run.sh`)}`, root), {
          timeoutMs: RUN_TIMEOUT_MS,
          signal: this.ctx.signal,
        }),
    );
    const done = new TextDecoder().decode(r.stdout).match(/^assist-routetest: done in (\d+) s$/m);
    if (done) this.stats.remoteMs += Number(done[1]) * 1000;
    return { code: r.code, stderr: tail(new TextDecoder().decode(r.stderr)) };
  }

  async fetch(scratch: string, localFile: string): Promise<void> {
    await this.#timed(
      "fetch",
      (remote) => pullToFile(remote, `${scratch}/results.txt`, localFile, this.ctx.signal),
    );
  }

  async cleanup(scratch: string): Promise<void> {
    if (!scratchOk(scratch)) return;
    await this.#timed(
      "cleanup",
      (remote) => remote.exec(`rm -rf ${shQuote(scratch)}`, { timeoutMs: 120_000 }),
    );
  }

  async close(): Promise<void> {
    const o = this.#opened;
    this.#opened = undefined;
    if (o) await o.then((x) => x.remote.close()).catch(() => {});
  }
}

/** This machine: the engine root given (or HCIROOT), its bin and sbin first on the PATH of this process. */
export class LocalRouteTestHost implements RouteTestHost {
  readonly label = "local";
  readonly stats: HostStats = { roundTrips: 0, ms: 0, remoteMs: 0 };

  constructor(readonly root: string, readonly env: Record<string, string>) {}

  async #sh(script: string, cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    if (Deno.build.os === "windows") {
      throw new HostError(
        "route tests on this machine need a POSIX shell; run them on the engine host with --alias",
      );
    }
    const out = await new Deno.Command("sh", {
      args: ["-c", script],
      cwd,
      clearEnv: true,
      // The engine's commands are in its root's bin and sbin, as the pinned-root wrap puts them.
      env: {
        ...this.env,
        HCIROOT: this.root,
        PATH: `${this.root}/bin:${this.root}/sbin:${this.env.PATH ?? "/usr/bin:/bin"}`,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const d = new TextDecoder();
    return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
  }

  async prepare(): Promise<Prepared> {
    const r = await this.#sh(PREPARE);
    return parsePrepare(r.stdout, "this machine");
  }

  async upload(scratch: string, bundle: string): Promise<void> {
    await Deno.writeTextFile(`${scratch}/bundle.sh`, bundle, { mode: 0o600 });
    const r = await this.#sh(`sh ${shQuote(`${scratch}/bundle.sh`)} ${shQuote(scratch)}`);
    if (r.code !== 0) throw new HostError(`unpacking the route tests failed: ${tail(r.stderr)}`);
  }

  async run(scratch: string): Promise<RunOutcome> {
    const r = await this.#sh(`sh ${shQuote(`${scratch}/run.sh`)}`);
    return { code: r.code, stderr: tail(r.stderr) };
  }

  async fetch(scratch: string, localFile: string): Promise<void> {
    await Deno.copyFile(`${scratch}/results.txt`, localFile);
    await Deno.chmod(localFile, 0o600).catch(() => {});
  }

  async cleanup(scratch: string): Promise<void> {
    if (scratchOk(scratch)) await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }

  async close(): Promise<void> {}
}

/**
 * The one-line reason for a failed host step (the SSH layer's words, a HostError, a local file
 * error, any AssistError such as the results' own); anything else is a bug and is thrown again.
 */
export function hostFailure(err: unknown): string {
  if (err instanceof SshError || err instanceof HostError) return err.message;
  if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) return err.message;
  if (err instanceof AssistError) return err.message; // ResultsError and our other one-line errors
  throw err;
}
