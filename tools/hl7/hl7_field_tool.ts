/** hl7_field: chosen fields of every message (and its batch envelope) as TSV, one row per message. */
import type { ToolDef } from "../types.ts";

export const hl7FieldTool = {
  name: "hl7_field",
  summary: "Extract HL7 fields (PID.3.1, OBX.5, ...) from every message as TSV",
  description: "Extract one or more fields from every HL7 v2 message in a file, stdin or literal text, as " +
    "TSV: a header row with the paths, then one row per message. Paths are 1-based: PID.5, PID.5.1, " +
    "PID.5.1.2 (subcomponent), PID.3[2].1 (second repetition), OBX[3].5 (third OBX), MSH.9.2; MSH.1 is " +
    "the field separator and MSH.2 the encoding characters. Cells hold values as written (escapes such " +
    "as \\S\\ intact). In a cell, repetitions of a field are joined with ~ and occurrences of a segment " +
    "(every OBX for OBX.5) with |; a tab in a value is written \\X09\\; an absent value is empty. " +
    "Batch envelope fields (FHS.4 sending facility, BHS.11 batch control id, BTS.1 message count) read " +
    "the envelope around each message; a file of only an envelope gives one row. Reads MLLP, len10, " +
    "batch and newline-separated files in the character set MSH-18 declares (else UTF-8, else " +
    "Windows-1252, with a note).",
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
      description: "field paths, e.g. MSH.10 PID.3.1 PID.5 (by hand, paths alone read standard input)",
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
  examples: [
    "adt.hl7 MSH.10 PID.3.1 PID.5",
    "results.hl7 OBX.3.1 OBX.5 --index",
    "- MSH.9 < today.hl7",
    "MSH.9 PID.5 < today.hl7",
  ],
  exampleInput: { file: "adt.hl7", paths: ["MSH.10", "PID.3.1"] },
} as const satisfies ToolDef;
