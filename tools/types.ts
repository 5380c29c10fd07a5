/**
 * The shape of a tool. Each tool is defined once (tools/registry.ts lists them): the model's tool
 * list, `assist tools list`, `assist tools <name>` (argument parser and --help) and the REPL's slash
 * commands are all generated from this definition. Tools never print: they return a ToolResult and
 * the caller decides how to show it.
 */
import type { Config } from "../core/config.ts";

export type ParamType = "string" | "integer" | "boolean" | "string[]";

export interface ParamSpec {
  /** snake_case; the JSON-schema property and the manual flag (`--max_lines` or `--max-lines`). */
  name: string;
  type: ParamType;
  description: string;
  required?: boolean;
  /** Applied when the value is absent, for the model and by hand alike. */
  default?: string | number | boolean;
  enum?: readonly string[];
  /** Manual mode: may be given positionally, in declaration order. A `string[]` takes the rest. */
  positional?: boolean;
  /** Integer bounds (inclusive). */
  min?: number;
  max?: number;
  /** Placeholder in usage lines. @default upper-cased name */
  metavar?: string;
}

export type ToolInput = Record<string, string | number | boolean | string[] | undefined>;

export type Caller = "manual" | "model" | "repl";

export interface ToolContext {
  config: Config;
  /** Working directory relative paths resolve against. */
  cwd: string;
  caller: Caller;
  /** Cancels a running tool (Ctrl-C in the REPL, a turn abort). */
  signal?: AbortSignal;
  /** Manual mode only: the whole of standard input, for tools that accept `-`. */
  readStdin?: () => Promise<string>;
  /**
   * A progress line for long runs (manual mode on a terminal: stderr, rewritten in place); `""`
   * clears it. Absent: no progress is shown.
   */
  progress?: (line: string) => void;
  /** Manual mode: a one-line note for the operator on stderr, apart from the result (stdout). */
  notice?: (line: string) => void;
}

export interface ToolResult {
  /** What the tool says; for the model it passes the PHI gate first. */
  text: string;
  /** The tool refused or failed; `text` is then a JSON object `{"error": <kind>, "message": ...}`. */
  isError?: boolean;
}

export interface ToolDef {
  name: string;
  /** One line, for `tools list` and completion. */
  summary: string;
  /** Full description sent to the model and shown by `tools <name> --help`. */
  description: string;
  params: ParamSpec[];
  /** Manual-mode examples for --help (without the `assist tools <name>` prefix). */
  examples?: string[];
  run(input: ToolInput, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * A structured error result the model must surface (spec, "Tool-level refusals").
 *
 * @example
 * ```ts
 * const path = "~/.assist/log";
 * const result = toolError("protected_path", "refused: ~/.assist/log is protected", { path });
 * ```
 */
export function toolError(
  kind: string,
  message: string,
  extra: Record<string, unknown> = {},
): ToolResult {
  return { isError: true, text: JSON.stringify({ error: kind, message, ...extra }) };
}

/** Reads back the message of a structured error result (for manual mode's one-line error). */
export function errorMessage(result: ToolResult): string {
  try {
    const obj = JSON.parse(result.text);
    if (obj && typeof obj.message === "string") return obj.message;
  } catch { /* not JSON: the text itself */ }
  return result.text.trim();
}
