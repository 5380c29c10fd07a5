/**
 * Cross-environment regression (nc_regression): the same recent messages through the route tests of
 * a source and a target engine host, compared field by field, in six phases. Each phase reads what
 * the one before wrote into the run folder and writes its own result there, so a failed run is
 * re-run from any phase (`from_phase`); phases 1 to 4 may talk to the hosts, 5 and 6 only read the
 * run folder.
 *
 * 1. discovery (`1-discovery.json`): sites, the inbound threads in scope, their chains on both
 *    sides, and the configuration differences of every thread and destination on them (the
 *    key-by-key diff of nc_diff_interface, ./diff.ts);
 * 2. sampling (`2-samples.json`): recent messages of each inbound from the source's SMAT;
 * 3. push (`3-push.json`): each side's route-test folder (`source/routetest`, `target/routetest`,
 *    with a commands.sh per chain) to a scratch folder on its host;
 * 4. pull (`4-pull.json`): the tests run, the results pulled into `source/outputs`,
 *    `target/outputs`, the scratch folders removed;
 * 5. diff (`5-diff.json`): per inbound, chain, destination and message, the outputs compared with
 *    hl7/diff.ts (MSH-7, MSH-10 and the operator's paths ignored);
 * 6. summary (`regression-summary.md`).
 *
 * Hosts are named by alias only. A host that cannot be reached, a missing hciroutetest, an empty
 * SMAT or a thread missing on one side is a line in the summary.
 *
 * @module
 */
import { join } from "node:path";
import type { ToolContext } from "../types.ts";
import { type Engine, engineFor, type LoadedSite } from "./engine.ts";
import { EngineInputError } from "./errors.ts";
import { EngineFsError } from "./engine_fs.ts";
import { NetConfigError } from "./netconfig/mod.ts";
import { changeLine, diffConfig } from "./diff.ts";
import { RouteGraph } from "./paths.ts";
import { type Batch, inboundKey, messageName, planRouteTest, type RouteTestPlan } from "./routetest_plan.ts";
import { hostFailure, type HostStats, RemoteRouteTestHost } from "./routetest_host.ts";
import {
  pullBatches,
  pushBatches,
  type Pushed,
  sampleThread,
  siteDirs,
  traceChains,
  writeBatchFolder,
} from "./routetest_run.ts";
import { chainOutcome } from "./routetest_results.ts";
import { DEFAULT_IGNORE, diffMessages, parseMessage } from "../../hl7/mod.ts";
import { atomicWrite } from "../../core/atomic_write.ts";

export const PHASES = [
  "discovery",
  "sampling",
  "route-test push",
  "route-test pull",
  "diff",
  "summary",
] as const;

export interface RegressionParams {
  source: string;
  target: string;
  sourceRoot?: string;
  targetRoot?: string;
  site?: string;
  thread?: string;
  count: number;
  daysBack?: number;
  ignore: string[];
  maxHops: number;
  dryRun: boolean;
}

export interface PhaseRecord {
  phase: number;
  name: string;
  line: string;
  ms: number;
  /** Time spent waiting on the hosts (SSH operations) in this phase, summed over both hosts. */
  sshMs: number;
  sshRoundTrips: number;
  /** Of sshMs, the hosts' own time running the route tests (as run.sh counts it). */
  remoteMs: number;
  /** sshMs by route-test operation (push and pull phases). */
  byOp?: Record<string, number>;
}

interface State {
  params: RegressionParams;
  phases: PhaseRecord[];
}

export interface Inbound {
  key: string;
  site: string;
  thread: string;
  source?: RouteTestPlan;
  target?: RouteTestPlan;
  /** Why it cannot be compared (missing on a side). */
  missing?: string;
}

export interface Discovery {
  sites: { source: string[]; target: string[] };
  inbounds: Inbound[];
  config: string[];
  problems: string[];
}

