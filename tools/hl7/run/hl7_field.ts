/** hl7_field: chosen fields of every message as TSV, one row per message. */
import { parseMessages } from "../../../hl7/split.ts";
import { parsePath } from "../../../hl7/path.ts";
import { extractTable } from "../../../hl7/extract.ts";
import { type ToolContext, toolError, type ToolInput, type ToolResult } from "../../types.ts";
import { hl7Error, readInput } from "./_input.ts";

export async function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  let paths = [...(input.paths as string[] | undefined ?? [])];
  let file = input.file as string | undefined;
  const text = input.text as string | undefined;
  if (text !== undefined && file !== undefined) {
    // By hand, `--text ... PID.5` puts the first path in the file slot: it was a path.
    try {
      parsePath(file);
    } catch {
      return toolError("bad_input", "give either a file or text, not both");
    }
    paths = [file, ...paths];
    file = undefined;
  }
  if (text === undefined && file === undefined) {
    return toolError("bad_input", "give a file (or - for standard input) or text");
  }
  if (paths.length === 0) return toolError("bad_input", "give at least one field path, e.g. PID.3.1");
  const src = await readInput(text !== undefined ? { text } : { file: file! }, ctx);
  if (!src.ok) return src.result;
  try {
    const parsed = paths.map((p) => parsePath(p));
    const doc = parseMessages(src.text);
    if (doc.messages.length === 0) return toolError("no_messages", `no HL7 messages found in ${src.label}`);
    return { text: extractTable(doc.messages, parsed, { index: input.index as boolean }) };
  } catch (err) {
    const result = hl7Error(err, src.label);
    if (result) return result;
    throw err;
  }
}
