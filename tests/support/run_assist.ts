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
  stdin?: string;
}

/** The deno arguments that run the program as shipped (shared with the benchmarks). */
export function assistCommandArgs(args: string[]): string[] {
  return ["run", "-q", "-P=assist", "--config", CONFIG, MAIN, ...args];
}

export async function runAssist(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: assistCommandArgs(args),
    cwd: options.cwd ?? REPO_ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
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
