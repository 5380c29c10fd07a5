/** nc_threads: one site's threads, one row each; without a site, every site's, with cross-site port problems. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncThreadsTool as def } from "../nc_threads_tool.ts";
import type { ncThreadsTool } from "../nc_threads_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { type Engine, engineFor, failure, type LoadedSite } from "../engine.ts";
import { type NcIssue, routeTargets, threadInfo } from "../netconfig/mod.ts";
import { type PortProblems, portProblems, problemLines } from "../ports.ts";
import { renderTable } from "../table.ts";

const COLUMNS = [
  "THREAD",
  "PROCESS",
  "TYPE",
  "HOST",
  "PORT",
  "SERVER",
  "ICL",
  "DIR",
  "SMAT_IN",
  "SMAT_OUT",
  "ROUTES",
  "OFF",
  "AUTO",
];

export async function run(input: InputOf<typeof ncThreadsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const siteArg = input.site;
    const format = input.format;
    const pattern = input.match === undefined ? undefined : globRegex(input.match);
    // No site: every site of the engine root (a SITE column), and the problems between them.
    const all = siteArg === undefined || siteArg.trim() === "";
    let sites: LoadedSite[];
    let skipped: Array<{ site: string; reason: string }> = [];
    if (all) ({ loaded: sites, skipped } = await engine.loadAll());
    else sites = [await engine.load(siteArg)];
    const per = sites.map(({ site, nc }) => {
      const targets = routeTargets(nc);
      const infos = nc.protocols.filter((p) => !pattern || pattern.test(p.name)).map((p) =>
        threadInfo(p, targets)
      );
      return { site: site.name, infos, issues: nc.issues as NcIssue[] };
    });
    // One site: the port problems it shares with the others (a shared port, a client nothing hears).
    const problems = all ? portProblems(sites) : await siteProblems(engine, sites[0].site.name);
    const count = per.reduce((n, s) => n + s.infos.length, 0);
    if (format === "json") {
      const body = all
        ? {
          sites: per.map((s) => ({ site: s.site, threads: s.infos, issues: s.issues })),
          problems,
          skipped,
        }
        : {
          site: sites[0].site.name,
          netconfig: engine.netConfigPath(sites[0].site),
          threads: per[0].infos,
          issues: per[0].issues,
          port_problems: problems,
        };
      return { text: JSON.stringify(body, null, 2) };
    }
    const rows = per.flatMap((s) =>
      s.infos.map((t) => [
        ...(all ? [s.site] : []),
        t.name,
        t.process,
        t.type,
        t.host || "-",
        t.port || "-",
        t.type.includes("tcp") ? (t.isServer ? "yes" : "no") : "-",
        t.iclPort || "-",
        t.direction,
        t.smatIn || "-",
        t.smatOut || "-",
        String(t.routes),
        String(t.routesOff),
        t.autostart ? "yes" : "no",
      ])
    );
    const table = renderTable(all ? ["SITE", ...COLUMNS] : COLUMNS, rows, format);
    if (format === "tsv") return { text: table };
    const scope = all ? `${sites.length} site${sites.length === 1 ? "" : "s"}` : `site ${sites[0].site.name}`;
    const lines = input.problems
      ? [`[nc_threads: ${count} thread${count === 1 ? "" : "s"} in ${scope}; only the port problems shown]`]
      : [table, "", `[nc_threads: ${count} thread${count === 1 ? "" : "s"} in ${scope}]`];
    const p = problemLines(problems);
    if (all) {
      lines.push(
        p.length
          ? "[cross-site port problems on this box (every site of the engine root):]"
          : "[no cross-site port problems]",
        ...p,
      );
    } else if (p.length) {
      lines.push(
        `[port problems of ${sites[0].site.name} on this box (nc_threads without a site lists all):]`,
        ...p,
      );
    } else if (input.problems) {
      lines.push(`[no port problems with an end in ${sites[0].site.name} on this box]`);
    }
    for (const s of per) {
      if (s.issues.length === 0) continue;
      lines.push(`[${s.issues.length} issue${s.issues.length === 1 ? "" : "s"} in ${s.site}/NetConfig:]`);
      for (const i of s.issues) lines.push(`  line ${i.line}: ${i.severity}: ${i.message}`);
    }
    for (const s of skipped) lines.push(`[nc_threads: site ${s.site} left out: ${s.reason}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}

/** The port problems with an end in `site`, listeners nothing reaches left out (most are fed from outside). */
async function siteProblems(engine: Engine, site: string): Promise<PortProblems> {
  const { loaded } = await engine.loadAll();
  const p = portProblems(loaded);
  return {
    shared: p.shared.filter((s) => [...s.listeners, ...s.clients].some((e) => e.site === site)),
    unheard: p.unheard.filter((u) => u.client.site === site || u.nearest?.site === site),
    unreached: [],
  };
}

/** A shell-style pattern (`*`, `?`), case-insensitive, whole name. */
export function globRegex(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}
