/**
 * A cross-environment regression at scale on two fake engine hosts (real sshd, two users; the
 * engines of tests/ssh/_regression_env.ts with the stub hciroutetest): 3 sites, 42 threads,
 * 9 inbound threads with 50 messages each, one Xlate changed on the target. Prints the wall time of
 * each phase, the time spent waiting on SSH operations (exec, push, pull, SFTP reads), how much of
 * that the hosts spent running the route tests themselves (run.sh's own count), and the rest: the
 * round trips' share of the wall time; as nc_regression records them in the run folder's state.json. A timed script, not `deno bench`:
 * one run takes tens of seconds.
 *
 *     deno run -P=test bench/regression_phases.ts [--messages 50] [--inbounds 3]
 *                                                 (needs root: it creates two throwaway users)
 */
import { Sshd } from "../tests/support/sshd.ts";
import { runCommand } from "../tests/support/run_assist.ts";
import { assistOk, envFor } from "../tests/ssh/_support.ts";
import { type EngineSpec, threadCount, writeRegressionEngine } from "../tests/ssh/_regression_env.ts";
import { contextFor } from "../tests/tools/support.ts";
import { ncRegressionTool } from "../tools/engine/nc_regression_tool.ts";
import { validateInput } from "../tools/args.ts";
import type { PhaseRecord } from "../tools/engine/regression.ts";
import { runTool } from "../tools/by_name.ts";

const arg = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const spec: EngineSpec = {
  sites: ["adt", "hub", "lab"],
  inboundsPerSite: Number(arg("inbounds") ?? 3),
  messages: Number(arg("messages") ?? 50),
};

const hosts = [await Sshd.start(), await Sshd.start()];
const home = await Deno.makeTempDir({ prefix: "assist-bench-regression-" });
const env = envFor(home);
await Deno.mkdir(env.TMPDIR, { recursive: true });
const pids: number[] = [];
const cleanup = () => {
  for (const p of pids) {
    try {
      Deno.kill(p, "SIGKILL");
    } catch { /* gone */ }
  }
  for (const h of hosts) h.disposeSync();
  try {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(env.TMPDIR, { recursive: true });
  } catch { /* gone */ }
};

try {
  for (const [i, h] of hosts.entries()) {
    await Deno.remove(h.hciroot, { recursive: true });
    await writeRegressionEngine(h.hciroot, spec, { source: i === 0 });
    if (i === 1) {
      await Deno.writeTextFile(`${h.hciroot}/hub/Xlate/x_hub_from_adt_0.xlt`, "set PV1.3.1 WARD_CHANGED\n");
    }
    await runCommand("chown", ["-R", `${h.user}:${h.user}`, h.home]);
    const alias = i === 0 ? "src" : "tgt";
    await assistOk(["ssh", "add", alias, h.target], env);
    await assistOk(["ssh", "pass", alias], env, h.password + "\n");
    pids.push(Number((await assistOk(["ssh", "setup", alias], env)).match(/pid (\d+)\)/)![1]));
  }
  const inbounds = spec.sites.length * spec.inboundsPerSite;
  console.log(
    `regression over ${spec.sites.length} sites, ${
      threadCount(spec)
    } threads, ${inbounds} inbound threads, ` +
      `${spec.messages} messages per inbound (${inbounds * spec.messages} messages)`,
  );
  // In process, as the model's call runs: the phases' own figures, no program start-up.
  Deno.env.set("TMPDIR", env.TMPDIR);
  const ctx = contextFor(home, home);
  const t0 = performance.now();
  const r = await runTool(
    ncRegressionTool,
    validateInput(ncRegressionTool, {
      source_ssh_alias: "src",
      target_ssh_alias: "tgt",
      count: spec.messages,
      output: `${home}/run`,
    }),
    ctx,
  );
  const wall = performance.now() - t0;
  if (r.isError) throw new Error(r.text);
  const state = JSON.parse(await Deno.readTextFile(`${home}/run/state.json`)) as { phases: PhaseRecord[] };
  const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)}%` : "-");
  const rows = state.phases.map((p) => [
    `${p.phase} ${p.name}`,
    sec(p.ms),
    sec(p.sshMs),
    sec(p.remoteMs),
    sec(p.sshMs - p.remoteMs),
    pct(p.sshMs - p.remoteMs, p.ms),
    String(p.sshRoundTrips),
  ]);
  const sum = (f: (p: PhaseRecord) => number) => state.phases.reduce((a, p) => a + f(p), 0);
  const ssh = sum((p) => p.sshMs), remote = sum((p) => p.remoteMs);
  rows.push([
    "total",
    sec(wall),
    sec(ssh),
    sec(remote),
    sec(ssh - remote),
    pct(ssh - remote, wall),
    String(sum((p) => p.sshRoundTrips)),
  ]);
  const head = ["phase", "wall", "SSH wait", "host work", "SSH round trips", "share of wall", "SSH ops"];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [head, ...rows]) console.log(row.map((c, i) => c.padEnd(width[i])).join("  "));
  for (const p of state.phases) {
    if (p.byOp) {
      console.log(
        `  phase ${p.phase} by operation (both hosts): ${
          Object.entries(p.byOp).map(([k, v]) => `${k} ${sec(v)}`).join(", ")
        }`,
      );
    }
  }
  // One bare round trip through the master, for scale.
  const { MasterClient } = await import("../ssh/client.ts");
  const client = await MasterClient.open(home, "src");
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await client.exec("true");
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`one exec round trip through the master (median of 20): ${times[10].toFixed(1)} ms`);
  console.log(r.text.split("\n").filter((l) => /^phase \d/.test(l)).join("\n"));
} finally {
  cleanup();
}
