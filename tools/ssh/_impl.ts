/**
 * The bodies of the ssh_* tools, loaded on first use (the tool definitions stay light). Every
 * failure becomes a structured tool error whose `error` is the SshError kind; the spec's exact text
 * for a closed master ("open the master with /ssh-setup <alias> first") passes through unchanged.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError, describeError } from "../../core/errors.ts";
import { type ToolContext, toolError, type ToolInput, type ToolResult } from "../types.ts";
import { checkPath, checkWriteTarget } from "../files/guard.ts";
import { renderExec } from "./exec_render.ts";
import {
  cacheFileFor,
  type OpenedRemote,
  openRemote,
  parseSampleOutput,
  pickSmatdbPath,
  pullToFile,
  pushFromFile,
  resolveError,
  resolveRemotePath,
  resolveScript,
  rowsToTsv,
  safeBasename,
  SAMPLE_LIMIT,
  sampleScript,
  SshError,
  statusText,
  TSV_COLUMNS,
  wrapCommand,
} from "../../ssh/mod.ts";

/** A thrown value as a structured tool error. */
export function failure(err: unknown): ToolResult {
  if (err instanceof SshError) return toolError(err.kind, err.message, err.extra);
  if (err instanceof AssistError) return toolError(err.level, err.message);
  return toolError("io_error", describeError(err));
}

async function withRemote(
  ctx: ToolContext,
  alias: string,
  fn: (o: OpenedRemote) => Promise<ToolResult>,
): Promise<ToolResult> {
  let opened: OpenedRemote;
  try {
    opened = await openRemote(ctx.config.home, alias);
  } catch (err) {
    return failure(err);
  }
  try {
    return await fn(opened);
  } catch (err) {
    return failure(err);
  } finally {
    await opened.remote.close().catch(() => {});
  }
}

export async function runStatus(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  try {
    return { text: await statusText(ctx.config.home, input.alias as string | undefined) };
  } catch (err) {
    return failure(err);
  }
}

export function runExec(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias as string;
  const command = input.command as string;
  const timeoutSeconds = input.timeout_seconds as number;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const wrapped = wrapCommand(command, { noLogin: ctx.config.sshNoLogin, hciroot: options.hciroot });
    const r = await remote.exec(wrapped.command, { timeoutMs: timeoutSeconds * 1000, signal: ctx.signal });
    return {
      text: renderExec(r, {
        alias,
        maxLines: input.max_lines as number,
        timeoutSeconds,
        login: wrapped.how === "login",
      }),
    };
  });
}

/**
 * A local destination the model named, checked: not a protected place, and not anywhere under
 * $ASSIST_HOME at all (a pull must not overwrite the assistant's own state, such as its host keys).
 * A folder gets the remote file's base name.
 */
async function localDestination(
  path: string,
  remotePath: string,
  ctx: ToolContext,
): Promise<{ ok: true; path: string } | { ok: false; result: ToolResult }> {
  const first = await checkPath(path, ctx);
  if (!first.ok) return first;
  let c: { literal: string; real: string } = first;
  let isDir = false;
  try {
    isDir = (await Deno.stat(first.real)).isDirectory;
  } catch { /* a new file */ }
  if (isDir) {
    const sep = Deno.build.os === "windows" ? "\\" : "/";
    const inside = await checkPath(
      `${first.literal.replace(/[\\/]+$/, "")}${sep}${safeBasename(remotePath)}`,
      ctx,
    );
    if (!inside.ok) return inside;
    c = inside;
  }
  const target = await checkWriteTarget(c.literal, ctx);
  if (!target.ok) return target;
  return { ok: true, path: c.literal };
}

export function runPull(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias as string;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const remotePath = await resolveRemotePath(remote, input.remote_path as string, {
      hciroot: options.hciroot,
      noLogin: ctx.config.sshNoLogin,
    }, ctx.signal);
    let dest: string;
    if (typeof input.local_path === "string" && input.local_path !== "") {
      const d = await localDestination(input.local_path, remotePath, ctx);
      if (!d.ok) return d.result;
      dest = d.path;
    } else {
      dest = await cacheFileFor(alias, remotePath);
    }
    const r = await pullToFile(remote, remotePath, dest, ctx.signal);
    return { text: `${dest}\n[ssh_pull: ${r.bytes} bytes from ${alias}:${remotePath}; byte count verified]` };
  });
}

export function runPush(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias as string;
  return (async () => {
    const c = await checkPath(input.local_path as string, ctx);
    if (!c.ok) return c.result;
    return await withRemote(ctx, alias, async ({ remote, options }) => {
      const remotePath = await resolveRemotePath(remote, input.remote_path as string, {
        hciroot: options.hciroot,
        noLogin: ctx.config.sshNoLogin,
      }, ctx.signal);
      const r = await pushFromFile(remote, c.real, remotePath, ctx.signal);
      return { text: `pushed ${r.bytes} bytes to ${alias}:${remotePath} (byte count verified)` };
    });
  })();
}

export function runPullSmat(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias as string;
  const daysBack = input.days_back as number | undefined;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const how = { hciroot: options.hciroot, noLogin: ctx.config.sshNoLogin };
    const run = async (script: string, maxBytes?: number) => {
      const w = wrapCommand(script, how);
      const r = await remote.exec(w.command, { timeoutMs: 300_000, signal: ctx.signal, maxBytes });
      const dec = new TextDecoder();
      return { ...r, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
    };
    let target = input.smatdb as string | undefined;
    if (target !== undefined && /^(~\/|\$HCIROOT\b|\$\{HCIROOT\})/.test(target)) {
      target = await resolveRemotePath(remote, target, how, ctx.signal);
    }
    const resolved = await run(
      resolveScript({ hciroot: options.hciroot ?? "", site: input.site as string, target }),
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
        ].join("\n"),
      };
    }
    const cutoff = Date.now() - daysBack * 86_400_000;
    const sampled = await run(sampleScript(smatPath, cutoff, options.hciroot ?? ""), 256 * 1024 * 1024);
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
    const { atomicWrite } = await lazy<typeof import("../../core/atomic_write.ts")>(
      import.meta.url,
      "../../core/atomic_write.ts",
    );
    await atomicWrite(dest, rowsToTsv(parsed.rows), { mode: 0o600 });
    return {
      text: [
        `SMATDB_PATH: ${smatPath}`,
        `sampler: ${parsed.sampler.name} on the engine host (${parsed.sampler.program})`,
        `messages: ${parsed.rows.length} (newest first; last ${daysBack} day(s); at most ${SAMPLE_LIMIT})`,
        `tsv: ${dest}`,
        `columns: ${TSV_COLUMNS.join(", ")}`,
      ].join("\n"),
    };
  });
}
