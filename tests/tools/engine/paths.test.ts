import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { chainText, hopCount, RouteGraph, trxidText } from "../../../tools/engine/paths.ts";
import type { LoadedSite } from "../../../tools/engine/engine.ts";
import { loadedSite as site } from "../../support/loaded_site.ts";

const raw = (trxid: string, ...dest: string[]) => ({ trxid, details: [{ type: "raw" as const, dest }] });

function rows(graph: RouteGraph, s: string, t: string, opts = {}): string[] {
  return graph.trace({ site: s, name: t, kind: "thread" }, opts).chains.map((c) => chainText(c));
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
  assertEquals(fed.get("b\0icl_in"), ["a/in via to_b (clhost:7000)"]);
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
  // x's OFF route reaches z, whose only route is for R: OFF goes no further.
  assertEquals(rows(all, "a", "x"), ["x -> y -> x (cycle)", "x -> y -> z ~> w", "x ~> z"]);
  const r = all.trace({ site: "a", name: "x", kind: "thread" }, { limit: 2 });
  assertEquals([r.chains.length, r.truncated], [2, true]);
  // Same input, same rows, every time.
  assertEquals(rows(all, "a", "x"), rows(new RouteGraph([a], { includeDisabled: true }), "a", "x"));
  const step = all.trace({ site: "a", name: "x", kind: "thread" }).chains[1].steps[1];
  assertEquals([step.node.name, step.via, step.trxids, step.disabled], ["z", "route", ["R"], false]);
  assert(all.trace({ site: "a", name: "x", kind: "thread" }).chains[1].steps[2].disabled);
});

/**
 * The case: rad's ADT_A08 detail to pacs_adt_out is disabled while its ADT_A01 route to the
 * same thread is on. A chain carries what every hop lets through; the procs that can filter a hop
 * are written on it; generate and undefined ends keep their TRXID and hop.
 */
function adthubAndRad(): LoadedSite[] {
  const adthub = site("adthub", [
    {
      name: "reg_adt_in",
      type: "pdl-tcpip",
      isServer: true,
      port: 36001,
      inProcs: ["tps_check_msh"],
      routes: [
        raw("ADT_A01", "to_rad"),
        {
          trxid: "ADT_A08",
          details: [{ type: "raw", dest: ["to_rad"], procs: ["tps_hl_flags"], args: ["{FLAGS {HH LL}}"] }],
        },
        raw("ADT_A03", "gone_out"),
        {
          trxid: "ORM_O01",
          details: [{ type: "generate", procs: ["gen_stat"], args: ["{DEST stat_notify_out}"] }],
        },
        { trxid: "ORU_R01", details: [{ type: "generate", procs: ["gen_dyn"] }] },
      ],
    },
    { name: "stat_notify_out", type: "file", outProcs: ["tps_stat_fmt"] },
  ], [["to_rad", "localhost", 37001]]);
  const rad = site("rad", [
    {
      name: "rad_adt_in",
      type: "tcpip",
      isServer: true,
      port: 36201,
      icl: 37001,
      routes: [
        raw("ADT_A01", "pacs_adt_out"),
        {
          trxid: "ADT_A08",
          details: [{ type: "raw", dest: ["pacs_adt_out"], enabled: false }, {
            type: "raw",
            dest: ["ris_out"],
          }],
        },
      ],
    },
    { name: "pacs_adt_out", type: "tcpip", host: "pacs.example.org", port: 2575, outProcs: ["tps_pacs_ack"] },
    { name: "ris_out", type: "file" },
  ]);
  return [adthub, rad];
}

