/**
 * `--version` and `tools list` must stay as quick as an empty script (bench/startup.bench.ts). Deno
 * loads at start-up every module reachable by static imports AND by literal dynamic imports
 * (`import("./x.ts")`), so this walks both kinds of edge with `deno info --json` and fails when a
 * heavy module or a Node built-in (node:path alone costs ~10 ms) becomes reachable. Lazy parts load
 * through core/lazy.ts, whose specifiers are not literals.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CONFIG, REPO_ROOT } from "../support/run_assist.ts";

async function startupClosure(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", CONFIG, `${REPO_ROOT}${entry}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const modules = new Map<string, Array<Record<string, unknown>>>();
  for (const m of info.modules) modules.set(m.specifier, m.dependencies ?? []);
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of modules.get(s) ?? []) {
      const code = d.code as { specifier?: string } | undefined;
      if (!code?.specifier) continue; // type-only imports have no code edge
      stack.push(code.specifier);
    }
  }
  return [...seen].map((s) => s.startsWith("file://") ? s.slice(`file://${REPO_ROOT}`.length) : s).sort();
}

// In a tool group folder (tools/<group>/) only the small definitions (`*_tool.ts`) may load at
// start-up: bodies (run/<name>.ts) and their helpers load on use (docs/ARCHITECTURE.md, "How to add a tool").
const HEAVY =
  /^(hl7|phi|ssh|update)\/|^tools\/[^/]+\/(?!.*_tool\.ts$)|^cli\/(model|agent|auth)\/|^node:|^npm:/;

Deno.test("--version loads main.ts, the version, the lazy loader and the env reader only", async () => {
  // core/env.ts (no imports of its own) reads INIT_CWD before dispatch (run from any folder).
  assertEquals(await startupClosure("main.ts"), [
    "core/env.ts",
    "core/lazy.ts",
    "core/version.ts",
    "main.ts",
  ]);
});

Deno.test("tools list loads no heavy module and no Node built-in", async () => {
  const closure = await startupClosure("cli/manual.ts");
  assertEquals(closure.filter((m) => HEAVY.test(m)), []);
});
