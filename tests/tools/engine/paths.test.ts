import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { parseNetConfig } from "../../../tools/engine/netconfig/mod.ts";
import { chainText, RouteGraph } from "../../../tools/engine/paths.ts";
import type { LoadedSite } from "../../../tools/engine/engine.ts";
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  type Record3,
  type ThreadSpec,
  writeNetConfig,
} from "../../support/nc_writer.ts";

function site(
  name: string,
  threads: Array<Omit<ThreadSpec, "process">>,
  dests: Array<[string, string, number]> = [],
): LoadedSite {
  const records: Record3[] = [
    processRecord("p"),
    ...threads.map((t) => protocolRecord({ process: "p", ...t })),
    ...dests.map(([n, h, p]) => destinationRecord(n, h, p)),
  ];
  const nc = parseNetConfig(writeNetConfig({ who: "t", date: "May 2, 2021 5:30:00 PM CDT" }, records));
  assertEquals(nc.issues, []);
  return { site: { name, dir: `/r/${name}`, hasNetConfig: true }, nc };
}

const raw = (trxid: string, ...dest: string[]) => ({ trxid, details: [{ type: "raw" as const, dest }] });

function rows(graph: RouteGraph, s: string, t: string, opts = {}): string[] {
  return graph.trace({ site: s, name: t, kind: "thread" }, opts).chains.map(chainText);
}

Deno.test("route chains: fan-out, ICL destinations, TCP client to listener, markers", () => {
  const a = site("a", [
    {
      name: "in",
      type: "tcpip",
      isServer: true,
      port: 5000,
      routes: [
        raw("X", "out_local", "out_far", "to_b"),
        raw("Y", "ghost"),
        { trxid: "Z", details: [{ type: "generate", procs: ["gen1", "gen2"] }] },
        raw("W", "to_nowhere"),
      ],
    },
    { name: "out_local", type: "tcpip", host: "127.0.0.1", port: 6000 },
    { name: "out_far", type: "tcpip", host: "far.example.org", port: 6000 },
  ], [["to_b", "clhost", 7000], ["to_nowhere", "other.example.org", 7999]]);
  const b = site("b", [
    { name: "icl_in", type: "tcpip", isServer: true, port: 6100, icl: 7000, routes: [raw("X", "b_out")] },
    { name: "tcp_in", type: "tcpip", isServer: true, port: 6000, routes: [raw("X", "b_out")] },
    { name: "b_out", type: "file" },
  ]);
  const graph = new RouteGraph([a, b]);
  assertEquals(rows(graph, "a", "in"), [
    "in -> out_local => b/tcp_in -> b/b_out",
    "in -> out_far",
    "in -> to_b => b/icl_in -> b/b_out",
    "in -> ghost (undefined)",
    "in -> (generate: gen1 gen2)",
    "in -> to_nowhere => (remote other.example.org:7999)",
  ]);
  // A host named as this engine host is followed too.
  const named = new RouteGraph([a, b], { localHosts: ["FAR.example.org"] });
  assertEquals(rows(named, "a", "in")[1], "in -> out_far => b/tcp_in -> b/b_out");
  // Entry threads: the ones nothing sends to.
  assertEquals(graph.entryThreads("a").nodes.map((n) => n.name), ["in"]);
  assertEquals(graph.entryThreads("b"), {
    nodes: [{ site: "b", name: "icl_in", kind: "thread" }, { site: "b", name: "tcp_in", kind: "thread" }],
    fedFromElsewhere: true,
  });
  assertEquals(graph.entryThreads("b", false).nodes, []);
  const fed = graph.feeders();
  assertEquals(fed.get("b\0icl_in"), ["a/in via to_b"]);
  assertEquals(fed.get("b\0tcp_in"), ["a/out_local"]);
  assertEquals(fed.get("b\0b_out"), ["icl_in", "tcp_in"]);
});

Deno.test("route chains: a destination falls back to a listener on its port in another site", () => {
  const a = site("a", [{ name: "in", type: "file", routes: [raw("X", "d")] }], [["d", "h", 6500]]);
  const b = site("b", [{ name: "srv", type: "pdl-tcpip", isServer: true, port: 6500 }]);
  assertEquals(rows(new RouteGraph([a, b]), "a", "in"), ["in -> d => b/srv"]);
});

Deno.test("route chains: cycles end, hop limit, target, disabled routes, row limit, determinism", () => {
  const a = site("a", [
    {
      name: "x",
      type: "file",
      routes: [raw("R", "y"), { trxid: "OFF", enabled: false, details: [{ type: "raw", dest: ["z"] }] }],
    },
    { name: "y", type: "file", routes: [raw("R", "x", "z")] },
    {
      name: "z",
      type: "file",
      routes: [{ trxid: "R", details: [{ type: "raw", dest: ["w"], enabled: false }] }],
    },
    { name: "w", type: "file" },
  ]);
  const g = new RouteGraph([a]);
  assertEquals(rows(g, "a", "x"), ["x -> y -> x (cycle)", "x -> y -> z"]);
  assertEquals(rows(g, "a", "x", { maxHops: 1 }), ["x -> y -> ... (hop limit)"]);
  assertEquals(rows(g, "a", "x", { target: { site: "a", name: "Z" } }), ["x -> y -> z"]);
  const all = new RouteGraph([a], { includeDisabled: true });
  assertEquals(rows(all, "a", "x"), ["x -> y -> x (cycle)", "x -> y -> z ~> w", "x ~> z ~> w"]);
  const r = all.trace({ site: "a", name: "x", kind: "thread" }, { limit: 2 });
  assertEquals([r.chains.length, r.truncated], [2, true]);
  // Same input, same rows, every time.
  assertEquals(rows(all, "a", "x"), rows(new RouteGraph([a], { includeDisabled: true }), "a", "x"));
  const step = all.trace({ site: "a", name: "x", kind: "thread" }).chains[1].steps[1];
  assertEquals([step.node.name, step.via, step.trxids, step.disabled], ["z", "route", ["R"], false]);
  assert(all.trace({ site: "a", name: "x", kind: "thread" }).chains[1].steps[2].disabled);
});
