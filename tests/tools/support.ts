/** In-process tool calls for unit tests: a context with a temporary home, as the model would call. */
import { loadConfig } from "../../core/config.ts";
import { validateInput } from "../../tools/args.ts";
import { runTool } from "../../tools/by_name.ts";
import type { ToolContext, ToolDef, ToolResult } from "../../tools/types.ts";

export function contextFor(home: string, cwd: string): ToolContext {
  const config = loadConfig(
    (n) => (n === "ASSIST_HOME" ? home : n === "HOME" ? cwd : undefined),
    Deno.build.os,
  );
  return { config, cwd, caller: "model" };
}

/** Validates `input` as the model's input would be, then runs the tool. */
export function call(def: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  return runTool(def, validateInput(def, input), ctx);
}

export function errorOf(result: ToolResult): { error: string; message: string } {
  if (!result.isError) throw new Error(`expected an error result, got: ${result.text.slice(0, 200)}`);
  return JSON.parse(result.text);
}
