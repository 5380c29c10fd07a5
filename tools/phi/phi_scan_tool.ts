/**
 * phi_scan: what the PHI gate would tokenize in a file (or standard input), with tier and category,
 * without writing anything. Values are masked unless the operator asks for them by hand.
 */
import type { ToolDef } from "../types.ts";

export const phiScanTool = {
  name: "phi_scan",
  summary: "Show what the PHI gate would tokenize in a file (tier, category), writing nothing",
  description: "Scan a file (or - for standard input) the way the PHI gate scans a tool result: the HL7 " +
    "field policy, tiers 1-4 and the sidecar when it runs. One line per value: line:column, tier, " +
    "category, the token it has in the lookup table (or 'new'), the value masked (first character and " +
    "length), and the HL7 field. Nothing is written to the lookup table or the audit log.",
  params: [
    {
      name: "path",
      type: "string",
      description: "file to scan, or - for standard input (by hand)",
      required: true,
      positional: true,
      stdin: true,
    },
    {
      name: "as_prompt",
      type: "boolean",
      description: "scan as a typed prompt (manual markers count) instead of as a tool result",
      default: false,
    },
    {
      name: "show_values",
      type: "boolean",
      description: "show the values unmasked (by hand only; refused for the model)",
      default: false,
    },
  ],
  examples: ["msgs/adt_a01.hl7", "notes.txt --show-values", "- < pasted.txt"],
  exampleInput: { path: "msgs/adt_a01.hl7" },
} as const satisfies ToolDef;
