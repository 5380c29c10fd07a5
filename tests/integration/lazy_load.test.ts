/**
 * `--version` and `tools list` must stay as quick as an empty script (bench/startup.bench.ts). Deno
 * loads at start-up every module reachable by static imports AND by literal dynamic imports
 * (`import("./x.ts")`), so this walks both kinds of edge with `deno info --json` and fails when a
 * heavy module or a Node built-in (node:path alone costs ~10 ms) becomes reachable. Lazy parts load
 * through core/lazy.ts, whose specifiers are not literals.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CONFIG, REPO_ROOT } from "../support/run_assist.ts";
import { TOOL_NAMES } from "../../tools/by_name.ts";

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
  // `tools list` loads cli/manual.ts, then the registry of every definition (lazily).
  const closure = [...await startupClosure("cli/manual.ts"), ...await startupClosure("tools/registry.ts")];
  assertEquals(closure.filter((m) => HEAVY.test(m)), []);
});

/**
 * The modules one `assist tools <name>` run really evaluates, in order: Deno's debug log names each
 * ES module as it is instantiated ("V8 code cache hit/miss for ES module: <specifier>"), lazy loads
 * included, which no static graph shows. Repository-relative for the program's own files.
 */
async function loadedModules(args: string[], cwd: string, expectFailure = false): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-L",
      "debug",
      "--no-prompt",
      "-P=assist",
      "--config",
      CONFIG,
      `${REPO_ROOT}main.ts`,
      ...args,
    ],
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  if (out.success === expectFailure) {
    throw new Error(`assist ${args.join(" ")}: exit ${out.code}\n${log.slice(-2000)}`);
  }
  const seen = new Set<string>();
  for (const m of log.matchAll(/ES module: ([^\s,]+)/g)) {
    seen.add(m[1].startsWith(`file://${REPO_ROOT}`) ? m[1].slice(`file://${REPO_ROOT}`.length) : m[1]);
  }
  // The log format is Deno's: if it changes, this must fail rather than pass on an empty list.
  if (!seen.has("main.ts")) throw new Error(`no module lines in Deno's debug log:\n${log.slice(0, 2000)}`);
  return [...seen];
}

/**
 * The definition and body files of tools other than `name` (tools/<group>/[run/]<tool>[_tool].ts);
 * shared helpers (`_input.ts`, common_tool.ts) are no tool's.
 */
function otherTools(loaded: string[], name: string): string[] {
  return loaded.filter((m) => {
    const t = /^tools\/[^/]+\/(?:run\/)?(\w+?)(?:_tool)?\.ts$/.exec(m);
    return t !== null && t[1] !== name && TOOL_NAMES.includes(t[1]);
  });
}

Deno.test("one `assist tools <name>` run loads that tool's definition and body, nothing of the others", async () => {
  const { writeFixtureRoot } = await import("../support/fixture_root.ts");
  const dir = await Deno.makeTempDir({ prefix: "assist-lazy-" });
  try {
    const root = `${dir}/root`;
    await writeFixtureRoot(root);
    await Deno.writeTextFile(
      `${dir}/a.hl7`,
      "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||DOE^JOHN\r",
    );
    const runs: Array<[string, string[], RegExp]> = [
      // name, arguments, modules that must not load (beyond other tools' files and Node built-ins);
      // hl7/charset.ts, where present, is allowed: the file tools' guard decodes bytes through it;
      // read_file also loads hl7/screen.ts (no imports), which lays HL7 out for a terminal.
      [
        "hl7_field",
        ["a.hl7", "PID.5"],
        /^(hl7\/(schema|_schema|show|diff|shape|complete|format)|phi\/|ssh\/)/,
      ],
      ["hl7_show", ["a.hl7"], /^(hl7\/(diff|shape|complete)|phi\/|ssh\/)/],
      ["read_file", ["a.hl7"], /^(hl7\/(?!(charset|screen)\.ts$)|phi\/|ssh\/)/],
      ["list_dir", ["."], /^(hl7\/(?!charset\.ts$)|phi\/|ssh\/)/],
      ["nc_threads", ["adt", "--hciroot", root], /^(hl7\/(?!charset\.ts$)|phi\/|ssh\/|tools\/ssh\/)/],
      ["nc_show", ["adt", "adt_in", "--hciroot", root], /^(hl7\/(?!charset\.ts$)|phi\/|ssh\/|tools\/ssh\/)/],
    ];
    for (const [name, args, banned] of runs) {
      const loaded = await loadedModules(["tools", name, ...args], dir);
      assertEquals({ name, others: otherTools(loaded, name) }, { name, others: [] });
      assertEquals(
        { name, banned: loaded.filter((m) => banned.test(m) || /^(node:|npm:|ext:deno_node)/.test(m)) },
        { name, banned: [] },
      );
      // Its own definition did load (the log is read right).
      assertEquals(loaded.some((m) => m.endsWith(`/${name}_tool.ts`)), true, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ssh_exec loads no Node layer (no node:crypto through the ssh barrel)", async () => {
  // An alias that is not registered fails after the tool's body and the SSH client have loaded.
  const dir = await Deno.makeTempDir({ prefix: "assist-lazy-" });
  try {
    const loaded = await loadedModules(["tools", "ssh_exec", "nosuchalias", "true"], dir, true);
    assertEquals(loaded.includes("ssh/client.ts"), true);
    assertEquals(
      loaded.filter((m) => /^(node:|npm:|ext:deno_node)/.test(m) || m === "ssh/known_hosts.ts"),
      [],
    );
    assertEquals(otherTools(loaded, "ssh_exec"), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
