/**
 * The parts of the Messages API wire format (research/model-api.md §1-§3) the client builds and
 * reads. Unknown fields and block types are kept as they came: the types are open on purpose.
 */
import { coerceInt } from "../../core/clean.ts";

export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface TextBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
  [extra: string]: unknown;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
  cache_control?: CacheControl;
}

/** Any block: text, tool_use, thinking, redacted_thinking, server-tool blocks, future types. */
export type ContentBlock = TextBlock | ToolUseBlock | { type: string; [extra: string]: unknown };

export interface MessageParam {
  role: "user" | "assistant";
  content: string | Array<ContentBlock | ToolResultBlock>;
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface MessageRequest {
  model: string;
  max_tokens: number;
  system: TextBlock[];
  messages: MessageParam[];
  tools?: ToolDefinition[];
  stream?: boolean;
  [extra: string]: unknown;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  [extra: string]: unknown;
}

export interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: Usage;
  [extra: string]: unknown;
}

export function isToolUse(block: ContentBlock): block is ToolUseBlock {
  return block.type === "tool_use";
}

export function isText(block: ContentBlock): block is TextBlock {
  return block.type === "text";
}

/**
 * The operator's prompt a user message holds: its text when it is a prompt (a string, or a block
 * array with no tool result: the Messages API takes both), undefined for a message of tool results
 * or an assistant message.
 *
 * @example
 * ```ts
 * promptText({ role: "user", content: [{ type: "text", text: "why?" }] }); // "why?"
 * ```
 */
export function promptText(m: MessageParam): string | undefined {
  if (m.role !== "user") return undefined;
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content) || m.content.some((b) => b?.type === "tool_result")) return undefined;
  return m.content.map((b) => (isText(b as ContentBlock) ? (b as TextBlock).text : "")).join("\n");
}

/** Usage with every count present (null and absent read as 0). */
export function normalizeUsage(raw: unknown): Usage {
  const u = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  // A count sent as text by a gateway ("123\r") is CR-stripped and coerced, never NaN (spec,
  // platform robustness rules).
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : coerceInt(v, { min: 0 }) ?? 0);
  return {
    ...u,
    input_tokens: n(u.input_tokens),
    output_tokens: n(u.output_tokens),
    cache_creation_input_tokens: n(u.cache_creation_input_tokens),
    cache_read_input_tokens: n(u.cache_read_input_tokens),
  };
}
