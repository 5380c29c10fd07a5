/**
 * A synthetic but format-true engine root for the engine tools' tests and for trying them by hand:
 *
 *     deno run -P=test tests/support/fixture_root.ts /tmp/hci     # then
 *     deno task assist tools nc_paths adt --hciroot /tmp/hci
 *
 * Sites (server.ini environs): `adt`, `lab`, `hub` (20.1 IDE-style NetConfigs) and `pharm` (old Tcl
 * writer style, with a BOM and CRLF line ends). Routes: raw, xlate and generate; multi-destination
 * details; a disabled route and a disabled detail; a wildcard route; a reply route; cross-site hops
 * through inter-site `destination` records (HOST/PORT → ICLSERVERPORT) and through TCP client →
 * server ports; a cross-site cycle (hub → lab → hub). Revisions: `adt/revisions/NetConfig<TS>`
 * folders (timestamps not zero-padded) and `version/NetConfig/1.N` histories with `version.db`
 * (adt: 1.1–1.2; lab: 1.1–1.10). SMAT: `adt_in.smatdb` (+ one in SmatHistory), `lab_in.idx/.msg`,
 * an encrypted `hub_from_adt.smatdb`. All names and numbers are made up.
 */
import { DatabaseSync } from "node:sqlite";
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  q,
  type Record3,
  type RouteSpec,
  type ThreadSpec,
  writeNetConfig,
  type WriteOptions,
} from "./nc_writer.ts";
import { hl7, type SmatMsg, writeSmatDb, writeSmatFiles } from "./smat_writer.ts";

/** 2024-11-20T08:00:00Z: the messages' clock starts here. */
export const T0 = Date.UTC(2024, 10, 20, 8, 0, 0);

async function put(path: string, text: string | Uint8Array): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  if (typeof text === "string") await Deno.writeTextFile(path, text);
  else await Deno.writeFile(path, text);
}

