/** nc_routes: TRXID → route details → type, destinations, xlate, procs, enabled flags. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRoutesTool as def } from "../nc_routes_tool.ts";
import type { ncRoutesTool } from "../nc_routes_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { type NcEntry, type NetConfig, routesOf, type TpsProc } from "../netconfig/mod.ts";
import { renderTable } from "../table.ts";
import { resolveThread } from "../thread_ref.ts";

function procList(ps: TpsProc[]): string {
  return ps.map((p) => (p.enabled ? p.name : `${p.name}(disabled)`)).join(" ");
}

/** Marks a destination that names nothing in the NetConfig, and an inter-site destination. */
function destShown(nc: NetConfig, name: string): string {
  if (nc.protocol(name)) return name;
  const d = nc.destination(name);
  if (d) return `${name}@${d.config.str("HOST") || "?"}:${d.config.str("PORT") || "?"}`;
  return `${name}(undefined)`;
}

export async function run(input: InputOf<typeof ncRoutesTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const ref = await resolveThread(
      engine,
      input.site,
      input.thread,
    );
    const { site, nc } = ref;
    const format = input.format;
    const threads: NcEntry[] = ref.entry ? [ref.entry] : nc.protocols;
    const withReplies = input.replies;
    const rows: string[][] = [];
    const json: unknown[] = [];
    let count = 0;
    let disabled = 0;
    for (const t of threads) {
      for (const r of routesOf(t, withReplies)) {
        count++;
        if (!r.enabled) disabled++;
        if (r.details.length === 0) {
          rows.push([t.name, r.kind, r.trxid, r.enabled ? "on" : "off", "-", "-", "-", "-", "-", "-"]);
        }
        for (const d of r.details) {
          const procs = [
            ...(d.preprocs.length ? [`pre: ${procList(d.preprocs)}`] : []),
            ...(d.procs.length ? [procList(d.procs)] : []),
            ...(d.postprocs.length ? [`post: ${procList(d.postprocs)}`] : []),
          ].join("; ");
          rows.push([
            t.name,
            r.kind,
            r.trxid + (r.wildcard ? " (wildcard)" : ""),
            r.enabled ? "on" : "off",
            String(d.index),
            // A detail of a disabled route carries nothing, whatever its own switch says.
            d.enabled ? (r.enabled ? "on" : "on (route off)") : "off",
            d.type || "?",
            d.dests.map((x) => destShown(nc, x)).join(" ") || "-",
            d.xlate ?? d.xslt ?? "-",
            procs || "-",
          ]);
        }
        json.push({
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
    if (format === "json") return { text: JSON.stringify({ site: site.name, routes: json }, null, 2) };
    const table = renderTable(
      ["THREAD", "FOR", "TRXID", "ROUTE_STATE", "DETAIL", "DETAIL_STATE", "TYPE", "DEST", "XLATE", "PROCS"],
      rows,
      format,
    );
    if (format === "tsv") return { text: table };
    const scope = ref.entry ? `thread ${threads[0].name}` : `site ${site.name}`;
    return {
      text: `${rows.length ? table + "\n\n" : ""}[nc_routes: ${count} route${
        count === 1 ? "" : "s"
      } in ${scope}${disabled ? `; ${disabled} disabled (ROUTE_STATE off: none of its details runs)` : ""}]`,
    };
  } catch (err) {
    return failure(err);
  }
}
