/**
 * What the ssh_* tool bodies share: every failure as a structured tool error whose `error` is the
 * SshError kind (the spec's exact text for a closed master, "open the master with /ssh-setup <alias>
 * first", passes through unchanged), a remote opened and closed around the work, and a checked local
 * destination.
 *
 * @module
 */
import { AssistError, describeError } from "../../../core/errors.ts";
import { type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { checkPath, checkWriteTarget } from "../../files/guard.ts";
import { type OpenedRemote, openRemote } from "../../../ssh/open.ts";
import { safeBasename } from "../../../ssh/paths.ts";
import { SshError } from "../../../ssh/errors.ts";

/**
 * A message with the transfers' temporary names (`<file>.part-<hex>` beside a pull's target,
 * `.<file>.assist-part-<hex>` beside a push's) put back to the target the operator named.
 */
export function withoutTempNames(message: string): string {
  return message
    .replace(/([^\s'"]*?)\.part-[0-9a-f]{8}\b/g, "$1")
    .replace(/(^|[\s'"/\\:])\.([^\s'"/\\]+)\.assist-part-[0-9a-f]{8}\b/g, "$1$2");
}

/** A thrown value as a structured tool error. */
export function failure(err: unknown): ToolResult {
  if (err instanceof SshError) return toolError(err.kind, withoutTempNames(err.message), err.extra);
  if (err instanceof AssistError) return toolError(err.level, withoutTempNames(err.message));
  return toolError("io_error", withoutTempNames(describeError(err)));
}

export async function withRemote(
  ctx: ToolContext,
  alias: string,
  fn: (o: OpenedRemote) => Promise<ToolResult>,
): Promise<ToolResult> {
  let opened: OpenedRemote;
  try {
    opened = await openRemote(ctx.config.home, alias, { hint: ctx.hint });
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

/**
 * A local destination the model named, checked: not a protected place, and not anywhere under
 * $ASSIST_HOME at all (a pull must not overwrite the assistant's own state, such as its host keys).
 * A folder (an existing one, or a path ending in / or \, created) gets the remote file's base name.
 */
export async function localDestination(
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
  const folderMeant = /[\\/]$/.test(path);
  if (isDir || folderMeant) {
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
  if (folderMeant && !isDir) {
    try {
      await Deno.mkdir(first.literal, { recursive: true });
    } catch (err) {
      return {
        ok: false,
        result: toolError("io_error", `cannot create the folder ${path}: ${(err as Error).message}`, {
          path,
        }),
      };
    }
  }
  return { ok: true, path: c.literal };
}
