/**
 * Large synthetic engine inputs for the engine benchmarks (and for trying the tools on a big root):
 * - `bigNetConfig(threads)`: one NetConfig in the 20.1 IDE layout, about 3.4 KB per thread, so
 *   3,000 threads are about 10 MB;
 * - `writeLargeRoot(dir, sites, threads)`: an engine root whose sites route into each other (TCP
 *   clients to the next site's listeners, inter-site destinations to ICL ports two sites on), with
 *   server.ini;
 * - `writeBigSmatDb(path, rows)`: a `.smatdb` of synthetic HL7 messages, generated inside SQLite
 *   (a recursive query) so a million rows take seconds.
 *
 *     deno run -P=test bench/_gen_engine.ts /tmp/bigroot 40 250
 */
import { DatabaseSync } from "node:sqlite";
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  type Record3,
  type RouteSpec,
  writeNetConfig,
} from "../tests/support/nc_writer.ts";
import { SMATDB_SCHEMA } from "../tests/support/smat_writer.ts";

const PROLOGUE = { who: "bench", date: "November 20, 2024 7:55:10 AM CST" };

function pad(n: number, w = 3): string {
  return String(n).padStart(w, "0");
}

/** Ports: site s, slot k (0..249). Listeners 20000+, ICL 40000+. */
const listenPort = (s: number, k: number) => 20000 + s * 250 + k;
const iclPort = (s: number, k: number) => 40000 + s * 250 + k;

/**
 * The records of site `s` of `sites`, `threads` threads in five equal groups: inbound listeners
 * (`in_k`: routes to a local leaf and to a TCP client towards the next site), local leaves
 * (`out_k`), TCP clients to site s+1's listeners (`xo_k`), ICL-public inbound threads (`icl_k`) and
 * file inbounds (`fwd_k`) routing through inter-site destinations to site s+2's ICL threads.
 */
export function siteRecords(s: number, sites: number, threads: number): Record3[] {
  const g = Math.max(1, Math.floor(threads / 5));
  const next = (s + 1) % sites, next2 = (s + 2) % sites;
  const records: Record3[] = [processRecord(`ib_${pad(s)}`), processRecord(`ob_${pad(s)}`)];
  const dests: Record3[] = [];
  for (let k = 0; k < g; k++) {
    const routes: RouteSpec[] = [
      {
        trxid: "ADT_A01",
        details: [
          { type: "xlate", dest: [`out_${pad(k)}`], xlate: `adt_${k % 17}.xlt`, pre: ["tps_fix_pid"] },
          { type: "raw", dest: [`xo_${pad(k)}`], procs: ["tps_add_zpi"] },
        ],
      },
      { trxid: "ADT_A08", details: [{ type: "raw", dest: [`xo_${pad(k)}`] }] },
      { trxid: "ADT_A03", enabled: false, details: [{ type: "raw", dest: [`out_${pad(k)}`] }] },
      ...["ADT_A02", "ADT_A04", "ADT_A05", "ADT_A06", "ADT_A11", "ADT_A13"].map((trxid) => ({
        trxid,
        details: [{
          type: "xlate" as const,
          dest: [`out_${pad(k)}`],
          xlate: `${trxid.toLowerCase()}.xlt`,
          post: ["tps_ack"],
        }],
      })),
    ];
    records.push(protocolRecord({
      name: `in_${pad(k)}`,
      process: `ib_${pad(s)}`,
      type: "pdl-tcpip",
      isServer: true,
      port: listenPort(s, k),
      smatIn: `in_${pad(k)}`,
      inProcs: ["tps_validate_msh"],
      routes,
    }));
  }
  for (let k = 0; k < g; k++) {
    records.push(
      protocolRecord({
        name: `out_${pad(k)}`,
        process: `ob_${pad(s)}`,
        type: "file",
        outfile: `out_${k}.dat`,
      }),
    );
  }
  for (let k = 0; k < g; k++) {
    records.push(protocolRecord({
      name: `xo_${pad(k)}`,
      process: `ob_${pad(s)}`,
      type: "tcpip",
      host: "localhost",
      port: listenPort(next, k),
      smatOut: `xo_${pad(k)}`,
    }));
  }
  for (let k = 0; k < g; k++) {
    records.push(protocolRecord({
      name: `icl_${pad(k)}`,
      process: `ib_${pad(s)}`,
      type: "tcpip",
      isServer: true,
      port: listenPort(s, 100 + k),
      icl: iclPort(s, k),
      routes: [
        { trxid: "ORU_R01", details: [{ type: "raw", dest: [`out_${pad(k)}`] }] },
        { trxid: "MDM_T02", details: [{ type: "xlate", dest: [`out_${pad(k)}`], xlate: "mdm.xlt" }] },
      ],
    }));
  }
  for (let k = 0; k < threads - 4 * g; k++) {
    records.push(protocolRecord({
      name: `fwd_${pad(k)}`,
      process: `ib_${pad(s)}`,
      type: "file",
      infile: `fwd_${k}.dat`,
      routes: [{
        trxid: "ORU_R01",
        details: [
          { type: "raw", dest: [`d_${pad(k)}`] },
          { type: "xlate", dest: [`out_${pad(k % g)}`], xlate: "oru.xlt" },
        ],
      }, {
        trxid: "ORM_O01",
        details: [{ type: "raw", dest: [`out_${pad(k % g)}`], procs: ["tps_orders"] }],
      }],
    }));
    dests.push(destinationRecord(`d_${pad(k)}`, "localhost", iclPort(next2, k % g)));
  }
  return [...records, ...dests];
}