type Samples = Record<string, { messages: string[]; note?: string }>;
type Side = "source" | "target";
const SIDES: readonly Side[] = ["source", "target"];

export interface FieldDiff {
  path: string;
  count: number;
  /**
   * One example: the sample message's number and, on each side, the whole segment that holds the
   * path ("" when the side has none). Whole segments, so the PHI gate's HL7 field policy sees the
   * values in place whenever the model reads the summary (a bare value out of context would pass
   * the gate as plain text).
   */
  example: { message: string; source: string; target: string };
  /**
   * How the two values differ when they are one value written two ways (hl7/diff.ts `howDiffer`,
   * e.g. leading zeros stripped), in the first example that showed it: tokens would hide it.
   */
  how?: string;
}

export interface DestResult {
  inbound: string;
  chain: string;
  dest: string;
  /** The destination's site (the route test's that routes to it). */
  site: string;
  compared: number;
  same: number;
  differ: number;
  onlySource: number;
  onlyTarget: number;
  fields: FieldDiff[];
}

export interface DiffResult {
  dests: DestResult[];
  /** Chains or messages that could not be compared, one line each. */
  notCompared: string[];
  ignored: string[];
}

const FILES = {
  state: "state.json",
  discovery: "1-discovery.json",
  samples: "2-samples.json",
  push: "3-push.json",
  pull: "4-pull.json",
  diff: "5-diff.json",
  summary: "regression-summary.md",
  progress: "progress.log",
};

async function writeJson(dir: string, name: string, value: unknown): Promise<void> {
  await atomicWrite(join(dir, name), JSON.stringify(value, null, 2) + "\n", { mode: 0o600 });
}

async function readJson<T>(dir: string, name: string, phase: number): Promise<T> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, name))) as T;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new EngineInputError(
        "missing_phase",
        `${join(dir, name)} is missing: run from phase ${phase}${phase > 1 ? " (or earlier)" : ""} first`,
      );
    }
    throw err;
  }
}

/** Counts the time and calls of an engine's file reads over SSH (the seam's object is its own). */
function timeFs(engine: Engine, stats: () => HostStats): void {
  const fs = engine.fs as unknown as Record<string, unknown>;
  for (const name of ["readText", "readBytes", "readRange", "stat", "list", "exists", "localFile"]) {
    const fn = fs[name] as (...a: unknown[]) => Promise<unknown>;
    fs[name] = async (...args: unknown[]) => {
      const t0 = performance.now();
      try {
        return await fn(...args);
      } finally {
        stats().roundTrips++;
        stats().ms += performance.now() - t0;
      }
    };
  }
}

/** Failures the run reports as a line: SSH and engine input, file access, NetConfig syntax. */
function expected(err: unknown): string | undefined {
  if (err instanceof EngineInputError || err instanceof EngineFsError || err instanceof NetConfigError) {
    return err.message;
  }
  return undefined;
}

export class Regression {
  readonly dir: string;
  readonly ctx: ToolContext;
  state: State;
  readonly #engines = new Map<Side, Promise<Engine>>();
  #stats: HostStats = { roundTrips: 0, ms: 0, remoteMs: 0 };

  constructor(ctx: ToolContext, dir: string, state: State) {
    this.ctx = ctx;
    this.dir = dir;
    this.state = state;
  }

  get params(): RegressionParams {
    return this.state.params;
  }

  alias(side: Side): string {
    return side === "source" ? this.params.source : this.params.target;
  }

