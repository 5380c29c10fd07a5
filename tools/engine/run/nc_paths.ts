/** nc_paths: route chains from a thread (or a site's entry threads) across sites. */
import type { ToolContext, ToolInput, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { type Chain, chainText, type PathNode, RouteGraph } from "../paths.ts";
import { renderTable, type TableFormat } from "../table.ts";
import { requireThread, threadAndSite } from "./_lookup.ts";

export async function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const format = input.format as TableFormat;
    const allSites = input.all_sites as boolean;
    const { loaded, skipped } = await engine.loadAll();
    const graph = new RouteGraph(loaded, {
      includeDisabled: input.include_disabled as boolean,
      localHosts: (input.local_hosts as string[] | undefined) ?? [],
    });
    let starts: PathNode[] = [];
    let scope: string;
    if (allSites) {
      for (const s of loaded) starts.push(...graph.entryThreads(s.site.name, false).nodes);
      scope = `the entry threads of ${loaded.length} sites`;
    } else {
      const { site, nc } = await engine.load(input.site as string | undefined); // throws for a broken NetConfig
      if (input.thread) {
        const t = requireThread(nc, input.thread as string, site.name);
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
      const ts = threadAndSite(input.to as string, undefined);
      const tsite = ts.site ?? starts[0]?.site ?? (await engine.site(input.site as string | undefined)).name;
      const tnc = graph.netconfig(tsite) ?? (await engine.load(tsite)).nc;
      target = { site: tsite, name: requireThread(tnc, ts.thread, tsite).name };
    }
    const chains: Chain[] = [];
    let truncated = false;
    for (const s of starts) {
      const r = graph.trace(s, {
        maxHops: input.max_hops as number,
        limit: input.limit as number,
        target,
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
              hops: c.steps.length,
              path: chainText(c),
              steps: c.steps.map((s) => ({
                site: s.node.site,
                name: s.node.name,
                kind: s.node.kind,
                via: s.via,
                trxids: s.trxids,
                disabled: s.disabled,
              })),
              end: c.end,
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
      ["SITE", "THREAD", "HOPS", "PATH"],
      chains.map((c) => [c.start.site, c.start.name, String(c.steps.length), chainText(c)]),
      format,
    );
    if (format === "tsv") return { text: table };
    const lines: string[] = [];
    if (chains.length) lines.push(table, "");
    const toText = target ? ` reaching ${target.site}/${target.name}` : "";
    lines.push(`[nc_paths: ${chains.length} chain${chains.length === 1 ? "" : "s"}${toText} from ${scope}]`);
    if (truncated) {
      lines.push(`[nc_paths: stopped at ${input.limit} chains; narrow with a thread, --to or --max-hops]`);
    }
    for (const s of skipped) lines.push(`[nc_paths: site ${s.site} left out: ${s.reason}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
