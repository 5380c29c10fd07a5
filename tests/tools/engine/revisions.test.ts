import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { folderTimeKey, listSnapshots, sinceKey } from "../../../tools/engine/revisions.ts";
import { localEngineFs } from "../../../tools/engine/engine_fs.ts";
import { tempDir } from "../../support/run_assist.ts";
import { contextFor } from "../support.ts";
import { writeFixtureRoot } from "../../support/fixture_root.ts";

Deno.test("folderTimeKey: timestamps that are not zero-padded, epoch forms, nonsense", () => {
  assertEquals(folderTimeKey("2024_3_5_9_4_2"), "2024-03-05T09:04:02");
  assertEquals(folderTimeKey("2024-10-2-14.30.0"), "2024-10-02T14:30:00");
  assertEquals(folderTimeKey("2024_3_5"), "2024-03-05T00:00:00");
  assertEquals(folderTimeKey("20240305090402"), "2024-03-05T09:04:02");
  assertEquals(folderTimeKey("1732089600"), "2024-11-20T08:00:00Z");
  assertEquals(folderTimeKey("1732089600000"), "2024-11-20T08:00:00Z");
  assertEquals(folderTimeKey("2024_13_5"), undefined);
  assertEquals(folderTimeKey("backup"), undefined);
  // Not zero-padded names do not sort by time as strings; their keys do.
  const names = ["2024_3_5_9_4_2", "2024_10_2_14_30_0", "2024_11_19_8_0_15"];
  assertEquals([...names].sort(), ["2024_10_2_14_30_0", "2024_11_19_8_0_15", "2024_3_5_9_4_2"]);
  assertEquals(names.map((n) => folderTimeKey(n)!).sort(), names.map((n) => folderTimeKey(n)!));
  assertEquals(sinceKey("2024-3-1"), new Date(2024, 2, 1).toISOString().replace(/\.000Z$/, "Z"));
  assertEquals(sinceKey("2024-3-1T10:00Z"), "2024-03-01T10:00:00Z");
  assertEquals(sinceKey("2024-13-45"), undefined);
  assertEquals(sinceKey("March 1, 2024 1:00:00 PM CST"), "2024-03-01T19:00:00Z");
  assertEquals(sinceKey("soon"), undefined);
});

Deno.test("listSnapshots: ordered by prologue date, 1.10 after 1.9, identical texts merged, annotated", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const adt = await listSnapshots(fs, { name: "adt", dir: `${root}/adt`, hasNetConfig: true });
  assertEquals(adt.notes, []);
  assertEquals(adt.snapshots.map((s) => [s.aliases, s.who, s.when, s.sortKey, s.keyFrom]), [
    [
      ["revisions/NetConfig2024_3_5_9_4_2", "version 1.1"],
      "jdoe",
      "March 5, 2024 9:04:02 AM CST",
      "2024-03-05T15:04:02Z",
      "prologue",
    ],
    [
      ["revisions/NetConfig2024_10_2_14_30_0"],
      "jdoe",
      "October 2, 2024 2:30:00 PM CDT",
      "2024-10-02T19:30:00Z",
      "prologue",
    ],
    [
      ["revisions/NetConfig2024_11_19_8_0_15", "version 1.2"],
      "Casey Integrator",
      "November 19, 2024 8:00:15 AM CST",
      "2024-11-19T14:00:15Z",
      "prologue",
    ],
    [["current"], "Casey Integrator", "November 20, 2024 7:55:10 AM CST", "2024-11-20T13:55:10Z", "prologue"],
  ]);
  assertEquals(adt.snapshots[2].checkIn, {
    operator: "cintegrator",
    time: "2024-11-19T14:05:00Z",
    comment: "Route ADT_A08 to the hub",
  });
  const lab = await listSnapshots(fs, { name: "lab", dir: `${root}/lab`, hasNetConfig: true });
  assertEquals(lab.snapshots.map((s) => s.aliases.join("=")), [
    ...Array.from({ length: 9 }, (_, i) => `version 1.${i + 1}`),
    "version 1.10=current",
  ]);
});

Deno.test("listSnapshots: without a prologue date, the check-in time, then the folder's timestamp", async () => {
  await using tmp = await tempDir();
  const site = `${tmp.path}/s`;
  const nc = (who: string) =>
    `prologue\n    who:\t${who}\n    type:\tnet\nend_prologue\nprocess ${who} {} \n`;
  for (const [folder, who] of [["NetConfig2024_10_2_1_0_0", "b"], ["NetConfig2024_9_30_1_0_0", "a"]]) {
    await Deno.mkdir(`${site}/revisions/${folder}`, { recursive: true });
    await Deno.writeTextFile(`${site}/revisions/${folder}/NetConfig`, nc(who));
  }
  await Deno.writeTextFile(`${site}/revisions/NetConfig2024_9_1`, nc("plainfile"));
  await Deno.mkdir(`${site}/revisions/NetConfigjunk`);
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const r = await listSnapshots(fs, { name: "s", dir: site, hasNetConfig: false });
  assertEquals(r.snapshots.map((s) => [s.label, s.who, s.sortKey, s.keyFrom]), [
    ["revisions/NetConfig2024_9_1", "plainfile", "2024-09-01T00:00:00", "folder name"],
    ["revisions/NetConfig2024_9_30_1_0_0", "a", "2024-09-30T01:00:00", "folder name"],
    ["revisions/NetConfig2024_10_2_1_0_0", "b", "2024-10-02T01:00:00", "folder name"],
  ]);
  assertEquals(r.notes, ["revisions/NetConfigjunk: no NetConfig inside"]);
});

