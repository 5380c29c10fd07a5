/** ssh_status: the registered aliases, whether each master is open, and whether a password is stored. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { sshStatusTool as def } from "../ssh_status_tool.ts";
import type { sshStatusTool } from "../ssh_status_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { statusText } from "../../../ssh/ops.ts";
import { failure } from "./_remote.ts";

export async function run(input: InputOf<typeof sshStatusTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    return { text: await statusText(ctx.config.home, input.alias, ctx.hint) };
  } catch (err) {
    return failure(err);
  }
}
