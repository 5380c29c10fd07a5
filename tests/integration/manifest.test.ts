/**
 * MANIFEST is the list of files a source install's self-update syncs from the update origin (spec,
 * "Update origin files"; docs/ARCHITECTURE.md, "MANIFEST"). It cannot go stale: every entry exists,
 * is a plain relative path, and every file of the program's source folders and prompts is listed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../support/run_assist.ts";

/** What a source install needs besides the source folders. */
const TOP_FILES = ["deno.json", "deno.lock", "VERSION", "README.md", "CHANGELOG.md", "docs/ARCHITECTURE.md"];
/** Folders whose every file ships. */
const SHIPPED = ["cli", "core", "tools", "hl7", "phi", "ssh", "update", "prompts"];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(join(REPO_ROOT, dir)));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return out;
    throw err;
  }
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (e.name !== "__pycache__") out.push(...await filesUnder(rel));
    } else if (e.isFile) out.push(rel);
  }
  return out;
}

async function manifest(): Promise<string[]> {
  const text = await Deno.readTextFile(join(REPO_ROOT, "MANIFEST"));
  return text.split("\n").filter((l) => l !== "");
}

Deno.test("MANIFEST: plain relative paths, sorted, once each, each an existing file", async () => {
  const entries = await manifest();
  assert(entries.length > 0, "MANIFEST is empty");
  for (const p of entries) {
    assert(!/^\/|\.\.|\\|\0|^[A-Za-z]:|\r|\s$/.test(p), `not a plain relative path: ${JSON.stringify(p)}`);
    const st = await Deno.stat(join(REPO_ROOT, p)).catch(() => undefined);
    assert(st?.isFile, `MANIFEST lists ${p}, which is not a file in the repo`);
  }
  assertEquals(entries, [...new Set(entries)].sort(), "sorted (byte order), no duplicates");
  assertEquals(
    entries.filter((p) => /^(tests|bench|\.ci)\//.test(p)),
    [],
    "tests and benchmarks do not ship",
  );
});

Deno.test("MANIFEST lists main.ts, every file of the source folders and prompts, and the top files", async () => {
  const listed = new Set(await manifest());
  const wanted = ["main.ts", ...TOP_FILES];
  for (const dir of SHIPPED) wanted.push(...await filesUnder(dir));
  assertEquals(wanted.filter((p) => !listed.has(p)).sort(), [], "files missing from MANIFEST");
});
