/**
 * The agent loop's PhiGate, backed by the PHI engine (phi/mod.ts): one engine per session, so
 * confirm decisions and one-time warnings are per session. A strict-mode refusal of the prompt
 * becomes the turn's abort reason; a refused tool result is already the refusal JSON.
 */
import type { AutoPhiMode, Config } from "../../core/config.ts";
import { createPhiEngine, type PhiPrompter, PhiRefusedError } from "../../phi/mod.ts";
import type { PhiGate } from "./gate.ts";

export interface PhiGateOptions {
  /** The terminal's prompter (confirm questions, review gate); absent in headless mode. */
  prompter?: PhiPrompter;
  sessionId?: string;
}

/** The gate, plus the auto-PHI mode of its engine (`/phi-auto`). */
export interface SessionPhiGate extends PhiGate {
  getMode(): AutoPhiMode;
  setMode(mode: AutoPhiMode): void;
}

export async function createPhiGate(config: Config, options: PhiGateOptions = {}): Promise<SessionPhiGate> {
  const engine = await createPhiEngine({ config, prompter: options.prompter, sessionId: options.sessionId });
  return {
    async userInput(text) {
      try {
        const r = await engine.tokenizeUserInput(text);
        return { text: r.text, notice: r.notice, warnings: r.warnings };
      } catch (err) {
        if (err instanceof PhiRefusedError) return { text: "", abort: err.message };
        throw err;
      }
    },
    async toolResult(text, tool, review) {
      const r = await engine.sanitizeToolResult(text, tool, { review });
      return { text: r.text, notice: r.notice, warnings: r.warnings, withheld: r.refused === "review" };
    },
    toolInput: (input) => engine.detokenizeToolInput(input).value,
    detokenize: (text) => engine.detokenize(text).text,
    displayStream: () => engine.createStreamDetokenizer(),
    getMode: () => engine.mode,
    setMode: (mode) => {
      engine.mode = mode;
    },
  };
}
