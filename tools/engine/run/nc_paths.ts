/** nc_paths: route chains from a thread (or a site's entry threads) across sites. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncPathsTool as def } from "../nc_paths_tool.ts";
import type { ncPathsTool } from "../nc_paths_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { type Chain, chainText, hopCount, type PathNode, RouteGraph, trxidText, type Way } from "../paths.ts";
import { procText, routesOf, type TpsProc } from "../netconfig/mod.ts";
import { renderTable } from "../table.ts";
import { resolveThread, splitThreadName } from "../thread_ref.ts";

export async function run(input: InputOf<typeof ncPathsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const format = input.format;
    const allSites = input.all_sites;
    const { loaded, skipped } = await engine.loadAll();
    const graph = new RouteGraph(loaded, {
      includeDisabled: input.include_disabled,
      localHosts: input.local_hosts ?? [],
    });
    let starts: PathNode[] = [];
    let scope: string;
    if (allSites) {
      for (const s of loaded) starts.push(...graph.entryThreads(s.site.name, false).nodes);
      scope = `the entry threads of ${loaded.length} sites`;
    } else {
      // Throws for a broken NetConfig of the site asked.
      const { site, entry: t } = await resolveThread(
        engine,
        input.site,
        input.thread,
      );
      if (t) {
        starts = [{ site: site.name, name: t.name, kind: "thread" }];
        scope = `${site.name}/${t.name}`;
      } else {
        const entry = graph.entryThreads(site.name);
        starts = entry.nodes;
        scope = entry.fedFromElsewhere
          ? `the routed threads of site ${site.name} (${starts.map((s) => s.name).join(", ")}; ` +
            "every one is fed from another site)"
          : `the entry threads of site ${site.name} (${starts.map((s) => s.name).join(", ") || "none"})`;
      }
    }
    let target: { site: string; name: string } | undefined;
    if (input.to) {
      // `thread.site` or `site thread`; a thread alone is looked for in the start's site first.
      const words = input.to.trim().split(/\s+/);
      const ts = words.length === 2
        ? { site: words[0], thread: words[1] }
        : await splitThreadName(engine, input.to, undefined);
      const near = ts.site === undefined ? starts[0]?.site : undefined;
      const own = near === undefined ? undefined : graph.netconfig(near)?.protocol(ts.thread);
      const hit = own && near !== undefined
        ? { site: near, name: own.name }
        : await resolveThread(engine, ts.site, ts.thread).then((r) => ({
          site: r.site.name,
          name: r.entry!.name,
        }));
      target = hit;
    }
    // --trxid: what the chain carries, hop by hop (a pattern with * and ?).
    const trxid = input.trxid?.trim() || undefined;
    const chains: Chain[] = [];
    let truncated = false;
    for (const s of starts) {
      const r = graph.trace(s, {
        maxHops: input.max_hops,
        limit: input.limit,
        target,
        trxid,
      }, chains);
      if (r.truncated) {
        truncated = true;
        break;
      }
    }
    if (format === "json") {
      return {
        text: JSON.stringify(
          {
            chains: chains.map((c) => ({
              site: c.start.site,
              thread: c.start.name,
              trxids: c.carries.map(trxidText),
              hops: hopCount(c),
              path: chainText(c, "none"),
              in_tps: c.startProcs,
              steps: c.steps.map((s) => ({
                site: s.node.site,
                name: s.node.name,
                kind: s.node.kind,
                via: s.via,
                trxids: s.trxids,
                disabled: s.disabled,
                route_procs: s.ways.flatMap((w) => w.procs),
                tps: s.procs,
              })),
              end: {
                kind: c.end.kind,
                detail: c.end.detail,
                route_procs: c.end.hop?.ways.flatMap((w) => w.procs),
              },
            })),
            truncated,
            skipped,
          },
          null,
          2,
        ),
      };
    }
    const table = renderTable(
      ["SITE", "THREAD", "TRXID", "HOPS", "PATH"],
      chains.map((c) => [
        c.start.site,
        c.start.name,
        c.carries.map(trxidText).join(","),
        String(hopCount(c)),
        // Text: each start's inbound TPS once, after the table; TSV rows stand alone.
        chainText(c, format === "tsv" ? "all" : "hops"),
      ]),
      format,
    );
    if (format === "tsv") return { text: table };
    const lines: string[] = [];
    if (chains.length) lines.push(table, "");
    const toText = (target ? ` reaching ${target.site}/${target.name}` : "") +
      (trxid !== undefined ? ` with TRXID ${trxid}` : "");
    lines.push(`[nc_paths: ${chains.length} chain${chains.length === 1 ? "" : "s"}${toText} from ${scope}]`);
    if (truncated) {
      lines.push(`[nc_paths: stopped at ${input.limit} chains; narrow with a thread, --to or --max-hops]`);
    }
    const inbound = new Map<string, string>();
    for (const c of chains) {
      const name = `${c.start.site}/${c.start.name}`;
      if (c.startProcs.length && !inbound.has(name)) inbound.set(name, c.startProcs.map(procText).join(", "));
    }
    for (const [name, procs] of inbound) {
      lines.push(`[nc_paths: ${name} inbound TPS, on every chain from it: ${procs}]`);
    }
    const args = procArgs(chains, false);
    if (args.length) lines.push(`[nc_paths: proc ARGS: ${args.join("; ")}]`);
    for (const r of replyRoutes(chains, graph)) lines.push(`[nc_paths: ${r}]`);
    const off = offHops(chains);
    if (off.length) lines.push(`[nc_paths: (off) and ~> hops: ${off.join("; ")}]`);
    if (!input.include_disabled) {
      // What the disabled routes and details would add: said, so a missing chain is not a mystery.
      const all = new RouteGraph(loaded, { includeDisabled: true, localHosts: input.local_hosts ?? [] });
      const every: Chain[] = [];
      for (const s of starts) {
        if (all.trace(s, { maxHops: input.max_hops, limit: input.limit, target, trxid }, every).truncated) {
          break;
        }
      }
      const hidden = offHops(every);
      if (hidden.length) {
        lines.push(
          `[nc_paths: left out, as disabled: ${
            hidden.join("; ")
          } (include_disabled shows their chains, marked (off))]`,
        );
      }
    }
    for (const s of skipped) lines.push(`[nc_paths: site ${s.site} left out: ${s.reason}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}

/**
 * Where the replies travel on the chains' cross-site and TCP hops: a thread that sends to another
 * (`lab_adt_out => lab/lab_adt_in`) gets that thread's replies (ACKs) back, and its REPLYXLATE
 * routes them on (`to ack_audit_out`). What stops if the receiving thread stops is then said too.
 */