  async #engine(side: Side): Promise<Engine> {
    let e = this.#engines.get(side);
    if (!e) {
      e = engineFor({
        alias: this.alias(side),
        hciroot: side === "source" ? this.params.sourceRoot : this.params.targetRoot,
      }, this.ctx).then((engine) => {
        timeFs(engine, () => this.#stats);
        return engine;
      });
      this.#engines.set(side, e);
      e.catch(() => this.#engines.delete(side));
    }
    return await e;
  }

  async #loaded(side: Side): Promise<LoadedSite[]> {
    return (await (await this.#engine(side)).loadAll()).loaded;
  }

  async #progress(line: string): Promise<void> {
    await Deno.writeTextFile(join(this.dir, FILES.progress), `${new Date().toISOString()} ${line}\n`, {
      append: true,
      mode: 0o600,
    });
  }

  /** Runs phases `from`..6 (stopping after 3 on a dry run); returns the records of this run. */
  async run(from: number): Promise<PhaseRecord[]> {
    const done: PhaseRecord[] = [];
    const last = this.params.dryRun ? 3 : 6;
    for (let phase = from; phase <= last; phase++) {
      this.#stats = { roundTrips: 0, ms: 0, remoteMs: 0 };
      const t0 = performance.now();
      await this.#progress(`phase ${phase} ${PHASES[phase - 1]}: started`);
      const line = await this.#phase(phase);
      const rec: PhaseRecord = {
        phase,
        name: PHASES[phase - 1],
        line,
        ms: Math.round(performance.now() - t0),
        sshMs: Math.round(this.#stats.ms),
        sshRoundTrips: this.#stats.roundTrips,
        remoteMs: this.#stats.remoteMs,
        byOp: this.#stats.byOp
          ? Object.fromEntries(Object.entries(this.#stats.byOp).map(([k, v]) => [k, Math.round(v)]))
          : undefined,
      };
      done.push(rec);
      this.state.phases = [...this.state.phases.filter((p) => p.phase < phase), rec];
      await writeJson(this.dir, FILES.state, this.state);
      await this.#progress(`phase ${phase} ${rec.name}: ${line} (${rec.ms} ms)`);
    }
    return done;
  }

  #phase(n: number): Promise<string> {
    switch (n) {
      case 1:
        return this.discovery();
      case 2:
        return this.sampling();
      case 3:
        return this.push();
      case 4:
        return this.pull();
      case 5:
        return this.diff();
      default:
        return this.summary();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 1. discovery

  async discovery(): Promise<string> {
    const problems: string[] = [];
    const loaded: Partial<Record<Side, LoadedSite[]>> = {};
    for (const side of SIDES) {
      try {
        loaded[side] = await this.#loaded(side);
      } catch (err) {
        const why = expected(err) ?? hostFailure(err);
        problems.push(`${side} ${this.alias(side)}: ${why}`);
      }
    }
    const d: Discovery = {
      sites: {
        source: (loaded.source ?? []).map((l) => l.site.name),
        target: (loaded.target ?? []).map((l) => l.site.name),
      },
      inbounds: [],
      config: [],
      problems,
    };
    const src = loaded.source;
    const tgt = loaded.target;
    if (src) {
      const { thread, site } = this.params;
      const sites = site ? src.filter((l) => l.site.name.toLowerCase() === site.toLowerCase()) : src;
      if (site && sites.length === 0) problems.push(`no site ${site} on the source ${this.params.source}`);
      const graph = new RouteGraph(src);
      const starts: Array<{ site: string; thread: string }> = [];
      for (const l of sites) {
        if (thread) {
          const t = l.nc.protocol(thread);
          if (t) starts.push({ site: l.site.name, thread: t.name });
        } else {
          for (const n of graph.entryThreads(l.site.name).nodes) {
            starts.push({ site: n.site, thread: n.name });
          }
        }
      }
      if (thread && starts.length === 0) {
        problems.push(
          `no thread ${thread}${site ? ` in site ${site}` : ""} on the source ${this.params.source}`,
        );
      }
      for (const s of starts) {
        const inbound: Inbound = { key: inboundKey(s.site, s.thread), ...s };
        inbound.source = planRouteTest(
          s,
          traceChains(src, s.site, s.thread, this.params.maxHops).chains,
          siteDirs(src),
        );
        const tSite = tgt?.find((l) => l.site.name === s.site);
        const tThread = tSite?.nc.protocol(s.thread);
        if (tgt && !tSite) inbound.missing = `site ${s.site} is missing on the target ${this.params.target}`;
        else if (tgt && !tThread) {
          inbound.missing = `thread ${s.site}/${s.thread} is missing on the target ${this.params.target}`;
        } else if (tgt && tThread) {
          inbound.target = planRouteTest(
            { site: s.site, thread: tThread.name },
            traceChains(tgt, s.site, tThread.name, this.params.maxHops).chains,
            siteDirs(tgt),
          );
        }
        d.inbounds.push(inbound);
      }
      if (tgt) d.config = configDifferences(src, tgt, d.inbounds);
    }
    await writeJson(this.dir, FILES.discovery, d);
    const missing = d.inbounds.filter((i) => i.missing).length;
    return `${d.inbounds.length} inbound thread${d.inbounds.length === 1 ? "" : "s"} in scope; ` +
      `${d.config.length} configuration difference${d.config.length === 1 ? "" : "s"}` +
      (missing ? `; ${missing} missing on the target` : "") +
      (problems.length ? `; ${problems.join("; ")}` : "");
  }

  // ---------------------------------------------------------------------------------------------
  // 2. sampling

  async sampling(): Promise<string> {
    const d = await readJson<Discovery>(this.dir, FILES.discovery, 1);
    const samples: Samples = {};
    let total = 0;
    const empty: string[] = [];
    const wanted = d.inbounds.filter((i) => i.source);
    if (wanted.length) {
      try {
        const engine = await this.#engine("source");
        const loaded = await engine.loadAll();
        for (const i of wanted) {
          const l = loaded.loaded.find((x) => x.site.name === i.site);
          const t = l?.nc.protocol(i.thread);
          if (!l || !t) {
            samples[i.key] = { messages: [], note: `${i.site}/${i.thread} is gone from the source` };
            continue;
          }
          const s = await sampleThread(engine, l, t, this.params.count, this.params.daysBack);
          samples[i.key] = s;
          total += s.messages.length;
          if (s.messages.length === 0) empty.push(i.key);
        }
      } catch (err) {
        const why = expected(err) ?? hostFailure(err);
        await writeJson(this.dir, FILES.samples, samples);
        return `sampling failed on the source ${this.params.source}: ${why}`;
      }
    }
    await writeJson(this.dir, FILES.samples, samples);
    return `${total} message${total === 1 ? "" : "s"} from ${wanted.length} inbound thread${
      wanted.length === 1 ? "" : "s"
    }` + (empty.length ? `; no messages for ${empty.join(", ")}` : "");
  }

  // ---------------------------------------------------------------------------------------------
  // 3. push

  #batches(d: Discovery, samples: Samples, side: Side): Batch[] {
    const out: Batch[] = [];
    for (const i of d.inbounds) {
      const plan = i[side];
      const messages = samples[i.key]?.messages ?? [];
      if (!plan || !i.source || !i.target || messages.length === 0 || plan.chains.length === 0) continue;
      out.push({ key: i.key, plan, messages });
    }
    return out;
  }

  async push(): Promise<string> {
    const d = await readJson<Discovery>(this.dir, FILES.discovery, 1);
    const samples = await readJson<Samples>(this.dir, FILES.samples, 2);
    const pushed: Partial<Record<Side, Pushed>> = {};
    // The two hosts are independent: both sides at once.
    const parts = await Promise.all(SIDES.map(async (side) => {
      const batches = this.#batches(d, samples, side);
      const local = join(this.dir, side, "routetest");
      await Deno.remove(local, { recursive: true }).catch(() => {});
      await writeBatchFolder(batches, local);
      if (this.params.dryRun) {
        return `${side} ${this.alias(side)}: dry run, ${batches.length} inbound(s) planned, nothing pushed`;
      }
      if (batches.length === 0) {
        pushed[side] = { host: this.alias(side), problem: `${this.alias(side)}: nothing to test` };
        return `${side} ${this.alias(side)}: nothing to test`;
      }
      const host = new RemoteRouteTestHost(this.ctx, this.alias(side));
      try {
        pushed[side] = await pushBatches(host, batches);
      } finally {
        await host.close();
        this.#add(host.stats);
      }
      return pushed[side]!.problem ?? `${side} ${this.alias(side)}: ${batches.length} inbound(s) pushed`;
    }));
    await writeJson(this.dir, FILES.push, pushed);
    return parts.join("; ");
  }

  #add(stats: HostStats): void {
    this.#stats.ms += stats.ms;
    this.#stats.roundTrips += stats.roundTrips;
    this.#stats.remoteMs += stats.remoteMs;
    for (const [op, ms] of Object.entries(stats.byOp ?? {})) {
      this.#stats.byOp ??= {};
      this.#stats.byOp[op] = (this.#stats.byOp[op] ?? 0) + ms;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 4. pull

  async pull(): Promise<string> {
    const pushed = await readJson<Partial<Record<Side, Pushed>>>(this.dir, FILES.push, 3);
    const result: Partial<Record<Side, { problem?: string; files: number }>> = {};
    const parts = await Promise.all(SIDES.map(async (side) => {
      const p = pushed[side];
      const localDir = join(this.dir, side);
      await Deno.remove(join(localDir, "outputs"), { recursive: true }).catch(() => {});
      if (!p || !p.scratch) {
        result[side] = { problem: p?.problem ?? `${this.alias(side)}: nothing was pushed`, files: 0 };
        return `${side}: ${result[side]!.problem}`;
      }
      const host = new RemoteRouteTestHost(this.ctx, this.alias(side));
      try {
        result[side] = await pullBatches(host, p, localDir);
      } finally {
        await host.close();
        this.#add(host.stats);
      }
      return result[side]!.problem ?? `${side} ${this.alias(side)}: ${result[side]!.files} output files`;
    }));
    await writeJson(this.dir, FILES.pull, result);
    return parts.join("; ");
  }

  // ---------------------------------------------------------------------------------------------
  // 5. diff

  async diff(): Promise<string> {
    const d = await readJson<Discovery>(this.dir, FILES.discovery, 1);
    const samples = await readJson<Samples>(this.dir, FILES.samples, 2);
    const pulled = await readJson<Partial<Record<Side, { problem?: string }>>>(this.dir, FILES.pull, 4);
    const ignore = [...DEFAULT_IGNORE, ...this.params.ignore];
    const r: DiffResult = { dests: [], notCompared: [], ignored: ignore };
    const down = SIDES.map((s) => pulled[s]?.problem).filter((p): p is string => !!p);
    for (const i of d.inbounds) {
      const label = `${i.site}/${i.thread}`;
      if (i.missing) {
        r.notCompared.push(`${label}: ${i.missing}`);
        continue;
      }
      if (!i.source || !i.target) {
        r.notCompared.push(`${label}: not discovered on both sides`);
        continue;
      }
      const messages = samples[i.key]?.messages ?? [];
      if (messages.length === 0) {
        r.notCompared.push(`${label}: ${samples[i.key]?.note ?? "no messages sampled"}`);
        continue;
      }
      if (down.length) {
        r.notCompared.push(`${label}: not run (${down.join("; ")})`);
        continue;
      }
      const tChains = new Map(i.target.chains.map((c) => [c.text, c]));
      for (const sc of i.source.chains) {
        const tc = tChains.get(sc.text);
        if (!tc) {
          r.notCompared.push(`${label}: chain ${sc.text} is only on the source`);
          continue;
        }
        if (!sc.final) {
          r.notCompared.push(
            `${label}: chain ${sc.text} has no route test to compare${sc.note ? ` (${sc.note})` : ""}`,
          );
          continue;
        }
        const byDest = new Map<string, DestResult>();
        const dest = (name: string) => {
          let x = byDest.get(name);
          if (!x) {
            x = {
              inbound: label,
              chain: sc.text,
              dest: name,
              site: i.source!.stages[sc.final!.stage]?.site ?? i.site,
              compared: 0,
              same: 0,
              differ: 0,
              onlySource: 0,
              onlyTarget: 0,
              fields: [],
            };
            byDest.set(name, x);
          }
          return x;
        };
        const problems: string[] = [];
        for (let n = 0; n < messages.length; n++) {
          const m = messageName(n).slice(0, -4);
          const a = await chainOutcome(join(this.dir, "source", "outputs", i.key, m), sc);
          const b = await chainOutcome(join(this.dir, "target", "outputs", i.key, m), tc);
          if (a.problem || b.problem) {
            problems.push(`message ${m}: ${a.problem ? `source: ${a.problem}` : `target: ${b.problem}`}`);
            continue;
          }
          const names = new Set([...a.outputs.keys(), ...b.outputs.keys()]);
          if (names.size === 0 && sc.final.dest !== "*") {
            dest(sc.final.dest).compared++, dest(sc.final.dest).same++;
          }
          for (const name of names) {
            const x = dest(name);
            const la = a.outputs.get(name) ?? [];
            const lb = b.outputs.get(name) ?? [];
            x.compared++;
            let differs = false;
            for (let k = 0; k < Math.max(la.length, lb.length); k++) {
              if (k >= la.length) {
                x.onlyTarget++, differs = true;
                continue;
              }
              if (k >= lb.length) {
                x.onlySource++, differs = true;
                continue;
              }
              const changes = diffMessages(parseMessage(la[k]), parseMessage(lb[k]), { ignore });
              for (const c of changes) {
                differs = true;
                const left = segmentOf(la[k], c.path);
                const right = segmentOf(lb[k], c.path);
                const f = x.fields.find((f) => f.path === c.path);
                const how = c.kind === "field" ? c.how : undefined;
                if (f) {
                  f.count++;
                  f.how ??= how;
                } else {
                  x.fields.push({
                    path: c.path,
                    count: 1,
                    example: { message: m, source: left, target: right },
                    ...(how ? { how } : {}),
                  });
                }
              }
            }
            if (differs) x.differ++;
            else x.same++;
          }
        }
        if (problems.length) {
          r.notCompared.push(
            `${label}: chain ${sc.text}: ${problems.length} message(s) not compared (${problems[0]})`,
          );
        }
        r.dests.push(...byDest.values());
      }
      for (const tc of i.target.chains) {
        if (!i.source.chains.some((c) => c.text === tc.text)) {
          r.notCompared.push(`${label}: chain ${tc.text} is only on the target`);
        }
      }
    }
    await writeJson(this.dir, FILES.diff, r);
    const differ = r.dests.filter((x) => x.differ > 0).length;
    return `${r.dests.length} destination${
      r.dests.length === 1 ? "" : "s"
    } compared, ${differ} with differences` +
      (r.notCompared.length ? `; ${r.notCompared.length} not compared` : "");
  }

  // ---------------------------------------------------------------------------------------------
  // 6. summary

  async summary(): Promise<string> {
    const d = await readJson<Discovery>(this.dir, FILES.discovery, 1);
    const r = await readJson<DiffResult>(this.dir, FILES.diff, 5);
    const text = summaryText(this.params, d, r, this.state.phases, this.dir);
    await atomicWrite(join(this.dir, FILES.summary), text, { mode: 0o600 });
    const differ = r.dests.filter((x) => x.differ > 0).length;
    return differ === 0 && r.notCompared.length === 0 && d.config.length === 0 && d.problems.length === 0
      ? "all clear: every destination gave the same output on both sides"
      : `${differ} destination(s) differ, ${d.config.length} configuration difference(s), ${r.notCompared.length} not compared`;
  }
}

/** Configuration differences of the threads and destinations on the chains, and chains on one side. */
function configDifferences(src: LoadedSite[], tgt: LoadedSite[], inbounds: Inbound[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const entry = (sites: LoadedSite[], site: string, name: string) => {
    const nc = sites.find((l) => l.site.name === site)?.nc;
    return nc?.protocol(name) ?? nc?.destination(name);
  };
  const nodes: Array<{ site: string; name: string }> = [];
  for (const i of inbounds) {
    for (const side of SIDES) {
      for (const k of Object.values(i[side]?.stages ?? {})) nodes.push({ site: k.site, name: k.entry });
      for (const c of i[side]?.chains ?? []) {
        // Every node named on the chain, `site/name` or a bare name of the start's site.
        for (const part of c.text.split(/ (?:->|=>|~>) /)) {
          const label = part.replace(/ \(.*\)$/, "").trim();
          if (label.startsWith("(") || label === "...") continue;
          const [site, name] = label.includes("/") ? label.split("/", 2) : [i.site, label];
          nodes.push({ site, name });
        }
      }
    }
  }
  for (const n of nodes) {
    const k = `${n.site}\0${n.name.toLowerCase()}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const a = entry(src, n.site, n.name);
    const b = entry(tgt, n.site, n.name);
    if (a && !b) lines.push(`${n.site}/${n.name}: only on the source`);
    else if (!a && b) lines.push(`${n.site}/${n.name}: only on the target`);
    else if (a && b) {
      for (const c of diffConfig(a.config, b.config)) lines.push(`${n.site}/${n.name}: ${changeLine(c)}`);
    }
  }
  for (const i of inbounds) {
    if (!i.source || !i.target) continue;
    const t = new Set(i.target.chains.map((c) => c.text));
    const s = new Set(i.source.chains.map((c) => c.text));
    for (const c of s) if (!t.has(c)) lines.push(`${i.site}/${i.thread}: route only on the source: ${c}`);
    for (const c of t) if (!s.has(c)) lines.push(`${i.site}/${i.thread}: route only on the target: ${c}`);
  }
  return lines;
}

/** The segment of a message (CR-separated) that a diff path (`PID.5.1`, `OBX[2].5`) is in, or "". */
export function segmentOf(message: string, path: string): string {
  const m = path.match(/^([A-Z0-9]{3})(?:\[(\d+)\])?/);
  if (!m) return "";
  const hits = message.split(/\r\n?|\n/).filter((s) => s.startsWith(`${m[1]}|`) || s === m[1]);
  return hits[(m[2] ? Number(m[2]) : 1) - 1] ?? "";
}

/** A destination as the summary names it: `site/name` when outside the inbound's site. */
function destLabel(x: DestResult): string {
  return x.site && !x.inbound.startsWith(`${x.site}/`) ? `${x.site}/${x.dest}` : x.dest;
}

/** The text of regression-summary.md (exported for the tests). */
export function summaryText(
  p: RegressionParams,
  d: Discovery,
  r: DiffResult,
  phases: PhaseRecord[],
  dir: string,
): string {
  const L: string[] = [
    `# Regression: ${p.source} (source) against ${p.target} (target)`,
    "",
    `Scope: ${
      p.thread
        ? `thread ${p.thread}${p.site ? ` in site ${p.site}` : ""}`
        : p.site
        ? `site ${p.site}`
        : "every site"
    }; ` +
    `${p.count} message(s) per inbound${p.daysBack ? ` from the last ${p.daysBack} days` : ""}; ` +
    `ignored fields: ${r.ignored.join(", ")}.`,
    "",
    "## Configuration",
    "",
    `- source: ${p.source} (sites: ${d.sites.source.join(", ") || "none read"})`,
    `- target: ${p.target} (sites: ${d.sites.target.join(", ") || "none read"})`,
  ];
  for (const x of d.problems) L.push(`- problem: ${x}`);
  if (d.config.length === 0) L.push("- no configuration differences on the chains in scope");
  for (const c of d.config) L.push(`- ${c}`);
  L.push("", "## Verdicts", "");
  if (r.dests.length) {
    L.push("| inbound | destination | verdict | messages | same | differ | only source | only target |");
    L.push("|---|---|---|---|---|---|---|---|");
    for (const x of r.dests) {
      const verdict = x.differ ? "DIFFERS" : "same";
      L.push(
        `| ${x.inbound} | ${
          destLabel(x)
        } | ${verdict} | ${x.compared} | ${x.same} | ${x.differ} | ${x.onlySource} | ${x.onlyTarget} |`,
      );
    }
  } else L.push("No destination was compared.");
  for (const n of r.notCompared) L.push(`- not compared: ${n}`);
  const differing = r.dests.filter((x) => x.fields.length);
  if (differing.length) {
    L.push("", "## Differing fields", "");
    for (const x of differing) {
      L.push(`### ${x.inbound} -> ${destLabel(x)}`, "", `Chain: \`${x.chain}\``, "");
      for (const f of x.fields) {
        L.push(
          `- ${f.path}: ${f.count} time(s)${f.how ? ` (${f.how})` : ""}; e.g. sample message ${
            Number(f.example.message)
          }:`,
          `      source: ${f.example.source || "(no such segment)"}`,
          `      target: ${f.example.target || "(no such segment)"}`,
        );
      }
      L.push("");
    }
  }
  const allClear = r.dests.length > 0 && !r.dests.some((x) => x.differ) && r.notCompared.length === 0 &&
    d.config.length === 0 && d.problems.length === 0;
  L.push("", "## Counts", "");
  L.push(
    `- ${r.dests.length} destination(s) compared, ${
      r.dests.filter((x) => x.differ).length
    } with differences; ` +
      `${r.dests.reduce((a, x) => a + x.compared, 0)} message output(s) compared`,
    allClear ? "- ALL CLEAR: the target routes and translates these messages as the source does." : "",
  );
  L.push("", "## Phases", "");
  for (const ph of phases) L.push(`- ${ph.phase} ${ph.name}: ${ph.line} (${ph.ms} ms)`);
  L.push(
    "",
    "## Reproduce",
    "",
    `- each side's route tests: \`${join(dir, "source", "routetest")}\` and \`${
      join(dir, "target", "routetest")
    }\`; ` +
      "`sh inbounds/<site.thread>/chains/<chain>/commands.sh <message file> <output folder>` in the engine environment of that host",
    `- outputs per message, hop and destination: \`${join(dir, "<side>", "outputs")}\``,
    `- re-run from a phase: nc_regression --output ${dir} --from-phase <1-6>`,
  );
  return L.filter((l, i, a) => !(l === "" && a[i - 1] === "")).join("\n") + "\n";
}

/** Starts a run (phase 1) or loads one to re-run from a phase. */
export async function openRegression(
  ctx: ToolContext,
  dir: string,
  params: RegressionParams | undefined,
  from: number,
): Promise<Regression> {
  if (from === 1) {
    if (!params) {
      throw new EngineInputError("bad_input", "source_ssh_alias and target_ssh_alias are required");
    }
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    // A fresh run: nothing of an earlier run in this folder may be read by a later phase.
    for (const name of [...Object.values(FILES), "source", "target"]) {
      await Deno.remove(join(dir, name), { recursive: true }).catch(() => {});
    }
    const state: State = { params, phases: [] };
    await writeJson(dir, FILES.state, state);
    return new Regression(ctx, dir, state);
  }
  const state = await readJson<State>(dir, FILES.state, 1);
  if (params) {
    state.params = {
      ...state.params,
      ignore: params.ignore.length ? params.ignore : state.params.ignore,
      dryRun: params.dryRun,
    };
  }
  return new Regression(ctx, dir, state);
}
