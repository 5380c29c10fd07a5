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
import { argWords, KeyedList, type KlValue, type NetConfig, splitList, words } from "./netconfig/mod.ts";

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

/** How an Xlate file uses a name: as a table (`{ TBL sex_codes }`), as a Tcl proc it calls, both or neither. */
export interface XlateUse {
  table: boolean;
  proc: boolean;
}

/**
 * The references to `name` in one NetConfig. `xlateUses(xlt)` says how an Xlate file uses the name
 * (the caller reads the files).
 */
export async function findRefs(
  nc: NetConfig,
  name: string,
  kinds: ReadonlySet<RefKind>,
  xlateUses?: (xlate: string) => Promise<XlateUse>,
): Promise<Ref[]> {
  const refs: Ref[] = [];
  const want = baseName(name);
  const wantProc = name.trim().toLowerCase();
  const xlateCache = new Map<string, XlateUse>();
  for (const e of nc.entries) {
    if (e.type !== "protocol" && e.type !== "process") continue;
    const pending: Array<{ path: string; xlate: string }> = [];
    walkScalars(e.config, (path, key, value, parent) => {
      if ((key === "XLATE" || key === "XSLT") && value.trim() !== "") {
        if (kinds.has("xlate") && baseName(value) === want) {
          refs.push({ type: e.type, name: e.name, kind: "xlate", path });
        }
        if ((kinds.has("table") || kinds.has("proc")) && xlateUses && key === "XLATE") {
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
      let use = xlateCache.get(p.xlate);
      if (use === undefined) {
        use = await xlateUses!(p.xlate);
        xlateCache.set(p.xlate, use);
      }
      for (const kind of ["table", "proc"] as const) {
        if (use[kind] && kinds.has(kind)) {
          refs.push({ type: e.type, name: e.name, kind, path: p.path, via: p.xlate });
        }
      }
    }
  }
  return refs;
}

/** Keys of an Xlate operation whose values are Tcl code (the `xltp` UPoC style calls procs there). */
const XLATE_CODE_KEYS = new Set(["PRE", "POST", "CODE", "PROC", "TCL"]);

/**
 * How Xlate text uses `name`: as the table of a TABLE operation (`{ TBL sex_codes }`), or as a Tcl
 * proc called from the code of an operation (`{ PRE { xlt_pad_mrn } }`, `[xlt_pad_mrn $x]`). Text
 * that is not a list of operations falls back to a mention as a word, read as a table.
 *
 * @example
 * ```ts
 * const xlt = "{ { OP COPY } { PRE { xlt_pad_mrn } } }\n{ { OP TABLE } { TBL sex_codes } }\n";
 * xlateUse(xlt, "xlt_pad_mrn"); // { table: false, proc: true }
 * xlateUse(xlt, "sex_codes"); // { table: true, proc: false }
 * ```
 */
export function xlateUse(text: string, name: string): XlateUse {
  const body = text.replace(/^[\s\S]*?^end_prologue[ \t]*$/m, "");
  const want = baseName(name);
  const use: XlateUse = { table: false, proc: false };
  let ops: string[];
  try {
    ops = splitList(body);
  } catch {
    return { table: mentionsTable(text, name), proc: false };
  }
  const visit = (op: string, depth: number) => {
    let fields: string[];
    try {
      fields = splitList(op);
    } catch {
      return;
    }
    for (const f of fields) {
      let pair: string[];
      try {
        pair = splitList(f);
      } catch {
        continue;
      }
      if (pair.length !== 2) continue;
      const key = pair[0].toUpperCase();
      if (key === "TBL" && baseName(pair[1]) === want) use.table = true;
      else if (XLATE_CODE_KEYS.has(key) && callsProc(pair[1], want)) use.proc = true;
      // Nested operations (IF, ITERATE and the like hold operation lists of their own).
      else if (depth < 6 && pair[1].includes("{")) {
        try {
          for (const inner of splitList(pair[1])) visit(inner, depth + 1);
        } catch { /* not a list of operations */ }
      }
    }
  };
  for (const op of ops) visit(op, 0);
  return use;
}

/** True when Tcl code calls `proc` (as a command word: at the start of a line, after `;` or `[`). */
function callsProc(code: string, proc: string): boolean {
  const p = proc.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s;\\[{])${p}(?=$|[\\s;\\]}])`, "im").test(code);
}

/** Does Xlate text mention the table as a word (`sex_codes` or `sex_codes.tbl`)? */
export function mentionsTable(text: string, table: string): boolean {
  const t = baseName(table).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.])${t}(\\.tbl)?($|[^\\w])`, "im").test(text);
}
