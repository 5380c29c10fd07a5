/**
 * `/load <file>`: reads a file for the next prompt. HL7-shaped content goes through the HL7
 * sanitizer of phi/ first (structured field values become tokens from the lookup table), so the
 * attached text holds no raw patient fields; the agent loop's auto-PHI pass then runs on the whole
 * prompt as on any other.
 */
import { AssistError } from "../../core/errors.ts";
import { lazy } from "../../core/lazy.ts";
import { isHl7Shaped } from "../../hl7/shape.ts";
import { createPhiEngine } from "../../phi/mod.ts";
import type { ReplHost } from "./types.ts";

export interface Loaded {
  label: string;
  bytes: number;
  hl7: boolean;
  /** The `phi>` notice of the sanitizer pass, when it tokenized something. */
  notice?: string;
  /** Read as Windows-1252 (not valid UTF-8). */
  legacy?: boolean;
  /** Cut at 250 KB with a footer. */
  truncated?: boolean;
}

/** Quotes around a path typed with spaces (`/load "my file.hl7"`) are taken off. */
function unquote(arg: string): string {
  const t = arg.trim();
  const m = /^(["'])(.*)\1$/.exec(t);
  return m ? m[2] : t;
}

export async function loadFile(arg: string, repl: ReplHost): Promise<Loaded> {
  const label = unquote(arg);
  // The same reading as an @file reference: protected places refused, 250 KB, binary skipped.
  const { readAttachment } = await lazy<typeof import("../file_refs.ts")>(import.meta.url, "../file_refs.ts");
  const file = await readAttachment(label, { cwd: Deno.cwd(), home: repl.config.home });
  if (!file.ok) {
    // The message starts with the path as typed; the rest says why (no such file, a folder, binary,
    // a protected place).
    throw new AssistError(`cannot load ${label}: ${file.message.slice(label.length + 2)}`, {
      level: "input",
    });
  }
  let text = file.content;
  const hl7 = isHl7Shaped(text);
  let notice: string | undefined;
  if (hl7) {
    // Only markers and the HL7 sanitizer here (mode off, no sidecar): the automatic tiers run in
    // the agent loop on the prompt this text goes with, in the session's mode.
    const phi = await createPhiEngine({ config: { ...repl.config, autoPhi: "off" }, sidecar: false });
    const r = await phi.tokenizeUserInput(text);
    text = r.text;
    notice = r.notice;
  }
  repl.attach(label, text);
  return { label, bytes: file.bytes, hl7, notice, legacy: file.legacy, truncated: file.truncated };
}
