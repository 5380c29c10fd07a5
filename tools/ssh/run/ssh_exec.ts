/** ssh_exec: a command on an engine host, in its login shell, with a line cap, a timeout and an exit footer. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { sshExecTool as def } from "../ssh_exec_tool.ts";
import type { sshExecTool } from "../ssh_exec_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { wrapCommand } from "../../../ssh/wrap.ts";
import { renderExec } from "../exec_render.ts";
import { withRemote } from "./_remote.ts";

export function run(input: InputOf<typeof sshExecTool>, ctx: ToolContext): Promise<ToolResult> {
  const alias = input.alias;
  const command = input.command;
  const timeoutSeconds = input.timeout_seconds;
  return withRemote(ctx, alias, async ({ remote, options }) => {
    const wrapped = wrapCommand(command, { noLogin: ctx.config.sshNoLogin, hciroot: options.hciroot });
    const r = await remote.exec(wrapped.command, { timeoutMs: timeoutSeconds * 1000, signal: ctx.signal });
    return {
      text: renderExec(r, {
        alias,
        maxLines: input.max_lines,
        timeoutSeconds,
        login: wrapped.how === "login",
        hint: ctx.hint,
      }),
    };
  });
}
