/**
 * tools/by_name.ts loads one definition without the others; it must name exactly the registry's
 * tools, in its order, and hand back the registry's own objects (so `assist tools <name>` runs
 * what the model and `tools list` see).
 */
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { TOOLS } from "../../tools/registry.ts";
import { loadTool, TOOL_NAMES } from "../../tools/by_name.ts";

Deno.test("by_name lists the registry's tools in its order", () => {
  assertEquals([...TOOL_NAMES], TOOLS.map((t) => t.name));
});

Deno.test("by_name loads each registry definition itself, and nothing for an unknown name", async () => {
  for (const def of TOOLS) strictEqual((await loadTool(def.name))?.def, def, def.name);
  strictEqual(await loadTool("no_such_tool"), undefined);
  strictEqual(await loadTool("constructor"), undefined);
  strictEqual(await loadTool("__proto__"), undefined);
});

Deno.test("by_name hands back the body the definition's own run would load", async () => {
  // The definition's run loads run/<name>.ts and calls its run: the manual path calls that same
  // function directly, so `assist tools <name>` and the model run one implementation.
  for (const def of TOOLS) {
    const tool = await loadTool(def.name);
    const group = /^(?:nc_|list_sites)/.test(def.name)
      ? "engine"
      : /^hl7_/.test(def.name)
      ? "hl7"
      : /^phi_/.test(def.name)
      ? "phi"
      : /^ssh_/.test(def.name)
      ? "ssh"
      : def.name === "bash_exec"
      ? "bash"
      : "files";
    const body = await import(`../../tools/${group}/run/${def.name}.ts`);
    strictEqual(tool?.run, body.run, def.name);
  }
});
