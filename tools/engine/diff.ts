/**
 * Key-by-key differences between two configurations of a thread (or any keyed list): paths like
 * `PROTOCOL.PORT`, routes matched by TRXID (`DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST`), other list
 * elements by position. A subtree present on one side only is one change, not one per leaf.
 *
 * @module
 */
import { COSMETIC_KEYS, KeyedList, type KlValue, structuredScalar } from "./netconfig/mod.ts";
import { toTcl } from "./netconfig/render.ts";

export interface Change {
  op: "+" | "-" | "~";
  path: string;
  old?: string;
  new?: string;
}

export interface DiffOptions {
  /** Include COORDS, BITMAP and the like. @default false */
  cosmetic?: boolean;
  /** Keys (upper-case, any depth) left out besides the cosmetic ones. */
  ignore?: ReadonlySet<string>;
}

/** Lists keyed by TRXID rather than by position. */
const ROUTE_LISTS = new Set(["DATAXLATE", "REPLYXLATE"]);

const MAX_SHOWN = 160;

/** A route as one line: `route (disabled): raw -> lab_out legacy_out; xlate a.xlt -> b`. */
function routeSummary(r: KeyedList): string {
  const off = ["0", "off", "false"].includes((r.str("ROUTE_ENABLED") ?? "").trim().toLowerCase());
  const details = r.list("ROUTE_DETAILS").map((d) => {
    const type = (d.str("TYPE") ?? "?").trim();
    const file = (d.str("XLATE") ?? d.str("XSLT") ?? "").trim();
    const dest = (d.str("DEST") ?? "").replace(/[{}]/g, "").trim();
    return `${type}${file ? ` ${file}` : ""}${dest ? ` -> ${dest}` : ""}`;
  });
  return `route${off ? " (disabled)" : ""}: ${details.join("; ") || "no details"}`;
}

/** A value as one line: scalars as written (white space collapsed), subtrees as Tcl text. */
export function summary(v: KlValue): string {
  if (v instanceof KeyedList && v.field("ROUTE_DETAILS")) return routeSummary(v);
  const s = (typeof v === "string" ? v : toTcl(v)).replace(/\s+/g, " ").trim();
  const t = s === "" ? "{}" : s;
  return t.length > MAX_SHOWN ? `${t.slice(0, MAX_SHOWN - 1)}…` : t;
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function listKeys(items: KeyedList[], byTrxid: boolean): string[] {
  const seen = new Map<string, number>();
  return items.map((item, i) => {
    if (!byTrxid) return `[${i + 1}]`;
    const id = (item.str("TRXID") ?? "").trim() || `#${i + 1}`;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? `[${id}]` : `[${id}#${n}]`;
  });
}

/**
 * The changes from `a` to `b`, in a stable order (a's order, then what only b has).
 *
 * @example
 * ```ts
 * import type { KeyedList } from "./netconfig/keyed_list.ts";
 * declare const oldThread: { config: KeyedList }, newThread: { config: KeyedList };
 * diffConfig(oldThread.config, newThread.config); // [{ op: "~", path: "PROTOCOL.PORT", old: "6000", new: "6001" }]
 * ```
 */
export function diffConfig(
  a: KlValue | undefined,
  b: KlValue | undefined,
  options: DiffOptions = {},
): Change[] {
  const out: Change[] = [];
  walk(a, b, "", "", out, options);
  return out;
}

function walk(
  a: KlValue | undefined,
  b: KlValue | undefined,
  path: string,
  key: string,
  out: Change[],
  o: DiffOptions,
): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) {
    out.push({ op: "+", path, new: summary(b!) });
    return;
  }
  if (b === undefined) {
    out.push({ op: "-", path, old: summary(a) });
    return;
  }
  if (typeof a === "string" && typeof b === "string") {
    if (norm(a) === norm(b)) return;
    // An unknown key's block laid out as a keyed list: compared key by key, not as one blob.
    const ka = structuredScalar(a), kb = structuredScalar(b);
    if (ka && kb) walk(ka, kb, path, key, out, o);
    else out.push({ op: "~", path, old: summary(a), new: summary(b) });
    return;
  }
  if (a instanceof KeyedList && b instanceof KeyedList) {
    const keys: string[] = [];
    const seen = new Set<string>();
    for (const f of [...a.fields, ...b.fields]) {
      const k = f.key.toUpperCase();
      if (seen.has(k)) continue;
      seen.add(k);
      keys.push(f.key);
    }
    for (const k of keys) {
      const up = k.toUpperCase();
      if (!o.cosmetic && COSMETIC_KEYS.has(up)) continue;
      if (o.ignore?.has(up)) continue;
      walk(a.get(k), b.get(k), path ? `${path}.${k}` : k, up, out, o);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const byTrxid = ROUTE_LISTS.has(key);
    const ka = listKeys(a, byTrxid), kb = listKeys(b, byTrxid);
    const ia = new Map(ka.map((k, i) => [k, a[i]]));
    const ib = new Map(kb.map((k, i) => [k, b[i]]));
    const order = [...ka, ...kb.filter((k) => !ia.has(k))];
    for (const k of order) walk(ia.get(k), ib.get(k), `${path}${k}`, "", out, o);
    return;
  }
  // One side a scalar, the other a structure (an unknown key read two ways): compare as text.
  const sa = summary(a), sb = summary(b);
  if (norm(sa) !== norm(sb)) out.push({ op: "~", path, old: sa, new: sb });
}

