/**
 * Helpers of the SSH suites: run `assist` as a subprocess (tests/support/run_assist.ts's command and
 * permission set) in a test home, and watch every process on the machine for the password in its
 * argv or environment while the suite runs.
 */
import { assistCommandArgs, REPO_ROOT, runAssist, runCommand } from "../support/run_assist.ts";
import { descendants } from "./_proc.ts";
export { alive, SecretWatch } from "./_proc.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Both streams, for "nothing printed contains the password" checks. */
  all: string;
}

/** The environment a test gives the program: a home, the module cache, and what the test adds. */
export function envFor(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const denoDir = Deno.env.get("DENO_DIR");
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    ASSIST_HOME: home,
    TMPDIR: `${home}-tmp`,
    ...(denoDir ? { DENO_DIR: denoDir } : {}),
    ...extra,
  };
}

/**
 * `assist <args>` without process watching (for benchmarks, where the watcher would cost time):
 * stdout, or an error naming the command and its stderr.
 */
export async function assistOk(args: string[], env: Record<string, string>, stdin?: string): Promise<string> {
  const r = await runAssist(args, { env, stdin });
  if (r.code !== 0) throw new Error(`assist ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Every pid the last runs started (the program and its descendants), for the /proc checks. */
export const seenPids = new Set<number>();

/**
 * Runs `assist <args>` with the given environment (and optional stdin); while it runs, its pid and
 * its descendants' are recorded and their argv/environment scanned by any active {@link SecretWatch}.
 */
export async function assist(args: string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  await Deno.mkdir(env.TMPDIR ?? "/tmp", { recursive: true }).catch(() => {});
  let running = true;
  let track = Promise.resolve();
  const out = await runCommand(Deno.execPath(), assistCommandArgs(args), {
    cwd: REPO_ROOT,
    clearEnv: true,
    env,
    stdin,
    onSpawn: (child) => {
      seenPids.add(child.pid);
      track = (async () => {
        while (running) {
          for (const p of await descendants(child.pid).catch(() => [])) seenPids.add(p);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
    },
  });
  running = false;
  await track;
  return { code: out.code, stdout: out.stdout, stderr: out.stderr, all: out.stdout + out.stderr };
}

/** Every file under a folder (recursively) whose content includes the secret, except under `skip`. */
export async function filesContaining(root: string, secret: string, skip: string[] = []): Promise<string[]> {
  const hits: string[] = [];
  const walk = async (dir: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      if (skip.some((s) => p === s || p.startsWith(`${s}/`))) continue;
      if (e.isDirectory) await walk(p);
      else if (e.isFile) {
        const bytes = await Deno.readFile(p).catch(() => new Uint8Array());
        if (new TextDecoder().decode(bytes).includes(secret)) hits.push(p);
      }
    }
  };
  await walk(root);
  return hits;
}

/** The pid of the master from `ssh setup` output ("... pid N)"). */
export function masterPid(setupOutput: string): number {
  const m = setupOutput.match(/pid (\d+)\)/);
  if (!m) throw new Error(`no pid in: ${setupOutput}`);
  return Number(m[1]);
}

/** Kills a master we started (by pid) if it is still running; used in finally blocks. */
export function killPid(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    Deno.kill(pid, "SIGKILL");
  } catch { /* gone */ }
}

/** Waits until `fn` is true (polling), or throws after `ms`. */
export async function until(
  fn: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
