/**
 * tools/by_name.ts loads one definition without the others; it must name exactly the registry's
 * tools, in its order, and hand back the registry's own objects (so `assist tools <name>` runs
 * what the model and `tools list` see).
 */
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { TOOLS } from "../../tools/registry.ts";
import { loadTool, TOOL_BODIES, TOOL_NAMES } from "../../tools/by_name.ts";

Deno.test("by_name lists the registry's tools in its order", () => {
  assertEquals([...TOOL_NAMES], TOOLS.map((t) => t.name));
});

Deno.test("by_name loads each registry definition itself, and nothing for an unknown name", async () => {
  for (const def of TOOLS) strictEqual((await loadTool(def.name))?.def, def, def.name);
  strictEqual(await loadTool("no_such_tool"), undefined);
  strictEqual(await loadTool("constructor"), undefined);
  strictEqual(await loadTool("__proto__"), undefined);
});

Deno.test("by_name's one table names each tool's body, and that body exports the registry's definition", async () => {
  for (const def of TOOLS) {
    const body = await TOOL_BODIES[def.name]();
    strictEqual(body.def, def, def.name);
    strictEqual((await loadTool(def.name))?.run, body.run, def.name);
  }
});

Deno.test("review: shell and remote output tools say so in their definition, the others do not", () => {
  const reviewed = TOOLS.filter((t) => t.review === true).map((t) => t.name);
  assertEquals(reviewed, ["bash_exec", "ssh_exec", "ssh_pull", "ssh_pull_smat"]);
});
