/**
 * The agent loop: prompt → PHI gate → request → tool calls (several per turn) → inputs detokenized
 * → registry → results through the PHI gate (review gate included) → fed back, until the model answers
 * with text only. Cancelling (Ctrl-C) keeps the exchange, as the API's own clients do: the prompt,
 * the answer so far (its text) and an interruption marker stay in the conversation, so a follow-up
 * ("just the short version") has something to refer to; every tool_use is answered and the
 * conversation ends with an assistant message. Usage and cost are metered per stream and session.
 */
import { type ClientOptions, sendMessage } from "../model/client.ts";
import { ModelError } from "../model/errors.ts";
import { CostMeter } from "../model/pricing.ts";
import {
  type ContentBlock,
  isText,
  isToolUse,
  type MessageParam,
  type TextBlock,
  type ToolResultBlock,
} from "../model/types.ts";
import { buildRequest, toolDefinitions } from "./request.ts";
import type { GateResult, PhiGate } from "./gate.ts";
import { callTool } from "./tool_call.ts";
import type { ToolContext, ToolDef, ToolInput, ToolResult } from "../../tools/types.ts";
import { AssistError } from "../../core/errors.ts";

export interface AgentIO {
  /** Detokenized model text, as it streams. */
  text(chunk: string): void;
  /** A tool is about to run (input detokenized, for display only). */
  toolCall(name: string, input: Record<string, unknown>): void;
  /** A tool finished; its result as sent to the model (post-gate). */
  toolResult?(record: ToolCallRecord): void;
  /** One-line notices: `phi>`, `phi/rl>`, `model>`. */
  notice(line: string): void;
  /**
   * The model request in flight is alive (sent, or bytes came, a ping too): its idle countdown of
   * `limitSeconds` starts over; `undefined` when no request is waiting for the model any more.
   */
  activity?(limitSeconds: number | undefined): void;
  /**
   * The text given since the last `attemptDone` belongs to an attempt that broke off (the request
   * is sent again): a front that holds text back (`-p`) drops it; the notice is said already.
   */
  attemptBroken?(): void;
  /** The text given so far belongs to a finished answer (a front that holds text back prints it). */
  attemptDone?(): void;
}

export interface AgentOptions {
  model: string;
  maxTokens?: number;
  tools: readonly ToolDef[];
  gate: PhiGate;
  io: AgentIO;
  client: Omit<ClientOptions, "onText" | "signal">;
  system: TextBlock[];
  toolContext: Omit<ToolContext, "signal">;
  /** Model requests per turn at most (a runaway tool loop stops here). @default 40 */
  maxRounds?: number;
  /** Runs a tool of `tools` (tests hand in tools of their own). @default tools/by_name.ts runTool */
  runTool?: (def: ToolDef, input: ToolInput, ctx: ToolContext) => Promise<ToolResult>;
  /**
   * The conversation the loop works on (cli/agent/conversation.ts): its messages, cost meter and last
   * tool call. A new client (new credentials) borrows the same one. @default a new, empty one
   */
  state?: ConversationState;
}

/** What a turn reads and extends: owned by the conversation, borrowed by the loop. */
export interface ConversationState {
  readonly messages: MessageParam[];
  readonly meter: CostMeter;
  lastTool?: ToolCallRecord;
}

export interface ToolCallRecord {
  name: string;
  /** Input as the model sent it (tokenized). */
  input: Record<string, unknown>;
  /** Result as sent to the model (post-gate). */
  result: string;
  isError: boolean;
  /**
   * The operator answered `n` at the review gate: the result as the tool gave it, which never went
   * to the model (`result` is the refusal it got). In memory only, for `/show-last-tool`.
   */
  withheld?: string;
}

export interface TurnResult {
  /** The final answer, detokenized for the operator. */
  answer: string;
  toolCalls: ToolCallRecord[];
  rounds: number;
  cancelled: boolean;
  /** Cancelled before anything was sent (while files were read or the client was built). */
  unsent?: boolean;
}

