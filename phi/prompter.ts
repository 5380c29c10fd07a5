/**
 * The operator's side of the PHI gate: the questions the engine (phi/engine.ts) may ask, which the
 * REPL answers through a `PhiPrompter`, and the prompt loop of the tool-result review gate (the
 * policy of when to ask is phi/review.ts). No terminal code here either: the prompter is injected.
 */
import type { AutoPhiMode } from "../core/config.ts";
import type { Surface } from "./audit.ts";
import type { Tier } from "./candidate.ts";
import { needsReview } from "./review.ts";

/** Asked for tier 3, 4 and 5 values in `confirm` mode (once per canonical value per session). */
export interface ConfirmRequest {
  value: string;
  category: string;
  tier: Tier;
  surface: Surface;
  /** The tool name or `prompt`, and the field path when there is one. */
  context: string;
}

/** Asked at the review gate; `text` is the sanitized result, exactly what the model would get. */
export interface ReviewRequest {
  toolName: string;
  text: string;
  /** UTF-8 size of the raw result. */
  bytes: number;
  hl7Shaped: boolean;
  /** Distinct values tokenized in it. */
  tokenized: number;
}

/**
 * The terminal side, supplied by the REPL. Absent means "no terminal": confirm questions take their
 * default (tokenize) and the review gate is skipped.
 */
export interface PhiPrompter {
  /** Tokenize this value? (`Y/n`, default yes.) */
  confirmValue(request: ConfirmRequest): Promise<boolean>;
  /** `y` send, `n` withhold (refusal JSON), `i` inspect (then asked again). */
  reviewToolResult(request: ReviewRequest): Promise<"y" | "n" | "i">;
  /** Shows the full sanitized result after an `i` answer. */
  showToolResult?(text: string): Promise<void> | void;
}

/** One sanitized tool result at the review gate. */
export interface ReviewGateInput {
  mode: AutoPhiMode;
  review: "always" | "auto";
  /** Bytes. */
  threshold: number;
  toolName: string;
  /** The tool's definition says its results are reviewed (`ToolDef.review`). */
  reviewed: boolean;
  /** The raw result (its UTF-8 size counts against the threshold). */
  raw: string;
  /** The sanitized result: what the operator reviews, and what the model would get. */
  text: string;
  hl7Shaped: boolean;
  /** Distinct values tokenized in it. */
  tokenized: number;
}

/**
 * The review gate: when the policy says so and there is a terminal, asks the operator until the
 * answer is `y` or `n` (an `i` shows the result and asks again). `reviewed`: the operator was asked;
 * `withhold`: the answer was `n`.
 *
 * @example
 * ```ts
 * import { type PhiPrompter, reviewGate } from "./prompter.ts";
 * import { reviewRefusal } from "./review.ts";
 * declare const prompter: PhiPrompter;
 * declare const raw: string;
 * declare const sanitized: string;
 * declare function send(text: string): void;
 * const gate = await reviewGate(prompter, { mode: "on", review: "auto", threshold: 8192,
 *   toolName: "bash_exec", reviewed: true, raw, text: sanitized, hl7Shaped: false, tokenized: 3 });
 * if (gate.withhold) send(reviewRefusal("bash_exec"));
 * ```
 */
export async function reviewGate(
  prompter: PhiPrompter | undefined,
  input: ReviewGateInput,
): Promise<{ reviewed: boolean; withhold: boolean }> {
  if (!prompter) return { reviewed: false, withhold: false };
  const bytes = utf8Length(input.raw);
  const asked = needsReview({
    mode: input.mode,
    review: input.review,
    threshold: input.threshold,
    reviewed: input.reviewed,
    bytes,
    hl7Shaped: input.hl7Shaped,
    interactive: true,
  });
  if (!asked) return { reviewed: false, withhold: false };
  for (;;) {
    const answer = await prompter.reviewToolResult({
      toolName: input.toolName,
      text: input.text,
      bytes,
      hl7Shaped: input.hl7Shaped,
      tokenized: input.tokenized,
    });
    if (answer === "i") {
      await prompter.showToolResult?.(input.text);
      continue;
    }
    return { reviewed: true, withhold: answer === "n" };
  }
}

/** UTF-8 size of a string without encoding it. */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) i++, n += 2; // a surrogate pair: 4 bytes for 2 units
    else n += 2;
  }
  return n;
}
