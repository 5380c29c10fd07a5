/** nc_refs: which threads use a given Xlate, Tcl proc or table. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRefsTool as def } from "../nc_refs_tool.ts";
import type { ncRefsTool } from "../nc_refs_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure, type LoadedSite } from "../engine.ts";
import { findRefs, type Ref, type RefKind, xlateUse } from "../refs.ts";
import { renderTable } from "../table.ts";
import { closestNames } from "../../../core/suggest.ts";
import { readProcIndex } from "../proc_index.ts";

export async function run(input: InputOf<typeof ncRefsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const name = input.name.trim();
    const kind = input.kind;
    const kinds = new Set<RefKind>(kind === "any" ? ["xlate", "proc", "table"] : [kind]);
    const format = input.format;
    let sites: LoadedSite[];
    let skipped: Array<{ site: string; reason: string }> = [];
    if (input.site) sites = [await engine.load(input.site)];
    else ({ loaded: sites, skipped } = await engine.loadAll());
    const rows: Array<Ref & { site: string }> = [];
    for (const { site, nc } of sites) {
      const mentions = async (xlate: string) => {
        const file = engine.fs.join(site.dir, "Xlate", xlate);
        try {
          return xlateUse(await engine.fs.readText(file), name);
        } catch {
          return { table: false, proc: false }; // a missing Xlate file uses nothing
        }
      };
      for (const r of await findRefs(nc, name, kinds, mentions)) rows.push({ ...r, site: site.name });
    }
    if (format === "json") return { text: JSON.stringify({ name, kind, refs: rows, skipped }, null, 2) };
    const table = renderTable(
      ["SITE", "THREAD", "KIND", "WHERE"],
      rows.map((r) => [
        r.site,
        r.type === "protocol" ? r.name : `${r.name} (${r.type})`,
        r.kind,
        (r.via ? `${r.path} (${r.via} uses it)` : r.path) +
        (r.args ? ` ${r.kind === "proc" ? "ARGS " : ""}${r.args}` : ""),
      ]),
      format,
    );
    if (format === "tsv") return { text: table };
    const threads = new Set(rows.map((r) => `${r.site}/${r.name}`)).size;
    const scope = input.site
      ? `site ${sites[0].site.name}`
      : `${sites.length} site${sites.length === 1 ? "" : "s"}`;
    const lines = rows.length ? [table, ""] : [];
    lines.push(
      `[nc_refs: ${rows.length} use${rows.length === 1 ? "" : "s"} of ${name} (${kind}) by ${threads} ` +
        `record${threads === 1 ? "" : "s"} in ${scope}]`,
    );
    if (rows.length === 0) {
      // Nothing uses it. A proc the sites' tclprocs indexes define is said to be there, unused;
      // else perhaps a typo: the closest names among the sites' Xlate, Tables and tclprocs files
      // (with their extension when the name has one) and the procs the indexes define.
      const known = new Set<string>();
      const defined: string[] = [];
      for (const { site } of sites) {
        if (!kinds.has("proc")) continue;
        const procs = await readProcIndex(engine.fs, site.dir);
        const def = procs.get(name);
        if (def) defined.push(`${site.name} tclprocs/${def.file} (${def.from})`);
        for (const p of procs.keys()) known.add(p);
      }
      if (defined.length) {
        lines.push(`[nc_refs: proc ${name} is defined in ${defined.join(", ")}, and no thread uses it]`);
      }
      for (const { site } of sites) {
        for (const dir of ["Xlate", "Tables", "tclprocs"]) {
          const entries = await engine.fs.list(engine.fs.join(site.dir, dir)).catch(() => []);
          for (const e of entries) {
            // Dot files (`tclprocs/.upocindex`) and index files are no names anyone means.
            if (e.name.startsWith(".") || /^(tclIndex|pkgIndex\.tcl)$/i.test(e.name)) continue;
            const n = /\.[^.]+$/.test(name) ? e.name : e.name.replace(/\.[^.]+$/, "");
            if (n !== "") known.add(n);
          }
        }
      }
      const near = defined.length ? [] : closestNames(name, [...known]);
      if (near.length) {
        lines.push(
          `[nc_refs: did you mean ${
            near.join(", ")
          }? (names of the sites' Xlate, Tables, tclprocs files and indexed procs)]`,
        );
      }
    }
    for (const s of skipped) lines.push(`[nc_refs: site ${s.site} left out: ${s.reason}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
