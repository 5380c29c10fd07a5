/**
 * phi_sanitize: a de-identified copy of a file or standard input, to share a message with a vendor.
 * It goes through the same gate as a tool result (HL7 field policy, tiers 1-4, the sidecar when it
 * runs, base64 pass) in mode `on` (or `strict` when configured), with tokens from the shared lookup
 * table, so the copy uses the same tokens as everything else and can be reversed locally.
 */
import type { ToolDef } from "../types.ts";

export const phiSanitizeTool = {
  name: "phi_sanitize",
  summary: "Write a de-identified copy of a file or stdin (tokens from the lookup table)",
  description: "De-identify a file (or - for standard input): HL7 fields by the field policy, free text " +
    "by the PHI tiers, values replaced by [[CATEGORY_N]] tokens from the shared lookup table, so the copy " +
    "can be shared with a vendor and reversed only on this machine. Without output the copy is returned; " +
    "with output it is written there (mode 0600) and a one-line summary is returned.",
  params: [
    {
      name: "path",
      type: "string",
      description: "file to de-identify, or - for standard input (by hand)",
      required: true,
      positional: true,
      stdin: true,
    },
    { name: "output", type: "string", description: "write the copy to this file instead of returning it" },
  ],
  examples: ["msgs/adt_a01.hl7", "msgs/adt_a01.hl7 --output /tmp/adt_a01.deid.hl7", "- < pasted.hl7"],
  exampleInput: { path: "msgs/adt_a01.hl7", output: "/tmp/adt_a01.deid.hl7" },
} as const satisfies ToolDef;
