/**
 * nc_paths over a large engine root: 40 sites of 250 threads (about 33 MB of NetConfig), sites
 * routing into each other (TCP clients to the next site, inter-site destinations two sites on).
 * The tool runs in process as the model calls it; "cold" forgets the parsed NetConfigs first, so
 * every iteration reads and parses all 40 files through the engine seam. Target: under 1 s.
 */
import { loadConfig } from "../core/config.ts";
import { validateInput } from "../tools/args.ts";
import type { ToolContext } from "../tools/types.ts";
import { ncPathsTool } from "../tools/engine/nc_paths_tool.ts";
import { clearNetConfigCache } from "../tools/engine/engine.ts";
import { writeLargeRoot } from "./_gen_engine.ts";
import { runTool } from "../tools/by_name.ts";

const dir = await Deno.makeTempDir({ prefix: "assist-bench-engine-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const root = `${dir}/hci`;
await writeLargeRoot(root, 40, 250);
const ctx: ToolContext = {
  config: loadConfig((n) => (n === "ASSIST_HOME" ? `${dir}/home` : undefined)),
  cwd: dir,
  caller: "model",
};

async function paths(input: Record<string, unknown>): Promise<number> {
  const r = await runTool(
    ncPathsTool,
    validateInput(ncPathsTool, { hciroot: root, format: "tsv", ...input }),
    ctx,
  );
  if (r.isError) throw new Error(r.text);
  return r.text.split("\n").length - 1;
}

const rows = await paths({ site: "s000", thread: "in_000" });
if (rows < 5) throw new Error(`too few chains (${rows})`);

Deno.bench("nc_paths s000 in_000, cold (40 sites parsed)", { group: "paths", baseline: true }, async () => {
  clearNetConfigCache();
  await paths({ site: "s000", thread: "in_000" });
});

Deno.bench("nc_paths s000 (entry threads), cold", { group: "paths" }, async () => {
  clearNetConfigCache();
  await paths({ site: "s000" });
});

Deno.bench("nc_paths --all-sites --limit 100000, cold", { group: "paths" }, async () => {
  clearNetConfigCache();
  await paths({ all_sites: true, limit: 100000 });
});

Deno.bench("nc_paths s000 in_000, warm (NetConfigs cached)", { group: "paths" }, async () => {
  await paths({ site: "s000", thread: "in_000" });
});
