/**
 * The route-test plan and results, and nc_route_test on this machine: a real engine root written
 * by the regression fixture (tests/ssh/_regression_env.ts) with its stub hciroutetest (python3) in
 * the root's bin (which a local route test puts first on PATH), run through the real shell scripts the tool writes. Also: both tools are registered and
 * behind /nc-regression-env.
 */
import { deepStrictEqual as assertEquals, match, ok as assert, throws } from "node:assert/strict";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor, errorOf } from "../support.ts";
import { writeRegressionEngine } from "../../ssh/_regression_env.ts";
import { ncRouteTestTool } from "../../../tools/engine/nc_route_test_tool.ts";
import { findTool, TOOLS } from "../../../tools/registry.ts";
import { openEngine } from "../../../tools/engine/engine.ts";
import { traceChains } from "../../../tools/engine/routetest_run.ts";
import { batchFiles, bundleScript, planRouteTest } from "../../../tools/engine/routetest_plan.ts";
import { parseResults, ResultsError } from "../../../tools/engine/routetest_results.ts";
import { TEMPLATES } from "../../../cli/agent/templates.ts";
import { segmentOf, summaryText } from "../../../tools/engine/regression.ts";
import { hl7 } from "../../support/smat_writer.ts";
import { leaks, testEngine } from "../../phi/_support.ts";

const SPEC = { sites: ["adt", "hub"], inboundsPerSite: 2, messages: 5 };

/** Scratch folders of route tests in this process's temporary folder. */
function scratch(): Set<string> {
  const dir = Deno.env.get("TMPDIR") || "/tmp";
  return new Set(
    [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("assist-rt.")).map((e) => e.name),
  );
}

Deno.test("route-test plan: chains sharing a prefix share its stages; stages cross the site hop", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeRegressionEngine(root, { ...SPEC, extraRoute: true }, { source: true });
  const engine = openEngine(root, contextFor(`${tmp.path}/home`, tmp.path));
  const { loaded } = await engine.loadAll();
  const plan = planRouteTest({ site: "adt", thread: "in0" }, traceChains(loaded, "adt", "in0").chains);
  assertEquals(plan.chains.map((c) => c.text), [
    "in0 -> out_in0",
    "in0 -> fwd_in0 => hub/from_adt_0 -> hub/emr_adt_0",
    "in0 -> fwd_in0 => hub/from_adt_0 -> hub/arch_adt_0",
    "in0 -> audit_in0",
  ]);
  assertEquals(Object.keys(plan.stages).sort(), ["adt.in0", "adt.in0/fwd_in0/hub.from_adt_0"]);
  assertEquals(plan.stages["adt.in0/fwd_in0/hub.from_adt_0"].from, { stage: "adt.in0", dest: "fwd_in0" });
  assertEquals(plan.chains[1].final, { stage: "adt.in0/fwd_in0/hub.from_adt_0", dest: "emr_adt_0" });
  assertEquals(plan.chains[0].final, { stage: "adt.in0", dest: "out_in0" });
  // The bundle recreates every file exactly, messages with CR inside included.
  const files = batchFiles([{ key: "adt.in0", plan, messages: ["MSH|^~\\&|A\rPID|1||X'Y\r"] }]);
  const bundle = bundleScript(files);
  const dir = `${tmp.path}/unpacked`;
  await Deno.mkdir(dir);
  const out = await new Deno.Command("sh", { args: [`-c`, `sh -s "$0" < /dev/stdin`, dir], stdin: "piped" })
    .spawn();
  const w = out.stdin.getWriter();
  await w.write(new TextEncoder().encode(bundle));
  await w.close();
  assertEquals((await out.status).code, 0);
  for (const [path, text] of files) assertEquals(await Deno.readTextFile(`${dir}/${path}`), text, path);
  assertEquals(
    await Deno.readTextFile(`${dir}/inbounds/adt.in0/messages/0001.hl7`),
    "MSH|^~\\&|A\rPID|1||X'Y\r\n",
  );
});

