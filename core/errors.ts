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
  return text.replace(/\r/g, "").replace(/\s*\n\s*/g, " ").trim();
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
  const line = `unexpected error: ${oneLine(message)}`;
  if (debug && err instanceof Error && err.stack) return `${line}\n${err.stack}`;
  return line;
}
