/**
 * Route chains: where a message that enters a thread can go, hop by hop, across sites.
 *
 * The graph: a thread's routes (DATAXLATE details, in file order) lead to the threads and
 * `destination` records they name in the same NetConfig. Two kinds of hop leave a site:
 * - an inter-site `destination` record (HOST/PORT) reaches the thread of any site whose
 *   ICLSERVERPORT is that port, else a listening thread (PROTOCOL.ISSERVER 1) on that port in another
 *   site; with neither, the chain ends at `(remote HOST:PORT)`;
 * - a TCP client thread (tcpip or pdl-tcpip, ISSERVER 0) whose HOST is this engine host (localhost,
 *   127.x, ::1, empty, or a name given in `localHosts`) reaches the thread listening on its PORT.
 * A `generate` detail picks its destinations at run time (destination-based routing: its procs set
 * the destination); the chain ends there at `(generate: <procs>)`. A name defined nowhere ends at
 * `<name> (undefined)`.
 *
 * Enumeration is depth-first in file order, so the same files always give the same rows; a node
 * already on the current chain ends it with `(cycle)`; `maxHops` and `limit` bound the work.
 *
 * @module
 */
import { coerceInt } from "../../core/clean.ts";
import type { LoadedSite } from "./engine.ts";
import { isOn, type NcEntry, type NetConfig, routesOf } from "./netconfig/mod.ts";

export interface PathNode {
  site: string;
  name: string;
  kind: "thread" | "destination";
}

export type EndKind = "leaf" | "cycle" | "hop_limit" | "generate" | "undefined" | "remote" | "target";

export interface PathStep {
  node: PathNode;
  /** How the step was reached: a route (`route`), a cross-site hop (`cross`). */
  via: "route" | "cross";
  /** TRXIDs of the routes that lead here (route steps). */
  trxids: string[];
  /** The route or detail is disabled (only with includeDisabled). */
  disabled: boolean;
}

export interface Chain {
  start: PathNode;
  steps: PathStep[];
  /** Why the chain ends, with the text shown for it (`gen_orders_route`, `localhost:7999`). */
  end: { kind: EndKind; detail?: string };
}

export interface TraceOptions {
  /** @default 20 */
  maxHops?: number;
  /** Follow disabled routes and details too (marked). @default false */
  includeDisabled?: boolean;
  /** Only chains that reach this thread (they end there). */
  target?: { site: string; name: string };
  /** Stop after this many chains. @default 1000 */
  limit?: number;
  /** Host names (lower-case) that mean this engine host, besides localhost and 127.x. */
  localHosts?: Iterable<string>;
}

interface Edge {
  to?: PathNode;
  via: "route" | "cross";
  trxids: string[];
  disabled: boolean;
  /** A chain ending that is not a node. */
  terminal?: { kind: "generate" | "undefined" | "remote"; detail: string };
}

const LOCAL = ["", "localhost", "127.0.0.1", "::1", "0.0.0.0", "localhost.localdomain"];

function key(site: string, name: string): string {
  return `${site}\0${name.toLowerCase()}`;
}

/** A port number from NetConfig text (CR-stripped and coerced, as every integer read from a file). */
function portOf(v: string | undefined): number | undefined {
  return coerceInt(v ?? "", { min: 1, max: 65535 });
}

/**
 * The route graph of a set of sites.
 *
 * @example
 * ```ts
 * import type { Engine } from "./engine.ts";
 * declare const engine: Engine;
 * const graph = new RouteGraph((await engine.loadAll()).loaded);
 * const { chains } = graph.trace({ site: "adt", name: "adt_in", kind: "thread" });
 * ```
 */
export class RouteGraph {
  readonly sites: LoadedSite[];
  readonly includeDisabled: boolean;
  readonly #bySite = new Map<string, NetConfig>();
  readonly #local: Set<string>;
  readonly #edges = new Map<string, Edge[]>();
  #icl?: Map<number, PathNode[]>;
  #servers?: Map<number, PathNode[]>;

  constructor(sites: LoadedSite[], options: Pick<TraceOptions, "includeDisabled" | "localHosts"> = {}) {
    this.sites = sites;
    this.includeDisabled = options.includeDisabled ?? false;
    for (const s of sites) this.#bySite.set(s.site.name, s.nc);
    this.#local = new Set([...LOCAL, ...[...(options.localHosts ?? [])].map((h) => h.toLowerCase())]);
  }

  netconfig(site: string): NetConfig | undefined {
    return this.#bySite.get(site);
  }

