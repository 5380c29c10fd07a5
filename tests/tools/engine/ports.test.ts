/** tools/engine/ports.ts: the cross-site port problems of one box, with both ends named. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { portProblems, problemLines } from "../../../tools/engine/ports.ts";
import { loadedSite as site } from "../../support/loaded_site.ts";

Deno.test("port problems: shared listeners, unheard clients and destinations, unreached listeners", () => {
  const a = site("a", [
    { name: "in", type: "tcpip", isServer: true, port: 5000 },
    { name: "to_b", type: "tcpip", host: "127.0.0.1", port: 6000 },
    { name: "to_far", type: "tcpip", host: "far.example.org", port: 6500 },
  ], [["to_icl", "otherhost", 7000], ["to_gone", "localhost", 7777]]);
  const b = site("b", [
    { name: "b_in", type: "pdl-tcpip", isServer: true, port: 6000 },
    { name: "b_icl", type: "tcpip", isServer: true, port: 6100, icl: 7000 },
  ]);
  const c = site("c", [{ name: "c_in", type: "tcpip", isServer: true, port: 6000 }]);
  const p = portProblems([a, b, c]);
  assertEquals(problemLines(p), [
    "  port 6000 has 2 listeners on this box: b/b_in and c/c_in; connecting: a/to_b",
    "  a/to_gone (destination) connects to localhost:7777, where nothing here listens",
    "  listeners no thread or destination here reaches (fed from outside the engine, or a wrong port): a/in:5000",
  ]);
  // A client on another host is not this box's problem; an ICL port reached from anywhere counts.
  assertEquals(p.unheard.map((u) => u.client.name), ["to_gone"]);
  assertEquals(problemLines(portProblems([b])), [
    "  listeners no thread or destination here reaches (fed from outside the engine, or a wrong port): " +
    "b/b_in:6000, b/b_icl:6100",
  ]);
});
