/**
 * Terminal output: colour only on a terminal and never when NO_COLOR is set (no-color.org: any
 * non-empty value). Tools never print; the callers (manual mode, REPL) use these to render.
 */
import { readEnv } from "./env.ts";

export type Stream = "stdout" | "stderr";

export function isTerminal(stream: Stream): boolean {
  try {
    return stream === "stdout" ? Deno.stdout.isTerminal() : Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

/** Whether ANSI styling may be used on `stream`, given the NO_COLOR value. */
export function colorAllowed(stream: Stream, noColor: string | undefined): boolean {
  return !noColor && isTerminal(stream);
}

export interface Styler {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

/** A styler that colours when `enabled` and is the identity otherwise. */
export function styler(enabled: boolean): Styler {
  if (!enabled) return { dim: plain, bold: plain, red: plain, yellow: plain, green: plain };
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
  };
}

const encoder = new TextEncoder();

/**
 * Writes all of `text` to the stream (no newline added). A closed reader (`assist tools list |
 * head`) ends the writing quietly instead of failing.
 */
export function writeText(stream: Stream, text: string): void {
  const bytes = encoder.encode(text);
  const out = stream === "stdout" ? Deno.stdout : Deno.stderr;
  let off = 0;
  try {
    while (off < bytes.length) off += out.writeSync(bytes.subarray(off));
  } catch (err) {
    if (err instanceof Deno.errors.BrokenPipe) return;
    throw err;
  }
}

/** The styler for a stream under the process's NO_COLOR (read here; unreadable counts as unset). */
export function stylerFor(stream: Stream): Styler {
  return styler(colorAllowed(stream, readEnv("NO_COLOR")));
}
