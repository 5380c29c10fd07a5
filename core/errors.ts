import { ioErrorLine, type IoErrorOptions, ioFault } from "./io_error.ts";

/**
 * The one error type the program throws on purpose. Its message is the single sentence an operator
 * sees (with the next step in it); `level` tells callers what kind of failure it was, so they act on
 * it instead of parsing the message, and `exitCode` is what the command line exits with.
 *
 * @example
 * ```ts
 * throw new AssistError("no such tool: foo (run `assist tools list`)", { level: "usage" });
 * ```
 */
export type ErrorLevel = "usage" | "config" | "input" | "io" | "refused" | "network" | "internal";

/** Exit codes of the command line; README.md documents them. */
export const EXIT = {
  ok: 0,
  /** A tool ran and reported failure, or an unexpected error. */
  failure: 1,
  /** Usage: unknown command or tool, bad arguments, a bad ASSIST_* value. */
  usage: 2,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export interface AssistErrorOptions {
  level?: ErrorLevel;
  /** @default EXIT.usage for "usage" and "config", else EXIT.failure */
  exitCode?: number;
  cause?: unknown;
}

export class AssistError extends Error {
  readonly level: ErrorLevel;
  readonly exitCode: number;
  constructor(message: string, options: AssistErrorOptions = {}) {
    super(oneLine(message), { cause: options.cause });
    this.name = "AssistError";
    this.level = options.level ?? "internal";
    this.exitCode = options.exitCode ??
      (this.level === "usage" || this.level === "config" ? EXIT.usage : EXIT.failure);
  }
}

/** Collapses CRs and newlines so that an error is always one line on the terminal. */
export function oneLine(text: string): string {
  return operatorText(text.replace(/\s*\n\s*/g, " ").trim());
}

// deno-lint-ignore no-control-regex -- the point: control characters are what is escaped
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * A message as the operator may see it: embedded CRs stripped (spec, "Model API errors": error,
 * warning and log printers strip embedded CRs; a CR from a Windows-edited file or a remote's
 * output would otherwise show as `\x0d`), other control characters (a binary byte in a NetConfig,
 * an escape sequence) escaped as `\xNN` rather than sent to the terminal, and Deno's own advice for a
 * permission it lacks ("run again with the --allow-read flag", which no operator of the program
 * can act on) replaced by what happened.
 *
 * @example
 * ```ts
 * operatorText('Requires read access to "/x", run again with the --allow-read flag');
 * // 'not permitted to read "/x" (outside what the program may touch)'
 * operatorText("bad \x1b[31m"); // "bad \\x1b[31m"
 * ```
 */
export function operatorText(text: string): string {
  return text
    // A CR before a line end or at the end goes; a lone one inside (an HL7 segment separator in a
    // quoted message) becomes a space, so the segments do not run together.
    .replace(/\r+(?=\n|$)/g, "")
    .replace(/\r+/g, " ")
    .replace(/^NotCapable: /, "")
    .replace(
      /Requires (\w+) access to ([^,]+), (?:run again with the --allow-[\w-]+ flag|specify the required permissions[^.]*)/g,
      (_, what: string, target: string) =>
        `not permitted to ${permissionVerb(what)} ${target} (outside what the program may touch)`,
    )
    .replace(/,? ?run again with (?:the )?--allow-[\w-]+(?: flag)?/g, "")
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function permissionVerb(what: string): string {
  return ({
    read: "read",
    write: "write",
    net: "connect to",
    env: "read the variable",
    run: "run",
    sys: "query",
  } as Record<string, string>)[what] ?? `use (${what})`;
}

/**
 * The exit code of any thrown value: an `AssistError`'s own (by its level), else 1. The one mapper
 * every front calls (main.ts, the command table, `assist tools`, `-p`).
 *
 * @example
 * ```ts
 * exitCodeOf(new AssistError("bad flag", { level: "usage" })); // 2
 * exitCodeOf(new Error("boom")); // 1
 * ```
 */
export function exitCodeOf(err: unknown): number {
  return err instanceof AssistError ? err.exitCode : EXIT.failure;
}

/**
 * The text an operator sees for any thrown value: our own message as is, anything else as
 * "unexpected error: <message>"; the stack only when `debug` (ASSIST_DEBUG=1) is set.
 */
export function describeError(err: unknown, debug = false): string {
  if (err instanceof AssistError) {
    return debug && err.stack ? `${err.message}\n${err.stack}` : err.message;
  }
  const message = err instanceof Error ? err.message : String(err);
  // A full disk, a read-only file system or a denied write is the operator's to fix: say so.
  const line = ioFault(err) ? oneLine(ioErrorLine(err)) : `unexpected error: ${oneLine(message)}`;
  if (debug && err instanceof Error && err.stack) return `${line}\n${err.stack}`;
  return line;
}

/**
 * The `AssistError` (level "io") for a failed read or write of `path` (core/io_error.ts words the
 * line); an `AssistError` passes through unchanged (it already says what to do).
 *
 * @example
 * ```ts
 * declare const path: string;
 * try {
 *   await Deno.writeTextFile(path, "x");
 * } catch (err) {
 *   throw ioError(err, path, { retry: "run the command again" });
 * }
 * ```
 */
export function ioError(err: unknown, path?: string, options: IoErrorOptions = {}): AssistError {
  if (err instanceof AssistError) return err;
  return new AssistError(ioErrorLine(err, path, options), { level: "io", cause: err });
}
