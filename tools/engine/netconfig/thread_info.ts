/**
 * A thread's summary as operators read it: process, protocol type, where it connects or listens,
 * which way messages flow (inferred: the file has no direction key, research/cloverleaf.md 1.8),
 * SMAT file names and its routes.
 *
 * @module
 */
import type { NcEntry, NetConfig } from "./parse.ts";
import { isOn, routesOf } from "./routes.ts";

/**
 * `in`: the thread has routes (a source); `out`: it is only a route destination (or OUTBOUNDONLY);
 * `in+out`: both; `in?`/`out?`: only its name suggests it (`_in`, `ib_`, `_out`, `ob_`); `-`: unknown.
 */
export type Direction = "in" | "out" | "in+out" | "in?" | "out?" | "-";

export interface ThreadInfo {
  name: string;
  process: string;
  /** PROTOCOL.TYPE (`tcpip`, `pdl-tcpip`, `file`, `fileset`, `upoc`, ...). */
  type: string;
  host: string;
  port: string;
  /** PROTOCOL.ISSERVER = 1: the thread listens. */
  isServer: boolean;
  /** ICLSERVERPORT: the port other sites reach this thread on (public thread); empty if none. */
  iclPort: string;
  direction: Direction;
  /** SAVEMSGS.INFILE / OUTFILE when INSAVE / OUTSAVE is on. */
  smatIn: string;
  smatOut: string;
  routes: number;
  routesOff: number;
  /** AUTOSTART (default on). */
  autostart: boolean;
  line: number;
}

/** Names (lower-cased) of every thread or destination that some route of `nc` sends to. */
export function routeTargets(nc: NetConfig): Set<string> {
  const targets = new Set<string>();
  for (const p of nc.protocols) {
    for (const r of routesOf(p, true)) {
      for (const d of r.details) for (const dest of d.dests) targets.add(dest.toLowerCase());
    }
  }
  return targets;
}

export function threadInfo(entry: NcEntry, targets: ReadonlySet<string>): ThreadInfo {
  const c = entry.config;
  const proto = c.kl("PROTOCOL");
  const save = c.kl("SAVEMSGS");
  const routes = routesOf(entry);
  const hasRoutes = routes.length > 0;
  const isTarget = targets.has(entry.name.toLowerCase()) || isOn(c.str("OUTBOUNDONLY"));
  let direction: Direction;
  if (hasRoutes && isTarget) direction = "in+out";
  else if (hasRoutes || isOn(c.str("OBWORKASIB"))) direction = "in";
  else if (isTarget) direction = "out";
  else if (/(^ib_|_in$|_ib$|^in_)/i.test(entry.name)) direction = "in?";
  else if (/(^ob_|_out$|_ob$|^out_)/i.test(entry.name)) direction = "out?";
  else direction = "-";
  const autostart = c.str("AUTOSTART");
  return {
    name: entry.name,
    process: (c.str("PROCESSNAME") ?? "").trim(),
    type: (proto?.str("TYPE") ?? "").trim(),
    host: (proto?.str("HOST") ?? "").trim(),
    port: (proto?.str("PORT") ?? "").trim(),
    isServer: isOn(proto?.str("ISSERVER")),
    iclPort: (c.str("ICLSERVERPORT") ?? "").trim(),
    direction,
    smatIn: isOn(save?.str("INSAVE")) ? (save?.str("INFILE") ?? "").trim() : "",
    smatOut: isOn(save?.str("OUTSAVE")) ? (save?.str("OUTFILE") ?? "").trim() : "",
    routes: routes.length,
    routesOff: routes.filter((r) => !r.enabled).length,
    autostart: autostart === undefined || autostart.trim() === "" ? true : isOn(autostart),
    line: entry.line,
  };
}
