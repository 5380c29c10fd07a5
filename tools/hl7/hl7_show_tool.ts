/** hl7_show: messages laid out segment by segment with the schema's field names. */
import type { ToolDef } from "../types.ts";

export const hl7ShowTool = {
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
      stdin: true,
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
  exampleInput: { file: "batch.hl7", message: 3 },
} as const satisfies ToolDef;
