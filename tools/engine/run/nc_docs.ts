/** nc_docs (spec, documentation helper): plain text, --onenote-table TSV rows, or --raw-tcl. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncDocsTool as def } from "../nc_docs_tool.ts";
import type { ncDocsTool } from "../nc_docs_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { type NcEntry, routeTargets } from "../netconfig/mod.ts";
import { RouteGraph } from "../paths.ts";
import { docThread, ONENOTE_COLUMNS, onenoteRow, threadText } from "../docs.ts";
import { listSnapshots, liveMatch } from "../revisions.ts";
import { readSiteInfo } from "../sites.ts";
import { resolveThread } from "../thread_ref.ts";

export async function run(input: InputOf<typeof ncDocsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    if (input.onenote_table && input.raw_tcl) {
      throw new EngineInputError("usage", "choose one of --onenote-table and --raw-tcl");
    }
    const engine = await engineFor(input, ctx);
    const ref = await resolveThread(
      engine,
      input.site,
      input.thread,
    );
    const { site, nc } = ref;
    const threads: NcEntry[] = ref.entry ? [ref.entry] : nc.protocols;
    if (input.raw_tcl) {
      if (ref.entry) return { text: nc.raw(ref.entry) };
      return { text: nc.text.replace(/^\uFEFF/, "").replace(/\r/g, "").trimEnd() };
    }
    const { loaded } = await engine.loadAll();
    if (!loaded.some((l) => l.site.name === site.name)) loaded.push({ site, nc });
    // Disabled routes are listed too, marked: a thread fed only by a disabled route says so.
    const feeders = new RouteGraph(loaded, { includeDisabled: true }).feeders();
    const targets = routeTargets(nc);
    const docs = threads.map((t) =>
      docThread(t, targets, feeders.get(`${site.name}\0${t.name.toLowerCase()}`) ?? [])
    );
    if (input.onenote_table) {
      return { text: [ONENOTE_COLUMNS.join("\t"), ...docs.map((d) => onenoteRow(nc, d))].join("\n") };
    }
    const parts: string[] = [];
    if (!ref.entry) {
      const info = await readSiteInfo(engine.fs, site).catch(() => undefined);
      const p = nc.prologue;
      const head = [
        `Site ${site.name}${info?.get("sitedescription") ? ` — ${info.get("sitedescription")}` : ""}`,
      ];
      if (info?.get("releasenum")) head.push(`  Release:      ${info.get("releasenum")}`);
      head.push(`  NetConfig:    ${engine.netConfigPath(site)}`);
      if (p) head.push(`  Saved:        ${p.date ?? "?"} by ${p.who ?? "?"}`);
      // Which saved version the live file is (the same text kept under revisions/ or version/).
      const snapshots = (await listSnapshots(engine.fs, site).catch(() => undefined))?.snapshots ?? [];
      const live = liveMatch(snapshots);
      if (live) {
        head.push(
          `  Live version: ${
            live.labels.length
              ? live.exact
                ? `the same as ${live.labels.join(" = ")}`
                : `the records of ${live.labels.join(" = ")} (only its prologue differs)`
              : snapshots.length > 1
              ? "not among the saved versions"
              : "no saved versions to compare (no revisions/ or version/ copies)"
          }`,
        );
      }
      head.push(
        `  Contents:     ${nc.protocols.length} threads, ${nc.processes.length} processes ` +
          `(${nc.processes.map((x) => x.name).join(", ")}), ${nc.destinations.length} inter-site destination${
            nc.destinations.length === 1 ? "" : "s"
          }`,
      );
      parts.push(head.join("\n"));
    }
    for (const d of docs) parts.push(threadText(nc, site.name, d, site.dir));
    return { text: parts.join("\n\n") };
  } catch (err) {
    return failure(err);
  }
}
