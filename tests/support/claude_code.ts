/**
 * Claude Code, the real client, for the end-to-end test of `assist mcp`: the program of the pinned
 * `@anthropic-ai/claude-code` (deno.json, test-only) is the native binary npm ships in the platform
 * package beside it (`@anthropic-ai/claude-code-<os>-<arch>`), which Deno fetches with it into its
 * npm cache. Nothing of it is ever imported.
 */
import pkg from "@anthropic-ai/claude-code/package.json" with { type: "json" };

/** The platform package's name part, as Claude Code's own optionalDependencies name them. */
function platform(): string {
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
  return `${os}-${arch}`;
}

/** The Claude Code program for this machine, or a one-line reason it is not there. */
export async function claudeCodeProgram(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { npmCache?: string };
  const name = `claude-code-${platform()}`;
  const exe = Deno.build.os === "windows" ? "claude.exe" : "claude";
  const path = `${info.npmCache}/registry.npmjs.org/@anthropic-ai/${name}/${pkg.version}/${exe}`;
  try {
    await Deno.stat(path);
  } catch {
    throw new Error(`no Claude Code program at ${path} (@anthropic-ai/${name} ${pkg.version} not fetched)`);
  }
  return path;
}