Deno.test("route chains: a chain carries what every hop lets through; procs and ends", () => {
  const g = new RouteGraph(adthubAndRad());
  const start = { site: "adthub", name: "reg_adt_in", kind: "thread" as const };
  const view = (chains: ReturnType<RouteGraph["trace"]>["chains"]) =>
    chains.map((c) => [c.carries.map(trxidText).join(","), hopCount(c), chainText(c)]);
  assertEquals(view(g.trace(start, { trxid: "ADT_A08" }).chains), [
    ["ADT_A08", 3, "reg_adt_in[tps_check_msh] -[tps_hl_flags]-> to_rad => rad/rad_adt_in -> rad/ris_out"],
  ]);
  assertEquals(view(g.trace(start).chains), [
    ["ADT_A01", 3, "reg_adt_in[tps_check_msh] -> to_rad => rad/rad_adt_in -> rad/pacs_adt_out[tps_pacs_ack]"],
    ["ADT_A08", 3, "reg_adt_in[tps_check_msh] -[tps_hl_flags]-> to_rad => rad/rad_adt_in -> rad/ris_out"],
    ["ADT_A03", 1, "reg_adt_in[tps_check_msh] -> gone_out (undefined)"],
    ["ORM_O01", 1, "reg_adt_in[tps_check_msh] -[generate:gen_stat]-> stat_notify_out[tps_stat_fmt]"],
    ["ORU_R01", 1, "reg_adt_in[tps_check_msh] -> (generate: gen_dyn)"],
  ]);
  // With disabled routes followed, the disabled detail is there, marked.
  const all = new RouteGraph(adthubAndRad(), { includeDisabled: true });
  assertEquals(view(all.trace(start, { trxid: "ADT_A0?" }).chains).slice(0, 3), [
    [
      "ADT_A01,ADT_A08(off)",
      3,
      // The proc runs on the ADT_A08 detail only: said on a hop taken for two TRXIDs.
      "reg_adt_in[tps_check_msh] -[tps_hl_flags for ADT_A08]-> to_rad => rad/rad_adt_in -> rad/pacs_adt_out[tps_pacs_ack]",
    ],
    ["ADT_A08", 3, "reg_adt_in[tps_check_msh] -[tps_hl_flags]-> to_rad => rad/rad_adt_in -> rad/ris_out"],
    ["ADT_A03", 1, "reg_adt_in[tps_check_msh] -> gone_out (undefined)"],
  ]);
  // A thread reached across sites with no route for what arrives ends the chain there.
  const [a, r] = adthubAndRad();
  const radA01Only = site("rad", [
    {
      name: "rad_adt_in",
      type: "tcpip",
      isServer: true,
      port: 36201,
      icl: 37001,
      routes: [raw("ADT_A01", "ris_out")],
    },
    { name: "ris_out", type: "file" },
  ]);
  assert(r.site.name === "rad");
  assertEquals(view(new RouteGraph([a, radA01Only]).trace(start, { trxid: "ADT_A08" }).chains), [
    [
      "ADT_A08",
      2,
      "reg_adt_in[tps_check_msh] -[tps_hl_flags]-> to_rad => rad/rad_adt_in (no route for ADT_A08)",
    ],
  ]);
  // One whose route is there but every detail is off says so, not "no route" (the model repeated it).
  const radA08Off = site("rad", [
    {
      name: "rad_adt_in",
      type: "tcpip",
      isServer: true,
      port: 36201,
      icl: 37001,
      routes: [raw("ADT_A01", "ris_out"), {
        trxid: "ADT_A08",
        details: [{ type: "raw", dest: ["ris_out"], enabled: false }],
      }],
    },
    { name: "ris_out", type: "file" },
  ]);
  assertEquals(view(new RouteGraph([a, radA08Off]).trace(start, { trxid: "ADT_A08" }).chains), [
    [
      "ADT_A08",
      2,
      "reg_adt_in[tps_check_msh] -[tps_hl_flags]-> to_rad => rad/rad_adt_in (its ADT_A08 route is there, every detail disabled)",
    ],
  ]);
  // A wildcard route lets through what its expression matches, whole.
  const w = site("w", [
    {
      name: "in",
      type: "file",
      routes: [{ trxid: "ADT_A0\\d", wildcard: true, details: [{ type: "raw", dest: ["out"] }] }],
    },
    { name: "out", type: "file" },
  ]);
  const wg = new RouteGraph([w]);
  const wStart = { site: "w", name: "in", kind: "thread" as const };
  assertEquals(view(wg.trace(wStart, { trxid: "ADT_A08" }).chains), [["ADT_A08", 1, "in -> out"]]);
  assertEquals(view(wg.trace(wStart, { trxid: "ADT_A10" }).chains), []);
  assertEquals(view(wg.trace(wStart).chains), [["ADT_A0\\d", 1, "in -> out"]]);
});
