/** list_sites: the sites of the engine root, with release and description from siteInfo. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { listSitesTool as def } from "../list_sites_tool.ts";
import type { listSitesTool } from "../list_sites_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { readSiteInfo } from "../sites.ts";
import { renderTable } from "../table.ts";

export async function run(input: InputOf<typeof listSitesTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const list = await engine.sites();
    const format = input.format;
    const rows = [];
    for (const site of list.sites) {
      const info = site.hasNetConfig ? await readSiteInfo(engine.fs, site).catch(() => undefined) : undefined;
      rows.push({
        site: site.name,
        release: info?.get("releasenum") ?? "",
        description: info?.get("sitedescription") ?? "",
        netconfig: site.hasNetConfig,
        dir: site.dir,
      });
    }
    const from = list.source === "server.ini"
      ? `${engine.fs.join(list.root, "server", "server.ini")} (environs)`
      : `folders of ${list.root} holding a NetConfig (no environs line in server/server.ini)`;
    if (format === "json") {
      return {
        text: JSON.stringify(
          { root: list.root, source: list.source, sites: rows, notes: list.notes },
          null,
          2,
        ),
      };
    }
    const table = renderTable(
      ["SITE", "RELEASE", "NETCONFIG", "DESCRIPTION", "PATH"],
      rows.map((r) => [r.site, r.release, r.netconfig ? "yes" : "no", r.description, r.dir]),
      format,
    );
    if (format === "tsv") return { text: table };
    const lines = [
      table,
      "",
      `[list_sites: ${rows.length} site${rows.length === 1 ? "" : "s"} from ${from}]`,
    ];
    for (const n of list.notes) lines.push(`[note: ${n}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
