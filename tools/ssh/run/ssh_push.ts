/** ssh_push: copies a local file to an engine host; the byte count is verified. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { sshPushTool as def } from "../ssh_push_tool.ts";
import type { sshPushTool } from "../ssh_push_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { checkPath } from "../../files/guard.ts";
import { pushFromFile, resolveRemotePath } from "../../../ssh/transfer.ts";
import { safeBasename } from "../../../ssh/paths.ts";
import { withRemote } from "./_remote.ts";

export function run(input: InputOf<typeof sshPushTool>, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias;
  return (async () => {
    const c = await checkPath(input.local_path, ctx);
    if (!c.ok) return c.result;
    return await withRemote(ctx, alias, async ({ remote, options }) => {
      const given = input.remote_path;
      let remotePath = await resolveRemotePath(remote, given, {
        hciroot: options.hciroot,
        noLogin: ctx.config.sshNoLogin,
      }, ctx.signal);
      // A folder (an existing one, or a path ending in /) gets the local file's name, as cp does.
      if (/\/$/.test(given) || (await remote.stat(remotePath).catch(() => undefined))?.isDirectory) {
        remotePath = `${remotePath.replace(/\/+$/, "")}/${safeBasename(c.literal)}`;
      }
      const r = await pushFromFile(remote, c.real, remotePath, ctx.signal);
      return { text: `pushed ${r.bytes} bytes to ${alias}:${remotePath} (byte count verified)` };
    });
  })();
}