function siteInfo(release: string, description: string, color: string): string {
  return [
    "# Synthetic siteInfo written by the assist test suite.",
    "# key=value; see the engine's documentation for every key.",
    `sitecolor=${color}`,
    "colorbarheight=4",
    `sitedescription="${description}"`,
    "mastersite=",
    "statusbar=%sitename|%siteicon|%version",
    "platform=0012",
    `releasenum=${release}`,
    "releasetype=P",
    "smathistoryenabled=1",
    "minfreediskspace=10",
    "monitorinterval=5",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Site adt

interface AdtVariant {
  who: string;
  date: string;
  /** ADT_A01's xlate (changed between revisions). */
  a01Xlate: string;
  labOutPort: number;
  withA03: boolean;
  withOrders: boolean;
}

const ADT_CURRENT: AdtVariant = {
  who: "Casey Integrator",
  date: "November 20, 2024 7:55:10 AM CST",
  a01Xlate: "adt_a01_to_lab.xlt",
  labOutPort: 6001,
  withA03: true,
  withOrders: true,
};

function adtNetConfig(v: AdtVariant): string {
  const a01: RouteSpec = {
    trxid: "ADT_A01",
    details: [
      { type: "xlate", dest: ["lab_out", "billing_out"], xlate: v.a01Xlate, pre: ["tps_fix_pid"] },
      { type: "raw", dest: ["adt_archive"], procs: ["tps_add_zpi"] },
    ],
  };
  const routes: RouteSpec[] = [a01, { trxid: "ADT_A08", details: [{ type: "raw", dest: ["adt_to_hub"] }] }];
  if (v.withA03) {
    routes.push({
      trxid: "ADT_A03",
      enabled: false,
      details: [{ type: "raw", dest: ["lab_out", "legacy_out"] }],
    });
  }
  const threads: ThreadSpec[] = [
    {
      name: "adt_in",
      process: "adt_proc",
      type: "pdl-tcpip",
      isServer: true,
      port: 5001,
      smatIn: "adt_in",
      inProcs: ["tps_validate_msh", "tps_table_lookup"],
      inArgs: ["", "{TABLE sex_codes} {FIELD PID.8}"],
      routes,
      coords: [40, 60],
      extra: { CUSTOM_NOTE: q("owner interfaces team") },
    },
    {
      name: "lab_out",
      process: "adt_ob_proc",
      type: "tcpip",
      host: "localhost",
      port: v.labOutPort,
      smatOut: "lab_out",
      outProcs: ["tps_ob_ack"],
      coords: [240, 40],
    },
    { name: "billing_out", process: "adt_ob_proc", type: "file", outfile: "billing.txt", coords: [240, 100] },
    { name: "adt_archive", process: "adt_ob_proc", type: "fileset", obdir: "archive", coords: [240, 160] },
  ];
  if (v.withA03) {
    threads.push({
      name: "legacy_out",
      process: "adt_ob_proc",
      type: "file",
      outfile: "legacy.txt",
      coords: [240, 220],
    });
  }
  if (v.withOrders) {
    threads.push({
      name: "orders_in",
      process: "adt_proc",
      type: "file",
      infile: "orders.dat",
      autostart: false,
      routes: [{ trxid: "ORM_O01", details: [{ type: "generate", procs: ["gen_orders_route"] }] }],
      coords: [40, 200],
    });
  }
  const records: Record3[] = [
    processRecord("adt_proc"),
    processRecord("adt_ob_proc"),
    ...threads.map(protocolRecord),
    destinationRecord("adt_to_hub", "localhost", 7101),
  ];
  return writeNetConfig({ who: v.who, date: v.date }, records);
}

// ---------------------------------------------------------------------------------------------
// Site lab

interface LabVariant {
  who: string;
  date: string;
  labInPort: number;
  /** Version 1.10 adds the ADT_A03 route to lab_in. */
  withA03: boolean;
  labSysHost: string;
}

function labNetConfig(v: LabVariant): string {
  const labInRoutes: RouteSpec[] = [
    { trxid: "ADT_A01", details: [{ type: "xlate", dest: ["lab_sys_out"], xlate: "lab_adt.xlt" }] },
  ];
  if (v.withA03) {
    labInRoutes.push({ trxid: "ADT_A03", details: [{ type: "raw", dest: ["lab_sys_out"], enabled: false }] });
  }
  const threads: ThreadSpec[] = [
    {
      name: "lab_in",
      process: "lab_proc",
      type: "tcpip",
      isServer: true,
      port: v.labInPort,
      smatIn: "lab_in",
      routes: labInRoutes,
    },
    {
      name: "lab_from_hub",
      process: "lab_proc",
      type: "tcpip",
      isServer: true,
      port: 6301,
      icl: 7301,
      routes: [{ trxid: "ADT_A08", details: [{ type: "raw", dest: ["lab_to_hub", "lab_sys_out"] }] }],
    },
    {
      name: "results_in",
      process: "lab_proc",
      type: "pdl-tcpip",
      isServer: true,
      port: 6101,
      routes: [{ trxid: "ORU_R01", details: [{ type: "raw", dest: ["results_to_hub"] }] }],
    },
    {
      name: "lab_sys_out",
      process: "lab_proc",
      type: "tcpip",
      host: v.labSysHost,
      port: 7001,
      smatOut: "lab_sys_out",
    },
  ];
  return writeNetConfig({ who: v.who, date: v.date }, [
    processRecord("lab_proc"),
    ...threads.map(protocolRecord),
    destinationRecord("lab_to_hub", "localhost", 7101),
    destinationRecord("results_to_hub", "localhost", 7102),
  ]);
}

/** lab's ten versions: 1.3 moves lab_in to port 6001, 1.7 renames the lab host, 1.10 adds ADT_A03. */
function labVersion(n: number): LabVariant {
  return {
    who: n % 2 ? "jdoe" : "Casey Integrator",
    // 1.1 on Oct 1 2024, then every third day at 9:n AM (CDT until Nov 3, CST after).
    date: labDate(n),
    labInPort: n >= 3 ? 6001 : 6000,
    withA03: n >= 10,
    labSysHost: n >= 7 ? "labsys.example.org" : "labsys-old.example.org",
  };
}

function labDate(n: number): string {
  const day = new Date(Date.UTC(2024, 9, 1 + 3 * (n - 1)));
  const month = day.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  const zone = day.getTime() < Date.UTC(2024, 10, 3) ? "CDT" : "CST";
  return `${month} ${day.getUTCDate()}, ${day.getUTCFullYear()} 9:${
    String(n).padStart(2, "0")
  }:00 AM ${zone}`;
}

// ---------------------------------------------------------------------------------------------
// Site hub

function hubNetConfig(): string {
  const threads: ThreadSpec[] = [
    {
      name: "hub_from_adt",
      process: "hub_proc",
      type: "tcpip",
      isServer: true,
      port: 6201,
      icl: 7101,
      smatIn: "hub_from_adt",
      routes: [
        { trxid: "ADT_A08", details: [{ type: "raw", dest: ["hub_to_lab", "hub_audit_out"] }] },
        { trxid: "ADT_A0[1-9]", wildcard: true, details: [{ type: "raw", dest: ["hub_audit_out"] }] },
      ],
    },
    {
      name: "hub_results_in",
      process: "hub_proc",
      type: "tcpip",
      isServer: true,
      port: 6202,
      icl: 7102,
      routes: [{
        trxid: "ORU_R01",
        details: [{ type: "xlate", dest: ["ehr_out"], xlate: "oru_to_ehr.xlt", post: ["tps_set_msh_app"] }],
      }],
      replyRoutes: [{ trxid: "ACK", details: [{ type: "raw", dest: ["hub_audit_out"] }] }],
    },
    { name: "hub_audit_out", process: "hub_proc", type: "file", outfile: "audit.log" },
    { name: "ehr_out", process: "hub_proc", type: "pdl-tcpip", host: "ehr.example.org", port: 7500 },
  ];
  return writeNetConfig({ who: "hci", date: "November 18, 2024 4:09:28 PM CST" }, [
    processRecord("hub_proc"),
    ...threads.map(protocolRecord),
    destinationRecord("hub_to_lab", "clhost2", 7301),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Site pharm: the old Tcl writer's layout, a BOM, CRLF, a comment before the prologue.

function pharmNetConfig(): string {
  const options: WriteOptions = { style: "tcl", bom: true, crlf: true, preamble: ["# pharmacy site"] };
  return writeNetConfig({ who: "hciuser", date: "Mon Jun 24 22:03:45 MDT 2002", version: "3.10" }, [
    processRecord("pharm_proc"),
    protocolRecord({ name: "pharm_in", process: "pharm_proc", type: "tcpip", isServer: true, port: 5601 }),
    protocolRecord({
      name: "pharm_out",
      process: "pharm_proc",
      type: "tcpip",
      host: "rx.example.org",
      port: 7600,
    }),
  ], options);
}

// ---------------------------------------------------------------------------------------------

function versionDb(
  path: string,
  rows: Array<[version: string, time: number, comment: string, operator: string]>,
) {
  const db = new DatabaseSync(path);
  try {
    db.exec(`CREATE TABLE version_history (file_name TEXT, version TEXT, tag TEXT, check_in_time INTEGER,
      comments TEXT, operator TEXT, PRIMARY KEY (file_name, version));
      CREATE TABLE version_operation (file_name TEXT PRIMARY KEY, version TEXT, tag TEXT, operation_time INTEGER,
      lastmodified INTEGER, operation TEXT, operator TEXT, checkout INTEGER);`);
    const ins = db.prepare("INSERT INTO version_history VALUES ('NetConfig', ?, '', ?, ?, ?)");
    for (const [v, t, c, o] of rows) ins.run(v, t, c, o);
    const last = rows[rows.length - 1];
    db.prepare("INSERT INTO version_operation VALUES ('NetConfig', ?, '', ?, ?, 'CHECK_IN', ?, 0)").run(
      last[0],
      last[1],
      last[1],
      last[3],
    );
  } finally {
    db.close();
  }
}

/** The messages of adt_in's current SMAT database: 12 ADT messages, a minute apart. */
export function adtMessages(): SmatMsg[] {
  const kinds = ["ADT^A01", "ADT^A08", "ADT^A03"] as const;
  return Array.from({ length: 12 }, (_, i) => ({
    mid: 101 + i,
    time: T0 + i * 60_000,
    source: "adt_in",
    context: "inbound" as const,
    content: hl7(kinds[i % 3], i + 1, T0 + i * 60_000),
  }));
}

/** lab_in's file-based SMAT: 8 ORU/ADT messages, five minutes apart, newer padded format. */
export function labMessages(): SmatMsg[] {
  return Array.from({ length: 8 }, (_, i) => ({
    mid: 5001 + i,
    time: T0 + 30 * 60_000 + i * 300_000,
    source: "lab_in",
    context: "inbound" as const,
    content: hl7(i % 2 ? "ADT^A01" : "ORU^R01", 40 + i, T0 + 30 * 60_000 + i * 300_000, "LABSYS"),
  }));
}

/** Writes the whole fixture root under `root` (which should be empty or absent). */
export async function writeFixtureRoot(root: string): Promise<void> {
  const sites = ["adt", "lab", "hub", "pharm"];
  await put(
    `${root}/server/server.ini`,
    `\n[exports]\nenvirons=${sites.map((s) => `${root}/${s}`).join(";")}\n`,
  );

  // adt
  await put(`${root}/adt/NetConfig`, adtNetConfig(ADT_CURRENT));
  await put(`${root}/adt/siteInfo`, siteInfo("20.1", "ADT feeds", "#ff173d"));
  const adtRevisions: Array<[string, AdtVariant]> = [
    ["NetConfig2024_3_5_9_4_2", {
      ...ADT_CURRENT,
      who: "jdoe",
      date: "March 5, 2024 9:04:02 AM CST",
      a01Xlate: "adt_a01_lab_v1.xlt",
      labOutPort: 6000,
      withA03: false,
      withOrders: false,
    }],
    ["NetConfig2024_10_2_14_30_0", {
      ...ADT_CURRENT,
      who: "jdoe",
      date: "October 2, 2024 2:30:00 PM CDT",
      labOutPort: 6000,
      withA03: false,
    }],
    ["NetConfig2024_11_19_8_0_15", {
      ...ADT_CURRENT,
      who: "Casey Integrator",
      date: "November 19, 2024 8:00:15 AM CST",
      withA03: false,
    }],
  ];
  for (const [folder, v] of adtRevisions) {
    await put(`${root}/adt/revisions/${folder}/NetConfig`, adtNetConfig(v));
  }
  await put(`${root}/adt/version/NetConfig/1.1/NetConfig`, adtNetConfig(adtRevisions[0][1]));
  await put(`${root}/adt/version/NetConfig/1.2/NetConfig`, adtNetConfig(adtRevisions[2][1]));
  versionDb(`${root}/adt/version/version.db`, [
    ["1.1", Date.UTC(2024, 2, 5, 15, 10, 0), "First check in", "jdoe"],
    ["1.2", Date.UTC(2024, 10, 19, 14, 5, 0), "Route ADT_A08 to the hub", "cintegrator"],
  ]);
  await put(
    `${root}/adt/Xlate/adt_a01_to_lab.xlt`,
    "prologue\n    type:\txlt\n    version:\t7.0\n    xlt_infile:\thl7 2.5 ADT_A01\n    xlt_outfile:\thl7 2.5 ADT_A01\n" +
      "end_prologue\n{ { OP COPY } { ERR 0 } { IN {{0(0).MSH(0).#9(0)}} } { OUT {{0(0).MSH(0).#9(0)}} } }\n" +
      "{ { OP TABLE } { ERR 0 } { IN {{0(0).PID(0).#8}} } { OUT {{0(0).PID(0).#8}} } { TBL sex_codes } }\n",
  );
  await put(
    `${root}/adt/Tables/sex_codes.tbl`,
    "prologue\n    type:\ttbl\n    version:\t3.0\nend_prologue\ndflt=U\n#\nM\nmale\n#\nF\nfemale\n",
  );
  await put(`${root}/adt/tclprocs/tps_add_zpi.tcl`, "proc tps_add_zpi { args } {\n    return {}\n}\n");
  const adtProc = `${root}/adt/exec/processes/adt_proc`;
  await Deno.mkdir(`${adtProc}/SmatHistory`, { recursive: true });
  writeSmatDb(`${adtProc}/adt_in.smatdb`, adtMessages());
  writeSmatDb(
    `${adtProc}/SmatHistory/adt_in.2024-11-19_00-00-01.smatdb`,
    Array.from({ length: 3 }, (_, i) => ({
      mid: 90 + i,
      time: T0 - 86_400_000 + i * 60_000,
      source: "adt_in",
      content: hl7("ADT^A01", 90 + i, T0 - 86_400_000 + i * 60_000),
    })),
  );
  await Deno.mkdir(`${root}/adt/exec/processes/adt_ob_proc`, { recursive: true });

  // lab
  await put(`${root}/lab/NetConfig`, labNetConfig(labVersion(10)));
  await put(`${root}/lab/siteInfo`, siteInfo("20.1", "Laboratory", "#1f7a3d"));
  const labRows: Array<[string, number, string, string]> = [];
  for (let n = 1; n <= 10; n++) {
    await put(`${root}/lab/version/NetConfig/1.${n}/NetConfig`, labNetConfig(labVersion(n)));
    labRows.push([
      `1.${n}`,
      Date.UTC(2024, 9, 1 + 3 * (n - 1), 15, n, 30),
      `lab change ${n}`,
      labVersion(n).who,
    ]);
  }
  versionDb(`${root}/lab/version/version.db`, labRows);
  await put(`${root}/lab/Xlate/lab_adt.xlt`, "prologue\n    type:\txlt\n    version:\t7.0\nend_prologue\n");
  const labProc = `${root}/lab/exec/processes/lab_proc`;
  await Deno.mkdir(labProc, { recursive: true });
  await writeSmatFiles(`${labProc}/lab_in`, labMessages(), true);

  // hub
  await put(`${root}/hub/NetConfig`, hubNetConfig());
  await put(`${root}/hub/siteInfo`, siteInfo("20.1", "Integration hub", "#2050c0"));
  const hubProc = `${root}/hub/exec/processes/hub_proc`;
  await Deno.mkdir(hubProc, { recursive: true });
  // SQLCipher output is indistinguishable from random bytes: no "SQLite format 3" header.
  const noise = new Uint8Array(4096);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  await put(`${hubProc}/hub_from_adt.smatdb`, noise);

  // pharm
  await put(`${root}/pharm/NetConfig`, pharmNetConfig());
  await put(`${root}/pharm/siteInfo`, siteInfo("6.2", "Pharmacy (legacy)", "#888888"));
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (!dir) {
    console.error("usage: deno run -P=test tests/support/fixture_root.ts <empty folder>");
    Deno.exit(2);
  }
  await writeFixtureRoot(dir);
  console.log(dir);
}

/**
 * A fixture root written once per test file (read only by its tests), in a temporary folder removed
 * when the process ends: call the returned function wherever a test needs the root's path.
 */
export function sharedFixtureRoot(prefix: string): () => Promise<string> {
  let fixture: Promise<string> | undefined;
  return () =>
    fixture ??= (async () => {
      const dir = await Deno.makeTempDir({ prefix });
      globalThis.addEventListener("unload", () => {
        try {
          Deno.removeSync(dir, { recursive: true });
        } catch { /* already gone */ }
      });
      await writeFixtureRoot(`${dir}/hci`);
      return `${dir}/hci`;
    })();
}
