/**
 * The shape of a tool. Each tool is defined once (tools/registry.ts lists them): the model's tool
 * list, `assist tools list`, `assist tools <name>` (argument parser and --help) and the REPL's slash
 * commands are all generated from this definition. Tools never print: they return a ToolResult and
 * the caller decides how to show it.
 */
import type { Config } from "../core/config.ts";
import type { HintFn } from "../core/hint.ts";
import { operatorText } from "../core/errors.ts";

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
  /**
   * Manual mode: the input file, which is `-` (standard input) when not given, no `text` is given
   * and standard input is not a terminal (`cat x.hl7 | assist tools hl7_show`).
   */
  stdin?: boolean;
  /** Integer bounds (inclusive). */
  min?: number;
  max?: number;
  /** Placeholder in usage lines. @default upper-cased name */
  metavar?: string;
}

export type ToolInput = Record<string, string | number | boolean | string[] | undefined>;

/**
 * The value one declared parameter takes once validated (tools/args.ts): one of its `enum` words,
 * else by its `type`. Exact only for a parameter written `as const` (see {@link InputOf}).
 */
export type ValueOf<P extends ParamSpec> = P extends { readonly enum: readonly (infer E extends string)[] }
  ? E
  : ValueByType[P["type"]];

interface ValueByType {
  string: string;
  integer: number;
  boolean: boolean;
  "string[]": string[];
}

/** A parameter that validation always fills in: required, or with a default. */
type AlwaysGiven<P extends ParamSpec> = P extends { readonly required: true } ? true
  : P extends { readonly default: string | number | boolean } ? true
  : false;

/**
 * The input a tool's body receives, derived from its declared parameters: one key per parameter,
 * present when required or defaulted, optional otherwise; enumerations as their words. A body
 * declares `run(input: InputOf<typeof def>, ctx)`, so renaming or retyping a parameter in the
 * definition breaks the build wherever the body reads it (tests/tools/input_types_test.ts).
 * The definition must keep its literal types: `{ ... } as const satisfies ToolDef`, and shared
 * parameters likewise (tools/engine/common_tool.ts).
 *
 * @example
 * ```ts
 * const def = {
 *   name: "demo",
 *   summary: "",
 *   description: "",
 *   params: [
 *     { name: "path", type: "string", description: "", required: true },
 *     { name: "max", type: "integer", description: "", default: 10 },
 *     { name: "format", type: "string", description: "", enum: ["text", "json"] },
 *   ],
 * } as const satisfies ToolDef;
 * const input: InputOf<typeof def> = { path: "a.txt", max: 10 }; // format?: "text" | "json"
 * ```
 */
export type InputOf<D extends { readonly params: readonly ParamSpec[] }> = Flat<
  & { -readonly [P in D["params"][number] as AlwaysGiven<P> extends true ? P["name"] : never]: ValueOf<P> }
  & { -readonly [P in D["params"][number] as AlwaysGiven<P> extends true ? never : P["name"]]?: ValueOf<P> }
>;

type Flat<T> = { [K in keyof T]: T[K] };

export type Caller = "manual" | "model" | "repl";

export interface ToolContext {
  config: Config;
  /** Working directory relative paths resolve against. */
  cwd: string;
  caller: Caller;
  /** Cancels a running tool (Ctrl-C in the REPL, a turn abort). */
  signal?: AbortSignal;
  /**
   * Manual mode only: the whole of standard input, for tools that accept `-`. Bytes are read by
   * hl7/charset.ts like a file's (tools/input.ts); a string is taken as is.
   */
  readStdin?: () => Promise<string | Uint8Array>;
  /**
   * Manual mode: the result goes to a terminal (not a pipe or a file), so a tool may lay it out for
   * the eye (read_file puts HL7 segments on lines of their own); absent: exact output.
   */
  terminal?: boolean;
  /**
   * A progress line for long runs (manual mode on a terminal: stderr, rewritten in place); `""`
   * clears it. Absent: no progress is shown.
   */
  progress?: (line: string) => void;
  /** Manual mode: a one-line note for the operator on stderr, apart from the result (stdout). */
  notice?: (line: string) => void;
  /**
   * How a message names an operator command: by hand `assist ssh add ...`, in the REPL and for
   * the model `/ssh-add ...` (core/hint.ts). @default slashHint
   */
  hint?: HintFn;
}

