/**
 * `/load <file>`: reads a file for the next prompt. HL7-shaped content goes through the HL7
 * sanitizer of phi/ first (structured field values become tokens from the lookup table), so the
 * attached text holds no raw patient fields; the agent loop's auto-PHI pass then runs on the whole
 * prompt as on any other.
 */
import { AssistError } from "../../core/errors.ts";
import { isHl7Shaped } from "../../hl7/shape.ts";
import { createPhiEngine } from "../../phi/mod.ts";
import type { ReplHost } from "./types.ts";

export interface Loaded {
  label: string;
  bytes: number;
  hl7: boolean;
  /** The `phi>` notice of the sanitizer pass, when it tokenized something. */
  notice?: string;
}

/** Quotes around a path typed with spaces (`/load "my file.hl7"`) are taken off. */
function unquote(arg: string): string {
  const t = arg.trim();
  const m = /^(["'])(.*)\1$/.exec(t);
  return m ? m[2] : t;
}

export async function loadFile(arg: string, repl: ReplHost): Promise<Loaded> {
  const label = unquote(arg);
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(label);
    if (info.isDirectory) throw new AssistError(`cannot load ${label}: it is a folder`, { level: "input" });
    bytes = await Deno.readFile(label);
  } catch (err) {
    if (err instanceof AssistError) throw err;
    const why = err instanceof Deno.errors.NotFound
      ? "no such file"
      : err instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : (err as Error).message;
    throw new AssistError(`cannot load ${label}: ${why}`, { level: "input" });
  }
  let text = new TextDecoder().decode(bytes);
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
  return { label, bytes: bytes.length, hl7, notice };
}