function replyRoutes(chains: Chain[], graph: RouteGraph): string[] {
  const out = new Set<string>();
  for (const c of chains) {
    let from = c.start;
    for (const st of c.steps) {
      if (st.via === "cross" && from.kind === "thread") {
        const entry = graph.netconfig(from.site)?.protocol(from.name);
        const routes = entry ? routesOf(entry, true).filter((r) => r.kind === "reply") : [];
        const to = routes.flatMap((r) =>
          r.details.map((d) =>
            `${r.trxid} ${d.type} -> ${d.dests.join(" ") || "-"}${!r.enabled || !d.enabled ? " (off)" : ""}`
          )
        );
        if (to.length) {
          out.add(
            `replies of ${from.site}/${from.name} (from ${st.node.site}/${st.node.name}) are routed by its ` +
              `REPLYXLATE: ${to.join("; ")}`,
          );
        }
      }
      from = st.node;
    }
  }
  return [...out];
}

/**
 * The disabled routes and details the chains go through, once each, with the thread they leave:
 * `lab/lab_adt_in ADT_A08 detail 1 off`, `adthub/reg_adt_in ADT_A03 route off`.
 */
function offHops(chains: Chain[]): string[] {
  const out = new Set<string>();
  for (const c of chains) {
    let from = c.start;
    const add = (ways: readonly Way[]) => {
      for (const w of ways) {
        if (!w.off) continue;
        out.add(
          `${from.site}/${from.name} ${w.trxid} ${
            w.off === "route" ? "route" : `detail ${w.detail ?? "?"}`
          } off`,
        );
      }
    };
    for (const st of c.steps) {
      if (st.via === "route") add(st.ways);
      from = st.node;
    }
    if (c.end.hop?.via === "route") add(c.end.hop.ways);
  }
  return [...out];
}

/** Each proc with ARGS shown in the chains, once: `tps_table_lookup {TABLE sex_codes}` (the starts' own with `starts`). */
function procArgs(chains: Chain[], starts: boolean): string[] {
  const out = new Set<string>();
  const add = (ps: TpsProc[]) => {
    for (const p of ps) if (p.args) out.add(procText(p));
  };
  for (const c of chains) {
    if (starts) add(c.startProcs);
    for (const s of c.steps) {
      add(s.procs);
      for (const w of s.ways) add(w.procs);
    }
    for (const w of c.end.hop?.ways ?? []) add(w.procs);
  }
  return [...out];
}
