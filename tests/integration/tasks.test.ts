/**
 * `deno task test:unit` runs without root: it leaves out tests/ssh, tests/tty (the REPL in tmux) and
 * tests/faults (a tmpfs of its own) and tests/windows (the Windows job's, run by .ci/windows.sh as
 * root), and no other suite may use what needs root or apt (a real sshd and its throwaway users, apt
 * installs, tmux, mounts). This keeps that true.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { CONFIG, REPO_ROOT } from "../support/run_assist.ts";

/** The harness parts that need root. */
const ROOT_ONLY = /support\/(sshd|ensure_test_deps|tmpfs)\.ts"|\btmux\b|\bmount\b/;

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(REPO_ROOT, dir))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory && e.name !== "fixtures") out.push(...await testFiles(rel));
    else if (e.isFile && e.name.endsWith(".ts")) out.push(rel);
  }
  return out;
}

Deno.test("test:unit leaves out tests/ssh, tests/tty, tests/faults and tests/windows; only they use sshd, apt, tmux or mount", async () => {
  const tasks = JSON.parse(
    (await Deno.readTextFile(CONFIG)).replace(/^\s*\/\/.*$/gm, ""),
  ).tasks as Record<string, string>;
  assert(
    tasks["test:unit"].includes("--ignore=tests/ssh/,tests/tty/,tests/faults/,tests/windows/"),
    tasks["test:unit"],
  );
  assert(!tasks["test:unit"].includes("ensure_test_deps"), "test:unit installs nothing");
  const users: string[] = [];
  for (const f of await testFiles("tests")) {
    if (
      f.startsWith("tests/ssh/") || f.startsWith("tests/tty/") || f.startsWith("tests/faults/") ||
      f.startsWith("tests/windows/") || f === "tests/support/sshd.ts" ||
      f === "tests/support/ensure_test_deps.ts" || f === "tests/support/tmux.ts" ||
      f === "tests/support/tmpfs.ts"
    ) {
      continue;
    }
    if (f === "tests/integration/tasks.test.ts") continue;
    if (ROOT_ONLY.test(await Deno.readTextFile(join(REPO_ROOT, f)))) users.push(f);
  }
  assertEquals(users, []);
});

/** Files allowed an unfenced example while a change is in flight (none now: keep it that way). */
const UNFENCED_KNOWN: string[] = [];

Deno.test("every JSDoc @example in the source is a fenced block, so deno check --doc type-checks it", async () => {
  const unfenced = new Set<string>();
  for (const dir of ["cli", "core", "tools", "hl7", "phi", "ssh", "update"]) {
    const files = await testFiles(dir).catch((err) => {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    });
    for (const f of [...files, ...(dir === "cli" ? ["main.ts"] : [])]) {
      const lines = (await Deno.readTextFile(join(REPO_ROOT, f))).split("\n");
      lines.forEach((l, i) => {
        if (/^\s*\* @example\s*$/.test(l) && !/^\s*\* ```ts\s*$/.test(lines[i + 1] ?? "")) unfenced.add(f);
      });
    }
  }
  assertEquals([...unfenced].filter((f) => !UNFENCED_KNOWN.includes(f)).sort(), []);
  assertEquals(
    UNFENCED_KNOWN.filter((f) => !unfenced.has(f)),
    [],
    "fenced now: remove it from UNFENCED_KNOWN",
  );
});
