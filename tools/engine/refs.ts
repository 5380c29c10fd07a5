/**
 * Where a site's NetConfig uses an Xlate, a Tcl proc or a table:
 * - Xlate: a route detail's XLATE (or XSLT), with or without the `.xlt` extension;
 * - proc: any TPS block's PROCS (inbound/outbound SMS, route procs, pre/post procs, UPoC read/write,
 *   start procs, reply generation, ...) and single-proc keys (`PROC`);
 * - table: a TPS block's ARGS naming it, and routes whose Xlate file (in the site's `Xlate/`)
 *   mentions it.
 * Paths name routes by TRXID, as the diffs do: `DATAXLATE[ADT_A01].ROUTE_DETAILS[1].PREPROCS`.
 *
 * @module
 */
import { argWords, KeyedList, type KlValue, type NetConfig, words } from "./netconfig/mod.ts";

export type RefKind = "xlate" | "proc" | "table";

export interface Ref {
  /** Record type and name (`protocol adt_in`, `process adt_proc`). */
  type: string;
  name: string;
  kind: RefKind;
  /** Where in the record. */
  path: string;
  /** For a table found through an Xlate: the Xlate. */
  via?: string;
  /** The proc's ARGS (a proc use), or the proc and ARGS naming the table (`tps_lookup {TABLE x}`). */
  args?: string;
}

type Visit = (path: string, key: string, value: string, parent: KeyedList) => void;

/** Visits every scalar of a configuration with its path (routes keyed by TRXID). */
export function walkScalars(value: KlValue, visit: Visit): void {
  const rec = (v: KlValue, path: string, key: string, parent: KeyedList | undefined) => {
    if (typeof v === "string") {
      if (parent) visit(path, key, v, parent);
      return;
    }
    if (Array.isArray(v)) {
      const seen = new Map<string, number>();
      v.forEach((item, i) => {
        let tag = `${i + 1}`;
        if (key === "DATAXLATE" || key === "REPLYXLATE") {
          const id = (item.str("TRXID") ?? "").trim() || `#${i + 1}`;
          const n = (seen.get(id) ?? 0) + 1;
          seen.set(id, n);
          tag = n === 1 ? id : `${id}#${n}`;
        }
        rec(item, `${path}[${tag}]`, "", undefined);
      });
      return;
    }
    for (const f of v.fields) rec(f.value, path ? `${path}.${f.key}` : f.key, f.key.toUpperCase(), v);
  };
  rec(value, "", "", undefined);
}

function baseName(file: string): string {
  return file.trim().toLowerCase().replace(/\.(xlt|xsl|xslt|tbl)$/, "");
}

/**
 * The references to `name` in one NetConfig. `xlateMentions(xlt)` says whether an Xlate file
 * mentions the table (the caller reads the files).
 */
export async function findRefs(
  nc: NetConfig,
  name: string,
  kinds: ReadonlySet<RefKind>,
  xlateMentions?: (xlate: string) => Promise<boolean>,
): Promise<Ref[]> {
  const refs: Ref[] = [];
  const want = baseName(name);
  const wantProc = name.trim().toLowerCase();
  const xlateCache = new Map<string, boolean>();
  for (const e of nc.entries) {
    if (e.type !== "protocol" && e.type !== "process") continue;
    const pending: Array<{ path: string; xlate: string }> = [];
    walkScalars(e.config, (path, key, value, parent) => {
      if ((key === "XLATE" || key === "XSLT") && value.trim() !== "") {
        if (kinds.has("xlate") && baseName(value) === want) {
          refs.push({ type: e.type, name: e.name, kind: "xlate", path });
        }
        if (kinds.has("table") && xlateMentions && key === "XLATE") {
          pending.push({ path, xlate: value.trim() });
        }
      }
      if (kinds.has("proc") && (key === "PROCS" || key === "PROC")) {
        const procs = words(value);
        const at = procs.findIndex((p) => p.toLowerCase() === wantProc);
        if (at >= 0) {
          const args = key === "PROCS" ? (words(parent.str("ARGS"))[at] ?? "").trim() : "";
          refs.push({
            type: e.type,
            name: e.name,
            kind: "proc",
            path: path.replace(/\.PROCS?$/, "") || path,
            ...(args ? { args } : {}),
          });
        }
      }
      if (kinds.has("table") && key === "ARGS" && value.trim() !== "") {
        // Each proc's own ARGS element, so the row names the proc that takes the table.
        const procs = words(parent.str("PROCS"));
        const elements = words(value);
        const hits: Array<{ a: string; p?: string }> = elements.map((a, i) => ({ a: a.trim(), p: procs[i] }))
          .filter(({ a }) => argWords(a).some((t) => baseName(t) === want));
        if (hits.length === 0 && argWords(value).some((t) => baseName(t) === want)) {
          hits.push({ a: "", p: undefined });
        }
        for (const { a, p } of hits) {
          const args = [p, a].filter((x) => x).join(" ");
          refs.push({
            type: e.type,
            name: e.name,
            kind: "table",
            path: path.replace(/\.ARGS$/, "") || path,
            ...(args ? { args } : {}),
          });
        }
      }
    });
    for (const p of pending) {
      let hit = xlateCache.get(p.xlate);
      if (hit === undefined) {
        hit = await xlateMentions!(p.xlate);
        xlateCache.set(p.xlate, hit);
      }
      if (hit) refs.push({ type: e.type, name: e.name, kind: "table", path: p.path, via: p.xlate });
    }
  }
  return refs;
}

/** Does Xlate text mention the table as a word (`sex_codes` or `sex_codes.tbl`)? */
export function mentionsTable(text: string, table: string): boolean {
  const t = baseName(table).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.])${t}(\\.tbl)?($|[^\\w])`, "im").test(text);
}
