/**
 * Multi-line entry rules (spec, "Input conveniences"), pure: a line ending in a single trailing
 * backslash continues (prompt `... `) until a blank line, the backslashes removed and the lines joined
 * with \n; a line ending with `<<` (or `<<EOF`) collects the following lines until a line `EOF`.
 */

/** Where a multi-line entry stands between lines. */
export type MultilineState =
  | { mode: "none" }
  | { mode: "backslash"; lines: string[] }
  | { mode: "heredoc"; lines: string[] };

/** The result of feeding one line: either the complete entry, or the state to continue with. */
export type MultilineStep =
  | { complete: true; text: string; state: MultilineState }
  | { complete: false; state: MultilineState };

/** The state before the first line of an entry. */
export const START: MultilineState = { mode: "none" };

/** Whether `line` ends in exactly one backslash (`\\` at the end is a literal backslash). */
export function endsWithContinuation(line: string): boolean {
  return /(^|[^\\])\\$/.test(line);
}

const HEREDOC = /^(.*?)\s*<<(EOF)?$/s;

/**
 * Feeds one entered line (it may itself hold newlines, from a paste or Alt+Enter).
 *
 * @example
 * ```ts
 * import { feedLine, START } from "./multiline.ts";
 * const a = feedLine(START, "one \\"); // { complete: false, ... }
 * const b = feedLine(a.state, "two"); // { complete: false, ... }
 * feedLine(b.state, ""); // { complete: true, text: "one \ntwo" }
 * ```
 */
export function feedLine(state: MultilineState, line: string): MultilineStep {
  line = line.replace(/\r$/, "");
  if (state.mode === "none") {
    // An entry typed with newlines (paste, Alt+Enter) is complete as it stands.
    if (line.includes("\n")) return { complete: true, text: line, state: START };
    if (endsWithContinuation(line)) {
      return { complete: false, state: { mode: "backslash", lines: [line.slice(0, -1)] } };
    }
    const h = HEREDOC.exec(line.trimEnd());
    if (h) {
      const head = h[1].trimEnd();
      return { complete: false, state: { mode: "heredoc", lines: head === "" ? [] : [head] } };
    }
    return { complete: true, text: line, state: START };
  }
  // In a continuation mode, a line holding newlines is taken one line at a time.
  const parts = line.split("\n");
  let st: MultilineState = state;
  for (let i = 0; i < parts.length; i++) {
    const step = feedOne(st as Exclude<MultilineState, { mode: "none" }>, parts[i].replace(/\r$/, ""));
    if (step.complete) {
      // Lines pasted after the end marker are kept, never dropped.
      const rest = parts.slice(i + 1);
      const text = rest.length > 0 ? [step.text, ...rest].join("\n") : step.text;
      return { complete: true, text, state: START };
    }
    st = step.state;
  }
  return { complete: false, state: st };
}

function feedOne(state: Exclude<MultilineState, { mode: "none" }>, line: string): MultilineStep {
  if (state.mode === "backslash") {
    if (line.trim() === "") return { complete: true, text: state.lines.join("\n"), state: START };
    const text = endsWithContinuation(line) ? line.slice(0, -1) : line;
    return { complete: false, state: { mode: "backslash", lines: [...state.lines, text] } };
  }
  if (line.trimEnd() === "EOF") return { complete: true, text: state.lines.join("\n"), state: START };
  return { complete: false, state: { mode: "heredoc", lines: [...state.lines, line] } };
}
