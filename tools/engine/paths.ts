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
import {
  argWords,
  isOn,
  type NcEntry,
  type NetConfig,
  routesOf,
  STATIC_ROUTE,
  type TpsProc,
  tpsProcs,
} from "./netconfig/mod.ts";

export interface PathNode {
  site: string;
  name: string;
  kind: "thread" | "destination";
}

export type EndKind =
  | "leaf"
  | "cycle"
  | "hop_limit"
  | "generate"
  | "undefined"
  | "remote"
  | "target"
  | "unrouted";

/**
 * One way a route hop is taken: a route detail of the TRXID (a literal, a wildcard regular
 * expression, or the static route) with the enabled TPS procs that can filter it (PREPROCS, PROCS,
 * POSTPROCS in that order; a `generate` detail's procs pick its destinations).
 */
export interface Way {
  trxid: string;
  wildcard: boolean;
  /** Its route or detail is off (only seen with includeDisabled). */
  disabled: boolean;
  /** Which is off: the whole route (ROUTE_ENABLED 0) or this detail (DETAILS_ENABLED 0). */
  off?: "route" | "detail";
  /** The detail's number in its route (1-based). */
  detail?: number;
  /** The detail's TYPE (raw, xlate, xslt, generate). */
  type: string;
  procs: TpsProc[];
}

/** A TRXID a chain carries: a literal, a wildcard (a whole-match regular expression), or all. */
export interface Carried {
  trxid: string;
  wildcard: boolean;
  /** Only a disabled route or detail somewhere on the chain lets it through. */
  disabled: boolean;
  /** The operator's --trxid (matched in any case), shown as typed. */
  asked?: string;
}

export interface PathStep {
  node: PathNode;
  /** How the step was reached: a route (`route`), a cross-site hop (`cross`). */
  via: "route" | "cross";
  /** TRXIDs of the route details that take this hop for what the chain carries. */
  trxids: string[];
  /** Every way this hop is taken for what the chain carries is disabled (only with includeDisabled). */
  disabled: boolean;
  /** The route details taking this hop (route steps), for what the chain carries. */
  ways: Way[];
  /**
   * The thread's own TPS on this hop: OUTBOUND (SMS.OUT_DATA) for a thread reached by a route,
   * INBOUND (SMS.IN_DATA) for a thread reached by a cross-site hop; enabled procs only.
   */
  procs: TpsProc[];
}

export interface Chain {
  start: PathNode;
  /** The start thread's inbound TPS (SMS.IN_DATA), enabled procs only. */
  startProcs: TpsProc[];
  steps: PathStep[];
  /**
   * Why the chain ends, with the text shown for it (`gen_orders_route`, `localhost:7999`). A
   * chain that ends on a hop with no node (generate, undefined, remote) has that hop as `hop`.
   */
  end: { kind: EndKind; detail?: string; hop?: { via: "route" | "cross"; ways: Way[]; disabled: boolean } };
  /** What the whole chain carries, hop by hop: the TRXIDs every route on it lets through. */
  carries: Carried[];
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
  /**
   * Only what carries this TRXID (`ADT_A08`, or a pattern with `*` and `?`): the chain starts
   * carrying it and every hop must let it through.
   */
  trxid?: string;
}

interface Edge {
  to?: PathNode;
  via: "route" | "cross";
  /** Route edges: the details that take it. Cross edges: none (they pass everything). */
  ways: Way[];
  /** A chain ending that is not a node. */
  terminal?: { kind: "generate" | "undefined" | "remote"; detail: string };
}

/** Every way of a route edge is disabled. */
function edgeDisabled(e: Edge): boolean {
  return e.ways.length > 0 && e.ways.every((w) => w.disabled);
}

const ALL_TRXIDS = new Set([STATIC_ROUTE.toLowerCase(), "_hci_static_else_route_"]);

function isAll(t: { trxid: string; wildcard: boolean }): boolean {
  return !t.wildcard && ALL_TRXIDS.has(t.trxid.toLowerCase());
}

const regexCache = new Map<string, RegExp | null>();

