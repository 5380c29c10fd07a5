/** ssh_pull_smat: a SMAT archive from an engine host, whole or as a sample of recent messages. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { sshPullSmatTool as def } from "../ssh_pull_smat_tool.ts";
import type { sshPullSmatTool } from "../ssh_pull_smat_tool.ts";
import { atomicWrite } from "../../../core/atomic_write.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { cacheFileFor, pullToFile, resolveRemotePath } from "../../../ssh/transfer.ts";
import {
  parseSampleOutput,
  pickSmatdbPath,
  resolveError,
  resolveScript,
  rowsToTsv,
  SAMPLE_LIMIT,
  sampleScript,
  TSV_COLUMNS,
} from "../../../ssh/smat.ts";
import { wrapCommand } from "../../../ssh/wrap.ts";
import { localDestination, withRemote } from "./_remote.ts";

export function run(input: InputOf<typeof sshPullSmatTool>, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias;
  const daysBack = input.days_back;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const how = { hciroot: options.hciroot, noLogin: ctx.config.sshNoLogin };
    const runScript = async (script: string, maxBytes?: number) => {
      const w = wrapCommand(script, how);
      const r = await remote.exec(w.command, { timeoutMs: 300_000, signal: ctx.signal, maxBytes });
      const dec = new TextDecoder();
      return { ...r, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
    };
    let target = input.smatdb;
    if (target !== undefined && /^(~\/|\$HCIROOT\b|\$\{HCIROOT\})/.test(target)) {
      target = await resolveRemotePath(remote, target, how, ctx.signal);
    }
    const resolved = await runScript(
      resolveScript({ hciroot: options.hciroot ?? "", site: input.site, target }),
    );
    const error = resolveError(resolved.out);
    if (error !== undefined || resolved.code !== 0) {
      return toolError(
        "not_found",
        error ?? `could not find the SMAT database on ${alias} (rc=${resolved.code})`,
        {
          alias,
        },
      );
    }
    const smatPath = pickSmatdbPath(resolved.out);
    if (!smatPath) return toolError("not_found", `could not find the SMAT database on ${alias}`, { alias });
    let local: string | undefined;
    if (typeof input.local_path === "string" && input.local_path !== "") {
      const d = await localDestination(input.local_path, smatPath, ctx);
      if (!d.ok) return d.result;
      local = d.path;
    }
    if (daysBack === undefined) {
      const dest = local ?? await cacheFileFor(alias, smatPath);
      const r = await pullToFile(remote, smatPath, dest, ctx.signal);
      return {
        text: [
          `SMATDB_PATH: ${smatPath}`,
          `local: ${dest}`,
          `[ssh_pull_smat: full copy, ${r.bytes} bytes; byte count verified]`,
          nextStep(dest, ctx),
        ].join("\n"),
      };
    }
    const cutoff = Date.now() - daysBack * 86_400_000;
    const sampled = await runScript(sampleScript(smatPath, cutoff, options.hciroot ?? ""), 256 * 1024 * 1024);
    const parsed = parseSampleOutput(sampled.out);
    if (!parsed.sampler) {
      return toolError(
        "io_error",
        parsed.error ?? `could not sample ${smatPath} on ${alias} (rc=${sampled.code})`,
        {
          alias,
          path: smatPath,
        },
      );
    }
    if (sampled.code !== 0 || !parsed.complete) {
      const why = /not a database|encrypted/i.test(sampled.err)
        ? "it is not a plain SQLite file (an encrypted archive needs the site's key); copy it whole instead"
        : sampled.err.trim().split("\n").pop() || `rc=${sampled.code}`;
      return toolError(
        "io_error",
        `sampling ${smatPath} on ${alias} with ${parsed.sampler.name} failed: ${why}`,
        {
          alias,
          path: smatPath,
        },
      );
    }
    if (sampled.droppedStdout > 0) {
      return toolError("io_error", `the sample of ${smatPath} is larger than 256 MiB; use fewer days_back`, {
        alias,
      });
    }
    const dest = local ?? `${await cacheFileFor(alias, smatPath)}.days${daysBack}.tsv`;
    await atomicWrite(dest, rowsToTsv(parsed.rows), { mode: 0o600 });
    return {
      text: [
        `SMATDB_PATH: ${smatPath}`,
        `sampler: ${parsed.sampler.name} on the engine host (${parsed.sampler.program})`,
        `messages: ${parsed.rows.length} (newest first; last ${daysBack} day(s); at most ${SAMPLE_LIMIT})`,
        `tsv: ${dest}`,
        `columns: ${TSV_COLUMNS.join(", ")}`,
        nextStep(dest, ctx),
      ].join("\n"),
    };
  });
}

/**
 * What to run on the copy, in the reader's form: the model calls a tool with JSON (it cannot run
 * `assist tools ...`); an operator gets the command line.
 */
function nextStep(dest: string, ctx: ToolContext): string {
  const call = ctx.caller === "model"
    ? `nc_msgs ${JSON.stringify({ file: dest })}`
    : `assist tools nc_msgs --file ${shellWord(dest)}`;
  return `next: ${call} (or hl7_show, hl7_field on it)`;
}

/** A path as one shell word (quoted when it holds anything but plain path characters). */
function shellWord(path: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
