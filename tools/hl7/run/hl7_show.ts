/** hl7_show: messages laid out segment by segment with the schema's field names. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { hl7ShowTool as def } from "../hl7_show_tool.ts";
import type { hl7ShowTool } from "../hl7_show_tool.ts";
import { hasEnvelope } from "../../../hl7/envelope.ts";
import { len10Counting } from "../../../hl7/charset.ts";
import { parseMessages } from "../../../hl7/split.ts";
import { renderDocument } from "../../../hl7/show.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { hl7Error, readInput } from "./_input.ts";

export async function run(input: InputOf<typeof hl7ShowTool>, ctx: ToolContext): Promise<ToolResult> {
  const file = input.file;
  const text = input.text;
  if ((file === undefined) === (text === undefined)) {
    return toolError("bad_input", "give either a file (or - for standard input) or text");
  }
  const src = await readInput(text !== undefined ? { text } : { file: file! }, ctx);
  if (!src.ok) return src.result;
  try {
    const doc = parseMessages(src.text, { len10: src.decoded && len10Counting(src.decoded) });
    if (doc.messages.length === 0 && !hasEnvelope(doc)) {
      return toolError("no_messages", `no HL7 messages found in ${src.label}`);
    }
    const n = input.message;
    if (n !== undefined && n > doc.messages.length) {
      return toolError("bad_input", `no message ${n}: ${src.label} holds ${doc.messages.length}`);
    }
    const text = renderDocument(doc, {
      all: input.all,
      message: n,
      limit: input.limit,
    });
    return src.notes.length ? { text, notes: src.notes } : { text };
  } catch (err) {
    const result = hl7Error(err, src.label);
    if (result) return result;
    throw err;
  }
}
