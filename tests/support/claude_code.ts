/**
 * Claude Code, the real client, for the end-to-end test of `assist mcp`: `@anthropic-ai/claude-code`
 * at a pinned version, installed once with npm into a folder of the machine's temporary directory
 * (kept between runs). Test-only, and deliberately not in deno.json: Deno fetches every npm package
 * its lock names at a program's first npm use, and this one brings its native program (some 350 MB
 * per platform package) with it, which no install of assist may pay for.
 */
import { join } from "node:path";
import { tmpdir } from "node:os";

export const CLAUDE_CODE_VERSION = "2.1.328";

/** The Claude Code program, installed first when it is not there yet. */
export async function claudeCodeProgram(): Promise<string> {
  const dir = join(tmpdir(), `assist-test-claude-code-${CLAUDE_CODE_VERSION}`);
  const program = (root: string) =>
    join(root, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
  if (await exists(program(dir))) return program(dir);
  // Installed beside its final place and renamed there whole, so a broken install is never used.
  const staging = await Deno.makeTempDir({ dir: tmpdir(), prefix: "assist-test-claude-code-" });
  const args = [
    "install",
    "--prefix",
    staging,
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
  ];
  const windows = Deno.build.os === "windows";
  const out = await new Deno.Command(windows ? "cmd.exe" : "npm", {
    args: windows ? ["/c", "npm", ...args] : args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success || !(await exists(program(staging)))) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" ");
    throw new Error(`npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed: ${err}`);
  }
  try {
    await Deno.rename(staging, dir);
  } catch {
    // Another run installed it first: use that one.
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  return program(dir);
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
