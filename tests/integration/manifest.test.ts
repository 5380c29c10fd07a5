/**
 * MANIFEST is the list of files a source install's self-update syncs from the update origin (spec,
 * "Update origin files"; docs/ARCHITECTURE.md, "MANIFEST"): one `<path> <sha256> <size>` line per
 * shipped file. It cannot go stale: it must be byte for byte what `deno task manifest` writes for
 * the tree, so a file added, removed or edited without regenerating it fails here.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../support/run_assist.ts";
import { parseManifest, unsafePath } from "../../update/manifest.ts";
import { buildManifest } from "../../update/release.ts";

async function committed(): Promise<string> {
  return await Deno.readTextFile(join(REPO_ROOT, "MANIFEST"));
}

Deno.test("MANIFEST: hashed lines, plain relative paths, sorted, once each; no tests or benchmarks", async () => {
  const entries = parseManifest(await committed());
  assert(entries.length > 0, "MANIFEST is empty");
  for (const e of entries) {
    assertEquals(unsafePath(e.path), undefined, e.path);
    assert(e.sha256 && e.size !== undefined, `${e.path}: no hash and size`);
  }
  const paths = entries.map((e) => e.path);
  assertEquals(paths, [...new Set(paths)].sort(), "sorted (byte order), no duplicates");
  assertEquals(paths.filter((p) => /^(tests|bench|\.ci)\//.test(p)), [], "tests and benchmarks do not ship");
  for (const p of ["main.ts", "deno.json", "VERSION", "install.sh", "install.ps1", "update/sync.ts"]) {
    assert(paths.includes(p), `${p} is not listed`);
  }
});

Deno.test("MANIFEST is exactly what `deno task manifest` writes for this tree", async () => {
  const want = await buildManifest(REPO_ROOT.replace(/[\\/]$/, ""));
  const have = await committed();
  if (have !== want) {
    const a = new Set(have.split("\n"));
    const b = new Set(want.split("\n"));
    const stale = [...a].filter((l) => l && !b.has(l)).map((l) => l.split(" ")[0]);
    const missing = [...b].filter((l) => l && !a.has(l)).map((l) => l.split(" ")[0]);
    assert(
      false,
      `MANIFEST disagrees with the tree: run \`deno task manifest\` (stale or extra: ${stale.join(", ")}; ` +
        `missing or changed: ${missing.join(", ")})`,
    );
  }
});
