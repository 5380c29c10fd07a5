/**
 * What the agent loop needs from the PHI engine, as one interface: everything bound for the model
 * passes `userInput` or `toolResult` once, right before the request is built; tool inputs pass
 * `toolInput` (detokenized) before a tool runs; text shown to the operator passes a streaming
 * detokenizer. There is no other path to the model and no tool-name allow-list. The review gate
 * (Y/n/i before a large or HL7-shaped result is sent) lives inside `toolResult`, with the PHI engine.
 */

export interface GateResult {
  /** The text that may be sent to the model. */
  text: string;
  /** A `phi> auto-tokenized …` notice line for the operator, when something was tokenized. */
  notice?: string;
  /** One-line warnings for the operator (never holding a value). */
  warnings?: string[];
  /** Strict mode: the turn must stop, with this reason for the operator. */
  abort?: string;
  /** The operator answered `n` at the review gate: `text` is the refusal the model gets instead. */
  withheld?: boolean;
}

export interface StreamDetokenizer {
  /** Detokenized text that is safe to show now (a token split across chunks is held back). */
  push(chunk: string): string;
  /** Whatever is held back, at the end of the stream. */
  flush(): string;
}

export interface PhiGate {
  userInput(text: string): Promise<GateResult>;
  /** `review`: the tool's definition sends large or HL7-shaped results to the review gate. */
  toolResult(text: string, tool: string, review?: boolean): Promise<GateResult>;
  toolInput(input: Record<string, unknown>): Record<string, unknown>;
  detokenize(text: string): string;
  displayStream(): StreamDetokenizer;
}
