/** The engine tools as the model calls them (in process): failures are structured, never thrown. */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { ncThreadsTool } from "../../../tools/engine/nc_threads_tool.ts";
import { ncPathsTool } from "../../../tools/engine/nc_paths_tool.ts";
import { listSitesTool } from "../../../tools/engine/list_sites_tool.ts";
import { ncMsgsTool } from "../../../tools/engine/nc_msgs_tool.ts";
import { ncRevisionsTool } from "../../../tools/engine/nc_revisions_tool.ts";
import { ncShowTool } from "../../../tools/engine/nc_show_tool.ts";
import { inputSchema } from "../../../tools/args.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor, errorOf } from "../support.ts";
import { writeFixtureRoot } from "../../support/fixture_root.ts";

Deno.test("engine tools: structured errors for a broken NetConfig, a missing root, bad input", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  // A fifth site with a syntax error, listed in server.ini.
  await Deno.mkdir(`${root}/broken`);
  await Deno.writeTextFile(
    `${root}/broken/NetConfig`,
    "prologue\n    type:\tnet\nend_prologue\nprotocol x {\n    { PROCESSNAME p }\n",
  );
  const ini = await Deno.readTextFile(`${root}/server/server.ini`);
  await Deno.writeTextFile(`${root}/server/server.ini`, ini.trimEnd() + `;${root}/broken\n`);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);

  const broken = errorOf(await call(ncThreadsTool, { site: "broken", hciroot: root }, ctx));
  assertEquals(broken, {
    error: "netconfig_syntax",
    message: "broken/NetConfig line 4, column 12: unmatched open brace in list",
    file: "broken/NetConfig",
    line: 4,
    column: 12,
  } as unknown);
  // Other tools go on without the broken site and say so.
  const paths = await call(ncPathsTool, { site: "adt", thread: "orders_in", hciroot: root }, ctx);
  assert(!paths.isError);
  match(
    paths.text,
    /\[nc_paths: site broken left out: broken\/NetConfig line 4, column 12: unmatched open brace in list\]/,
  );

  assertEquals(
    errorOf(await call(listSitesTool, { hciroot: `${tmp.path}/nope` }, ctx)).error,
    "no_engine_root",
  );
  assertEquals(
    errorOf(
      await call(ncShowTool, { site: "adt", thread: "adt_in", path: "PROTOCOL.NOPE", hciroot: root }, ctx),
    ).error,
    "no_such_key",
  );
  assertEquals(
    errorOf(await call(ncMsgsTool, { site: "adt", thread: "adt_in", hl7: ["PID.3"], hciroot: root }, ctx))
      .error,
    "bad_hl7_filter",
  );
  assertEquals(
    errorOf(await call(ncMsgsTool, { site: "adt", since: "later", hciroot: root }, ctx)).error,
    "bad_time",
  );
  assertEquals(errorOf(await call(ncMsgsTool, { site: "adt", thread: "billing_out", hciroot: root }, ctx)), {
    error: "no_smat",
    message: "billing_out saves no messages (SAVEMSGS has no INFILE or OUTFILE)",
    thread: "billing_out",
  } as unknown);
  assertEquals(errorOf(await call(ncRevisionsTool, { hciroot: root }, ctx)).error, "usage");
  assertEquals(
    errorOf(await call(ncRevisionsTool, { thread: "lab_in.lab", site: "adt", hciroot: root }, ctx)).error,
    "conflicting_site",
  );
});

Deno.test("engine tools: an engine root inside $ASSIST_HOME's protected places is refused", async () => {
  await using tmp = await tempDir();
  const home = `${tmp.path}/home`;
  await writeFixtureRoot(`${home}/sessions/hci`);
  const ctx = contextFor(home, tmp.path);
  const e = errorOf(await call(listSitesTool, { hciroot: `${home}/sessions/hci` }, ctx));
  assertEquals(e.error, "protected_path");
});

Deno.test("engine tools: every input schema is a closed object with enums for formats", () => {
  for (const def of [listSitesTool, ncThreadsTool, ncPathsTool, ncMsgsTool, ncRevisionsTool, ncShowTool]) {
    const schema = inputSchema(def) as {
      additionalProperties: boolean;
      properties: Record<string, { enum?: string[] }>;
    };
    assertEquals(schema.additionalProperties, false);
    const fmt = schema.properties.format ?? schema.properties.output;
    assert(fmt?.enum && fmt.enum.length >= 2, def.name);
    assert(schema.properties.hciroot, def.name);
  }
});

Deno.test("nc_diff_interface: the model's site, thread and netconfig compare the live thread with the file", async () => {
  const { ncDiffInterfaceTool } = await import("../../../tools/engine/nc_diff_interface_tool.ts");
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const file = `${root}/adt/revisions/NetConfig2024_3_5_9_4_2/NetConfig`;
  const r = await call(
    ncDiffInterfaceTool,
    { hciroot: root, site: "adt", thread: "adt_in", netconfig: file },
    ctx,
  );
  const lines = r.text.split("\n");
  assertEquals(lines[0], `--- adt/adt_in (${root})`);
  assertEquals(lines[1], `+++ adt_in (${file})`);
  match(r.text, /XLATE: adt_a01_to_lab\.xlt -> adt_a01_lab_v1\.xlt/);
  // By hand, a first word that names no site is still the thread (`adt_in lab_out --netconfig F`).
  const byHand = await call(
    ncDiffInterfaceTool,
    { hciroot: root, site: "adt_in", thread: "lab_out", netconfig: `${root}/adt/NetConfig` },
    ctx,
  );
  assertEquals(byHand.text.split("\n").slice(0, 2), ["--- adt_in", "+++ lab_out"]);
});
