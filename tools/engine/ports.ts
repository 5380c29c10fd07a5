/**
 * Cross-site port problems of one engine root (one box): a port two threads listen on, a TCP client
 * (or inter-site destination) on this host whose port nothing here listens on, and listeners that no
 * thread or destination of the root reaches. Each names both ends, `site/thread`.
 *
 * A listener is a TCP thread with PROTOCOL.ISSERVER on (its PORT) or a thread's ICLSERVERPORT. A
 * client is a TCP thread with ISSERVER off whose HOST is this host (localhost, 127.x, ::1, empty, or a
 * name in `localHosts`), or a `destination` record with such a HOST. Inter-site destinations on other
 * hosts still reach a thread by its ICL port (as nc_paths follows them).
 *
 * @module
 */
import { coerceInt } from "../../core/clean.ts";
import type { LoadedSite } from "./engine.ts";
import { isOn } from "./netconfig/mod.ts";

export interface PortEnd {
  site: string;
  name: string;
  port: number;
  /** `listen` (PROTOCOL.PORT of a server), `icl` (ICLSERVERPORT), `client`, `destination`. */
  how: "listen" | "icl" | "client" | "destination";
  host?: string;
}

export interface PortProblems {
  /** Ports with more than one listening thread, with the clients that connect to them. */
  shared: Array<{ port: number; listeners: PortEnd[]; clients: PortEnd[] }>;
  /** Clients on this host whose port nothing listens on, with the nearest listener (10 ports or less). */
  unheard: Array<{ client: PortEnd; nearest?: PortEnd }>;
  /** Listeners nothing of this root reaches (fed from outside the engine, or a wrong port). */
  unreached: PortEnd[];
}

const LOCAL = new Set(["", "localhost", "127.0.0.1", "::1", "0.0.0.0", "localhost.localdomain"]);

function portOf(v: string | undefined): number | undefined {
  return coerceInt(v ?? "", { min: 1, max: 65535 });
}

/** `site/name`, the way every engine tool names a thread of another site. */
export function endName(e: PortEnd): string {
  return `${e.site}/${e.name}`;
}

/**
 * The port problems of a set of sites (an engine root's).
 *
 * @example
 * ```ts
 * import type { Engine } from "./engine.ts";
 * declare const engine: Engine;
 * const { shared, unheard, unreached } = portProblems((await engine.loadAll()).loaded);
 * ```
 */
export function portProblems(sites: LoadedSite[], localHosts: Iterable<string> = []): PortProblems {
  const local = new Set([...LOCAL, ...[...localHosts].map((h) => h.toLowerCase())]);
  const isLocal = (h: string) => local.has(h.toLowerCase()) || h.startsWith("127.");
  const listeners: PortEnd[] = [];
  const clients: PortEnd[] = [];
  for (const { site, nc } of sites) {
    for (const p of nc.protocols) {
      const proto = p.config.kl("PROTOCOL");
      const type = (proto?.str("TYPE") ?? "").trim().toLowerCase();
      const tcp = type === "tcpip" || type === "pdl-tcpip";
      const port = portOf(proto?.str("PORT"));
      const host = (proto?.str("HOST") ?? "").trim();
      const icl = portOf(p.config.str("ICLSERVERPORT"));
      const at = { site: site.name, name: p.name };
      if (tcp && port !== undefined && isOn(proto?.str("ISSERVER"))) {
        listeners.push({ ...at, port, how: "listen" });
      } else if (tcp && port !== undefined && isLocal(host)) {
        clients.push({ ...at, port, how: "client", host });
      }
      if (icl !== undefined) listeners.push({ ...at, port: icl, how: "icl" });
    }
    for (const d of nc.destinations) {
      const port = portOf(d.config.str("PORT"));
      const host = (d.config.str("HOST") ?? "").trim();
      if (port !== undefined) clients.push({ site: site.name, name: d.name, port, how: "destination", host });
    }
  }
  const byPort = new Map<number, PortEnd[]>();
  for (const l of listeners) byPort.set(l.port, [...(byPort.get(l.port) ?? []), l]);
  const shared: PortProblems["shared"] = [];
  for (const [port, ls] of [...byPort].sort((a, b) => a[0] - b[0])) {
    const threads = new Set(ls.map((l) => `${l.site}\0${l.name.toLowerCase()}`));
    if (threads.size < 2) continue;
    shared.push({
      port,
      listeners: ls,
      clients: clients.filter((c) => c.port === port && reaches(c, ls[0])),
    });
  }
  const unheard: PortProblems["unheard"] = [];
  const reached = new Set<string>();
  for (const c of clients) {
    const hit = (byPort.get(c.port) ?? []).filter((l) => reaches(c, l));
    for (const l of hit) reached.add(`${l.site}\0${l.name.toLowerCase()}`);
    if (hit.length || !isLocal(c.host ?? "")) continue;
    let nearest: PortEnd | undefined;
    for (const l of listeners) {
      const d = Math.abs(l.port - c.port);
      if (d <= 10 && (!nearest || d < Math.abs(nearest.port - c.port))) nearest = l;
    }
    unheard.push(nearest ? { client: c, nearest } : { client: c });
  }
  const unreached = listeners.filter((l) => !reached.has(`${l.site}\0${l.name.toLowerCase()}`)).filter(
    (l, i, all) => all.findIndex((x) => x.site === l.site && x.name === l.name) === i,
  );
  return { shared, unheard, unreached };
}

/**
 * Does a client reach a listener on its port? A TCP client reaches a server port or an ICL port of
 * another thread; a destination reaches an ICL port from anywhere, a server port only on this host
 * and in another site (nc_paths' rules).
 */
function reaches(c: PortEnd, l: PortEnd): boolean {
  if (c.port !== l.port || (c.site === l.site && c.name.toLowerCase() === l.name.toLowerCase())) return false;
  if (c.how === "client") return true;
  return l.how === "icl" || l.site !== c.site;
}

/** The problems as footer lines (`  ` indented), none when there are none. */
export function problemLines(p: PortProblems): string[] {
  const out: string[] = [];
  const who = (e: PortEnd) =>
    `${endName(e)}${e.how === "icl" ? " (ICL)" : e.how === "destination" ? " (destination)" : ""}`;
  for (const s of p.shared) {
    out.push(
      `  port ${s.port} has ${s.listeners.length} listeners on this box: ${
        s.listeners.map(who).join(" and ")
      }` +
        (s.clients.length
          ? `; connecting: ${s.clients.map(who).join(", ")}`
          : "; nothing here connects to it"),
    );
  }
  for (const u of p.unheard) {
    out.push(
      `  ${who(u.client)} connects to ${
        u.client.host || "localhost"
      }:${u.client.port}, where nothing here listens` +
        (u.nearest ? ` (nearest: ${who(u.nearest)} on ${u.nearest.port})` : ""),
    );
  }
  if (p.unreached.length) {
    out.push(
      `  listeners no thread or destination here reaches (fed from outside the engine, or a wrong port): ${
        p.unreached.map((l) => `${who(l)}:${l.port}`).join(", ")
      }`,
    );
  }
  return out;
}
