/**
 * Routes of a thread (research/cloverleaf.md 1.9, 1.10): `DATAXLATE` (and `REPLYXLATE`) is a list of
 * routes, each a TRXID with route details; each detail has a type (`raw`, `xlate`, `xslt`,
 * `generate`, ...), a destination list, an Xlate or XSLT file, and TPS proc lists.
 *
 * @module
 */
import { KeyedList } from "./keyed_list.ts";
import type { NcEntry } from "./parse.ts";
import { splitList } from "./tcl_list.ts";

/** One proc of a TPS block (`PROCS` with its parallel `PROCSCONTROL`). */
export interface TpsProc {
  name: string;
  enabled: boolean;
  /** Its ARGS element (a Tcl keyed list such as `{TABLE fin_class_map}`), trimmed; "" when none. */
  args: string;
}

export interface RouteDetail {
  /** 1-based position in ROUTE_DETAILS. */
  index: number;
  /** Lower-cased, as the engine's validator does. */
  type: string;
  /** DEST: one detail may fan out to several threads or destinations. */
  dests: string[];
  xlate?: string;
  xslt?: string;
  /** PROCS (raw, generate), PREPROCS and POSTPROCS (xlate, xslt). */
  procs: TpsProc[];
  preprocs: TpsProc[];
  postprocs: TpsProc[];
  /** DETAILS_ENABLED, default on. */
  enabled: boolean;
  offset: number;
  config: KeyedList;
}

export interface Route {
  /** Which list: `data` (DATAXLATE) or `reply` (REPLYXLATE). */
  kind: "data" | "reply";
  /** 1-based position in its list. */
  index: number;
  trxid: string;
  /** ROUTE_ENABLED, default on. */
  enabled: boolean;
  wildcard: boolean;
  details: RouteDetail[];
  offset: number;
  config: KeyedList;
}

/** The TRXID of the static route (all messages). */
export const STATIC_ROUTE = "_HCI_static_route_";

/** A Tcl list read leniently: a malformed one is split on white space rather than refused. */
export function words(text: string | undefined): string[] {
  if (text === undefined) return [];
  const t = text.trim();
  if (t === "") return [];
  if (!/[{}"\\]/.test(t)) return t.split(/\s+/);
  try {
    return splitList(t);
  } catch {
    return t.split(/\s+/);
  }
}

/**
 * The procs of a TPS block, with their enabled flags (empty PROCSCONTROL means all enabled) and
 * their ARGS (the parallel list, one element per proc).
 */
export function tpsProcs(block: KeyedList | undefined): TpsProc[] {
  if (!block) return [];
  const names = words(block.str("PROCS"));
  const control = words(block.str("PROCSCONTROL"));
  const args = words(block.str("ARGS"));
  return names.map((name, i) => ({
    name,
    enabled: (control[i] ?? "").toUpperCase() !== "DISABLED",
    args: (args[i] ?? "").trim(),
  }));
}

/**
 * Every word of a proc's ARGS, nested Tcl lists opened (keyed-list arguments included):
 * `{DEST stat_notify_out} {FLAGS {HH LL}}` gives DEST, stat_notify_out, FLAGS, HH, LL.
 */
export function argWords(text: string, depth = 0): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (depth < 4 && /[\s{}]/.test(w.trim())) out.push(...argWords(w, depth + 1));
    else if (w !== "") out.push(w);
  }
  return out;
}

/** A proc as shown: `name` or `name <ARGS>` (`tps_lookup {TABLE fin_class_map}`), `(disabled)` marked. */
export function procText(p: TpsProc): string {
  return (p.args ? `${p.name} ${p.args}` : p.name) + (p.enabled ? "" : "(disabled)");
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.trim().toLowerCase();
  if (v === "") return fallback;
  return !(v === "0" || v === "off" || v === "false" || v === "no");
}

function detailOf(d: KeyedList, index: number): RouteDetail {
  const xlate = d.str("XLATE")?.trim();
  const xslt = d.str("XSLT")?.trim();
  return {
    index,
    type: (d.str("TYPE") ?? "").trim().toLowerCase(),
    dests: words(d.str("DEST")),
    xlate: xlate ? xlate : undefined,
    xslt: xslt ? xslt : undefined,
    procs: tpsProcs(d.kl("PROCS")),
    preprocs: tpsProcs(d.kl("PREPROCS")),
    postprocs: tpsProcs(d.kl("POSTPROCS")),
    enabled: flag(d.str("DETAILS_ENABLED"), true),
    offset: d.firstOffset ?? 0,
    config: d,
  };
}

/**
 * A thread's routes in file order: DATAXLATE, then REPLYXLATE when `withReplies`.
 *
 * @example
 * ```ts
 * import type { NetConfig } from "./parse.ts";
 * declare const nc: NetConfig;
 * for (const r of routesOf(nc.protocol("adt_in")!)) console.log(r.trxid, r.details.map((d) => d.dests));
 * ```
 */
export function routesOf(entry: NcEntry, withReplies = false): Route[] {
  const out: Route[] = [];
  const lists: Array<["data" | "reply", string]> = withReplies
    ? [["data", "DATAXLATE"], ["reply", "REPLYXLATE"]]
    : [["data", "DATAXLATE"]];
  for (const [kind, key] of lists) {
    entry.config.list(key).forEach((r, i) => {
      out.push({
        kind,
        index: i + 1,
        trxid: (r.str("TRXID") ?? "").trim(),
        enabled: flag(r.str("ROUTE_ENABLED"), true),
        wildcard: (r.str("WILDCARD") ?? "").trim().toUpperCase() === "ON",
        details: r.list("ROUTE_DETAILS").map((d, j) => detailOf(d, j + 1)),
        offset: r.firstOffset ?? entry.offset,
        config: r,
      });
    });
  }
  return out;
}

/** Is the value a Tcl boolean that reads as on (1, yes, true, on)? */
export function isOn(value: string | undefined): boolean {
  return flag(value, false);
}
