/** nc_threads: one site's threads, one row each. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncThreadsTool as def } from "../nc_threads_tool.ts";
import type { ncThreadsTool } from "../nc_threads_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { routeTargets, threadInfo } from "../netconfig/mod.ts";
import { renderTable } from "../table.ts";

export async function run(input: InputOf<typeof ncThreadsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const { site, nc } = await engine.load(input.site);
    const format = input.format;
    const targets = routeTargets(nc);
    const pattern = input.match === undefined ? undefined : globRegex(input.match);
    const infos = nc.protocols.filter((p) => !pattern || pattern.test(p.name)).map((p) =>
      threadInfo(p, targets)
    );
    if (format === "json") {
      return {
        text: JSON.stringify(
          {
            site: site.name,
            netconfig: engine.netConfigPath(site),
            threads: infos,
            issues: nc.issues,
          },
          null,
          2,
        ),
      };
    }
    const table = renderTable(
      [
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
      ],
      infos.map((t) => [
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
      ]),
      format,
    );
    if (format === "tsv") return { text: table };
    const lines = [
      table,
      "",
      `[nc_threads: ${infos.length} thread${infos.length === 1 ? "" : "s"} in site ${site.name}]`,
    ];
    if (nc.issues.length > 0) {
      lines.push(
        `[${nc.issues.length} issue${nc.issues.length === 1 ? "" : "s"} in ${site.name}/NetConfig:]`,
      );
      for (const i of nc.issues) lines.push(`  line ${i.line}: ${i.severity}: ${i.message}`);
    }
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}

/** A shell-style pattern (`*`, `?`), case-insensitive, whole name. */
export function globRegex(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}
