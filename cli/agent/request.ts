/**
 * Building the request: the system prompt as a block array whose static prefix carries
 * `cache_control` (it is billed at the cache-read rate after the first turn), the registry's tool
 * definitions with `cache_control` on the last one, and the conversation.
 */
import type { MessageParam, MessageRequest, TextBlock, ToolDefinition } from "../model/types.ts";
import { inputSchema } from "../../tools/args.ts";
import type { ToolDef } from "../../tools/types.ts";
import systemPrompt from "../../prompts/system.md" with { type: "text" };

/** The model's tool list, generated from the registry; the last definition closes the cache prefix. */
export function toolDefinitions(tools: readonly ToolDef[]): ToolDefinition[] {
  const defs: ToolDefinition[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: inputSchema(t),
  }));
  if (defs.length > 0) {
    defs[defs.length - 1] = { ...defs[defs.length - 1], cache_control: { type: "ephemeral" } };
  }
  return defs;
}

/** Static prefix (cached) then the per-session context (not cached, it changes). */
export function systemBlocks(
  context: { cwd: string; os: string; date: string; hciroot?: string },
): TextBlock[] {
  return [
    { type: "text", text: systemPrompt, cache_control: { type: "ephemeral" } },
    {
      type: "text",
      text:
        `Session context: date ${context.date}; operating system ${context.os}; working folder ${context.cwd}` +
        (context.hciroot ? `; local engine root (HCIROOT) ${context.hciroot}` : "; no local engine root set"),
    },
  ];
}

export function buildRequest(
  model: string,
  maxTokens: number,
  system: TextBlock[],
  tools: ToolDefinition[],
  messages: MessageParam[],
): MessageRequest {
  return { model, max_tokens: maxTokens, system, tools, messages };
}
