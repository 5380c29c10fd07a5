/**
 * Fake engine hosts for the route-test and regression suites (and bench/regression_bench.ts): an
 * engine root with sites chained by cross-site hops, SMAT archives in both formats, Xlate fixture
 * files, and a stub `hciroutetest` that really routes: it reads the site's route table (written from
 * the same spec as the NetConfig), picks routes by TRXID (MSH-9 as `ADT_A01`), applies each xlate
 * route's Xlate fixture (`set PV1.3.1 WARD1` lines), stamps MSH-7 and MSH-10 anew as an engine does,
 * and prints `<dest>: '<message>'` per routed message. So a changed Xlate on one host changes that
 * host's outputs for exactly the destinations behind it. Every call is logged to `$HCIROOT/routetest.log`.
 *
 * Layout of a spec with sites [a, b] and two inbounds per site:
 * - site a: `in0`, `in1` (servers, SMAT INFILE: `.smatdb` for even, `.idx`/`.msg` for odd), each
 *   routing ADT_A01 via Xlate `x_a_in<j>.xlt` and ADT_A08 raw to `out_in<j>` (a remote client), and
 *   ADT_A01 raw to `fwd_in<j>`, a client of localhost on the port of
 * - site b: `from_a_<j>` (server), routing both TRXIDs via Xlate `x_b_from_a_<j>.xlt` to
 *   `emr_a_<j>` and ADT_A01 raw to `arch_a_<j>`; plus b's own inbounds as above (the last site has
 *   no `fwd_`).
 */
import {
  processRecord,
  protocolRecord,
  type RouteSpec,
  type ThreadSpec,
  writeNetConfig,
} from "../support/nc_writer.ts";
import { hl7, type SmatMsg, writeSmatDb, writeSmatFiles } from "../support/smat_writer.ts";

export interface EngineSpec {
  sites: string[];
  inboundsPerSite: number;
  messages: number;
  /** Xlate file name → fixture text that replaces the default. */
  xlate?: Record<string, string>;
  /** Add a route ADT_A03 from `<first site>/in0` to `audit_in0` (present on the source only). */
  extraRoute?: boolean;
  /** `site/thread` left out of the NetConfig. */
  drop?: string[];
  /** Inbound `site/thread` whose SMAT archive is empty. */
  emptySmat?: string[];
}

export const STUB_HCIROUTETEST = `#!/usr/bin/env python3
# Stub of the engine's route test (research/cloverleaf.md 4.5): hciroutetest [flags] THREAD FILE.
import os, sys, time, random
args = sys.argv[1:]
with open(os.path.join(os.environ["HCIROOT"], "routetest.log"), "a") as log:
    log.write(" ".join(args) + "\\n")
if len(args) < 2:
    sys.stderr.write("usage: hciroutetest [-a] [-L] [-d] [-f nl] thread file\\n"); sys.exit(2)
thread, datafile = args[-2], args[-1]
site = os.environ.get("HCISITEDIR") or os.getcwd()
routes = []
with open(os.path.join(site, "routetest_routes.tsv")) as f:
    for line in f:
        p = line.rstrip("\\n").split("\\t")
        if len(p) == 4 and p[0] == thread: routes.append(p)
if not os.path.exists(datafile):
    sys.stderr.write("hciroutetest: no such file\\n"); sys.exit(1)
def xlate(msg, name):
    segs = msg.split("\\r")
    with open(os.path.join(site, "Xlate", name)) as f:
        for line in f:
            w = line.split(None, 2)
            if len(w) < 3 or w[0] != "set": continue
            path = w[1].split("."); value = w[2].strip()
            for i, s in enumerate(segs):
                fields = s.split("|")
                if fields[0] != path[0]: continue
                n = int(path[1])
                while len(fields) <= n: fields.append("")
                if len(path) > 2:
                    comps = fields[n].split("^"); c = int(path[2]) - 1
                    while len(comps) <= c: comps.append("")
                    comps[c] = value; fields[n] = "^".join(comps)
                else:
                    fields[n] = value
                segs[i] = "|".join(fields)
                break
    return "\\r".join(segs)
def stamp(msg):
    segs = msg.split("\\r"); f = segs[0].split("|")
    if len(f) > 9:
        f[6] = time.strftime("%Y%m%d%H%M%S"); f[9] = "RT%08d" % random.randint(0, 99999999)
    segs[0] = "|".join(f)
    return "\\r".join(segs)
for raw in open(datafile, newline="\\n"):
    msg = raw.rstrip("\\n")
    if not msg: continue
    msh = msg.split("\\r")[0].split("|")
    trxid = "_".join(msh[8].split("^")[:2]) if len(msh) > 8 else ""
    for t, tx, dest, xl in routes:
        if tx != trxid: continue
        out = xlate(msg, xl) if xl != "-" else msg
        print("%8s: '%s'" % (dest, stamp(out)))
`;

interface Thread {
  spec: ThreadSpec;
  /** [trxid, dest, xlate or "-"] */
  table: Array<[string, string, string]>;
}

function server(name: string, port: number, smat?: string): ThreadSpec {
  return { name, process: "p1", type: "tcpip", isServer: true, port, smatIn: smat };
}

function client(name: string, host: string, port: number): ThreadSpec {
  return { name, process: "p1", type: "tcpip", host, port };
}

function routesOf(table: Array<[string, string, string]>): RouteSpec[] {
  const by = new Map<string, RouteSpec>();
  for (const [trxid, dest, xl] of table) {
    const r = by.get(trxid) ?? { trxid, details: [] };
    r.details.push(xl === "-" ? { type: "raw", dest: [dest] } : { type: "xlate", xlate: xl, dest: [dest] });
    by.set(trxid, r);
  }
  return [...by.values()];
}

