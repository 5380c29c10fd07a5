/**
 * What `assist mcp` tells an MCP client in words: the server's instructions (the client's model
 * reads them at `initialize`) and the `phi-reveal` prompt, which tells the client's user how to read
 * the values behind tokens. Neither holds a value; the tools' own descriptions come from the
 * registry (tools/registry.ts), never from here.
 */

/**
 * The server's instructions (MCP `initialize` result). `reviewed`: the tools whose definitions send
 * their large or HL7-shaped results to the review gate (`ToolDef.review`).
 */
export function instructions(reviewed: readonly string[]): string {
  return [
    "assist: tools for the Infor Cloverleaf integration engine (NetConfig threads, routes and paths, " +
    "revisions, SMAT messages, route tests and regressions), HL7 v2 messages, engine hosts over SSH, " +
    "and files, behind assist's PHI gate.",
    "Every tool result is tokenized before you see it: patient values appear as tokens such as " +
    "[[NAME_1]] or [[MRN_3]], from the operator's own lookup table (the same value has the same token " +
    "in the assist REPL, in assist -p and here). Use tokens in tool inputs exactly as you got them: the " +
    "server puts the values back before the tool runs. Never guess at or ask for the values.",
    "No tool returns real values. Only the operator reads them back, in their own terminal, with " +
    "`assist phi-reveal` (the phi-reveal prompt says how); never run assist phi-reveal yourself.",
    `Review gate: shell and remote-host results (${reviewed.join(", ")}) that are ` +
    "large or HL7-shaped, or every result with ASSIST_TOOL_RESULT_REVIEW=always, are shown to the user " +
    "first through an elicitation form (send, withhold, inspect) when the client supports elicitation; " +
    "a withheld result comes back as a withheld_by_operator error. A client without elicitation has no " +
    "one to ask, so assist's no-terminal rule applies: the review gate is skipped (results are still " +
    "tokenized), and confirm-mode values are tokenized without asking.",
    "Long tools (nc_regression, ssh_pull_smat, phi_scan of a large file) send progress notifications " +
    "when the call carries a progress token; cancelling a call stops its tool.",
  ].join("\n\n");
}

/** The `phi-reveal` prompt: name, description, and the text it puts before the client's model. */
export const REVEAL_PROMPT = {
  name: "phi-reveal",
  title: "How to read the values behind assist's tokens",
  description: "Tells you how to read the real values behind [[...]] tokens: in your own terminal, " +
    "with assist phi-reveal (no tool returns them)",
  text: [
    "The [[CATEGORY_N]] tokens in assist's tool results stand for patient values that stay on my " +
    "machine, in assist's lookup table ($ASSIST_HOME/sanitize/lookup.tsv). No MCP tool returns them, " +
    "and you must not try to reveal them (do not run assist phi-reveal, and do not read that file).",
    "When I need a value, tell me to run one of these in my own terminal, outside this agent:",
    "  assist phi-reveal FILE                    the text of FILE with the values put back",
    "  assist phi-reveal -                       paste the text, then Ctrl-D (Ctrl-Z Enter on Windows)",
    "  assist phi-reveal FILE --output OUT       write it to OUT (a file outside $ASSIST_HOME)",
    "If you wrote the text I should read, save it to a file first and tell me its path.",
  ].join("\n"),
} as const;
