/**
 * PHI: the gate between the operator's machine and the model. Everything bound for the model
 * (prompts, `@file` and `/load` content, every tool result, templated prompts) passes
 * `tokenizeUserInput` or `sanitizeToolResult` once, in the agent loop, right before the request is
 * built; everything coming back is reversed locally (`detokenize`, `createStreamDetokenizer`,
 * `detokenizeToolInput`). No terminal code: questions go to an injected `PhiPrompter`, notices and
 * warnings come back as data for the caller to print.
 *
 * Token format: `[[<CATEGORY>_<N>]]`, e.g. `[[NAME_1]]`, `[[MRN_12]]`, `[[presidio_PERSON_3]]`.
 * The lookup table `$ASSIST_HOME/sanitize/lookup.tsv` (token, category, canonical, original) is the
 * source of truth: the same canonical value always gets the same token, in every turn, session
 * and process (new tokens are minted under an OS-level file lock).
 *
 * @example
 * ```ts
 * import type { Config } from "../core/config.ts";
 * import { runSidecarCommand } from "./sidecar/lifecycle.ts";
 * declare const config: Config;
 * declare const prompter: Parameters<typeof createPhiEngine>[0]["prompter"];
 * declare const sessionId: string, rawText: string, deltas: AsyncIterable<string>;
 * declare function sendToModel(text: string): void;
 * declare function print(text: string): void;
 * import { createPhiEngine } from "./mod.ts";
 * const phi = await createPhiEngine({ config, prompter, sessionId });
 *
 * // Outbound: a prompt.
 * const input = await phi.tokenizeUserInput("why did MRN 12345678 fail? patient @@Jane Doe@@");
 * input.text; // "why did MRN [[MRN_1]] fail? patient [[NAME_1]]"
 * input.notice; // "phi> auto-tokenized 1 value(s) [user_input]: MRN×1"  (print it; no values in it)
 *
 * // Outbound: a tool result (HL7 sanitizer, tiers, base64 pass, review gate).
 * const result = await phi.sanitizeToolResult(rawText, "bash_exec");
 * sendToModel(result.text); // a refusal JSON when result.refused is "strict" or "review"
 *
 * // Inbound: streamed model text shown to the operator, and tool inputs before the tool runs.
 * const shown = phi.createStreamDetokenizer();
 * for await (const chunk of deltas) print(shown.push(chunk));
 * print(shown.flush());
 * const args = phi.detokenizeToolInput({ pattern: "[[MRN_1]]" }).value; // { pattern: "12345678" }
 *
 * // `/phi-auto <mode>` and `/phi-sidecar <sub>`.
 * phi.mode = "confirm";
 * const { ok, text } = await runSidecarCommand("start", { config });
 * ```
 *
 * @module
 */
export {
  createPhiEngine,
  PhiEngine,
  type PhiEngineOptions,
  PhiRefusedError,
  type PhiTextResult,
  type ScanFinding,
  type Tokenization,
  type ToolResultSanitized,
  type UserInputResult,
} from "./engine.ts";
export type { ConfirmRequest, PhiPrompter, ReviewRequest } from "./prompter.ts";
export { type AuditRecord, noticeLine, type Surface } from "./audit.ts";
export type { Candidate, Tier } from "./detect.ts";
export { type Detokenized, type StreamDetokenizer } from "./detokenize.ts";
export { type LookupRow, LookupTable } from "./lookup.ts";
export { canonicalize, detectCategory, parseDate } from "./normalize.ts";
export { findMarkers, NOPHI_PREFIX, stripNoPhi } from "./markers.ts";
export { HL7_FIELD_POLICY } from "./hl7_policy.ts";
export { needsReview, reviewRefusal, strictRefusal } from "./review.ts";
export { formatToken, parseToken } from "./token.ts";
export { namesCoverage } from "./tier5.ts";
export {
  SidecarClient,
  type SidecarDetector,
  type SidecarEntity,
  type SidecarHealth,
} from "./sidecar/client.ts";
export { ATTACHED_FENCE_TAG } from "./markers.ts";
