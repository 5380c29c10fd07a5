/** nc_route_test: route tests of recent messages along a thread's chains, on this machine or a host. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRouteTestTool as def } from "../nc_route_test_tool.ts";
import type { ncRouteTestTool } from "../nc_route_test_tool.ts";
import { join, resolve } from "node:path";
import { readEnv } from "../../../core/env.ts";
import { expandTilde } from "../../../core/tilde.ts";
import { childEnv } from "../../../core/child_env.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { toolError } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { type Batch, inboundKey, messageName, PlanError, planRouteTest } from "../routetest_plan.ts";
import { LocalRouteTestHost, RemoteRouteTestHost, type RouteTestHost } from "../routetest_host.ts";
import {
  pullBatches,
  pushBatches,
  sampleThread,
  siteDirs,
  traceChains,
  writeBatchFolder,
} from "../routetest_run.ts";
import { chainOutcome } from "../routetest_results.ts";
import { resolveThread } from "../thread_ref.ts";

/** `20261124-021500`, for default folder names. */
export function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/** A new or empty output folder (mode 0700: it will hold messages). */
export async function freshFolder(path: string): Promise<void> {
  try {
    for await (const _ of Deno.readDir(path)) {
      throw new EngineInputError("output_not_empty", `output folder ${path} is not empty: give a new one`, {
        path,
      });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  await Deno.mkdir(path, { recursive: true, mode: 0o700 });
}

export async function run(input: InputOf<typeof ncRouteTestTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const alias = input.alias?.trim() || undefined;
    const where = alias ?? "this machine";
    const engine = await engineFor(input, ctx);
    const { loaded, skipped } = await engine.loadAll();
    const ref = await resolveThread(
      engine,
      input.site?.trim(),
      String(input.thread ?? "").trim() || undefined,
    );
    const site = ref.site;
    const ls = loaded.find((l) => l.site.name === site.name);
    if (!ls) throw new EngineInputError("no_netconfig", `site ${site.name} has no readable NetConfig`);
    const thread = ref.entry;
    if (!thread) {
      throw new EngineInputError("bad_input", "name the start inbound thread (site thread, or thread.site)");
    }
    const { chains, truncated } = traceChains(loaded, site.name, thread.name, input.max_hops);
    const plan = planRouteTest({ site: site.name, thread: thread.name }, chains, siteDirs(loaded));
    const sample = await sampleThread(
      engine,
      ls,
      thread,
      input.count,
      input.days_back,
    );
    const key = inboundKey(site.name, thread.name);
    const out = resolve(
      ctx.cwd,
      expandTilde(input.output || `route-test-${key}-${stamp()}`),
    );
    await freshFolder(out);
    const batch: Batch = { key, plan, messages: sample.messages };
    await writeBatchFolder([batch], join(out, "routetest"));
    const lines: string[] = [
      `route test of ${site.name}/${thread.name} on ${where}: ${plan.chains.length} chain${
        plan.chains.length === 1 ? "" : "s"
      }, ` +
      `${sample.messages.length} message${sample.messages.length === 1 ? "" : "s"}`,
    ];
    for (const c of plan.chains) {
      lines.push(`chain ${c.id}: ${c.text}${c.note ? ` (${c.note})` : ""}`);
    }
    if (truncated) lines.push("note: more chains than the limit of 200; the rest are left out");
    for (const s of skipped) lines.push(`note: site ${s.site} skipped: ${s.reason}`);
    if (sample.note) lines.push(`note: ${sample.note}`);
    await Deno.writeTextFile(join(out, "plan.md"), planText(where, plan, sample.messages.length) + "\n", {
      mode: 0o600,
    });
    const chainsDir = join(out, "routetest", "inbounds", key, "chains");
    if (input.dry_run) {
      lines.push(
        `dry run: nothing was run on ${where}; the plan is in ${
          join(out, "plan.md")
        }, the commands in ${chainsDir}/<chain>/commands.sh`,
      );
      return { text: lines.join("\n") };
    }
    if (plan.chains.length === 0 || sample.messages.length === 0) {
      lines.push(
        `nothing to run: ${plan.chains.length === 0 ? "the thread routes nowhere" : "no messages to test"}`,
      );
      return { text: lines.join("\n") };
    }
    const host: RouteTestHost = alias
      ? new RemoteRouteTestHost(ctx, alias)
      : new LocalRouteTestHost(engine.root, childEnv(readEnv));
    try {
      const pushed = await pushBatches(host, [batch]);
      const pulled = pushed.problem
        ? { problem: pushed.problem, files: 0 }
        : await pullBatches(host, pushed, out);
      if (pulled.problem) {
        return toolError("route_test_failed", `route test not run: ${pulled.problem}`, { output: out });
      }
    } finally {
      await host.close();
    }
    for (const c of plan.chains) {
      const counts = new Map<string, number>();
      let filtered = 0;
      const problems: string[] = [];
      for (let n = 0; n < sample.messages.length; n++) {
        const o = await chainOutcome(join(out, "outputs", key, messageName(n).slice(0, -4)), c);
        if (o.problem) problems.push(`${messageName(n)}: ${o.problem}`);
        else if (o.filtered) filtered++;
        for (const [dest, msgs] of o.outputs) counts.set(dest, (counts.get(dest) ?? 0) + msgs.length);
      }
      const got = [...counts].map(([d, k]) => `${k} to ${d}`).join(", ") || "no output";
      lines.push(
        `chain ${c.id}: ${got}${
          filtered ? `; ${filtered} message${filtered === 1 ? "" : "s"} routed nowhere on this chain` : ""
        }` +
          (problems.length ? `; ${problems.length} failed (${problems[0]})` : ""),
      );
    }
    lines.push(`outputs: ${join(out, "outputs", key)}/<message>/<hop>/<destination>.hl7`);
    lines.push(`commands: ${chainsDir}/<chain>/commands.sh`);
    return { text: lines.join("\n") };
  } catch (err) {
    if (err instanceof PlanError) return toolError("bad_name", err.message);
    return failure(err);
  }
}

function planText(where: string, plan: ReturnType<typeof planRouteTest>, messages: number): string {
  const lines = [
    `# Route test plan: ${plan.start.site}/${plan.start.thread} on ${where}`,
    "",
    `${messages} message(s); ${plan.chains.length} chain(s).`,
    "",
  ];
  for (const c of plan.chains) {
    lines.push(`## Chain ${c.id}`, "", `    ${c.text}`, "");
    for (const k of c.stages) {
      const s = plan.stages[k];
      lines.push(
        `- ${s.site}: hciroutetest ${s.entry} on ${
          s.from === "message" ? "the message" : `the output for ${s.from.dest}`
        } -> ${k}/`,
      );
    }
    if (c.final) {
      lines.push(
        `- compared: ${
          c.final.dest === "*" ? "every output" : `the output for ${c.final.dest}`
        } of ${c.final.stage}`,
      );
    }
    if (c.note) lines.push(`- note: ${c.note}`);
    lines.push("");
  }
  return lines.join("\n");
}
