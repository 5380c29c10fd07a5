/** ssh_pull: copies a file from an engine host; the byte count is verified. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { sshPullTool as def } from "../ssh_pull_tool.ts";
import type { sshPullTool } from "../ssh_pull_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { cacheFileFor, pullToFile, resolveRemotePath } from "../../../ssh/transfer.ts";
import { localDestination, withRemote } from "./_remote.ts";

export function run(input: InputOf<typeof sshPullTool>, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const remotePath = await resolveRemotePath(remote, input.remote_path, {
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