/** The threads of every site of a spec (before `drop`). */
function threadsOf(spec: EngineSpec, source: boolean): Map<string, Thread[]> {
  const out = new Map<string, Thread[]>(spec.sites.map((s) => [s, []]));
  spec.sites.forEach((site, k) => {
    const next = spec.sites[k + 1];
    for (let j = 0; j < spec.inboundsPerSite; j++) {
      const inName = `in${j}`;
      const table: Array<[string, string, string]> = [
        ["ADT_A01", `out_in${j}`, `x_${site}_in${j}.xlt`],
        ["ADT_A08", `out_in${j}`, "-"],
      ];
      if (next) table.push(["ADT_A01", `fwd_in${j}`, "-"]);
      if (source && spec.extraRoute && k === 0 && j === 0) table.push(["ADT_A03", "audit_in0", "-"]);
      const list = out.get(site)!;
      list.push({
        spec: server(inName, 6000 + k * 100 + j, `${inName}${j % 2 ? "_idx" : ""}`),
        table,
      });
      list.push({ spec: client(`out_in${j}`, "10.9.9.9", 9000 + j), table: [] });
      if (k === 0 && j === 0) list.push({ spec: client("audit_in0", "10.9.9.9", 9500), table: [] });
      if (next) {
        const port = 7000 + k * 100 + j;
        list.push({ spec: client(`fwd_in${j}`, "localhost", port), table: [] });
        const from = `from_${site}_${j}`;
        out.get(next)!.push(
          {
            spec: server(from, port),
            table: [
              ["ADT_A01", `emr_${site}_${j}`, `x_${next}_${from}.xlt`],
              ["ADT_A08", `emr_${site}_${j}`, `x_${next}_${from}.xlt`],
              ["ADT_A01", `arch_${site}_${j}`, "-"],
            ],
          },
          { spec: client(`emr_${site}_${j}`, "10.9.9.9", 9100 + k * 10 + j), table: [] },
          { spec: client(`arch_${site}_${j}`, "10.9.9.9", 9200 + k * 10 + j), table: [] },
        );
      }
    }
  });
  return out;
}

/** Number of threads a spec writes. */
export function threadCount(spec: EngineSpec): number {
  return [...threadsOf(spec, true).values()].reduce((a, l) => a + l.length, 0);
}

/** Inbound messages of `site/in<j>`: alternating ADT^A01 and ADT^A08, newest last, recent times. */
export function inboundMessages(site: string, j: number, count: number): SmatMsg[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const time = now - (count - i) * 60_000;
    const n = 1000 * (j + 1) + i;
    return {
      mid: n,
      time,
      source: `in${j}`,
      content: hl7(i % 2 ? "ADT^A08" : "ADT^A01", n, time, site.toUpperCase()),
    };
  });
}

/**
 * Writes an engine root: server.ini, per site NetConfig, route table, Xlate fixtures, SMAT, and
 * `bin/hciroutetest` (unless `withRouteTest` is false). `source` decides the source-only route.
 */
export async function writeRegressionEngine(
  root: string,
  spec: EngineSpec,
  opts: { source: boolean; withRouteTest?: boolean },
): Promise<void> {
  await Deno.mkdir(`${root}/server`, { recursive: true });
  await Deno.writeTextFile(
    `${root}/server/server.ini`,
    `\n[exports]\nenvirons=${spec.sites.map((s) => `${root}/${s}`).join(";")}\n`,
  );
  const drop = new Set(spec.drop ?? []);
  for (const [site, threads] of threadsOf(spec, opts.source)) {
    const dir = `${root}/${site}`;
    await Deno.mkdir(`${dir}/Xlate`, { recursive: true });
    await Deno.mkdir(`${dir}/exec/processes/p1`, { recursive: true });
    const kept = threads.filter((t) => !drop.has(`${site}/${t.spec.name}`));
    const records = [
      processRecord("p1"),
      ...kept.map((t) => protocolRecord({ ...t.spec, routes: routesOf(t.table) })),
    ];
    await Deno.writeTextFile(
      `${dir}/NetConfig`,
      writeNetConfig({ who: "hci", date: "November 20, 2026 8:00:00 AM UTC" }, records),
    );
    await Deno.writeTextFile(
      `${dir}/routetest_routes.tsv`,
      kept.flatMap((t) => t.table.map((r) => [t.spec.name, ...r].join("\t") + "\n")).join(""),
    );
    for (const t of kept) {
      for (const [, , xl] of t.table) {
        if (xl === "-") continue;
        const text = spec.xlate?.[xl] ??
          `# Xlate fixture: what the stub route test applies\nset PV1.3.1 WARD_${site.toUpperCase()}\nset ZZZ.1 unused\n`;
        await Deno.writeTextFile(`${dir}/Xlate/${xl}`, text);
      }
    }
    for (let j = 0; j < spec.inboundsPerSite; j++) {
      const base = `${dir}/exec/processes/p1/in${j}`;
      const msgs = (spec.emptySmat ?? []).includes(`${site}/in${j}`)
        ? []
        : inboundMessages(site, j, spec.messages);
      if (j % 2) await writeSmatFiles(`${base}_idx`, msgs, j % 4 === 3);
      else writeSmatDb(`${base}.smatdb`, msgs);
    }
  }
  await Deno.mkdir(`${root}/bin`, { recursive: true });
  if (opts.withRouteTest !== false) {
    await Deno.writeTextFile(`${root}/bin/hciroutetest`, STUB_HCIROUTETEST, { mode: 0o755 });
  } else await Deno.remove(`${root}/bin/hciroutetest`).catch(() => {});
}
