/**
 * Runs the program as a subprocess under exactly the permission set the compiled binary gets
 * (`-P=assist` from deno.json), with a clean environment: only what a test passes, plus a PATH.
 */
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const MAIN = `${REPO_ROOT}main.ts`;
export const CONFIG = `${REPO_ROOT}deno.json`;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Text (written as UTF-8) or exact bytes. */
  stdin?: string | Uint8Array;
}

/** The deno arguments that run the program as shipped (shared with the benchmarks). */
export function assistCommandArgs(args: string[]): string[] {
  return ["run", "-q", "--no-prompt", "-P=assist", "--config", CONFIG, MAIN, ...args];
}

export interface CommandOptions {
  cwd?: string;
  /** With clearEnv, the whole environment; otherwise added to the inherited one. */
  env?: Record<string, string>;
  clearEnv?: boolean;
  /** Written to standard input (text as UTF-8, or exact bytes), which is then closed; absent: none. */
  stdin?: string | Uint8Array;
  /** Sees the child as soon as it runs (to watch its process tree). */
  onSpawn?: (child: Deno.ChildProcess) => void;
}

/** Runs a program to completion, feeding `stdin`, and returns its exit code and decoded output. */
export async function runCommand(
  program: string,
  args: string[],
  options: CommandOptions = {},
): Promise<RunResult> {
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    clearEnv: options.clearEnv,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  options.onSpawn?.(child);
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(
      typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
    );
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

let denoDir: Promise<string | undefined> | undefined;

/**
 * The module cache of the deno running the tests (`DENO_DIR`, else `deno info`'s), so a program
 * started with a throwaway HOME still finds the npm packages its lazily loaded modules import (the
 * built-in name recognizer's lexicon); a compiled binary embeds them instead.
 */
export function testDenoDir(): Promise<string | undefined> {
  denoDir ??= (async () => {
    const set = Deno.env.get("DENO_DIR");
    if (set) return set;
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--json"],
        stdout: "piped",
        stderr: "null",
      })
        .output();
      return (JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir?: string }).denoDir;
    } catch {
      return undefined;
    }
  })();
  return denoDir;
}

export async function runAssist(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const dir = await testDenoDir();
  return runCommand(Deno.execPath(), assistCommandArgs(args), {
    cwd: options.cwd ?? REPO_ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      ...(dir ? { DENO_DIR: dir } : {}),
      ...options.env,
    },
    stdin: options.stdin,
  });
}

/** A fresh temporary folder, removed by the returned disposer. */
export async function tempDir(
  prefix = "assist-test-",
): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path: await Deno.realPath(path),
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
