/**
 * The tool-result review gate (spec, "Limits": review-gate threshold; "Tool-level refusals") and the
 * refusal texts that replace a tool result the model must not see.
 *
 * Policy, after the sanitizer ran (the operator reviews what the model would get):
 * - skipped when auto-PHI is `off` or when there is no terminal (no prompter);
 * - `ASSIST_TOOL_RESULT_REVIEW=always`: every tool result is reviewed;
 * - otherwise results of the tools whose definition says `review: true` (shell and remote output:
 *   `bash_exec`, `ssh_exec`, `ssh_pull`, `ssh_pull_smat`) are reviewed when the raw result is at
 *   least the threshold (default 8192 bytes) or HL7-shaped. The flag lives on the tool (tools/types.ts
 *   `ToolDef.review`), so a new remote-output tool says it where it is defined.
 * Answers: `Y` (default) sends it; `n` replaces it with the refusal JSON below; `i` shows it in full
 * and asks again.
 */
import type { AutoPhiMode } from "../core/config.ts";

export interface ReviewPolicyInput {
  mode: AutoPhiMode;
  review: "always" | "auto";
  /** Bytes. */
  threshold: number;
  /** The tool's definition says its results are reviewed (`ToolDef.review`). */
  reviewed: boolean;
  /** UTF-8 size of the raw tool result. */
  bytes: number;
  hl7Shaped: boolean;
  /** A terminal is there to ask. */
  interactive: boolean;
}

/**
 * Whether the operator is asked before a tool result goes to the model.
 *
 * @example
 * ```ts
 * needsReview({ mode: "on", review: "auto", threshold: 8192, reviewed: true, bytes: 9000,
 *   hl7Shaped: false, interactive: true }); // true
 * ```
 */
export function needsReview(p: ReviewPolicyInput): boolean {
  if (p.mode === "off" || !p.interactive) return false;
  if (p.review === "always") return true;
  if (!p.reviewed) return false;
  return p.bytes >= p.threshold || p.hl7Shaped;
}

/** The result the model gets when the operator answers `n` at the review gate. */
export function reviewRefusal(toolName: string): string {
  return JSON.stringify({
    error: "withheld_by_operator",
    message: `The operator reviewed the ${toolName} result and chose not to send it. ` +
      "Tell the operator the result was withheld and ask how to proceed.",
  });
}

/** The refusal sentinel of strict mode: a tool result that could not be sanitized safely. */
export function strictRefusal(toolName: string, reason: string): string {
  return JSON.stringify({
    error: "phi_strict_refusal",
    message: `Strict auto-PHI withheld the ${toolName} result: ${reason}. ` +
      "Tell the operator that the result was withheld; nothing of it was sent.",
  });
}
