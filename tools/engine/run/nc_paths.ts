/** nc_paths: route chains from a thread (or a site's entry threads) across sites. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncPathsTool as def } from "../nc_paths_tool.ts";
import type { ncPathsTool } from "../nc_paths_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { type Chain, chainText, type PathNode, RouteGraph } from "../paths.ts";
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
    let chains: Chain[] = [];
    let truncated = false;
    for (const s of starts) {
      const r = graph.trace(s, {
        maxHops: input.max_hops,
        limit: input.limit,
        target,
      }, chains);
      if (r.truncated) {
        truncated = true;
        break;
      }
    }
    // --trxid: the chains whose first route carries that TRXID (a pattern with * and ?).
    const trxid = input.trxid?.trim() || undefined;
    if (trxid !== undefined) {
      const re = new RegExp(
        `^${trxid.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`,
        "i",
      );
      chains = chains.filter((c) => entryTrxids(c).some((t) => re.test(t)));
    }
    if (format === "json") {
      return {
        text: JSON.stringify(
          {
            chains: chains.map((c) => ({
              site: c.start.site,
              thread: c.start.name,
              trxids: entryTrxids(c),
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
      ["SITE", "THREAD", "TRXID", "HOPS", "PATH"],
      chains.map((c) => [
        c.start.site,
        c.start.name,
        entryTrxids(c).join(",") || "-",
        String(c.steps.length),
        chainText(c),
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
    for (const s of skipped) lines.push(`[nc_paths: site ${s.site} left out: ${s.reason}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}

/** The TRXIDs of a chain's first route: the message types that enter it. */
function entryTrxids(c: Chain): string[] {
  return c.steps.find((s) => s.via === "route")?.trxids ?? [];
}