/**
 * The interruption marker: the last block of the assistant message of a cancelled turn, after the
 * answer so far (the words the vendor's own clients use, so the model knows what it means).
 */
export const INTERRUPTED = "[Request interrupted by user]";

export const CANCELLED_RESULT = JSON.stringify({
  error: "cancelled",
  message: "The operator cancelled this turn; this tool's result was not sent (it may have run).",
});

/**
 * The client and the loop. It keeps no conversation of its own: the messages, cost meter and last
 * tool call belong to the state it borrows (`AgentOptions.state`).
 */
export class Agent {
  model: string;
  readonly state: ConversationState;
  readonly #o: AgentOptions;

  constructor(options: AgentOptions) {
    this.#o = options;
    this.model = options.model;
    this.state = options.state ?? { messages: [], meter: new CostMeter() };
  }

  get messages(): MessageParam[] {
    return this.state.messages;
  }

  get meter(): CostMeter {
    return this.state.meter;
  }

  get lastTool(): ToolCallRecord | undefined {
    return this.state.lastTool;
  }

  set lastTool(t: ToolCallRecord | undefined) {
    this.state.lastTool = t;
  }

  reset(): void {
    this.messages.length = 0;
  }

  async turn(prompt: string, signal?: AbortSignal): Promise<TurnResult> {
    const o = this.#o;
    const gated = await o.gate.userInput(prompt);
    this.#notices(gated);
    if (gated.abort) throw new AssistError(gated.abort, { level: "refused" });
    const start = this.messages.length;
    this.messages.push({ role: "user", content: gated.text });
    const toolDefs = toolDefinitions(o.tools);
    const calls: ToolCallRecord[] = [];
    let answer = "";
    // The raw (tokenized) text of the attempt running now: kept with the marker when it is cancelled.
    let partial = "";
    // The end of the text shown in earlier rounds of this turn: a later round's text starts after a
    // blank line, so the words before a tool call never run into the answer ("...sites.The TRXID").
    let before = "";
    const emit = (out: string) => {
      if (before !== "" && !before.endsWith("\n\n")) o.io.text(before.endsWith("\n") ? "\n" : "\n\n");
      before = "";
      o.io.text(out);
    };
    try {
      for (let round = 1;; round++) {
        if (round > (o.maxRounds ?? 40)) {
          throw new AssistError(`stopped after ${o.maxRounds ?? 40} model requests in one turn`, {
            level: "internal",
          });
        }
        let display = o.gate.displayStream();
        let shown = "";
        partial = "";
        // A broken attempt's text is void (a front may drop it): the retry needs the blank line too.
        const roundBefore = before;
        const { message, streamed } = await sendMessage(
          buildRequest(this.model, o.maxTokens ?? 8192, o.system, toolDefs, this.messages),
          {
            ...o.client,
            signal,
            onActivity: o.io.activity ? (limit) => o.io.activity!(limit) : undefined,
            onText: (t) => {
              partial += t;
              const out = display.push(t);
              if (out) emit(out), shown += out;
            },
            // A retry or the non-streaming fallback sends the request again: what was shown of the
            // broken attempt is marked as such, and the answer starts over.
            onResend: () => {
              if (shown || display.flush()) o.io.notice("model> that answer broke off; it starts over");
              o.io.attemptBroken?.();
              before = roundBefore;
              display = o.gate.displayStream();
              shown = "";
              partial = "";
            },
          },
        );
        const tail = display.flush();
        if (tail) emit(tail), shown += tail;
        this.meter.add(message.model || this.model, message.usage);
        const content = message.content.filter((b) => !(isText(b) && b.text === ""));
        this.messages.push({
          role: "assistant",
          content: content.length ? content : [{ type: "text", text: "(no answer)" }],
        });
        const text = content.filter(isText).map((b) => b.text).join("");
        if (!streamed && text) {
          // Not streamed (by choice, or the fallback after a broken stream): show it whole now.
          const out = o.gate.detokenize(text);
          emit(out);
          shown = out;
        }
        partial = "";
        o.io.attemptDone?.();
        answer = shown || o.gate.detokenize(text);
        if (shown) before = shown.slice(-2);
        const uses = content.filter(isToolUse);
        if (uses.length === 0) return { answer, toolCalls: calls, rounds: round, cancelled: false };
        const results: ToolResultBlock[] = [];
        for (const use of uses) {
          if (signal?.aborted) {
            results.push({
              type: "tool_result",
              tool_use_id: use.id,
              content: CANCELLED_RESULT,
              is_error: true,
            });
            continue;
          }
          const r = await this.#runTool(use.name, use.input, signal);
          const record: ToolCallRecord = {
            name: use.name,
            input: use.input,
            result: r.text,
            isError: r.isError,
          };
          if (r.withheld !== undefined) record.withheld = r.withheld;
          calls.push(record);
          this.lastTool = record;
          o.io.toolResult?.(record);
          results.push({
            type: "tool_result",
            tool_use_id: use.id,
            content: r.text,
            is_error: r.isError || undefined,
          });
        }
        this.messages.push({ role: "user", content: results });
        if (signal?.aborted) throw new ModelError("cancelled", "cancelled");
      }
    } catch (err) {
      this.#repair(start, signal?.aborted === true, partial);
      if (err instanceof ModelError && err.kind === "cancelled") {
        return { answer, toolCalls: calls, rounds: 0, cancelled: true };
      }
      throw err;
    }
  }

