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

Deno.test("nc_msgs and nc_revisions: bare dates mean the site's zone; footers give it and UTC", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  // lab's engine runs on Chicago time (its settings say so); this machine's zone does not matter.
  const info = await Deno.readTextFile(`${root}/lab/siteInfo`);
  await Deno.writeTextFile(`${root}/lab/siteInfo`, info + "timezone=America/Chicago\n");
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  // lab_in's messages are at 08:30Z + 5 min steps: 02:40 to 03:00 Chicago time is 08:40Z to 09:00Z.
  const r = await call(ncMsgsTool, {
    site: "lab",
    since: "2024-11-20T02:40",
    until: "2024-11-20T03:00",
    hciroot: root,
  }, ctx);
  assert(!r.isError, r.text);
  assertEquals(r.text.match(/^2024-11-20T0[23]:\d\d:00-06:00 /gm)?.length, 5, r.text);
  match(
    r.text,
    /matching since 2024-11-20T02:40:00-06:00 \(2024-11-20T08:40:00Z\) until 2024-11-20T03:00:00-06:00 \(2024-11-20T09:00:00Z\);.*times in America\/Chicago \(lab\/siteInfo timezone\)\]/,
  );
  // The operator's zone wins; an unknown one is refused in one line.
  const utc = await call(ncMsgsTool, {
    site: "lab",
    since: "2024-11-20T08:40",
    until: "2024-11-20T09:00",
    tz: "UTC",
    hciroot: root,
  }, ctx);
  assertEquals(utc.text.match(/^2024-11-20T0[89]:\d\d:00Z /gm)?.length, 5, utc.text);
  assertEquals(
    errorOf(await call(ncMsgsTool, { site: "lab", tz: "Mars/Olympus", hciroot: root }, ctx)).message,
    "--tz Mars/Olympus: expected a zone such as America/Chicago, UTC or -06:00",
  );
  // nc_revisions: lab 1.10 was saved Oct 28 2024 15:10:30Z = 10:10:30 Chicago; since 10:10 Chicago keeps it.
  const rev = await call(ncRevisionsTool, {
    system: true,
    site: "lab",
    since: "2024-10-28T10:10",
    hciroot: root,
  }, ctx);
  assert(!rev.isError, rev.text);
  match(
    rev.text,
    /since 2024-10-28T10:10:00-05:00 \(2024-10-28T15:10:00Z\) \(dates in America\/Chicago, lab\/siteInfo timezone\)/,
  );
});

Deno.test("nc_refs: a proc an Xlate calls (xltp) is a proc, not a table; dot files are no suggestion", async () => {
  const { ncRefsTool } = await import("../../../tools/engine/nc_refs_tool.ts");
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  // adt_in's ADT_A01 route uses adt_a01_to_lab.xlt: give it a PRE block calling a proc.
  const xlt = `${root}/adt/Xlate/adt_a01_to_lab.xlt`;
  await Deno.writeTextFile(
    xlt,
    (await Deno.readTextFile(xlt)) +
      "{ { OP COPY } { ERR 0 } { IN {{0(0).PID(0).#3}} } { OUT {{0(0).PID(0).#3}} } { PRE {\n    xlt_pad_mrn\n} } }\n",
  );
  await Deno.mkdir(`${root}/adt/tclprocs`, { recursive: true });
  await Deno.writeTextFile(`${root}/adt/tclprocs/.upocindex`, "");
  await Deno.writeTextFile(`${root}/adt/tclprocs/xlt_pad_mrn.tcl`, "proc xlt_pad_mrn {} {}\n");
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const procs = await call(
    ncRefsTool,
    { hciroot: root, name: "xlt_pad_mrn", kind: "proc", format: "tsv" },
    ctx,
  );
  const rows = procs.text.split("\n").slice(1).map((l) => l.split("\t"));
  assertEquals(rows.map((r) => [r[0], r[1], r[2]]), [["adt", "adt_in", "proc"]], procs.text);
  assert(rows[0][3].includes("adt_a01_to_lab.xlt uses it"), rows[0][3]);
  const any = await call(ncRefsTool, { hciroot: root, name: "xlt_pad_mrn", format: "tsv" }, ctx);
  assert(!any.text.includes("\ttable\t"), any.text);
  // A table the Xlate names in TBL stays a table.
  const table = await call(
    ncRefsTool,
    { hciroot: root, name: "sex_codes", kind: "table", format: "tsv" },
    ctx,
  );
  assert(table.text.includes("adt_a01_to_lab.xlt uses it"), table.text);
  // Nothing uses it: the suggestions never offer the empty name of a dot file (`.upocindex`),
  // which is near any short name.
  const none = await call(ncRefsTool, { hciroot: root, name: "xx" }, ctx);
  assert(!none.text.includes("did you mean"), none.text);
});

