/**
 * `EDIBATCH`, the block every thread of a real 20.1 NetConfig carries (`IN_DATA {TYPE VERSION}`,
 * `OUT_DATA {HEADER TRIGGER {COUNT SCHEDULER TIMER} TYPE VERSION}`, nested over several lines), is
 * read, shown and compared key by key, never as one raw Tcl blob; and so is a nested block of a key
 * the schema does not know, when the writer laid it out as a keyed list.
 */
import { deepStrictEqual as assertEquals, doesNotMatch, match, ok as assert } from "node:assert/strict";
import { KeyedList, parseNetConfig } from "../../../tools/engine/netconfig/mod.ts";
import { renderTree } from "../../../tools/engine/netconfig/render.ts";
import { diffConfig } from "../../../tools/engine/diff.ts";
import { ncShowTool } from "../../../tools/engine/nc_show_tool.ts";
import { ncDiffInterfaceTool } from "../../../tools/engine/nc_diff_interface_tool.ts";
import {
  kl,
  processRecord,
  protocolRecord,
  q,
  type ThreadSpec,
  writeNetConfig,
  writeSite,
} from "../../support/nc_writer.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor } from "../support.ts";

const BASE: ThreadSpec = { name: "x12_out", process: "p1", type: "tcpip", host: "payer", port: 7001 };

function netconfig(...threads: ThreadSpec[]): string {
  return writeNetConfig({ who: "hci", date: "May 21, 2021 9:39:05 AM CDT" }, [
    processRecord("p1"),
    ...threads.map(protocolRecord),
  ]);
}

