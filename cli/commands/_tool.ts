/**
 * Running a registry tool by hand from a command (`/ssh`, `/sites`, `/paths`): the same tool, the
 * same argument parser as `assist tools <name>` (tools/args.ts), output to the operator only.
 */
import { AssistError, EXIT } from "../../core/errors.ts";
import { findTool } from "../../tools/registry.ts";
import { runTool as runBody } from "../../tools/by_name.ts";
import { parseManualArgs, validateInput } from "../../tools/args.ts";
import { errorMessage, type ToolInput } from "../../tools/types.ts";
import type { CommandContext } from "./types.ts";

/** Runs `name` with `input` (an object) or manual-mode `argv`; failures are one line on io.warn. */
export async function runTool(
  name: string,
  input: ToolInput | string[],
  ctx: CommandContext,
): Promise<number> {
  const def = findTool(name);
  if (!def) throw new AssistError(`no such tool: ${name}`, { level: "internal" });
  const parsed = Array.isArray(input) ? parseManualArgs(def, input) : validateInput(def, input, "repl");
  const result = await runBody(def, parsed, { config: ctx.config, cwd: Deno.cwd(), caller: "repl" });
  if (result.isError) {
    ctx.io.warn(`${def.name}: ${errorMessage(result)}`);
    return result.usage ? EXIT.usage : EXIT.failure;
  }
  ctx.io.out(result.text);
  for (const n of result.notes ?? []) ctx.io.warn(`${def.name}: ${n}`);
  return EXIT.ok;
}
