/** ssh_push: copies a local file to an engine host; the byte count is verified. */
import type { ToolContext, ToolInput, ToolResult } from "../../types.ts";
import { checkPath } from "../../files/guard.ts";
import { pushFromFile, resolveRemotePath } from "../../../ssh/transfer.ts";
import { withRemote } from "./_remote.ts";

export function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
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