  /** One tool call: detokenize the input, validate, run, then the PHI gate and the review gate. */
  async #runTool(
    name: string,
    rawInput: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ text: string; isError: boolean; withheld?: string }> {
    const o = this.#o;
    const r = await callTool(name, rawInput, {
      tools: o.tools,
      gate: o.gate,
      context: { ...o.toolContext, signal },
      runTool: o.runTool,
      onCall: (n, input) => o.io.toolCall(n, input),
    });
    for (const line of r.notices) o.io.notice(line);
    if (r.abort) throw new AssistError(r.abort, { level: "refused" });
    return { text: r.text, isError: r.isError, withheld: r.withheld };
  }

  #notices(g: GateResult): void {
    if (g.notice) this.#o.io.notice(g.notice);
    for (const w of g.warnings ?? []) this.#o.io.notice(w);
  }

  /**
   * After a failure or cancel, keep the history valid: answer every open tool_use, and end with an
   * assistant message so the next prompt alternates correctly. A failed turn that got no answer at
   * all is removed whole; a cancelled one is kept, with the answer so far (`partial`, its text) and
   * the interruption marker.
   */
  #repair(start: number, cancelled: boolean, partial: string): void {
    const last = this.messages[this.messages.length - 1];
    if (!last || this.messages.length <= start) return;
    if (cancelled) {
      // An assistant message without open calls already ends the turn validly.
      if (last.role === "assistant" && !this.#answerOpenCalls(last)) return;
      this.messages.push({
        role: "assistant",
        content: [
          ...(partial.trim() ? [{ type: "text" as const, text: partial.trimEnd() }] : []),
          { type: "text" as const, text: INTERRUPTED },
        ],
      });
      return;
    }
    if (this.messages.length === start + 1 && last.role === "user") {
      this.messages.length = start; // nothing came back: forget the prompt
      return;
    }
    if (last.role === "assistant" && !this.#answerOpenCalls(last)) return;
    this.messages.push({ role: "assistant", content: [{ type: "text", text: "(turn cancelled)" }] });
  }

  /** Answers the tool calls of `last` (an assistant message) as cancelled; false when it made none. */
  #answerOpenCalls(last: MessageParam): boolean {
    const open = (Array.isArray(last.content) ? last.content as ContentBlock[] : []).filter(isToolUse);
    if (open.length === 0) return false;
    this.messages.push({
      role: "user",
      content: open.map((u) => ({
        type: "tool_result" as const,
        tool_use_id: u.id,
        content: CANCELLED_RESULT,
        is_error: true,
      })),
    });
    return true;
  }
}
