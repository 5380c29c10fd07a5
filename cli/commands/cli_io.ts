/**
 * The command line's CommandIO: output on stdout, one-line failures on stderr after a red
 * `assist:` (plain under NO_COLOR or when redirected), secrets through core/secret_input.ts (a
 * hidden prompt on a terminal, else the first line of standard input).
 */
import { readSecret } from "../../core/secret_input.ts";
import { stylerFor, writeText } from "../../core/term.ts";
import type { CommandIO } from "./types.ts";

const line = (text: string) => text.endsWith("\n") ? text : `${text}\n`;

export function cliIO(): CommandIO {
  return {
    front: "cli",
    out: (text) => writeText("stdout", line(text)),
    // Warnings may quote a file or a remote's output: embedded CRs are stripped (spec, Errors).
    warn: (text) =>
      writeText("stderr", line(`${stylerFor("stderr").red("assist:")} ${text.replace(/\r/g, "")}`)),
    readSecret,
  };
}
