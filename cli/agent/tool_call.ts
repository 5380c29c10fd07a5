/**
 * One tool call through the PHI gate, independent of any conversation: the input detokenized, the
 * one validation (tools/args.ts), the tool run (tools/by_name.ts `runTool`), then the result through
 * the gate once (review gate included). The agent loop (cli/agent/loop.ts) runs every tool call of
 * the model through it, and `assist mcp` (cli/mcp/) every `tools/call` of an MCP client, so a
 * token means the same value, and a result is tokenized the same way, on every front.
 */
import type { PhiGate } from "./gate.ts";
import { validateInput } from "../../tools/args.ts";
import { runTool } from "../../tools/by_name.ts";
import {
  type ToolContext,
  type ToolDef,
  type ToolInput,
  type ToolResult,
  withNotes,
} from "../../tools/types.ts";
import { AssistError } from "../../core/errors.ts";
import { closestNames } from "../../core/suggest.ts";

export interface ToolCallOptions {
  /** The tools the caller offers (the registry's, or a test's own). */
  tools: readonly ToolDef[];
  gate: PhiGate;
  /** The context the tool runs with (its `signal` cancels it). */
  context: ToolContext;
  /** Runs a tool of `tools`. @default tools/by_name.ts runTool */
  runTool?: (def: ToolDef, input: ToolInput, ctx: ToolContext) => Promise<ToolResult>;
  /** The tool is about to run: its input as the model asked for it, detokenized (display only). */
  onCall?: (name: string, input: Record<string, unknown>) => void;
}

export interface GatedToolResult {
  /** What may be sent on: the tool's text (or its error JSON) after the PHI gate. */
  text: string;
  isError: boolean;
  /** `phi>` notices and one-line warnings for the operator (never holding a value). */
  notices: string[];
  /** Strict mode refused the result: the caller stops with this reason (the text is then empty). */
  abort?: string;
  /**
   * The tool's own result when the operator withheld it at the review gate: for the operator's
   * `/show-last-tool` only (it never went to the model; `assist mcp` never returns it).
   */
  withheld?: string;
}

/**
 * Runs one tool call by name on the input as the model (or an MCP client) sent it, tokens and all.
 *
 * @example
 * ```ts
 * import { callTool } from "./tool_call.ts";
 * import { TOOLS } from "../../tools/registry.ts";
 * import type { PhiGate } from "./gate.ts";
 * import type { ToolContext } from "../../tools/types.ts";
 * declare const gate: PhiGate;
 * declare const context: ToolContext;
 * const r = await callTool("read_file", { path: "[[PATH_1]]" }, { tools: TOOLS, gate, context });
 * if (!r.abort) console.log(r.text); // tokenized again
 * ```
 */
export async function callTool(
  name: string,
  rawInput: Record<string, unknown>,
  o: ToolCallOptions,
): Promise<GatedToolResult> {
  const def = o.tools.find((t) => t.name === name);
  if (!def && /reveal|detok/i.test(name)) {
    // Reversing tokens is the operator's alone (`assist phi-reveal`): say so, run nothing.
    return {
      text: JSON.stringify({
        error: "refused",
        message: "revealing tokenized values is for the operator only (assist phi-reveal); never a tool",
      }),
      isError: true,
      notices: [],
    };
  }
  if (!def) {
    const near = closestNames(name, o.tools.map((t) => t.name));
    const message = `no tool named ${name.slice(0, 40)}` +
      (near.length ? `; did you mean ${near.join(", ")}?` : "");
    return { text: JSON.stringify({ error: "unknown_tool", message }), isError: true, notices: [] };
  }
  const input = o.gate.toolInput(rawInput);
  let result: ToolResult;
  try {
    // The one check of an input against the declared parameters; its errors are worded for the
    // model (what the tool takes, an example call), since the model cannot read --help.
    const valid = validateInput(def, input, "model");
    // Shown as the model asked for it (detokenized), without the defaults validation filled in.
    o.onCall?.(name, input);
    result = await (o.runTool ?? runTool)(def, valid, o.context);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    result = {
      text: JSON.stringify({
        error: err instanceof AssistError && (err.level === "usage" || err.level === "input")
          ? "bad_input"
          : "tool_failed",
        message,
      }),
      isError: true,
    };
  }
  const raw = withNotes(result);
  const gated = await o.gate.toolResult(raw, name, def.review === true);
  const notices = [...(gated.notice ? [gated.notice] : []), ...(gated.warnings ?? [])];
  if (gated.abort) return { text: "", isError: true, notices, abort: gated.abort };
  return {
    text: gated.text,
    isError: result.isError ?? false,
    notices,
    ...(gated.withheld ? { withheld: raw } : {}),
  };
}