  #listeners(): { icl: Map<number, PathNode[]>; servers: Map<number, PathNode[]> } {
    if (!this.#icl || !this.#servers) {
      const icl = new Map<number, PathNode[]>();
      const servers = new Map<number, PathNode[]>();
      const add = (m: Map<number, PathNode[]>, port: number, n: PathNode) => {
        const list = m.get(port);
        if (list) list.push(n);
        else m.set(port, [n]);
      };
      for (const { site, nc } of this.sites) {
        for (const p of nc.protocols) {
          const node: PathNode = { site: site.name, name: p.name, kind: "thread" };
          const iclPort = portOf(p.config.str("ICLSERVERPORT"));
          if (iclPort !== undefined) add(icl, iclPort, node);
          const proto = p.config.kl("PROTOCOL");
          const port = portOf(proto?.str("PORT"));
          if (port !== undefined && isOn(proto?.str("ISSERVER"))) add(servers, port, node);
        }
      }
      this.#icl = icl;
      this.#servers = servers;
    }
    return { icl: this.#icl, servers: this.#servers };
  }

  /** The entry of a node, or undefined. */
  entry(node: PathNode): NcEntry | undefined {
    const nc = this.#bySite.get(node.site);
    if (!nc) return undefined;
    return node.kind === "thread" ? nc.protocol(node.name) : nc.destination(node.name);
  }

  /** A node by site and name (a thread, else a destination record). */
  node(site: string, name: string): PathNode | undefined {
    const nc = this.#bySite.get(site);
    const p = nc?.protocol(name);
    if (p) return { site, name: p.name, kind: "thread" };
    const d = nc?.destination(name);
    if (d) return { site, name: d.name, kind: "destination" };
    return undefined;
  }