Deno.test("nc_docs: a site with no saved versions says so, not that the live file is none of them", async () => {
  const { ncDocsTool } = await import("../../../tools/engine/nc_docs_tool.ts");
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await Deno.mkdir(`${root}/solo`, { recursive: true });
  await Deno.writeTextFile(`${root}/server.ini`, "");
  await Deno.writeTextFile(
    `${root}/solo/NetConfig`,
    "process p {\n    { AUTOSTART 1 }\n}\nprotocol a_in {\n    { PROCESSNAME p }\n" +
      "    { PROTOCOL { { TYPE tcpip } { PORT 5001 } { ISSERVER 1 } } }\n}\n",
  );
  const r = await call(ncDocsTool, { hciroot: root, site: "solo" }, contextFor(`${tmp.path}/home`, tmp.path));
  match(r.text, /Live version: no saved versions to compare/);
});

Deno.test("engine tools: a thread named site/thread, as the tools' own output writes it", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const port = await call(ncShowTool, { thread: "lab/lab_in", path: "PROTOCOL.PORT", hciroot: root }, ctx);
  assertEquals(port.text, "6001");
  const byHand = await call(ncShowTool, { site: "lab/lab_in", thread: "PROTOCOL.PORT", hciroot: root }, ctx);
  assertEquals(byHand.text, "6001");
  const to = await call(
    ncPathsTool,
    { site: "adt", thread: "adt_in", to: "lab/lab_sys_out", hciroot: root },
    ctx,
  );
  match(to.text, /reaching lab\/lab_sys_out/);
  // A site given apart must agree; a slash whose first part is no site stays part of the name.
  assertEquals(
    errorOf(await call(ncShowTool, { site: "adt", thread: "lab/lab_in", hciroot: root }, ctx)).error,
    "conflicting_site",
  );
  assertEquals(
    errorOf(await call(ncShowTool, { thread: "nosite/lab_in", hciroot: root }, ctx)).error,
    "unknown_thread",
  );
});

Deno.test("nc_threads problems: the port problems alone, no thread table", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const full = await call(ncThreadsTool, { hciroot: root }, ctx);
  const only = await call(ncThreadsTool, { hciroot: root, problems: true }, ctx);
  assert(!only.text.includes("THREAD"), only.text);
  match(
    only.text,
    /^\[nc_threads: \d+ threads in \d+ sites; only the port problems shown\]\n\[(cross-site port problems|no cross-site)/,
  );
  // The same problem lines as the full answer, in far fewer characters.
  const problemsOf = (t: string) =>
    t.split("\n").filter((l) => l.startsWith("  ") || l.startsWith("[cross-site"));
  assertEquals(problemsOf(only.text), problemsOf(full.text));
  assert(problemsOf(only.text).length > 1, only.text);
  assert(only.text.length * 2 < full.text.length);
  // A site with no problem says so, rather than nothing.
  const quiet = await call(ncThreadsTool, { hciroot: root, site: "pharm", problems: true }, ctx);
  assertEquals(quiet.text.split("\n").slice(1), ["[no port problems with an end in pharm on this box]"]);
});
