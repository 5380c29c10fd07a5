/**
 * The steps route tests share (nc_route_test and nc_regression): sampling recent messages of an
 * inbound thread from its SMAT archives (both formats), tracing its chains, and running a set of
 * route tests on a host in two halves (push: scratch folder and bundle; pull: run, fetch results,
 * remove the scratch folder), each failure a line rather than a crash.
 *
 * @module
 */
import { join } from "node:path";
import type { Engine, LoadedSite } from "./engine.ts";
import type { NcEntry } from "./netconfig/mod.ts";
import { type Chain, RouteGraph } from "./paths.ts";
import { readSmatDb, readSmatFiles, type SmatMessage, threadSmatFiles } from "./smat/mod.ts";
import { type Batch, batchFiles, bundleScript } from "./routetest_plan.ts";
import { hostFailure, type RouteTestHost } from "./routetest_host.ts";
import { parseResults, writeResults } from "./routetest_results.ts";

export interface Sample {
  messages: string[];
  /** Why there are none (no archive, empty archive, unreadable), or what was skipped. */
  note?: string;
}

/**
 * Up to `count` newest inbound messages of a thread (from `days_back` days when given), newest
 * first, from every current archive of its SAVEMSGS INFILE (`.smatdb` or `.idx`/`.msg`).
 */
export async function sampleThread(
  engine: Engine,
  loaded: LoadedSite,
  thread: NcEntry,
  count: number,
  daysBack?: number,
): Promise<Sample> {
  const { files, names } = await threadSmatFiles(engine.fs, loaded.site, thread, "in", false);
  if (files.length === 0) {
    return {
      messages: [],
      note: names.length
        ? `no SMAT archive ${names.join(", ")} for ${loaded.site.name}/${thread.name}`
        : `${loaded.site.name}/${thread.name} saves no inbound messages (SAVEMSGS has no INFILE)`,
    };
  }
  const filter = daysBack ? { since: Date.now() - daysBack * 86_400_000 } : {};
  const all: SmatMessage[] = [];
  const notes: string[] = [];
  for (const f of files) {
    const r = f.format === "smatdb"
      ? await readSmatDb(engine.fs, f.path, filter, count, loaded.site.name)
      : await readSmatFiles(engine.fs, f.path, filter, count);
    if (r.skipped) notes.push(r.skipped.message);
    all.push(...r.messages);
  }
  all.sort((a, b) => (b.time ?? -Infinity) - (a.time ?? -Infinity) || b.seq - a.seq);
  const messages = all.slice(0, count).map((m) => m.content).filter((c) => c.trim() !== "");
  if (messages.length === 0) {
    notes.push(
      `no messages in the SMAT of ${loaded.site.name}/${thread.name}${
        daysBack ? ` from the last ${daysBack} days` : ""
      }`,
    );
  }
  return { messages, note: notes.length ? notes.join("; ") : undefined };
}

/** The chains from an inbound thread over every loaded site of an engine root. */
export function traceChains(
  loaded: LoadedSite[],
  site: string,
  thread: string,
  maxHops?: number,
): { chains: Chain[]; truncated: boolean } {
  const graph = new RouteGraph(loaded);
  return graph.trace({ site, name: thread, kind: "thread" }, { maxHops, limit: 200 });
}

/** Each loaded site's folder on its host, for the route tests' site environment. */
export function siteDirs(loaded: LoadedSite[]): Record<string, string> {
  return Object.fromEntries(loaded.map((l) => [l.site.name, l.site.dir]));
}

/** Writes a batch set into a local folder (what is pushed; the operator's copy of commands.sh). */
export async function writeBatchFolder(batches: readonly Batch[], dir: string): Promise<void> {
  for (const [path, text] of batchFiles(batches)) {
    const p = join(dir, ...path.split("/"));
    await Deno.mkdir(join(p, ".."), { recursive: true });
    await Deno.writeTextFile(p, text, { mode: path.endsWith(".sh") ? 0o700 : 0o600 });
  }
}

export interface Pushed {
  host: string;
  scratch?: string;
  /** Set when the host cannot run the tests: the one line for the summary. */
  problem?: string;
}

/** Push half: a scratch folder on the host, the check for hciroutetest, the bundle unpacked there. */
export async function pushBatches(host: RouteTestHost, batches: readonly Batch[]): Promise<Pushed> {
  let scratch: string | undefined;
  try {
    const p = await host.prepare();
    scratch = p.scratch;
    if (!p.hasRoot) {
      await host.cleanup(scratch);
      return { host: host.label, problem: `${host.label}: HCIROOT is not set in the engine environment` };
    }
    if (!p.hasRouteTest) {
      await host.cleanup(scratch);
      return {
        host: host.label,
        problem: `${host.label}: hciroutetest is not on the engine environment's PATH`,
      };
    }
    await host.upload(scratch, bundleScript(batchFiles(batches, true)));
    return { host: host.label, scratch };
  } catch (err) {
    if (scratch) await host.cleanup(scratch).catch(() => {});
    return { host: host.label, problem: `${host.label}: ${hostFailure(err)}` };
  }
}

/**
 * Pull half: runs the pushed tests, fetches results.txt into `localDir`, unpacks it into
 * `localDir/outputs`, and removes the scratch folder whatever happened.
 */
export async function pullBatches(
  host: RouteTestHost,
  pushed: Pushed,
  localDir: string,
): Promise<{ problem?: string; files: number }> {
  if (!pushed.scratch) return { problem: pushed.problem ?? `${host.label}: nothing was pushed`, files: 0 };
  try {
    const r = await host.run(pushed.scratch);
    if (r.code === 3) {
      return { problem: `${host.label}: hciroutetest is not on the engine environment's PATH`, files: 0 };
    }
    if (r.code !== 0) {
      return {
        problem: `${host.label}: the route tests failed (exit ${r.code ?? "?"})${
          r.stderr ? `: ${r.stderr}` : ""
        }`,
        files: 0,
      };
    }
    await Deno.mkdir(localDir, { recursive: true });
    const results = join(localDir, "results.txt");
    await host.fetch(pushed.scratch, results);
    const files = parseResults(await Deno.readFile(results));
    await writeResults(files, join(localDir, "outputs"));
    return { files: files.length };
  } catch (err) {
    return { problem: `${host.label}: ${hostFailure(err)}`, files: 0 };
  } finally {
    await host.cleanup(pushed.scratch).catch(() => {});
  }
}