Deno.test("route-test results: byte-counted frames; torn or unsafe frames are refused", () => {
  const enc = new TextEncoder();
  const ok = parseResults(enc.encode("#@ 3 out/a/0001/x.hl7\nabc#@ 0 out/a/0001/rc\n"));
  assertEquals(ok.map((f) => [f.path, new TextDecoder().decode(f.bytes)]), [["a/0001/x.hl7", "abc"], [
    "a/0001/rc",
    "",
  ]]);
  throws(() => parseResults(enc.encode("#@ 9 out/a/x\nabc")), ResultsError);
  throws(() => parseResults(enc.encode("#@ 1 out/a/../../etc/x\nz")), ResultsError);
  throws(() => parseResults(enc.encode("garbage\n")), ResultsError);
});

Deno.test("nc_route_test on this machine: outputs per hop and destination, dry run, missing hciroutetest", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeRegressionEngine(root, SPEC, { source: true });
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const log = `${root}/routetest.log`;
  const before = scratch();
  const noneLeft = () => assertEquals([...scratch()].filter((n) => !before.has(n)), []);
  const calls = async () =>
    (await Deno.readTextFile(log).catch(() => "")).split("\n").filter((l) => l).length;
  {
    const dry = await call(ncRouteTestTool, {
      thread: "in0.adt",
      hciroot: root,
      dry_run: true,
      output: "dry",
    }, ctx);
    assert(!dry.isError, dry.text);
    match(dry.text, /dry run: nothing was run on this machine/);
    assertEquals(await calls(), 0);
    match(
      await Deno.readTextFile(`${tmp.path}/dry/routetest/inbounds/adt.in0/chains/02/commands.sh`),
      /stage hub from_adt_0 "\$out\/adt\.in0\/fwd_in0\.hl7"/,
    );
    // Each stage runs in its site's folder as the engine root lists it (server.ini may put it anywhere).
    assert(
      (await Deno.readTextFile(`${tmp.path}/dry/routetest/inbounds/adt.in0/chains/02/commands.sh`))
        .includes(`"$out/adt.in0/fwd_in0/hub.from_adt_0" '${root}/hub'`),
    );
    match(await Deno.readTextFile(`${tmp.path}/dry/plan.md`), /## Chain 02/);

    const r = await call(ncRouteTestTool, {
      thread: "in1",
      site: "adt",
      hciroot: root,
      count: 4,
      output: "run",
    }, ctx);
    assert(!r.isError, r.text);
    // in1 archives as .idx/.msg: the sample came from the file pair.
    match(r.text, /route test of adt\/in1 on this machine: 3 chains, 4 messages/);
    match(r.text, /chain 01: 4 to out_in1/);
    match(r.text, /chain 02: 2 to emr_adt_1; 2 messages routed nowhere on this chain/);
    // One route test per stage and message: adt/in1 four times, hub/from_adt_1 for the two A01s.
    assertEquals(await calls(), 6);
    const msgs = [...Deno.readDirSync(`${tmp.path}/run/outputs/adt.in1`)].map((e) => e.name).sort();
    assertEquals(msgs, ["0001", "0002", "0003", "0004"]);
    const out = await Deno.readTextFile(`${tmp.path}/run/outputs/adt.in1/0002/adt.in1/out_in1.hl7`);
    assert(out.startsWith("MSH|") && out.endsWith("\n") && out.includes("\rPID|"), out);
    noneLeft();

    await Deno.remove(`${root}/bin/hciroutetest`);
    const missing = errorOf(
      await call(ncRouteTestTool, { thread: "in0.adt", hciroot: root, output: "none" }, ctx),
    );
    assertEquals(missing.error, "route_test_failed");
    assertEquals(
      missing.message,
      "route test not run: local: hciroutetest is not on the engine environment's PATH",
    );
    noneLeft();

    const busy = errorOf(
      await call(ncRouteTestTool, { thread: "in0.adt", hciroot: root, output: "run" }, ctx),
    );
    assertEquals(busy.error, "output_not_empty");
    const unknown = errorOf(await call(ncRouteTestTool, { thread: "nope.adt", hciroot: root }, ctx));
    assertEquals(unknown.error, "unknown_thread");
  }
});

