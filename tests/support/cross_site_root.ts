/**
 * A second format-true engine root for the cross-site questions (nc_paths' hop-by-hop TRXIDs,
 * nc_threads' port problems, every-site listings, route proc ARGS): four sites on one box, written
 * like the 20.1 IDE writes them (tests/support/nc_writer.ts).
 *
 *     deno run -P=test tests/support/cross_site_root.ts /tmp/hci2
 *
 * - adthub/reg_adt_in (pdl-tcpip server 36001) routes ADT_A01 (to rad, and by Xlate with
 *   `tps_fin_class {TABLE fin_class_map}` to lab), ADT_A08 (to rad through `tps_hl_flags
 *   {FLAGS {HH LL}}`, and to pharmbill), ADT_A03 to an undefined `legacy_adt_out`, ORM_O01 by a
 *   generate route whose ARGS name `{DEST stat_notify_out}`.
 * - rad/rad_adt_in (ICL 37001) routes ADT_A01 to pacs_adt_out and ADT_A08 to ris_adt_out, and to
 *   pacs_adt_out by a detail that is off (DETAILS_ENABLED 0): ADT_A08 never reaches pacs.
 * - lab/lab_adt_in and pharmbill/pb_adt_in both listen on 36110; adthub/pharm_adt_out connects to
 *   36140, where nothing listens (pharmbill/pb_orders_in listens on 36141).
 * - SMAT: adthub's reg_adt_in.smatdb (6 messages) and rad's rad_adt_in.smatdb (3).
 * All names and numbers are made up.
 */
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  type Record3,
  writeNetConfig,
} from "./nc_writer.ts";
import { hl7, writeSmatDb } from "./smat_writer.ts";

/** 2026-11-23T14:00:00Z: the messages' clock starts here. */
export const CS_T0 = Date.UTC(2026, 10, 23, 14, 0, 0);

