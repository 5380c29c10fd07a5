/**
 * hl7_field: chosen fields of every message as TSV, one row per message. Batch envelope fields
 * (FHS, BHS, BTS, FTS) read the envelope around each message; a file of only an envelope gives
 * one row.
 */
import * as hl7 from "../../../hl7/mod.ts";
import { type ToolContext, toolError, type ToolInput, type ToolResult } from "../../types.ts";
import { hl7Error, readInput } from "./_input.ts";

export async function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  let paths = [...(input.paths as string[] | undefined ?? [])];
  let file = input.file as string | undefined;
  const text = input.text as string | undefined;
  if (text !== undefined && file !== undefined) {
    // By hand, `--text ... PID.5` puts the first path in the file slot: it was a path.
    try {
      hl7.parsePath(file);
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
    const parsed = paths.map((p) => hl7.parsePath(p));
    const doc = hl7.parseMessages(src.text, { len10: src.decoded && hl7.len10Counting(src.decoded) });
    const envelopes = hl7.withEnvelopes(doc);
    if (envelopes.length === 0) return toolError("no_messages", `no HL7 messages found in ${src.label}`);
    // A file of only an envelope: its one row is the envelope itself.
    const rows = doc.messages.length > 0 ? doc.messages : envelopes;
    const text = hl7.extractTable(rows, parsed, { index: input.index as boolean, envelopes });
    return src.notes.length ? { text, notes: src.notes } : { text };
  } catch (err) {
    const result = hl7Error(err, src.label);
    if (result) return result;
    throw err;
  }
}