/**
 * The dotted form of a key path as diff lines write it, read against `config`: routes by TRXID and
 * other list elements by number in brackets (`DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST` becomes
 * `DATAXLATE.1.ROUTE_DETAILS.1.DEST`), so a line of nc_diff_interface can be shown with nc_show.
 * A path without brackets comes back as it is. When a bracket names no element, `dotted` is absent
 * and `near` names the elements there are (`DATAXLATE has [ADT_A01] [ADT_A03]`).
 *
 * @example
 * ```ts
 * import type { KeyedList } from "./netconfig/keyed_list.ts";
 * declare const config: KeyedList;
 * dottedPath(config, "DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST").dotted; // "DATAXLATE.1.ROUTE_DETAILS.1.DEST"
 * ```
 */
export function dottedPath(config: KeyedList, path: string): { dotted?: string; near?: string } {
  if (!path.includes("[")) return { dotted: path };
  const parts: string[] = [];
  let shown = "";
  let i = 0;
  while (i < path.length) {
    let key = "";
    while (i < path.length && path[i] !== "." && path[i] !== "[") key += path[i++];
    if (key !== "") parts.push(key), shown += (shown ? "." : "") + key;
    while (path[i] === "[") {
      const end = path.indexOf("]", i);
      if (end === -1) return { near: `${path}: a [ without its ]` };
      const selector = path.slice(i + 1, end).trim();
      i = end + 1;
      const list = config.at(parts.join("."));
      if (!Array.isArray(list)) return {};
      const n = Number(selector);
      const byTrxid = ROUTE_LISTS.has(key.toUpperCase());
      const names = listKeys(list, byTrxid);
      // By number, or a route by its TRXID (`[ADT_A01]`, the second of a repeated one `[ADT_A01#2]`).
      let at = /^\d+$/.test(selector) && n >= 1 && n <= list.length ? n - 1 : -1;
      if (at === -1) at = names.findIndex((k) => k.toLowerCase() === `[${selector}]`.toLowerCase());
      if (at === -1) {
        const what = byTrxid
          ? `by TRXID ${names.join(" ")}, or by number 1 to ${list.length}`
          : `1 to ${list.length}`;
        return { near: `${shown} has ${list.length} element${list.length === 1 ? "" : "s"}: ${what}` };
      }
      parts.push(String(at + 1));
      shown += names[at];
    }
    if (i < path.length) {
      if (path[i] !== ".") return {};
      i++;
    }
  }
  return { dotted: parts.join(".") };
}

/** One change per line: `~ PROTOCOL.PORT: 6000 -> 6001`, `+ DATAXLATE[ADT_A03]: {...}`. */
export function changeLine(c: Change): string {
  if (c.op === "~") return `~ ${c.path}: ${c.old} -> ${c.new}`;
  if (c.op === "+") return `+ ${c.path}: ${c.new}`;
  return `- ${c.path}: ${c.old}`;
}