Deno.test("EDIBATCH as 20.1 writes it: nested keyed lists, read without issues on both writer styles", () => {
  const spec: ThreadSpec = {
    ...BASE,
    edibatch: { "OUT_DATA.TYPE": "x12", "OUT_DATA.TRIGGER.COUNT": "50", "OUT_DATA.HEADER": "ISA" },
  };
  const text = netconfig(spec);
  // The fixture really has the multi-line shape (not the one-line shape no real file has).
  match(text, /\{ EDIBATCH \{\n {8}\{ IN_DATA \{\n {12}\{ TYPE \{\} \}/);
  match(text, /\{ TRIGGER \{\n {16}\{ COUNT 50 \}/);
  for (const style of ["ide", "tcl"] as const) {
    const nc = parseNetConfig(
      style === "ide" ? text : writeNetConfig({ who: "hci", date: "May 21, 2021 9:39:05 AM CDT" }, [
        processRecord("p1"),
        protocolRecord(spec),
      ], { style }),
      { source: "NetConfig" },
    );
    assertEquals(nc.issues, [], style);
    const t = nc.protocol("x12_out")!;
    const eb = t.config.get("EDIBATCH");
    assert(eb instanceof KeyedList, `${style}: EDIBATCH is a keyed list`);
    assert(eb.get("OUT_DATA") instanceof KeyedList);
    assert((eb.get("OUT_DATA") as KeyedList).get("TRIGGER") instanceof KeyedList);
    assertEquals(t.config.at("EDIBATCH.OUT_DATA.TRIGGER.COUNT"), "50");
    assertEquals(t.config.at("EDIBATCH.OUT_DATA.TYPE"), "x12");
    assertEquals(t.config.at("EDIBATCH.IN_DATA.VERSION"), "");
  }
});

Deno.test("EDIBATCH: shown as an indented tree and compared by path", () => {
  const a = parseNetConfig(netconfig(BASE), { source: "a" }).protocol("x12_out")!.config;
  const b = parseNetConfig(
    netconfig({ ...BASE, edibatch: { "OUT_DATA.TRIGGER.COUNT": "50", "OUT_DATA.TYPE": "x12" } }),
    { source: "b" },
  ).protocol("x12_out")!.config;
  const tree = renderTree(b);
  match(
    tree,
    /^EDIBATCH\n {4}IN_DATA\n {8}TYPE \{\}\n {8}VERSION \{\}\n {4}OUT_DATA\n {8}HEADER \{\}\n {8}TRIGGER\n {12}COUNT 50\n/m,
  );
  doesNotMatch(tree, /EDIBATCH \{/);
  assertEquals(diffConfig(a, b), [
    { op: "~", path: "EDIBATCH.OUT_DATA.TRIGGER.COUNT", old: "{}", new: "50" },
    { op: "~", path: "EDIBATCH.OUT_DATA.TYPE", old: "{}", new: "x12" },
  ]);
});

Deno.test("a key the schema does not know, laid out as a nested keyed list, is shown and compared key by key", () => {
  // As a newer IDE might write a block this reader has no schema for.
  const block = (port: string) =>
    kl({ ENDPOINT: kl({ HOST: q("fhir.example.org"), PORT: port }), MODE: "rest" });
  const one = (port: string) =>
    parseNetConfig(
      netconfig({ ...BASE, extra: { ZZ_FHIR: block(port), ZZ_LIST: q("a b"), ZZ_PAIRS: "{{A 1} {B 2}}" } }),
      {
        source: "s",
      },
    ).protocol("x12_out")!.config;
  const a = one("443"), b = one("8443");
  // Unknown keys stay scalars (the schema does not guess), but the multi-line one reads as a tree.
  assertEquals(typeof a.get("ZZ_FHIR"), "string");
  const tree = renderTree(a);
  match(tree, /^ZZ_FHIR\n {4}ENDPOINT\n {8}HOST fhir\.example\.org\n {8}PORT 443\n {4}MODE rest$/m);
  // One-line values keep their text: a plain list, and a one-line list of pairs.
  match(tree, /^ZZ_LIST a b$/m);
  match(tree, /^ZZ_PAIRS \{A 1\} \{B 2\}$/m);
  assertEquals(diffConfig(a, b), [{ op: "~", path: "ZZ_FHIR.ENDPOINT.PORT", old: "443", new: "8443" }]);
  // A block on one side and a plain word on the other is still one change, as text.
  const c = parseNetConfig(
    netconfig({ ...BASE, extra: { ZZ_FHIR: q("none"), ZZ_LIST: q("a b"), ZZ_PAIRS: "{{A 1} {B 2}}" } }),
    {
      source: "s",
    },
  ).protocol("x12_out")!.config;
  const d = diffConfig(a, c);
  assertEquals(d.length, 1);
  assertEquals([d[0].op, d[0].path, d[0].new], ["~", "ZZ_FHIR", "none"]);
});

Deno.test("nc_show and nc_diff_interface: EDIBATCH by path, never one blob", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeSite(root, "edi", [
    processRecord("p1"),
    protocolRecord({ ...BASE, edibatch: { "OUT_DATA.TYPE": "x12", "OUT_DATA.TRIGGER.TIMER": "300" } }),
    protocolRecord({
      ...BASE,
      name: "x12_out_b",
      port: 7002,
      edibatch: { "OUT_DATA.TYPE": "x12", "OUT_DATA.TRIGGER.TIMER": "600" },
    }),
  ]);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const shown = await call(ncShowTool, {
    hciroot: root,
    site: "edi",
    thread: "x12_out",
    path: "EDIBATCH.OUT_DATA",
  }, ctx);
  assert(!shown.isError, shown.text);
  match(shown.text, /^TRIGGER\n {4}COUNT \{\}\n {4}SCHEDULER \{\}\n {4}TIMER 300$/m);
  const one = await call(
    ncShowTool,
    { hciroot: root, site: "edi", thread: "x12_out", path: "EDIBATCH.OUT_DATA.TRIGGER.TIMER" },
    ctx,
  );
  match(one.text, /^300$/m);
  const diff = await call(ncDiffInterfaceTool, {
    hciroot: root,
    site: "edi",
    thread: "x12_out",
    other: "x12_out_b",
  }, ctx);
  assert(!diff.isError, diff.text);
  match(diff.text, /EDIBATCH\.OUT_DATA\.TRIGGER\.TIMER: 300 -> 600/);
  doesNotMatch(diff.text, /IN_DATA \{/);
});
