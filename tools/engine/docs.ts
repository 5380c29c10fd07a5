/**
 * Interface documentation from a NetConfig (spec, "the documentation helper"): plain text by
 * default, tab-separated rows for pasting into a OneNote (or any) table, or the raw Tcl records.
 *
 * @module
 */
import { operationsOf } from "./netconfig/mod.ts";
import {
  type NcEntry,
  type NetConfig,
  type Route,
  routesOf,
  type ThreadInfo,
  threadInfo,
  type TpsProc,
  tpsProcs,
} from "./netconfig/mod.ts";
import { tsvCell } from "./table.ts";

export interface DocThread {
  entry: NcEntry;
  info: ThreadInfo;
  routes: Route[];
  inTps: TpsProc[];
  outTps: TpsProc[];
  /** Senders (same site bare, others `site/thread`, inter-site `... via dest`). */
  fedBy: string[];
}

function procNames(ps: TpsProc[]): string {
  return ps.map((p) => (p.enabled ? p.name : `${p.name} (disabled)`)).join(", ");
}

function connection(t: ThreadInfo): string {
  if (t.type === "tcpip" || t.type === "pdl-tcpip") {
    return t.isServer
      ? `${t.type}, listens on port ${t.port || "?"}`
      : `${t.type}, connects to ${t.host || "?"}:${t.port || "?"}`;
  }
  return t.type || "?";
}

function destText(nc: NetConfig, name: string): string {
  const d = nc.destination(name);
  if (d) return `${name} (inter-site ${d.config.str("HOST") || "?"}:${d.config.str("PORT") || "?"})`;
  return nc.protocol(name) ? name : `${name} (undefined)`;
}

/** One route detail as a phrase: `xlate adt_a01_to_lab.xlt -> lab_out, billing_out (pre: tps_fix_pid)`. */
export function detailText(nc: NetConfig, d: Route["details"][number]): string {
  let s = d.type || "?";
  if (d.xlate) s += ` ${d.xlate}`;
  if (d.xslt) s += ` ${d.xslt}`;
  if (d.dests.length) s += ` -> ${d.dests.map((x) => destText(nc, x)).join(", ")}`;
  const extras = [
    d.preprocs.length ? `pre: ${procNames(d.preprocs)}` : "",
    d.procs.length ? `procs: ${procNames(d.procs)}` : "",
    d.postprocs.length ? `post: ${procNames(d.postprocs)}` : "",
    d.enabled ? "" : "detail disabled",
  ].filter((x) => x !== "");
  return extras.length ? `${s} (${extras.join("; ")})` : s;
}

export function docThread(entry: NcEntry, targets: ReadonlySet<string>, fedBy: string[]): DocThread {
  const sms = entry.config.kl("SMS");
  return {
    entry,
    info: threadInfo(entry, targets),
    routes: routesOf(entry, true),
    inTps: tpsProcs(sms?.kl("IN_DATA")),
    outTps: tpsProcs(sms?.kl("OUT_DATA")),
    fedBy,
  };
}

/** Plain-text documentation of one thread. */
export function threadText(nc: NetConfig, site: string, d: DocThread, siteDir?: string): string {
  const t = d.info;
  const lines = [`${t.name} (site ${site}, process ${t.process || "?"})`];
  const row = (k: string, v: string) => lines.push(`  ${(k + ":").padEnd(14)}${v}`);
  row("Protocol", connection(t));
  if (t.iclPort) row("ICL port", `${t.iclPort} (other sites send here)`);
  row("Direction", t.direction);
  row("Autostart", t.autostart ? "yes" : "no");
  row(
    "SMAT",
    [t.smatIn ? `in: ${t.smatIn}` : "", t.smatOut ? `out: ${t.smatOut}` : ""].filter((x) => x).join(", ") ||
      "none",
  );
  // What the operations summary adds to the rows above: TLS, replies and ACKs, retries, encoding,
  // and the files or folders a file thread reads and writes.
  const ops = new Map(operationsOf(d.entry, siteDir));
  if (/^file/.test(t.type) && ops.has("connection")) row("Files", ops.get("connection")!);
  for (
    const [key, label] of [["tls", "TLS"], ["encoding", "Encoding"], ["replies", "Replies"], [
      "delivery",
      "Delivery",
    ]]
  ) {
    if (ops.has(key)) row(label, ops.get(key)!);
  }
  if (d.inTps.length) row("Inbound TPS", procNames(d.inTps));
  if (d.outTps.length) row("Outbound TPS", procNames(d.outTps));
  row("Fed by", d.fedBy.join(", ") || "nothing in these sites");
  if (d.routes.length === 0) row("Routes", "none");
  else {
    lines.push("  Routes:");
    for (const r of d.routes) {
      const flags = [
        r.kind === "reply" ? "reply" : "",
        r.wildcard ? "wildcard" : "",
        r.enabled ? "" : "disabled",
      ]
        .filter((x) => x).join(", ");
      lines.push(`    ${r.trxid || "?"}${flags ? ` (${flags})` : ""}`);
      if (r.details.length === 0) lines.push("      no details");
      for (const det of r.details) lines.push(`      ${det.index}. ${detailText(nc, det)}`);
    }
  }
  return lines.join("\n");
}

export const ONENOTE_COLUMNS = [
  "Thread",
  "Process",
  "Direction",
  "Protocol",
  "Host",
  "Port",
  "ICL port",
  "SMAT in",
  "SMAT out",
  "Inbound TPS",
  "Outbound TPS",
  "Routes",
  "Fed by",
] as const;

/** One tab-separated row per thread (no tabs or newlines inside a cell). */
export function onenoteRow(nc: NetConfig, d: DocThread): string {
  const t = d.info;
  const routes = d.routes.map((r) =>
    `${r.kind === "reply" ? "reply " : ""}${r.trxid}${r.enabled ? "" : " (disabled)"}: ` +
    r.details.map((det) => detailText(nc, det)).join(" | ")
  ).join("; ");
  return [
    t.name,
    t.process,
    t.direction,
    t.type,
    t.host,
    t.port,
    t.iclPort,
    t.smatIn,
    t.smatOut,
    procNames(d.inTps),
    procNames(d.outTps),
    routes,
    d.fedBy.join(", "),
  ].map(tsvCell).join("\t");
}
