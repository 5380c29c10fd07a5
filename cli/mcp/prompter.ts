/**
 * The review gate of `assist mcp`, asked through the client's elicitation (a form the client shows
 * its user), as the REPL asks Y/n/i on its terminal (phi/prompter.ts runs the same loop). What the
 * user reviews is the sanitized result, exactly what the client's model would get; no value is ever
 * shown. Confirm-mode questions (`ASSIST_AUTO_PHI=confirm`) would have to show the value itself in
 * the client, so they take the no-terminal default instead: tokenize.
 */
import type { PhiPrompter, ReviewRequest } from "../../phi/prompter.ts";

/** What the prompter needs of the MCP server: one form question, answered by the client's user. */
export interface Elicitor {
  elicitInput(
    params: {
      message: string;
      requestedSchema: {
        type: "object";
        properties: Record<string, { type: "string"; title?: string; description?: string; enum: string[] }>;
        required?: string[];
      };
    },
    options?: { timeout?: number },
  ): Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
}

/** The answers offered, and the review gate's letter for each. */
const ANSWERS: Record<string, "y" | "n" | "i"> = { send: "y", withhold: "n", inspect: "i" };

/** An operator may take a while over a result: the form waits up to 10 minutes, then withholds. */
const ANSWER_WAIT_MS = 10 * 60 * 1000;

/** The prompter of a client that supports form elicitation. */
export function elicitationPrompter(server: Elicitor): PhiPrompter {
  let inspect: string | undefined;
  return {
    confirmValue: () => Promise.resolve(true),
    async reviewToolResult(r: ReviewRequest) {
      const shown = inspect;
      inspect = undefined;
      const message = reviewMessage(r) + (shown === undefined ? "" : `\n\n${shown}`);
      try {
        const answer = await server.elicitInput({
          message,
          requestedSchema: {
            type: "object",
            properties: {
              answer: {
                type: "string",
                title: "Send this result to the model?",
                description: "send: as shown; withhold: the model is told it was withheld; " +
                  "inspect: show the whole result, then ask again",
                enum: Object.keys(ANSWERS),
              },
            },
            required: ["answer"],
          },
        }, { timeout: ANSWER_WAIT_MS });
        if (answer.action !== "accept") return "n";
        return ANSWERS[String(answer.content?.answer)] ?? "n";
      } catch {
        // No answer (the form timed out, the client failed): nothing unreviewed is sent.
        return "n";
      }
    },
    showToolResult(text: string) {
      inspect = text;
    },
  };
}

/** The question, worded as the REPL's review line (tool, size, HL7 shape, values tokenized). */
export function reviewMessage(r: ReviewRequest): string {
  const size = r.bytes >= 1024 ? `${(r.bytes / 1024).toFixed(1)} KB` : `${r.bytes} B`;
  const why = r.hl7Shaped ? ", HL7-shaped" : "";
  return `review> ${r.toolName} result: ${size}${why}, ${r.tokenized} value(s) tokenized; send to the model? ` +
    "(inspect shows what the model would get)";
}
