/**
 * What counts as a turn of a session: a prompt the operator sent, i.e. a user message whose content
 * is text or text blocks (tool results come back as user messages with tool_result blocks:
 * `promptText` in cli/model/types.ts decides). The one rule for the status line,
 * `/sessions`, `--resume` and the session log, all read from the messages the model got.
 *
 * @example
 * ```ts
 * import { turnCount } from "./turns.ts";
 * turnCount([{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]); // 1
 * ```
 *
 * @module
 */
import { type MessageParam, promptText } from "../model/types.ts";

/** The prompts among `messages`. */
export function prompts(messages: readonly MessageParam[]): MessageParam[] {
  return messages.filter((m) => promptText(m) !== undefined);
}

/** How many turns `messages` hold. */
export function turnCount(messages: readonly MessageParam[]): number {
  return prompts(messages).length;
}
