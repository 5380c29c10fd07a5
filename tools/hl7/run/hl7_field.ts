/**
 * hl7_field: chosen fields of every message as TSV, one row per message. Batch envelope fields
 * (FHS, BHS, BTS, FTS) read the envelope around each message; a file of only an envelope gives
 * one row.
 */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { hl7FieldTool as def } from "../hl7_field_tool.ts";
import type { hl7FieldTool } from "../hl7_field_tool.ts";
import { posix, win32 } from "../../../core/path.ts";
import { extractTable } from "../../../hl7/extract.ts";
import { len10Counting } from "../../../hl7/charset.ts";
import { parseMessages } from "../../../hl7/split.ts";
import { parsePath } from "../../../hl7/path.ts";
import { withEnvelopes } from "../../../hl7/envelope.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { hl7Error, readInput } from "./_input.ts";

export async function run(input: InputOf<typeof hl7FieldTool>, ctx: ToolContext): Promise<ToolResult> {
  let paths = [...(input.paths ?? [])];
  let file = input.file;
  const text = input.text;
  if (text !== undefined && file !== undefined) {
    // By hand, `--text ... PID.5` puts the first path in the file slot: it was a path.
    if (!fieldShaped(file)) return toolError("bad_input", "give either a file or text, not both");
    paths = [file, ...paths];
    file = undefined;
  } else if (file !== undefined && fieldShaped(file) && !(await exists(file, ctx))) {
    // `... | hl7_field PID.5 PID.3.1`: no file named PID.5 here, so it is a path and the messages
    // come from standard input (by hand, when it is not a terminal).
    paths = [file, ...paths];
    file = ctx.readStdin && !Deno.stdin.isTerminal() ? "-" : undefined;
    if (file === undefined) {
      return toolError(
        "bad_input",
        `${paths[0]} is a field path: give the file of messages first (hl7_field <file> ${
          paths.join(" ")
        }), ` +
          "--text, or pipe the messages in",
      );
    }
  }
  if (text === undefined && file === undefined) {
    return toolError("bad_input", "give a file (or - for standard input) or text");
  }
  if (paths.length === 0) return toolError("bad_input", "give at least one field path, e.g. PID.3.1");
  const src = await readInput(text !== undefined ? { text } : { file: file! }, ctx);
  if (!src.ok) return src.result;
  try {
    const parsed = paths.map((p) => parsePath(p));
    const doc = parseMessages(src.text, { len10: src.decoded && len10Counting(src.decoded) });
    const envelopes = withEnvelopes(doc);
    if (envelopes.length === 0) return toolError("no_messages", `no HL7 messages found in ${src.label}`);
    // A file of only an envelope: its one row is the envelope itself.
    const rows = doc.messages.length > 0 ? doc.messages : envelopes;
    const text = extractTable(rows, parsed, { index: input.index, envelopes });
    return src.notes.length ? { text, notes: src.notes } : { text };
  } catch (err) {
    const result = hl7Error(err, src.label);
    if (result) return result;
    throw err;
  }
}

/** `PID.5`, `OBX[2].5.1`, `MSH.9`: shaped like a field path, not like a file name. */
function fieldShaped(word: string): boolean {
  if (!/^[A-Z][A-Z0-9]{2}(\[\d+\])?(\.\d+(\[\d+\])?){1,3}$/.test(word.trim())) return false;
  try {
    parsePath(word);
    return true;
  } catch {
    return false;
  }
}

async function exists(file: string, ctx: ToolContext): Promise<boolean> {
  try {
    await Deno.stat(posix.isAbsolute(file) || win32.isAbsolute(file) ? file : `${ctx.cwd}/${file}`);
    return true;
  } catch {
    return false;
  }
}