  /** Outgoing edges of a node, deduplicated by target, in file order. */
  edges(node: PathNode): Edge[] {
    const k = `${node.kind}\0${key(node.site, node.name)}`;
    const known = this.#edges.get(k);
    if (known) return known;
    const out: Edge[] = [];
    const byTarget = new Map<string, Edge>();
    const push = (e: Edge) => {
      const tk = e.to
        ? `${e.to.kind}\0${key(e.to.site, e.to.name)}`
        : `${e.terminal!.kind}\0${e.terminal!.detail}`;
      const seen = byTarget.get(tk);
      if (seen) {
        for (const t of e.trxids) if (!seen.trxids.includes(t)) seen.trxids.push(t);
        seen.disabled &&= e.disabled;
        return;
      }
      byTarget.set(tk, e);
      out.push(e);
    };
    const entry = this.entry(node);
    const nc = this.#bySite.get(node.site);
    if (entry && nc) {
      if (node.kind === "thread") {
        for (const r of routesOf(entry)) {
          if (!r.enabled && !this.includeDisabled) continue;
          for (const d of r.details) {
            if (!d.enabled && !this.includeDisabled) continue;
            const disabled = !r.enabled || !d.enabled;
            if (d.type === "generate") {
              const procs = d.procs.map((p) => p.name).join(" ") || "no procs";
              push({
                via: "route",
                trxids: [r.trxid],
                disabled,
                terminal: { kind: "generate", detail: procs },
              });
              continue;
            }
            for (const dest of d.dests) {
              const to = this.node(node.site, dest);
              if (to) push({ to, via: "route", trxids: [r.trxid], disabled });
              else {push({
                  via: "route",
                  trxids: [r.trxid],
                  disabled,
                  terminal: { kind: "undefined", detail: dest },
                });}
            }
          }
        }
        // A TCP client on this host reaches the thread listening on its port.
        const proto = entry.config.kl("PROTOCOL");
        const type = (proto?.str("TYPE") ?? "").trim().toLowerCase();
        const port = portOf(proto?.str("PORT"));
        const host = (proto?.str("HOST") ?? "").trim().toLowerCase();
        if (
          (type === "tcpip" || type === "pdl-tcpip") && !isOn(proto?.str("ISSERVER")) && port !== undefined &&
          (this.#local.has(host) || host.startsWith("127."))
        ) {
          for (const to of this.#listeners().servers.get(port) ?? []) {
            if (to.site === node.site && to.name === node.name) continue;
            push({ to, via: "cross", trxids: [], disabled: false });
          }
        }
      } else {
        // An inter-site destination: the ICL port's owner, else a listener on that port elsewhere.
        const port = portOf(entry.config.str("PORT"));
        const host = (entry.config.str("HOST") ?? "").trim();
        const { icl, servers } = this.#listeners();
        let targets = port === undefined ? [] : icl.get(port) ?? [];
        if (targets.length === 0 && port !== undefined) {
          targets = (servers.get(port) ?? []).filter((t) => t.site !== node.site);
        }
        for (const to of targets) push({ to, via: "cross", trxids: [], disabled: false });
        if (targets.length === 0) {
          push({
            via: "cross",
            trxids: [],
            disabled: false,
            terminal: { kind: "remote", detail: `${host || "?"}:${entry.config.str("PORT")?.trim() || "?"}` },
          });
        }
      }
    }
    this.#edges.set(k, out);
    return out;
  }

  /**
   * The threads of a site where chains start: threads with routes that nothing in the loaded sites
   * sends to. When every routed thread is fed from elsewhere and `fallback` is set, all routed
   * threads (`fedFromElsewhere` tells).
   */
  entryThreads(site: string, fallback = true): { nodes: PathNode[]; fedFromElsewhere: boolean } {
    const nc = this.#bySite.get(site);
    if (!nc) return { nodes: [], fedFromElsewhere: false };
    const fed = new Set<string>();
    for (const s of this.sites) {
      for (const p of s.nc.protocols) {
        for (const e of this.edges({ site: s.site.name, name: p.name, kind: "thread" })) {
          if (!e.to) continue;
          if (e.to.kind === "thread") fed.add(key(e.to.site, e.to.name));
          else for (const x of this.edges(e.to)) if (x.to) fed.add(key(x.to.site, x.to.name));
        }
      }
    }
    const routed = nc.protocols.filter((p) => routesOf(p).some((r) => r.enabled || this.includeDisabled));
    const starts = routed.filter((p) => !fed.has(key(site, p.name)));
    const fedFromElsewhere = starts.length === 0 && routed.length > 0;
    const chosen = fedFromElsewhere && fallback ? routed : starts;
    return { nodes: chosen.map((p) => ({ site, name: p.name, kind: "thread" as const })), fedFromElsewhere };
  }

  /**
   * Who sends to each thread: for every thread (key `site\0name` lower-cased), the sources as
   * `thread` (same site), `site/thread`, or `site/thread via dest` (an inter-site destination); a
   * source whose every route there is disabled (seen when the graph includes disabled routes) is
   * marked `(disabled)`.
   */
  feeders(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const add = (to: PathNode, label: string) => {
      const k = key(to.site, to.name);
      const list = out.get(k) ?? [];
      if (!list.includes(label)) list.push(label);
      out.set(k, list);
    };
    for (const s of this.sites) {
      for (const p of s.nc.protocols) {
        const from: PathNode = { site: s.site.name, name: p.name, kind: "thread" };
        for (const e of this.edges(from)) {
          if (!e.to) continue;
          const label = (to: PathNode) => (to.site === from.site ? from.name : `${from.site}/${from.name}`);
          const off = e.disabled ? " (disabled)" : "";
          if (e.to.kind === "thread") add(e.to, label(e.to) + off);
          else {
            for (const x of this.edges(e.to)) if (x.to) add(x.to, `${label(x.to)} via ${e.to.name}${off}`);
          }
        }
      }
    }
    return out;
  }

  /** Enumerates the chains from one node. */
  trace(
    start: PathNode,
    options: TraceOptions = {},
    into: Chain[] = [],
  ): { chains: Chain[]; truncated: boolean } {
    const maxHops = options.maxHops ?? 20;
    const limit = options.limit ?? 1000;
    const target = options.target ? key(options.target.site, options.target.name) : undefined;
    const steps: PathStep[] = [];
    const onPath = new Set<string>([`${start.kind}\0${key(start.site, start.name)}`]);
    let truncated = false;
    const emit = (end: Chain["end"]) => {
      if (into.length >= limit) {
        truncated = true;
        return;
      }
      if (target !== undefined && end.kind !== "target") return;
      into.push({ start, steps: [...steps], end });
    };
    const visit = (node: PathNode) => {
      if (truncated) return;
      if (target !== undefined && steps.length > 0 && key(node.site, node.name) === target) {
        emit({ kind: "target" });
        return;
      }
      const edges = this.edges(node);
      if (edges.length === 0) {
        emit({ kind: "leaf" });
        return;
      }
      if (steps.length >= maxHops) {
        emit({ kind: "hop_limit" });
        return;
      }
      for (const e of edges) {
        if (truncated) return;
        if (e.terminal) {
          emit({ kind: e.terminal.kind, detail: e.terminal.detail });
          continue;
        }
        const to = e.to!;
        const k = `${to.kind}\0${key(to.site, to.name)}`;
        steps.push({ node: to, via: e.via, trxids: e.trxids, disabled: e.disabled });
        if (onPath.has(k)) {
          emit({ kind: "cycle" });
        } else {
          onPath.add(k);
          visit(to);
          onPath.delete(k);
        }
        steps.pop();
      }
    };
    visit(start);
    return { chains: into, truncated };
  }
}

/**
 * A chain as one line: `adt_in -> adt_to_hub => hub/hub_from_adt -> ...`; nodes outside the start's
 * site are written `site/name`; `->` a route, `=>` a cross-site hop, `~>` a disabled route.
 */
export function chainText(c: Chain): string {
  const label = (n: PathNode) => (n.site === c.start.site ? n.name : `${n.site}/${n.name}`);
  let s = label(c.start);
  for (const step of c.steps) {
    s += step.via === "cross" ? " => " : step.disabled ? " ~> " : " -> ";
    s += label(step.node);
  }
  switch (c.end.kind) {
    case "cycle":
      return `${s} (cycle)`;
    case "hop_limit":
      return `${s} -> ... (hop limit)`;
    case "generate":
      return `${s} -> (generate: ${c.end.detail})`;
    case "undefined":
      return `${s} -> ${c.end.detail} (undefined)`;
    case "remote":
      return `${s} => (remote ${c.end.detail})`;
    default:
      return s;
  }
}
