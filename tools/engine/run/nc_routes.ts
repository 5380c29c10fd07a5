/** nc_routes: TRXID → route details → type, destinations, xlate, procs, enabled flags. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRoutesTool as def } from "../nc_routes_tool.ts";
import type { ncRoutesTool } from "../nc_routes_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import {
  argWords,
  type NcEntry,
  type NetConfig,
  procText,
  routesOf,
  type TpsProc,
} from "../netconfig/mod.ts";
import { renderTable } from "../table.ts";
import { resolveThread } from "../thread_ref.ts";
import type { Site } from "../sites.ts";

/** Procs with their ARGS (`tps_lookup {TABLE fin_class_map}`), disabled ones marked; `, `-separated when any has ARGS. */
function procList(ps: TpsProc[]): string {
  return ps.map(procText).join(ps.some((p) => p.args) ? ", " : " ");
}

/** Marks a destination that names nothing in the NetConfig, and an inter-site destination. */
function destShown(nc: NetConfig, name: string): string {
  if (nc.protocol(name)) return name;
  const d = nc.destination(name);
  if (d) return `${name}@${d.config.str("HOST") || "?"}:${d.config.str("PORT") || "?"}`;
  return `${name}(undefined)`;
}

/** A generate detail's destinations, as its procs' ARGS name them: `(ARGS: stat_notify_out)`. */
function generateDests(nc: NetConfig, procs: TpsProc[]): string {
  const named = new Set<string>();
  for (const p of procs) {
    for (const w of argWords(p.args)) {
      const hit = nc.protocol(w) ?? nc.destination(w);
      if (hit) named.add(hit.name);
    }
  }
  return named.size ? `(ARGS: ${[...named].join(" ")})` : "";
}

export async function run(input: InputOf<typeof ncRoutesTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const siteArg = input.site;
    const threadArg = input.thread;
    // Neither a site nor a thread: every site of the engine root, with a SITE column.
    const all = !siteArg?.trim() && !threadArg?.trim();
    let scopes: Array<{ site: Site; nc: NetConfig; threads: NcEntry[] }>;
    let skipped: Array<{ site: string; reason: string }> = [];
    let one: NcEntry | undefined;
    if (all) {
      const r = await engine.loadAll();
      skipped = r.skipped;
      scopes = r.loaded.map((l) => ({ ...l, threads: l.nc.protocols }));
    } else {
      const ref = await resolveThread(engine, siteArg, threadArg);
      one = ref.entry;
      scopes = [{ site: ref.site, nc: ref.nc, threads: ref.entry ? [ref.entry] : ref.nc.protocols }];
    }
    const format = input.format;
    const withReplies = input.replies;
    const rows: string[][] = [];
    const json: unknown[] = [];
    let count = 0;
    let disabled = 0, detailsOff = 0;
    for (const { site, nc, threads } of scopes) {
      const at = all ? [site.name] : [];
      for (const t of threads) {
        for (const r of routesOf(t, withReplies)) {
          count++;
          if (!r.enabled) disabled++;
          if (r.details.length === 0) {
            rows.push([
              ...at,
              t.name,
              r.kind,
              r.trxid,
              r.enabled ? "on" : "off",
              "-",
              "-",
              "-",
              "-",
              "-",
              "-",
            ]);
          }
          for (const d of r.details) {
            if (r.enabled && !d.enabled) detailsOff++;
            const procs = [
              ...(d.preprocs.length ? [`pre: ${procList(d.preprocs)}`] : []),
              ...(d.procs.length ? [procList(d.procs)] : []),
              ...(d.postprocs.length ? [`post: ${procList(d.postprocs)}`] : []),
            ].join("; ");
            rows.push([
              ...at,
              t.name,
              r.kind,
              r.trxid + (r.wildcard ? " (wildcard)" : ""),
              r.enabled ? "on" : "off",
              String(d.index),
              // A detail of a disabled route carries nothing, whatever its own switch says.
              d.enabled ? (r.enabled ? "on" : "on (route off)") : "off",
              d.type || "?",
              d.dests.map((x) => destShown(nc, x)).join(" ") || generateDests(nc, d.procs) || "-",
              d.xlate ?? d.xslt ?? "-",
              procs || "-",
            ]);
          }
          json.push({
            ...(all ? { site: site.name } : {}),
            thread: t.name,
            kind: r.kind,
            trxid: r.trxid,
            enabled: r.enabled,
            wildcard: r.wildcard,
            line: nc.lineOf(r.offset),
            details: r.details.map((d) => ({
              index: d.index,
              type: d.type,
              dests: d.dests.map((x) => ({
                name: x,
                kind: nc.protocol(x) ? "thread" : nc.destination(x) ? "destination" : "undefined",
              })),
              xlate: d.xlate,
              xslt: d.xslt,
              procs: d.procs,
              preprocs: d.preprocs,
              postprocs: d.postprocs,
              enabled: d.enabled,
            })),
          });
        }
      }
    }
    if (format === "json") {
      const body = all ? { routes: json, skipped } : { site: scopes[0].site.name, routes: json };
      return { text: JSON.stringify(body, null, 2) };
    }
    const table = renderTable(
      [
        ...(all ? ["SITE"] : []),
        "THREAD",
        "FOR",
        "TRXID",
        "ROUTE_STATE",
        "DETAIL",
        "DETAIL_STATE",
        "TYPE",
        "DEST",
        "XLATE",
        "PROCS",
      ],
      rows,
      format,
    );
    if (format === "tsv") return { text: table };
    const scope = all
      ? `${scopes.length} site${scopes.length === 1 ? "" : "s"}`
      : one
      ? `thread ${one.name}`
      : `site ${scopes[0].site.name}`;
    const left = skipped.map((s) => `\n[nc_routes: site ${s.site} left out: ${s.reason}]`).join("");
    return {
      text: `${rows.length ? table + "\n\n" : ""}[nc_routes: ${count} route${
        count === 1 ? "" : "s"
      } in ${scope}${disabled ? `; ${disabled} disabled (ROUTE_STATE off: none of its details runs)` : ""}${
        detailsOff
          ? `; ${detailsOff} detail${
            detailsOff === 1 ? "" : "s"
          } disabled in routes that are on (DETAIL_STATE off)`
          : ""
      }]${left}`,
    };
  } catch (err) {
    return failure(err);
  }
}