/** One NetConfig of about `threads` threads (a single site's records, numbered on). */
export function bigNetConfig(threads: number): string {
  return writeNetConfig(PROLOGUE, siteRecords(0, 3, threads));
}

/** Writes `sites` sites of `threads` threads each under `dir`, with server.ini. */
export async function writeLargeRoot(dir: string, sites: number, threads: number): Promise<string[]> {
  const names = Array.from({ length: sites }, (_, s) => `s${pad(s)}`);
  await Deno.mkdir(`${dir}/server`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/server/server.ini`,
    `[exports]\nenvirons=${names.map((n) => `${dir}/${n}`).join(";")}\n`,
  );
  for (let s = 0; s < sites; s++) {
    await Deno.mkdir(`${dir}/${names[s]}`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/${names[s]}/NetConfig`,
      writeNetConfig(PROLOGUE, siteRecords(s, sites, threads)),
    );
  }
  return names;
}

/**
 * A `.smatdb` of `rows` HL7 messages (about 260 bytes each, a minute apart from 2024-11-20), made
 * by SQLite itself.
 */
export function writeBigSmatDb(path: string, rows: number): void {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;");
    db.exec(SMATDB_SCHEMA);
    db.exec("INSERT INTO smat_info VALUES (258, 1732089600000)");
    db.exec(`
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${Math.floor(rows)})
      INSERT INTO smat_msgs
      SELECT 0, 0, x, 0, 0, 0, 'DATA', 'adt_in', 'adt_in', '', '', 1732089600000 + x * 60000, 5120, '',
        'inbound', '',
        CAST(printf('MSH|^~\\&|ADTSYS|GENHOSP|RECV|GENHOSP|%d||ADT^A0%d|MSG%08d|P|2.5' || char(13) ||
          'PID|1||%d^^^GENHOSP^MR||TESTPATIENT^SYNTH%d^Q||19800101|%s' || char(13) ||
          'PV1|1|I|WARD%d^%d^1||||DR%d^WELBY^MARCUS' || char(13),
          20241120080000 + x, 1 + x % 8, x, 700000 + x, x % 1000, CASE x % 2 WHEN 0 THEN 'F' ELSE 'M' END,
          x % 9, x % 40, x % 7) AS BLOB)
      FROM c;`);
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [dir, sites = "40", threads = "250"] = Deno.args;
  if (!dir) {
    console.error("usage: deno run -P=test bench/_gen_engine.ts <empty folder> [sites] [threads per site]");
    Deno.exit(2);
  }
  const names = await writeLargeRoot(dir, Number(sites), Number(threads));
  console.log(`${names.length} sites under ${dir}`);
}