export interface ToolResult {
  /** What the tool says; for the model it passes the PHI gate first. */
  text: string;
  /** The tool refused or failed; `text` is then a JSON object `{"error": <kind>, "message": ...}`. */
  isError?: boolean;
  /**
   * One line each, beside `text`: how the input was read when that is worth knowing (a character
   * set fallback). By hand they go to stderr, so `text` stays machine-readable (hl7_field's TSV);
   * for the model they follow `text` as `[note: ...]` lines (withNotes).
   */
  notes?: string[];
  /** With isError: the input itself was wrong (a usage error; the command line exits 2). */
  usage?: boolean;
  /**
   * Manual mode's exit status for a result that is no error (`--exit-code` of the diff tools: 1 when
   * the sides differ, as `git diff --exit-code`). Absent: 0.
   */
  exitCode?: number;
}

/**
 * The result's text with its notes after it as `[note: ...]` lines (what the model sees).
 *
 * @example
 * ```ts
 * withNotes({ text: "a\tb\n", notes: ["x.hl7: read as Windows-1252"] }); // "a\tb\n[note: x.hl7: read as Windows-1252]"
 * ```
 */
export function withNotes(result: ToolResult): string {
  if (!result.notes?.length) return result.text;
  const sep = result.text === "" || result.text.endsWith("\n") ? "" : "\n";
  return result.text + sep + result.notes.map((n) => `[note: ${n}]`).join("\n");
}

export interface ToolDef {
  name: string;
  /** One line, for `tools list` and completion. */
  summary: string;
  /** Full description sent to the model and shown by `tools <name> --help`. */
  description: string;
  /** Written `as const` with the definition, so {@link InputOf} reads the names and types. */
  params: readonly ParamSpec[];
  /**
   * Manual-mode examples for --help (without the `assist tools <name>` prefix). The first that
   * parses is also shown to the model, in its JSON form, when its input is wrong (tools/args.ts).
   */
  examples?: readonly string[];
  /**
   * One input as the model sends it (`{"path": "notes.txt", "start_line": 10}`): shown to the model
   * when its input is wrong (tools/args.ts `inputError`). It must pass validation
   * (tests/tools/args.test.ts checks every tool's).
   */
  exampleInput?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  /**
   * Its results stop at the review gate when large or HL7-shaped (phi/review.ts): output of a shell
   * or a remote host, which nothing of ours shaped.
   */
  review?: boolean;
}

/**
 * The error kinds that mean the input was wrong (a bad argument, a name that names nothing): the
 * command line exits 2 for them (usage), as for any other usage error; every other kind exits 1.
 */
export const USAGE_ERROR_KINDS: ReadonlySet<string> = new Set([
  "usage",
  "bad_input",
  "bad_path",
  "bad_range",
  "bad_pattern",
  "bad_date",
  "bad_since",
  "bad_time",
  "bad_until",
  "no_engine_root",
  "not_engine_root",
  "no_site",
  "unknown_site",
  "unknown_thread",
  "unknown_alias",
  "ambiguous_thread",
  "conflicting_site",
  "no_such_key",
  "same_sides",
  "bad_hl7_filter",
]);

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
  const text = JSON.stringify({ error: kind, message: operatorText(message), ...extra });
  const result: ToolResult = { isError: true, text };
  if (USAGE_ERROR_KINDS.has(kind)) result.usage = true;
  return result;
}

/** Reads back the message of a structured error result (for manual mode's one-line error). */
export function errorMessage(result: ToolResult): string {
  try {
    const obj = JSON.parse(result.text);
    if (obj && typeof obj.message === "string") return obj.message;
  } catch { /* not JSON: the text itself */ }
  return result.text.trim();
}
