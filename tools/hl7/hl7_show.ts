/** hl7_show: messages laid out segment by segment with the schema's field names. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

export const hl7ShowTool: ToolDef = {
  name: "hl7_show",
  summary: "Show HL7 messages field by field, with names from the schema",
  description: "Show HL7 v2 messages from a file, stdin or literal text segment by segment: each field " +
    "on its own line as PATH  NAME  VALUE (names from the built-in HL7 v2.5.1 schema), components and " +
    "subcomponents broken out below their field, repetitions as PID.3[1], PID.3[2]. Empty fields are " +
    "hidden unless all is set. Values are shown as written (escapes intact). Z-segments are " +
    "site-specific and shown without names. Reads MLLP, len10, batch and newline-separated files.",
  params: [
    {
      name: "file",
      type: "string",
      description: "file of HL7 messages, or - for standard input (by hand only)",
      positional: true,
    },
    { name: "text", type: "string", description: "the HL7 messages themselves, instead of a file" },
    { name: "all", type: "boolean", description: "also show empty fields and components", default: false },
    { name: "message", type: "integer", description: "show only message N (1-based)", min: 1, metavar: "N" },
    {
      name: "limit",
      type: "integer",
      description: "show at most N messages",
      default: 20,
      min: 1,
      metavar: "N",
    },
  ],
  examples: ["adt.hl7", "batch.hl7 --message 3 --all", "- < msg.hl7"],
  async run(input, ctx) {
    const file = input.file as string | undefined;
    const text = input.text as string | undefined;
    if ((file === undefined) === (text === undefined)) {
      return toolError("bad_input", "give either a file (or - for standard input) or text");
    }
    const { readInput, hl7Error } = await lazy<typeof import("./_input.ts")>(import.meta.url, "./_input.ts");
    const src = await readInput(text !== undefined ? { text } : { file: file! }, ctx);
    if (!src.ok) return src.result;
    const hl7 = await lazy<typeof import("../../hl7/mod.ts")>(import.meta.url, "../../hl7/mod.ts");
    try {
      const doc = hl7.parseMessages(src.text);
      if (doc.messages.length === 0) return toolError("no_messages", `no HL7 messages found in ${src.label}`);
      const n = input.message as number | undefined;
      if (n !== undefined && n > doc.messages.length) {
        return toolError("bad_input", `no message ${n}: ${src.label} holds ${doc.messages.length}`);
      }
      return {
        text: hl7.renderDocument(doc, {
          all: input.all as boolean,
          message: n,
          limit: input.limit as number,
        }),
      };
    } catch (err) {
      const result = await hl7Error(err, src.label);
      if (result) return result;
      throw err;
    }
  },
};
