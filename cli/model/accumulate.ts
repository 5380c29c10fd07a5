/**
 * Rebuilds the synthetic Message from stream events (research/model-api.md §3): blocks by index,
 * text deltas handed out at once, tool input JSON accumulated until `content_block_stop` and then
 * parsed, usage merged (the last non-null value of each field wins, falling back to
 * `message_start`). Unknown events, block types and delta types are tolerated.
 */
import type { ContentBlock, Message } from "./types.ts";
import { normalizeUsage } from "./types.ts";
import { malformedToolJson, ModelError } from "./errors.ts";

export interface AccumulatorHooks {
  /** Each text delta, as it arrives. */
  onText?: (text: string) => void;
  /** A tool call is complete (its input parsed). */
  onToolUse?: (block: { id: string; name: string; input: Record<string, unknown> }) => void;
  /** A mid-stream `event: error`. Returns the error to throw. */
  onError?: (type: string, message: string) => ModelError;
}

export class MessageAccumulator {
  #message: Message | undefined;
  #blocks: ContentBlock[] = [];
  #json = new Map<number, string>();
  #usage: Record<string, unknown> = {};
  #stopped = false;
  #sawText = false;
  readonly #hooks: AccumulatorHooks;

  constructor(hooks: AccumulatorHooks = {}) {
    this.#hooks = hooks;
  }

  /** Whether `message_stop` was seen. */
  get complete(): boolean {
    return this.#stopped;
  }

  /** Whether any text was handed to onText (a fallback re-send would repeat it). */
  get sawText(): boolean {
    return this.#sawText;
  }

  /** Applies one event (`type` from the data's own `type`, which equals the event name). */
  apply(data: Record<string, unknown>): void {
    switch (data.type) {
      case "message_start": {
        const m = data.message as Message;
        if (!m || typeof m !== "object") throw new SyntaxError("message_start without message");
        this.#message = { ...m, content: [] };
        for (const [k, v] of Object.entries((m.usage ?? {}) as Record<string, unknown>)) {
          if (v !== null && v !== undefined) this.#usage[k] = v;
        }
        return;
      }
      case "content_block_start": {
        const index = data.index as number;
        const block = { ...(data.content_block as ContentBlock) };
        if (block.type === "tool_use") this.#json.set(index, "");
        this.#blocks[index] = block;
        return;
      }
      case "content_block_delta": {
        const index = data.index as number;
        const delta = data.delta as Record<string, unknown>;
        const block = this.#blocks[index] as Record<string, unknown> | undefined;
        if (!delta || !block) return;
        switch (delta.type) {
          case "text_delta": {
            const text = String(delta.text ?? "");
            block.text = String(block.text ?? "") + text;
            if (text) {
              this.#sawText = true;
              this.#hooks.onText?.(text);
            }
            return;
          }
          case "input_json_delta":
            this.#json.set(index, (this.#json.get(index) ?? "") + String(delta.partial_json ?? ""));
            return;
          case "thinking_delta":
            block.thinking = String(block.thinking ?? "") + String(delta.thinking ?? "");
            return;
          case "signature_delta":
            block.signature = String(delta.signature ?? "");
            return;
          case "citations_delta":
            block.citations = [...((block.citations as unknown[]) ?? []), delta.citation];
            return;
          default:
            return; // a future delta type
        }
      }
      case "content_block_stop": {
        const index = data.index as number;
        const block = this.#blocks[index] as Record<string, unknown> | undefined;
        if (block?.type === "tool_use") {
          const raw = this.#json.get(index) ?? "";
          let input: unknown;
          try {
            input = raw.trim() === "" ? {} : JSON.parse(raw);
          } catch {
            throw malformedToolJson(raw);
          }
          if (input === null || typeof input !== "object" || Array.isArray(input)) {
            throw malformedToolJson(raw);
          }
          block.input = input;
          this.#json.delete(index);
          this.#hooks.onToolUse?.({
            id: String(block.id),
            name: String(block.name),
            input: input as Record<string, unknown>,
          });
        }
        return;
      }
      case "message_delta": {
        const delta = (data.delta ?? {}) as Record<string, unknown>;
        if (this.#message) {
          if ("stop_reason" in delta) this.#message.stop_reason = delta.stop_reason as string | null;
          if ("stop_sequence" in delta) this.#message.stop_sequence = delta.stop_sequence as string | null;
        }
        for (const [k, v] of Object.entries((data.usage ?? {}) as Record<string, unknown>)) {
          if (v !== null && v !== undefined) this.#usage[k] = v;
        }
        return;
      }
      case "message_stop":
        this.#stopped = true;
        return;
      case "error": {
        const e = (data.error ?? {}) as Record<string, unknown>;
        const type = String(e.type ?? "api_error");
        const message = String(e.message ?? "");
        throw this.#hooks.onError?.(type, message) ?? new ModelError("api", `${type}: ${message}`);
      }
      default:
        return; // ping and future event types
    }
  }

  /** The rebuilt message. Throws when the stream never started. */
  message(): Message {
    if (!this.#message) throw new ModelError("stream_incomplete", "the stream ended before message_start");
    return {
      ...this.#message,
      content: this.#blocks.filter((b) => b !== undefined),
      usage: normalizeUsage(this.#usage),
    };
  }
}