Deno.test("nc_revisions: a live NetConfig rolled back to an older version says which one it restores", async () => {
  const { ncRevisionsTool } = await import("../../../tools/engine/nc_revisions_tool.ts");
  const { call } = await import("../support.ts");
  await using tmp = await tempDir();
  const site = `${tmp.path}/hci/adt`;
  await Deno.mkdir(`${site}/revisions`, { recursive: true });
  await Deno.writeTextFile(`${tmp.path}/hci/server.ini`, "");
  // Version 1: adt_in only. Version 2: adt_in on another port and a new thread lab_out.
  // Live: version 1's records again, saved later (its own prologue).
  const prologue = (who: string, when: string) =>
    `prologue\n    who:\t${who}\n    date:\t${when}\n    type:\tnet\nend_prologue\n`;
  const v1 = "protocol adt_in {\n    { PROTOCOL { { TYPE tcpip } { PORT 36110 } } }\n}\n";
  const v2 = "protocol adt_in {\n    { PROTOCOL { { TYPE tcpip } { PORT 36111 } } }\n}\n" +
    "protocol lab_out {\n    { PROTOCOL { { TYPE tcpip } { PORT 36200 } } }\n}\n";
  for (
    const [folder, text] of [
      ["NetConfig2024_9_1_10_0_0", prologue("jdoe", "September 1, 2024 10:00:00 AM UTC") + v1],
      ["NetConfig2024_10_1_10_0_0", prologue("jdoe", "October 1, 2024 10:00:00 AM UTC") + v2],
    ]
  ) {
    await Deno.mkdir(`${site}/revisions/${folder}`);
    await Deno.writeTextFile(`${site}/revisions/${folder}/NetConfig`, text);
  }
  await Deno.writeTextFile(
    `${site}/NetConfig`,
    prologue("cintegrator", "November 2, 2024 9:00:00 AM UTC") + v1,
  );
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const hciroot = `${tmp.path}/hci`;
  const thread = await call(ncRevisionsTool, { hciroot, site: "adt", thread: "lab_out" }, ctx);
  const removed = thread.text.split("\n").find((l) => l.startsWith("2024-11-02"));
  assertEquals(
    removed?.replace(/\s+/g, " "),
    "2024-11-02T09:00:00Z cintegrator adt current removed (this save restores revisions/NetConfig2024_9_1_10_0_0)",
  );
  const system = await call(ncRevisionsTool, { hciroot, site: "adt", system: true }, ctx);
  const live = system.text.split("\n").find((l) => l.startsWith("2024-11-02"))?.replace(/\s+/g, " ");
  assertEquals(
    live,
    "2024-11-02T09:00:00Z cintegrator adt current removed lab_out; changed adt_in (~PROTOCOL.PORT: 36111 -> 36110) " +
      "(this save restores revisions/NetConfig2024_9_1_10_0_0)",
  );
  // The footer and nc_docs say which saved copy the live file is: the same records under a later
  // prologue count (the eval's live lab NetConfig was version 1.3 saved again).
  match(
    system.text,
    /; the live NetConfig has the records of revisions\/NetConfig2024_9_1_10_0_0 \(only its prologue differs\)\]$/m,
  );
  const { ncDocsTool } = await import("../../../tools/engine/nc_docs_tool.ts");
  const docs = await call(ncDocsTool, { hciroot, site: "adt" }, ctx);
  match(
    docs.text,
    /Live version: the records of revisions\/NetConfig2024_9_1_10_0_0 \(only its prologue differs\)/,
  );
  // Byte for byte: "is"; and a live file of its own: none.
  await Deno.writeTextFile(`${site}/NetConfig`, prologue("jdoe", "October 1, 2024 10:00:00 AM UTC") + v2);
  const exact = await call(ncRevisionsTool, { hciroot, site: "adt", system: true }, ctx);
  match(exact.text, /; the live NetConfig is revisions\/NetConfig2024_10_1_10_0_0\]$/m);
  await Deno.writeTextFile(
    `${site}/NetConfig`,
    prologue("jdoe", "October 2, 2024 10:00:00 AM UTC") + v2 + v1.replace("adt_in", "adt_in2"),
  );
  const own = await call(ncRevisionsTool, { hciroot, site: "adt", system: true }, ctx);
  match(own.text, /; the live NetConfig matches none of the saved snapshots\]$/m);
});