async function put(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const siteInfo = (description: string) =>
  `# Synthetic siteInfo written by the assist test suite.\nsitedescription="${description}"\nreleasenum=20.1\n`;

function site(records: Record3[]): string {
  return writeNetConfig({ who: "Casey Integrator", date: "November 20, 2026 7:55:10 AM CST" }, records);
}

function adthub(): string {
  const p = "hub_proc";
  return site([
    processRecord(p),
    protocolRecord({
      name: "reg_adt_in",
      process: p,
      type: "pdl-tcpip",
      isServer: true,
      port: 36001,
      smatIn: "reg_adt_in",
      inProcs: ["tps_check_msh"],
      routes: [
        {
          trxid: "ADT_A01",
          details: [
            { type: "raw", dest: ["to_rad_adt"] },
            {
              type: "xlate",
              dest: ["lab_adt_out"],
              xlate: "adt_to_lab.xlt",
              pre: ["tps_fin_class"],
              args: ["{TABLE fin_class_map}"],
            },
          ],
        },
        {
          trxid: "ADT_A08",
          details: [
            { type: "raw", dest: ["to_rad_adt"], procs: ["tps_hl_flags"], args: ["{FLAGS {HH LL}}"] },
            { type: "raw", dest: ["pharm_adt_out"] },
          ],
        },
        { trxid: "ADT_A03", details: [{ type: "raw", dest: ["legacy_adt_out"] }] },
        {
          trxid: "ORM_O01",
          details: [{ type: "generate", procs: ["gen_stat_route"], args: ["{DEST stat_notify_out}"] }],
        },
      ],
    }),
    protocolRecord({ name: "lab_adt_out", process: p, type: "tcpip", host: "localhost", port: 36110 }),
    protocolRecord({ name: "pharm_adt_out", process: p, type: "tcpip", host: "localhost", port: 36140 }),
    protocolRecord({ name: "stat_notify_out", process: p, type: "file", outfile: "stat.txt" }),
    destinationRecord("to_rad_adt", "localhost", 37001),
  ]);
}

function rad(): string {
  const p = "rad_proc";
  return site([
    processRecord(p),
    protocolRecord({
      name: "rad_adt_in",
      process: p,
      type: "tcpip",
      isServer: true,
      port: 36201,
      icl: 37001,
      smatIn: "rad_adt_in",
      routes: [
        { trxid: "ADT_A01", details: [{ type: "raw", dest: ["pacs_adt_out"] }] },
        {
          trxid: "ADT_A08",
          details: [
            { type: "raw", dest: ["pacs_adt_out"], enabled: false },
            { type: "raw", dest: ["ris_adt_out"] },
          ],
        },
      ],
    }),
    protocolRecord({
      name: "pacs_adt_out",
      process: p,
      type: "tcpip",
      host: "pacs.example.org",
      port: 2575,
      outProcs: ["tps_pacs_ack"],
    }),
    protocolRecord({ name: "ris_adt_out", process: p, type: "file", outfile: "ris.txt" }),
  ]);
}

function lab(): string {
  const p = "lab_proc";
  return site([
    processRecord(p),
    protocolRecord({
      name: "lab_adt_in",
      process: p,
      type: "tcpip",
      isServer: true,
      port: 36110,
      routes: [{ trxid: "ADT_A01", details: [{ type: "raw", dest: ["lab_sys_out"] }] }],
    }),
    protocolRecord({
      name: "lab_sys_out",
      process: p,
      type: "tcpip",
      host: "labsys.example.org",
      port: 7001,
    }),
  ]);
}

function pharmbill(): string {
  const p = "pb_proc";
  return site([
    processRecord(p),
    protocolRecord({
      name: "pb_adt_in",
      process: p,
      type: "tcpip",
      isServer: true,
      port: 36110,
      routes: [{ trxid: "ADT_A08", details: [{ type: "raw", dest: ["pb_bill_out"] }] }],
    }),
    protocolRecord({ name: "pb_orders_in", process: p, type: "tcpip", isServer: true, port: 36141 }),
    protocolRecord({ name: "pb_bill_out", process: p, type: "file", outfile: "bill.txt" }),
  ]);
}

/** Writes the cross-site root under `root` (empty or absent). */
export async function writeCrossSiteRoot(root: string): Promise<void> {
  const sites: Array<[string, string, string]> = [
    ["adthub", adthub(), "ADT hub"],
    ["rad", rad(), "Radiology"],
    ["lab", lab(), "Laboratory"],
    ["pharmbill", pharmbill(), "Pharmacy billing"],
  ];
  await put(
    `${root}/server/server.ini`,
    `\n[exports]\nenvirons=${sites.map(([s]) => `${root}/${s}`).join(";")}\n`,
  );
  for (const [name, nc, description] of sites) {
    await put(`${root}/${name}/NetConfig`, nc);
    await put(`${root}/${name}/siteInfo`, siteInfo(description));
  }
  const kinds = ["ADT^A01", "ADT^A08", "ADT^A03"] as const;
  await Deno.mkdir(`${root}/adthub/exec/processes/hub_proc`, { recursive: true });
  writeSmatDb(
    `${root}/adthub/exec/processes/hub_proc/reg_adt_in.smatdb`,
    Array.from({ length: 6 }, (_, i) => ({
      mid: 301 + i,
      time: CS_T0 + i * 600_000,
      source: "reg_adt_in",
      context: "inbound" as const,
      content: hl7(kinds[i % 3], 300 + i, CS_T0 + i * 600_000),
    })),
  );
  await Deno.mkdir(`${root}/rad/exec/processes/rad_proc`, { recursive: true });
  writeSmatDb(
    `${root}/rad/exec/processes/rad_proc/rad_adt_in.smatdb`,
    Array.from({ length: 3 }, (_, i) => ({
      mid: 701 + i,
      time: CS_T0 + 300_000 + i * 1_200_000,
      source: "rad_adt_in",
      context: "inbound" as const,
      content: hl7(i % 2 ? "ADT^A08" : "ADT^A01", 700 + i, CS_T0 + 300_000 + i * 1_200_000, "RADSYS"),
    })),
  );
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (!dir) {
    console.error("usage: deno run -P=test tests/support/cross_site_root.ts <empty folder>");
    Deno.exit(2);
  }
  await writeCrossSiteRoot(dir);
  console.log(dir);
}
