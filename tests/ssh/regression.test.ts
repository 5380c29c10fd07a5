/**
 * nc_route_test and nc_regression against two fake engine hosts on real sshd servers (two users, each
 * with its own $HCIROOT: sites chained by a cross-site hop, SMAT in both formats, Xlate fixtures and
 * a stub hciroutetest that applies them, tests/ssh/_regression_env.ts). An identical pair is all
 * clear; a changed Xlate on the target differs for exactly the destinations behind it; a route only
 * on the source is in the Configuration section; a dry run and a re-run from phase 5 touch neither
 * host; a closed master, a missing hciroutetest, an empty SMAT and a thread missing on one side are
 * lines in the summary. Hosts are named by alias, never user@host.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { Sshd } from "../support/sshd.ts";
import { runCommand } from "../support/run_assist.ts";
import { assist, envFor, killPid, masterPid } from "./_support.ts";
import { type EngineSpec, writeRegressionEngine } from "./_regression_env.ts";

const BASE: EngineSpec = { sites: ["adt", "hub"], inboundsPerSite: 2, messages: 6 };

async function writeEngine(
  sshd: Sshd,
  spec: EngineSpec,
  source: boolean,
  withRouteTest = true,
): Promise<void> {
  await Deno.remove(sshd.hciroot, { recursive: true }).catch(() => {});
  await writeRegressionEngine(sshd.hciroot, spec, { source, withRouteTest });
  const r = await runCommand("chown", ["-R", `${sshd.user}:${sshd.user}`, sshd.home]);
  assertEquals(r.code, 0, r.stderr);
}

/** Lines of the host's route-test log (every hciroutetest call). */
async function calls(sshd: Sshd): Promise<number> {
  const text = await Deno.readTextFile(`${sshd.hciroot}/routetest.log`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").length;
}

/** Scratch folders of route tests left in /tmp. */
function scratchLeft(): string[] {
  return [...Deno.readDirSync("/tmp")].filter((e) => e.name.startsWith("assist-rt.")).map((e) => e.name);
}

interface DiffJson {
  dests: Array<
    { inbound: string; dest: string; differ: number; same: number; fields: Array<{ path: string }> }
  >;
  notCompared: string[];
}

Deno.test("nc_route_test and nc_regression across two fake engine hosts", async (t) => {
  await using src = await Sshd.start();
  await using tgt = await Sshd.start();
  const home = await Deno.makeTempDir({ prefix: "assist-regression-" });
  const work = await Deno.makeTempDir({ prefix: "assist-regression-runs-" });
  const env = envFor(home);
  const masters: number[] = [];
  const run = (args: string[], stdin?: string) => assist(args, env, stdin);
  const setup = async (alias: string) => {
    const r = await run(["ssh", "setup", alias]);
    assertEquals(r.code, 0, r.all);
    masters.push(masterPid(r.stdout));
  };
  const regression = async (out: string, ...extra: string[]) => {
    const r = await run([
      "tools",
      "nc_regression",
      "src",
      "tgt",
      "--count",
      "4",
      "--output",
      `${work}/${out}`,
      ...extra,
    ]);
    const summary = await Deno.readTextFile(`${work}/${out}/regression-summary.md`).catch(() => "");
    for (const text of [r.all, summary]) {
      for (const s of [src, tgt]) {
        assert(!text.includes(s.user), `user name of ${s.target} in the output`);
        assert(!text.includes(`127.0.0.1:${s.port}`), "host and port in the output");
      }
    }
    return { ...r, summary, dir: `${work}/${out}` };
  };
  const diffOf = async (dir: string) => JSON.parse(await Deno.readTextFile(`${dir}/5-diff.json`)) as DiffJson;
  try {
    await writeEngine(src, BASE, true);
    await writeEngine(tgt, BASE, false);
    for (const [alias, s] of [["src", src], ["tgt", tgt]] as const) {
      assertEquals((await run(["ssh", "add", alias, s.target])).code, 0);
      await run(["ssh", "pass", alias], s.password + "\n");
      await setup(alias);
    }

    await t.step(
      "nc_route_test on a host: outputs per message, hop and destination; scratch removed",
      async () => {
        const out = `${work}/rt1`;
        const r = await run([
          "tools",
          "nc_route_test",
          "in0.adt",
          "--alias",
          "src",
          "--count",
          "4",
          "--output",
          out,
        ]);
        assertEquals(r.code, 0, r.all);
        match(r.stdout, /route test of adt\/in0 on src: 3 chains, 4 messages/);
        match(r.stdout, /chain 02: 2 to emr_adt_0/);
        // The cross-site hop: hub's route test ran on adt's output for fwd_in0, with hub's Xlate.
        const dir = `${out}/outputs/adt.in0`;
        const msgs = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
        assertEquals(msgs, ["0001", "0002", "0003", "0004"]);
        const withHop = msgs.filter((m) => {
          try {
            return Deno.statSync(`${dir}/${m}/adt.in0/fwd_in0/hub.from_adt_0/emr_adt_0.hl7`).isFile;
          } catch {
            return false;
          }
        });
        assertEquals(withHop.length, 2);
        const emr = await Deno.readTextFile(
          `${dir}/${withHop[0]}/adt.in0/fwd_in0/hub.from_adt_0/emr_adt_0.hl7`,
        );
        match(emr, /PV1\|1\|[IO]\|WARD_HUB\^/);
        const commands = await Deno.readTextFile(`${out}/routetest/inbounds/adt.in0/chains/02/commands.sh`);
        match(commands, /hciroutetest -a -L -d -f nl from_adt_0/);
        assertEquals(scratchLeft(), []);
        assert((await calls(src)) > 0 && (await calls(tgt)) === 0);
      },
    );

    await t.step("an identical pair is all clear", async () => {
      const r = await regression("same");
      assertEquals(r.code, 0, r.all);
      match(r.summary, /ALL CLEAR/);
      match(r.summary, /## Configuration/);
      match(r.summary, /- source: src \(sites: adt, hub\)/);
      match(r.summary, /- target: tgt \(sites: adt, hub\)/);
      const d = await diffOf(r.dir);
      assert(d.dests.length >= 6, JSON.stringify(d.dests));
      assert(d.dests.every((x) => x.differ === 0 && x.same > 0), JSON.stringify(d.dests));
      assertEquals(d.notCompared, []);
      for (const p of [1, 2, 3, 4, 5, 6]) match(r.stdout, new RegExp(`^phase ${p} `, "m"));
      assertEquals(scratchLeft(), []);
    });

    await t.step("--dry-run writes the plan and commands and runs nothing on either host", async () => {
      const before = [await calls(src), await calls(tgt)];
      const r = await regression("dry", "--dry-run");
      assertEquals(r.code, 0, r.all);
      match(r.stdout, /dry run: nothing was pushed or run on src or tgt/);
      assertEquals([await calls(src), await calls(tgt)], before);
      assertEquals(scratchLeft(), []);
      for (const side of ["source", "target"]) {
        await Deno.stat(`${r.dir}/${side}/routetest/inbounds/adt.in0/chains/01/commands.sh`);
      }
      assertEquals(r.summary, "");
    });

    await t.step("a changed Xlate on the target differs for exactly the destinations behind it", async () => {
      await tgt.putFile(
        "hci/cis20.1/integrator/hub/Xlate/x_hub_from_adt_0.xlt",
        "# changed on the target\nset PV1.3.1 WARD_CHANGED\n",
      );
      const r = await regression("xlate");
      assertEquals(r.code, 0, r.all);
      const d = await diffOf(r.dir);
      const differing = d.dests.filter((x) => x.differ > 0).map((x) => `${x.inbound} -> ${x.dest}`);
      assertEquals(differing, ["adt/in0 -> emr_adt_0"]);
      const emr = d.dests.find((x) => x.dest === "emr_adt_0")!;
      assertEquals(emr.fields.map((f) => f.path), ["PV1.3.1"]);
      match(r.summary, /\| adt\/in0 \| hub\/emr_adt_0 \| DIFFERS \|/);
      match(r.summary, /### adt\/in0 -> hub\/emr_adt_0\n/);
      match(
        r.summary,
        /- PV1\.3\.1: \d+ time\(s\); e\.g\. sample message \d+:\n {6}source: PV1\|1\|[IO]\|WARD_HUB\^.*\n {6}target: PV1\|1\|[IO]\|WARD_CHANGED\^/,
      );
      assert(!/ALL CLEAR/.test(r.summary));
      match(r.summary, /Chain: `in0 -> fwd_in0 => hub\/from_adt_0 -> hub\/emr_adt_0`/);
    });

    await t.step("re-running from phase 5 uses the pulled outputs without touching the hosts", async () => {
      const before = [await calls(src), await calls(tgt)];
      const first = await Deno.readTextFile(`${work}/xlate/5-diff.json`);
      for (const pid of masters.splice(0)) killPid(pid);
      const r = await run(["tools", "nc_regression", "--output", `${work}/xlate`, "--from-phase", "5"]);
      assertEquals(r.code, 0, r.all);
      match(r.stdout, /^phase 5 diff: /m);
      match(r.stdout, /^phase 6 summary: /m);
      assert(!/^phase [1-4] /m.test(r.stdout));
      assertEquals(await Deno.readTextFile(`${work}/xlate/5-diff.json`), first);
      assertEquals([await calls(src), await calls(tgt)], before);
    });

    await t.step("a closed master is a line in the summary, not a crash", async () => {
      const r = await regression("closed");
      assertEquals(r.code, 0, r.all);
      match(r.summary, /- problem: source src: open the master with \/ssh-setup src first/);
      match(r.summary, /- problem: target tgt: open the master with \/ssh-setup tgt first/);
    });

    await t.step("a route only on the source, an empty SMAT, a thread missing on the target", async () => {
      await setup("src");
      await setup("tgt");
      await writeEngine(src, { ...BASE, extraRoute: true, emptySmat: ["hub/in0"] }, true);
      await writeEngine(tgt, { ...BASE, drop: ["adt/in1"] }, false);
      const r = await regression("config");
      assertEquals(r.code, 0, r.all);
      match(r.summary, /- adt\/in0: route only on the source: in0 -> audit_in0/);
      match(r.summary, /- adt\/in0: - DATAXLATE\[ADT_A03\]/);
      match(r.summary, /- not compared: adt\/in1: thread adt\/in1 is missing on the target tgt/);
      match(r.summary, /- not compared: hub\/in0: no messages in the SMAT of hub\/in0/);
      match(r.summary, /- not compared: adt\/in0: chain in0 -> audit_in0 is only on the source/);
      const d = await diffOf(r.dir);
      assert(d.dests.some((x) => x.inbound === "adt/in0" && x.dest === "out_in0" && x.same > 0));
    });

    await t.step("a missing hciroutetest on the target is a line in the summary", async () => {
      await writeEngine(tgt, BASE, false, false);
      const r = await regression("noroutetest");
      assertEquals(r.code, 0, r.all);
      match(r.summary, /tgt: hciroutetest is not on the engine environment's PATH/);
      assertEquals(scratchLeft(), []);
    });
  } finally {
    for (const pid of masters) killPid(pid);
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(`${home}-tmp`, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