/** A wildcard route's TRXID as the engine reads it: a regular expression matching the whole id. */
function wildcardRe(c: { trxid: string; asked?: string }): RegExp | null {
  const k = `${c.asked === undefined ? "" : "i"}\0${c.trxid}`;
  let re = regexCache.get(k);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${c.trxid})$`, c.asked === undefined ? "" : "i");
    } catch {
      re = null;
    }
    regexCache.set(k, re);
  }
  return re;
}

/** The operator's --trxid (`ADT_A08`, `adt_a0*`: `*` and `?`, any case) as a carried TRXID. */
export function trxidFilter(text: string): Carried {
  const t = text.trim();
  const re = t.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return { trxid: re, wildcard: true, disabled: false, asked: t };
}

/** What passes both: a carried TRXID and a route's (undefined when nothing does). */
function meet(c: Carried, w: { trxid: string; wildcard: boolean; disabled: boolean }): Carried | undefined {
  const disabled = c.disabled || w.disabled;
  if (isAll(c)) return { trxid: w.trxid, wildcard: w.wildcard, disabled };
  if (isAll(w)) return { ...c, disabled };
  if (!c.wildcard && !w.wildcard) return c.trxid === w.trxid ? { ...c, disabled } : undefined;
  if (!c.wildcard) return wildcardRe(w)?.test(c.trxid) ? { ...c, disabled } : undefined;
  if (!w.wildcard) {
    return wildcardRe(c)?.test(w.trxid) ? { trxid: w.trxid, wildcard: false, disabled } : undefined;
  }
  if (c.asked !== undefined && !/[*?]/.test(c.asked)) {
    // The operator's plain TRXID against a wildcard route: the route's expression decides.
    const re = wildcardRe(w);
    const hit = [c.asked, c.asked.toUpperCase()].find((t) => re?.test(t));
    return hit === undefined ? undefined : { trxid: hit, wildcard: false, disabled };
  }
  // Two patterns: the route's own, when they are the same or cannot be compared.
  return { trxid: w.trxid, wildcard: true, disabled };
}

/** The carried set after a route hop: each carried TRXID met with each way; enabled wins a tie. */
function carryThrough(carried: Carried[], ways: Way[]): Carried[] {
  const out = new Map<string, Carried>();
  for (const c of carried) {
    for (const w of ways) {
      const m = meet(c, w);
      if (!m) continue;
      const k = `${m.wildcard ? "re" : "id"}\0${m.trxid}`;
      const seen = out.get(k);
      if (!seen || (seen.disabled && !m.disabled)) out.set(k, m);
    }
  }
  return [...out.values()];
}

/** The ways of a hop that take what the finished chain carries. */
function waysFor(ways: Way[], carries: Carried[]): Way[] {
  return ways.filter((w) => carries.some((c) => meet(c, w) !== undefined));
}

function enabledProcs(ps: TpsProc[]): TpsProc[] {
  return ps.filter((p) => p.enabled);
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
  /**
   * Why a thread reached across sites takes none of what arrives: it has no route for those
   * TRXIDs, or it has one whose route or every detail is disabled (said so: the model must not
   * read "no route" where there is one that is off).
   */
  #unroutedWhy(node: PathNode, carried: Carried[]): string {
    const ids = carried.map(trxidText).join(",");
    const entry = this.entry(node);
    const off = entry
      ? routesOf(entry).filter((r) =>
        (!r.enabled || r.details.every((d) => !d.enabled)) &&
        carried.some((c) => meet(c, { trxid: r.trxid, wildcard: r.wildcard, disabled: false }) !== undefined)
      )
      : [];
    if (off.length === 0) return `no route for ${ids}`;
    const r = off[0];
    return `its ${r.trxid} route is ${r.enabled ? "there, every detail disabled" : "disabled"}`;
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

  /** Outgoing edges of a node, deduplicated by target (their ways merged), in file order. */
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
        seen.ways.push(...e.ways);
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
            const way: Way = {
              trxid: r.trxid,
              wildcard: r.wildcard,
              disabled: !r.enabled || !d.enabled,
              ...(!r.enabled ? { off: "route" as const } : !d.enabled ? { off: "detail" as const } : {}),
              detail: d.index,
              type: d.type,
              procs: enabledProcs([...d.preprocs, ...d.procs, ...d.postprocs]),
            };
            if (d.type === "generate") {
              // Its procs pick the destinations at run time; the ones their ARGS name are followed.
              const named: PathNode[] = [];
              for (const p of way.procs) {
                for (const w of argWords(p.args)) {
                  const to = this.node(node.site, w);
                  if (to && !named.some((n) => n.kind === to.kind && n.name === to.name)) named.push(to);
                }
              }
              for (const to of named) push({ to, via: "route", ways: [{ ...way }] });
              if (named.length === 0) {
                const procs = way.procs.map((p) => p.name).join(" ") || "no procs";
                push({ via: "route", ways: [way], terminal: { kind: "generate", detail: procs } });
              }
              continue;
            }
            for (const dest of d.dests) {
              const to = this.node(node.site, dest);
              if (to) push({ to, via: "route", ways: [{ ...way }] });
              else push({ via: "route", ways: [{ ...way }], terminal: { kind: "undefined", detail: dest } });
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
            push({ to, via: "cross", ways: [] });
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
        for (const to of targets) push({ to, via: "cross", ways: [] });
        if (targets.length === 0) {
          push({
            via: "cross",
            ways: [],
            terminal: { kind: "remote", detail: `${host || "?"}:${entry.config.str("PORT")?.trim() || "?"}` },
          });
        }
      }
    }
    this.#edges.set(k, out);
    return out;
  }

  /** A thread's enabled TPS procs of one SMS block (IN_DATA, OUT_DATA). */
  tps(node: PathNode, block: "IN_DATA" | "OUT_DATA"): TpsProc[] {
    if (node.kind !== "thread") return [];
    return enabledProcs(tpsProcs(this.entry(node)?.config.kl("SMS")?.kl(block)));
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
   * `thread` (same site), `site/thread`, or `site/thread via dest (host:port)` (an inter-site
   * destination and its address); a
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
        // Replies a thread gets back, routed on by its REPLYXLATE, feed their destinations too.
        for (const r of routesOf(p, true)) {
          if (r.kind !== "reply") continue;
          for (const d of r.details) {
            const off = !r.enabled || !d.enabled ? " (disabled)" : "";
            if (off && !this.includeDisabled) continue;
            for (const dest of d.dests) {
              const t = s.nc.protocol(dest);
              if (t) {
                add({ site: s.site.name, name: t.name, kind: "thread" }, `${p.name} (its replies)${off}`);
              }
            }
          }
        }
        for (const e of this.edges(from)) {
          if (!e.to) continue;
          const label = (to: PathNode) => (to.site === from.site ? from.name : `${from.site}/${from.name}`);
          const off = edgeDisabled(e) ? " (disabled)" : "";
          if (e.to.kind === "thread") add(e.to, label(e.to) + off);
          else {
            // The destination's address too: what an operator checks on the wire.
            const d = s.nc.destination(e.to.name)?.config;
            const at = d ? ` (${d.str("HOST")?.trim() || "?"}:${d.str("PORT")?.trim() || "?"})` : "";
            for (const x of this.edges(e.to)) {
              if (x.to) add(x.to, `${label(x.to)} via ${e.to.name}${at}${off}`);
            }
          }
        }
      }
    }
    return out;
  }

  /**
   * Enumerates the chains from one node. A chain carries what every route on it lets through
   * (TRXIDs met hop by hop: a literal, a wildcard route's expression, the static route); a hop
   * whose routes let nothing of it through is not taken, and a thread reached across sites whose
   * routes take none of it ends the chain as `unrouted`.
   */
  trace(
    start: PathNode,
    options: TraceOptions = {},
    into: Chain[] = [],
  ): { chains: Chain[]; truncated: boolean } {
    const maxHops = options.maxHops ?? 20;
    const limit = options.limit ?? 1000;
    const target = options.target ? key(options.target.site, options.target.name) : undefined;
    const first: Carried[] = [
      options.trxid?.trim()
        ? trxidFilter(options.trxid)
        : { trxid: STATIC_ROUTE, wildcard: false, disabled: false },
    ];
    const startProcs = this.tps(start, "IN_DATA");
    const steps: PathStep[] = [];
    const onPath = new Set<string>([`${start.kind}\0${key(start.site, start.name)}`]);
    let truncated = false;
    const emit = (end: Chain["end"], carried: Carried[]) => {
      if (into.length >= limit) {
        truncated = true;
        return;
      }
      if (target !== undefined && end.kind !== "target") return;
      // Each hop keeps the ways (and their procs) that take what the whole chain carries.
      const shown = steps.map((s) => {
        if (s.via !== "route") return { ...s };
        const ways = waysFor(s.ways, carried);
        return {
          ...s,
          ways,
          trxids: uniq(ways.map((w) => w.trxid)),
          disabled: ways.every((w) => w.disabled),
        };
      });
      let hop = end.hop;
      if (hop && hop.via === "route") {
        const ways = waysFor(hop.ways, carried);
        hop = { ...hop, ways, disabled: ways.every((w) => w.disabled) };
      }
      into.push({ start, startProcs, steps: shown, end: { ...end, hop }, carries: carried });
    };
    const visit = (node: PathNode, carried: Carried[]) => {
      if (truncated) return;
      if (target !== undefined && steps.length > 0 && key(node.site, node.name) === target) {
        emit({ kind: "target" }, carried);
        return;
      }
      const edges = this.edges(node);
      if (edges.length === 0) {
        emit({ kind: "leaf" }, carried);
        return;
      }
      if (steps.length >= maxHops) {
        emit({ kind: "hop_limit" }, carried);
        return;
      }
      let taken = 0;
      for (const e of edges) {
        if (truncated) return;
        const next = e.via === "route" ? carryThrough(carried, e.ways) : carried;
        if (next.length === 0) continue;
        taken++;
        if (e.terminal) {
          emit({
            kind: e.terminal.kind,
            detail: e.terminal.detail,
            hop: { via: e.via, ways: e.ways, disabled: edgeDisabled(e) },
          }, next);
          continue;
        }
        const to = e.to!;
        const k = `${to.kind}\0${key(to.site, to.name)}`;
        steps.push({
          node: to,
          via: e.via,
          trxids: uniq(e.ways.map((w) => w.trxid)),
          disabled: edgeDisabled(e),
          ways: e.ways,
          procs: this.tps(to, e.via === "route" ? "OUT_DATA" : "IN_DATA"),
        });
        if (onPath.has(k)) {
          emit({ kind: "cycle" }, next);
        } else {
          onPath.add(k);
          visit(to, next);
          onPath.delete(k);
        }
        steps.pop();
      }
      if (taken === 0 && steps.length > 0) {
        // Routes here, none for what arrives: a thread reached across sites errors it out (no route
        // for its TRXID); one reached by a route sends it out of its protocol.
        const how = steps[steps.length - 1].via;
        emit(
          how === "cross" ? { kind: "unrouted", detail: this.#unroutedWhy(node, carried) } : { kind: "leaf" },
          carried,
        );
      }
    };
    visit(start, first);
    return { chains: into, truncated };
  }
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** A carried TRXID as shown (a wildcard's expression as written), `(off)` when only a disabled hop lets it through. */
export function trxidText(c: Carried): string {
  return (c.asked ?? c.trxid) + (c.disabled ? "(off)" : "");
}

/** The number of hops of a chain, the final hop to a generate, undefined or remote end included. */
export function hopCount(c: Chain): number {
  return c.steps.length + (c.end.hop ? 1 : 0);
}

/**
 * A chain as one line: `adt_in[tps_check] -> lab_out => lab/lab_in -> lab/lab_sys_out`; nodes
 * outside the start's site are written `site/name`; `->` a route, `=>` a cross-site hop, `~>` a
 * route whose every detail here is disabled. The TPS procs that can filter a message on the way
 * are written where they run (unless `procs` is "none"): a thread's inbound or outbound TPS as
 * `name[p1,p2]`, a route detail's procs on its arrow as `-[p1,p2]->` (`-[generate:p]->` for a
 * generate detail whose ARGS name the destination). With "hops" the start thread's own inbound
 * TPS is left to the caller (the same on every chain from it).
 */
export function chainText(c: Chain, procs: "all" | "hops" | "none" = "all"): string {
  const label = (n: PathNode) => (n.site === c.start.site ? n.name : `${n.site}/${n.name}`);
  const names = (ps: TpsProc[]) =>
    procs !== "none" && ps.length ? `[${uniq(ps.map((p) => p.name)).join(",")}]` : "";
  const arrow = (via: "route" | "cross", ways: Way[], disabled: boolean) => {
    if (via === "cross") return " => ";
    const shaft = disabled ? "~" : "-";
    const gen = ways.some((w) => w.type === "generate") ? "generate" : "";
    // A hop taken for several TRXIDs: a proc only some of their details run says for which.
    const all = uniq(ways.map((w) => w.trxid));
    const inner = procs === "none"
      ? ""
      : uniq(ways.flatMap((w) => w.procs.map((p) => p.name))).map((name) => {
        const by = uniq(ways.filter((w) => w.procs.some((p) => p.name === name)).map((w) => w.trxid));
        return all.length > 1 && by.length < all.length ? `${name} for ${by.join("+")}` : name;
      }).join(",");
    const label = [gen, inner].filter((x) => x).join(":");
    return label ? ` ${shaft}[${label}]${shaft}> ` : ` ${shaft}> `;
  };
  let s = label(c.start) + (procs === "all" ? names(c.startProcs) : "");
  for (const step of c.steps) {
    s += arrow(step.via, step.ways, step.disabled) + label(step.node) + names(step.procs);
  }
  const hop = c.end.hop;
  switch (c.end.kind) {
    case "cycle":
      return `${s} (cycle)`;
    case "hop_limit":
      return `${s} -> ... (hop limit)`;
    case "unrouted":
      return `${s} (${c.end.detail})`;
    case "generate":
      return `${s}${arrow("route", [], hop?.disabled ?? false)}(generate: ${c.end.detail})`;
    case "undefined":
      return `${s}${arrow("route", hop?.ways ?? [], hop?.disabled ?? false)}${c.end.detail} (undefined)`;
    case "remote":
      return `${s} => (remote ${c.end.detail})`;
    default:
      return s;
  }
}
