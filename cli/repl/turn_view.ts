/**
 * What the operator sees of a turn besides the streamed text, as pure formatting (issue 12, item
 * 10): the `tool>` line before a tool runs, a short result line after it, and the elapsed-time
 * indicator after a silence. Headless mode prints the same `tool>` line.
 *
 * - `tool> read_file path=notes.txt start_line=10`: a value longer than 120 characters is cut
 *   with the `/show-last-tool` hint (spec, Limits); control characters in values are shown
 *   escaped (`\n`, `\x1b`), so a value can neither break the line nor reach the terminal raw.
 * - `  ↳ 4.2 KB`, `  ↳ refused (review)`, `  ↳ error: <first line>`: never wider than the terminal.
 * - `… 3 s`, `… 1 min 05 s`.
 *
 * @module
 */
import { graphemes, stringWidth } from "./width.ts";

/** Displayed tool-argument values longer than this are cut (spec, Limits). */
export const TOOL_ARG_DISPLAY_LIMIT = 120;
/** The elapsed indicator appears after this much silence. */
export const ELAPSED_AFTER_MS = 2000;

const HINT = "… (full value: /show-last-tool)";

/** C0 and C1 controls (and DEL) made visible: `\n`, `\t`, `\r`, else `\xNN` / `\u{NNNN}`. */
export function escapeControls(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * `tool> name k=v ...`; values over 120 characters are cut with a hint to use /show-last-tool.
 *
 * @example
 * ```ts
 * import { formatToolCall } from "./turn_view.ts";
 * formatToolCall("read_file", { path: "notes.txt" }); // "tool> read_file path=notes.txt"
 * ```
 */
export function formatToolCall(name: string, input: Record<string, unknown>): string {
  const parts = Object.entries(input).map(([k, v]) => {
    let s = escapeControls(typeof v === "string" ? v : JSON.stringify(v) ?? String(v));
    const chars = [...s];
    if (chars.length > TOOL_ARG_DISPLAY_LIMIT) s = chars.slice(0, TOOL_ARG_DISPLAY_LIMIT).join("") + HINT;
    return `${k}=${s}`;
  });
  return `tool> ${escapeControls(name)} ${parts.join(" ")}`.trimEnd();
}

/** Columns a string takes (the editor's width rules: cli/repl/width.ts). */
export function displayWidth(s: string): number {
  return stringWidth(s);
}

/** `s` cut to at most `columns` display columns, ending in `…` when cut (never inside a grapheme). */
export function fitWidth(s: string, columns: number): string {
  if (stringWidth(s) <= columns) return s;
  let out = "";
  let w = 0;
  for (const g of graphemes(s)) {
    if (w + g.width > columns - 1) break;
    out += g.text;
    w += g.width;
  }
  return `${out}…`;
}

/** `512 B`, `4.2 KB`, `1.3 MB` (1024-based, like the 250 KB limit). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}

/** Error kinds of a tool result that mean "not sent / not done by rule", with the reason shown. */
const REFUSALS: Record<string, string> = {
  withheld_by_operator: "review",
  phi_strict_refusal: "strict PHI",
  protected_path: "protected path",
  refused: "",
  cancelled: "cancelled",
};

/**
 * The short line after a tool ran, from its result as the model got it: its size, `refused
 * (<why>)`, or `error: <first line of the message>`, fitted to `columns` (default 60).
 *
 * @example
 * ```ts
 * import { formatToolResult } from "./turn_view.ts";
 * formatToolResult({ text: "x".repeat(4300), isError: false }); // "  ↳ 4.2 KB"
 * ```
 */
export function formatToolResult(r: { text: string; isError: boolean }, columns = 60): string {
  let line = `  ↳ ${formatBytes(new TextEncoder().encode(r.text).length)}`;
  const structured = parseError(r.text);
  if (structured && (r.isError || structured.kind in REFUSALS)) {
    const why = REFUSALS[structured.kind];
    if (why !== undefined) line = `  ↳ refused${why ? ` (${why})` : ""}`;
    else line = `  ↳ error: ${escapeControls(firstLine(structured.message || structured.kind))}`;
  } else if (r.isError) {
    line = `  ↳ error: ${escapeControls(firstLine(r.text))}`;
  }
  return fitWidth(line, Math.max(10, columns - 1));
}

function parseError(text: string): { kind: string; message: string } | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const o = JSON.parse(text);
    if (o && typeof o === "object" && typeof o.error === "string") {
      return { kind: o.error, message: typeof o.message === "string" ? o.message : "" };
    }
  } catch { /* not JSON: an ordinary result */ }
  return undefined;
}

function firstLine(s: string): string {
  return s.trim().split(/\r?\n|\r/)[0] ?? "";
}

/**
 * The elapsed indicator: `… 3 s`, `… 59 s`, `… 1 min 05 s`, `… 12 min 00 s`.
 *
 * @example
 * ```ts
 * import { formatElapsed } from "./turn_view.ts";
 * formatElapsed(3400); // "… 3 s"
 * ```
 */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `… ${s} s`;
  return `… ${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
