/** hl7_field: chosen fields of every message as TSV, one row per message. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

export const hl7FieldTool: ToolDef = {
  name: "hl7_field",
  summary: "Extract HL7 fields (PID.3.1, OBX.5, ...) from every message as TSV",
  description: "Extract one or more fields from every HL7 v2 message in a file, stdin or literal text, as " +
    "TSV: a header row with the paths, then one row per message. Paths are 1-based: PID.5, PID.5.1, " +
    "PID.5.1.2 (subcomponent), PID.3[2].1 (second repetition), OBX[3].5 (third OBX), MSH.9.2; MSH.1 is " +
    "the field separator and MSH.2 the encoding characters. Cells hold values as written (escapes such " +
    "as \\S\\ intact). In a cell, repetitions of a field are joined with ~ and occurrences of a segment " +
    "(every OBX for OBX.5) with |; a tab in a value is written \\X09\\; an absent value is empty. " +
    "Reads MLLP, len10, batch (FHS/BHS) and newline-separated files.",
  params: [
    {
      name: "file",
      type: "string",
      description: "file of HL7 messages, or - for standard input (by hand only)",
      positional: true,
    },
    {
      name: "paths",
      type: "string[]",
      description: "field paths, e.g. MSH.10 PID.3.1 PID.5",
      required: true,
      positional: true,
      metavar: "PATH",
    },
    { name: "text", type: "string", description: "the HL7 messages themselves, instead of a file" },
    {
      name: "index",
      type: "boolean",
      description: "start each row with the message number (column #)",
      default: false,
    },
  ],
  examples: ["adt.hl7 MSH.10 PID.3.1 PID.5", "results.hl7 OBX.3.1 OBX.5 --index", "- MSH.9 < today.hl7"],
  async run(input, ctx) {
    let paths = [...(input.paths as string[] | undefined ?? [])];
    let file = input.file as string | undefined;
    const text = input.text as string | undefined;
    const hl7 = await lazy<typeof import("../../hl7/mod.ts")>(import.meta.url, "../../hl7/mod.ts");
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
    const { readInput, hl7Error } = await lazy<typeof import("./_input.ts")>(import.meta.url, "./_input.ts");
    const src = await readInput(text !== undefined ? { text } : { file: file! }, ctx);
    if (!src.ok) return src.result;
    try {
      const parsed = paths.map((p) => hl7.parsePath(p));
      const doc = hl7.parseMessages(src.text);
      if (doc.messages.length === 0) return toolError("no_messages", `no HL7 messages found in ${src.label}`);
      return { text: hl7.extractTable(doc.messages, parsed, { index: input.index as boolean }) };
    } catch (err) {
      const result = await hl7Error(err, src.label);
      if (result) return result;
      throw err;
    }
  },
};
