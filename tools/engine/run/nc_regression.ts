/** nc_regression: the six phases of a cross-environment regression, or the rest of one from a phase. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRegressionTool as def } from "../nc_regression_tool.ts";
import type { ncRegressionTool } from "../nc_regression_tool.ts";
import { join, resolve } from "node:path";
import { expandTilde } from "../../../core/tilde.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { openRegression, type RegressionParams } from "../regression.ts";
import { regressionScope } from "./_start.ts";
import { stamp } from "./nc_route_test.ts";
import { Hl7PathError, parsePath } from "../../../hl7/mod.ts";

/** The operator's ignore paths, each checked now (a bad one would otherwise fail in phase 5). */
function ignorePaths(input: InputOf<typeof ncRegressionTool>): string[] {
  const paths = (input.ignore ?? []).map((p) => p.trim()).filter((p) => p !== "");
  for (const p of paths) {
    try {
      parsePath(p);
    } catch (err) {
      if (err instanceof Hl7PathError) {
        throw new EngineInputError("bad_input", `--ignore ${p}: ${err.message}`);
      }
      throw err;
    }
  }
  return paths;
}

const ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function run(input: InputOf<typeof ncRegressionTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const from = input.from_phase ?? 1;
    const source = input.source_ssh_alias?.trim() || undefined;
    const target = input.target_ssh_alias?.trim() || undefined;
    let params: RegressionParams | undefined;
    if (source || target || from === 1) {
      if (!source || !target) {
        throw new EngineInputError("bad_input", "give both source_ssh_alias and target_ssh_alias");
      }
      for (const a of [source, target]) {
        if (!ALIAS.test(a)) {
          throw new EngineInputError("bad_input", `"${a}" is not an SSH alias (ssh_status lists them)`);
        }
      }
      if (source === target) throw new EngineInputError("bad_input", "source and target are the same alias");
      const scope = regressionScope(input);
      params = {
        source,
        target,
        sourceRoot: input.source_hciroot || undefined,
        targetRoot: input.target_hciroot || undefined,
        site: scope.site,
        thread: scope.thread,
        count: input.count ?? 10,
        daysBack: input.days_back,
        ignore: ignorePaths(input),
        maxHops: input.max_hops ?? 20,
        dryRun: Boolean(input.dry_run),
      };
    }
    const given = input.output?.trim();
    if (from > 1 && !given) {
      throw new EngineInputError("bad_input", "--from-phase needs --output <run folder> of the earlier run");
    }
    const dir = resolve(ctx.cwd, expandTilde(given || `regression-${source}-${target}-${stamp()}`));
    const reg = await openRegression(ctx, dir, params, from);
    const records = await reg.run(from);
    const lines = records.map((r) => `phase ${r.phase} ${r.name}: ${r.line}`);
    if (reg.params.dryRun) {
      lines.push(
        `dry run: nothing was pushed or run on ${reg.params.source} or ${reg.params.target}; ` +
          `commands in ${join(dir, "source", "routetest")} and ${join(dir, "target", "routetest")}`,
      );
    } else {
      const summary = await Deno.readTextFile(join(dir, "regression-summary.md"));
      lines.push("", summary.trimEnd(), "", `[nc_regression: ${join(dir, "regression-summary.md")}]`);
    }
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