Deno.test("nc_route_test and nc_regression are registered and behind /nc-regression-env", () => {
  assert(findTool("nc_route_test"));
  assert(findTool("nc_regression"));
  const names = new Set(TOOLS.map((t) => t.name));
  const named: string[] = [...(TEMPLATES["nc-regression-env"].match(/\bnc_\w+|\bhl7_\w+/g) ?? [])];
  assert(named.includes("nc_regression"));
  for (const n of named) assert(names.has(n), `${n} is named by the template but not registered`);
  const params = findTool("nc_regression")!.params.map((p) => p.name);
  for (const p of ["source_ssh_alias", "target_ssh_alias", "from_phase", "dry_run", "ignore"]) {
    assert(params.includes(p));
  }
});

Deno.test("regression summary: differing values stand in their segments, so the PHI gate tokenizes them", async () => {
  const source = hl7("ADT^A01", 3, Date.UTC(2026, 10, 20));
  const pid = segmentOf(source, "PID.5.1");
  assert(pid.startsWith("PID|"), pid);
  const family = pid.split("|")[5].split("^")[0];
  const target = source.replace(`|${family}^`, "|CHANGEDNAME^");
  assertEquals(segmentOf(target, "PID.5.1").split("|")[5].split("^")[0], "CHANGEDNAME");
  assertEquals(segmentOf(source, "OBX[2].5"), "");
  const params = {
    source: "prod",
    target: "test",
    count: 1,
    ignore: [],
    maxHops: 20,
    dryRun: false,
  };
  const text = summaryText(
    params,
    { sites: { source: ["adt"], target: ["adt"] }, inbounds: [], config: [], problems: [] },
    {
      dests: [{
        inbound: "adt/in0",
        chain: "in0 -> out_in0",
        dest: "out_in0",
        site: "adt",
        compared: 1,
        same: 0,
        differ: 1,
        onlySource: 0,
        onlyTarget: 0,
        fields: [{
          path: "PID.5.1",
          count: 1,
          example: { message: "0001", source: pid, target: segmentOf(target, "PID.5.1") },
        }],
      }],
      notCompared: [],
      ignored: ["MSH.7", "MSH.10"],
    },
    [],
    "/runs/r1",
  );
  match(text, /## Configuration\n\n- source: prod \(sites: adt\)\n- target: test \(sites: adt\)/);
  match(text, /\| adt\/in0 \| out_in0 \| DIFFERS \| 1 \| 0 \| 1 \| 0 \| 0 \|/);
  assert(text.includes(family) && text.includes("CHANGEDNAME"), "the file on disk holds the values");
  await using h = await testEngine("on");
  const gated = (await h.engine.sanitizeToolResult(text, "nc_regression")).text;
  assert(!leaks(gated, family), gated);
  assert(!leaks(gated, "CHANGEDNAME"), gated);
  match(gated, /- PID\.5\.1: 1 time\(s\); e\.g\. sample message 1:\n {6}source: PID\|1\|\|/);
});

Deno.test("nc_regression: bad input is one clear error before any host is asked", async () => {
  await using tmp = await tempDir();
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const tool = findTool("nc_regression")!;
  const err = async (input: Record<string, unknown>) => errorOf(await call(tool, input, ctx));
  assertEquals(
    (await err({ source_ssh_alias: "prod" })).message,
    "give both source_ssh_alias and target_ssh_alias",
  );
  assertEquals(
    (await err({ source_ssh_alias: "prod", target_ssh_alias: "prod" })).message,
    "source and target are the same alias",
  );
  assertEquals(
    (await err({ source_ssh_alias: "prod", target_ssh_alias: "user@host" })).message,
    '"user@host" is not an SSH alias (ssh_status lists them)',
  );
  match(
    (await err({ source_ssh_alias: "a", target_ssh_alias: "b", ignore: ["PID.x"] })).message,
    /^--ignore PID\.x: /,
  );
  assertEquals(
    (await err({ from_phase: 5 })).message,
    "--from-phase needs --output <run folder> of the earlier run",
  );
  const missing = await err({ from_phase: 5, output: "nowhere" });
  assertEquals(missing.error, "missing_phase");
  match(missing.message, /nowhere\/state\.json is missing: run from phase 1 first$/);
});
