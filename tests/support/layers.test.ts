/**
 * The layer rules fail where they should: a synthetic graph with one planted violation of each kind
 * (a phi → ssh edge, a cycle between sibling folders, a reach into another folder's `_` file), so
 * the real-graph test (tests/integration/layers.test.ts) is known to be able to fail.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkLayers, type Edge } from "./layers.ts";

const CLEAN: Edge[] = [
  { from: "main.ts", to: "cli/manual.ts", kind: "lazy" },
  { from: "main.ts", to: "ssh/master.ts", kind: "type" },
  { from: "cli/agent/loop.ts", to: "phi/mod.ts", kind: "code" },
  { from: "cli/agent/request.ts", to: "prompts/system.md", kind: "code" },
  { from: "tools/registry.ts", to: "tools/engine/nc_show_tool.ts", kind: "code" },
  { from: "tools/engine/nc_show_tool.ts", to: "tools/types.ts", kind: "type" },
  { from: "tools/engine/run/nc_show.ts", to: "tools/engine/run/_lookup.ts", kind: "code" },
  { from: "tools/engine/run/_lookup.ts", to: "tools/engine/engine.ts", kind: "code" },
  { from: "tools/engine/engine.ts", to: "tools/engine/remote.ts", kind: "lazy" },
  { from: "tools/engine/remote.ts", to: "tools/ssh/remote_engine.ts", kind: "type" },
  { from: "tools/ssh/remote_engine.ts", to: "ssh/open.ts", kind: "code" },
  { from: "tools/files/run/grep_files.ts", to: "tools/files/run/_match_worker.ts", kind: "url" },
  { from: "phi/engine.ts", to: "phi/sidecar/client.ts", kind: "code" },
  { from: "phi/sidecar/client.ts", to: "phi/token.ts", kind: "code" },
  { from: "phi/_hl7.ts", to: "hl7/mod.ts", kind: "code" },
  { from: "hl7/schema.ts", to: "hl7/_schema_types.ts", kind: "code" },
  { from: "ssh/spawn.ts", to: "core/child_env.ts", kind: "code" },
  // Tests may import anything.
  { from: "tests/ssh/e2e.test.ts", to: "ssh/_bytes.ts", kind: "code" },
  { from: "tests/phi/corpus.test.ts", to: "bench/_gen_phi.ts", kind: "code" },
];

Deno.test("a graph that keeps the layers has no violation", () => {
  assertEquals(checkLayers(CLEAN), []);
});

Deno.test("a planted phi -> ssh edge, a folder cycle and a _ reach each fail", () => {
  const planted: Edge[] = [
    ...CLEAN,
    { from: "phi/engine.ts", to: "ssh/open.ts", kind: "code" },
    { from: "tools/engine/engine.ts", to: "tools/ssh/remote_engine.ts", kind: "lazy" },
    { from: "tools/ssh/remote_engine.ts", to: "tools/engine/engine_fs.ts", kind: "type" },
    { from: "tools/ssh/remote_engine.ts", to: "ssh/_bytes.ts", kind: "code" },
  ];
  assertEquals(checkLayers(planted), [
    // One witness import per folder pair: the first one met.
    "cycle: tools/engine <-> tools/ssh (via tools/engine/remote.ts -> tools/ssh/remote_engine.ts, " +
    "tools/ssh/remote_engine.ts -> tools/engine/engine_fs.ts)",
    "layer: phi/engine.ts -> ssh/open.ts (phi must not import ssh: main → cli → tools → phi, ssh, update → hl7 → core)",
    "private: tools/ssh/remote_engine.ts -> ssh/_bytes.ts (a _ file is private to ssh)",
  ]);
});

Deno.test("lower layers never import higher ones; source never imports tests or bench", () => {
  assertEquals(
    checkLayers([
      { from: "ssh/spawn.ts", to: "tools/bash/child_env.ts", kind: "code" },
      { from: "core/config.ts", to: "hl7/mod.ts", kind: "type" },
      { from: "hl7/parse.ts", to: "bench/_gen_hl7.ts", kind: "code" },
    ]),
    [
      "layer: core/config.ts -> hl7/mod.ts (core must not import hl7: main → cli → tools → phi, ssh, update → hl7 → core)",
      "layer: hl7/parse.ts -> bench/_gen_hl7.ts (source modules import only the source folders)",
      "layer: ssh/spawn.ts -> tools/bash/child_env.ts (ssh must not import tools: main → cli → tools → phi, ssh, update → hl7 → core)",
    ],
  );
});

Deno.test("a cycle around three sibling folders is found, not just a pair", () => {
  const out = checkLayers([
    { from: "cli/agent/loop.ts", to: "cli/model/client.ts", kind: "code" },
    { from: "cli/model/client.ts", to: "cli/auth/api_key.ts", kind: "code" },
    { from: "cli/auth/api_key.ts", to: "cli/agent/gate.ts", kind: "type" },
  ]);
  assertEquals(out, [
    "cycle: cli/agent <-> cli/auth <-> cli/model (via cli/agent/loop.ts -> cli/model/client.ts, " +
    "cli/auth/api_key.ts -> cli/agent/gate.ts, cli/model/client.ts -> cli/auth/api_key.ts)",
  ]);
});

Deno.test("a module cycle fails whether lazy() hides it or not; type-only imports make none", () => {
  // A group file loading the command table that imports it (the cycle issue #27 removed).
  const planted = checkLayers([
    { from: "cli/commands/table.ts", to: "cli/commands/general.ts", kind: "code" },
    { from: "cli/commands/general.ts", to: "cli/commands/table.ts", kind: "lazy" },
  ]);
  assertEquals(planted, [
    'module cycle: cli/commands/general.ts <-> cli/commands/table.ts (lazy() hides no cycle: ARCHITECTURE.md, "Rules")',
  ]);
  // A tool definition that loads its body, which re-exports the definition.
  assertEquals(
    checkLayers([
      { from: "tools/hl7/hl7_diff_tool.ts", to: "tools/hl7/run/hl7_diff.ts", kind: "lazy" },
      { from: "tools/hl7/run/hl7_diff.ts", to: "tools/hl7/hl7_diff_tool.ts", kind: "code" },
    ]).length,
    1,
  );
  assertEquals(
    checkLayers([
      { from: "cli/commands/table.ts", to: "cli/commands/types.ts", kind: "code" },
      { from: "cli/commands/types.ts", to: "cli/commands/table.ts", kind: "type" },
    ]),
    [],
  );
});

Deno.test("a folder with a mod.ts is reached through the files its mod.ts names", () => {
  const faces = { hl7: ["hl7/parse.ts", "hl7/screen.ts"] };
  assertEquals(
    checkLayers([
      { from: "tools/hl7/run/hl7_show.ts", to: "hl7/parse.ts", kind: "code" },
      { from: "tools/hl7/run/hl7_show.ts", to: "hl7/mod.ts", kind: "code" },
      { from: "hl7/diff.ts", to: "hl7/escape.ts", kind: "code" },
    ], faces),
    [],
  );
  // A planted reach past the face: hl7/escape.ts is not among what hl7/mod.ts re-exports.
  assertEquals(
    checkLayers([{ from: "phi/_hl7.ts", to: "hl7/escape.ts", kind: "code" }], faces),
    [
      "face: phi/_hl7.ts -> hl7/escape.ts (hl7/mod.ts does not re-export it: reach the folder through what its mod.ts names)",
    ],
  );
});
