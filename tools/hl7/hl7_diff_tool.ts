/** hl7_diff: field-level differences between two messages or two files of messages. */
import type { ToolDef } from "../types.ts";

export const hl7DiffTool = {
  name: "hl7_diff",
  summary: "Field-level diff of two HL7 messages or files of messages",
  description: "Compare HL7 v2 messages field by field: two messages, or two files of messages paired " +
    "by position or by a key path (key MSH.10 or PID.3.1). Each side is a file (- for standard input, " +
    "by hand only) or literal text (left_text, right_text). Output: a block per differing pair with " +
    "lines 'PATH  LEFT -> RIGHT' ((empty) for an empty value; a closing note such as '(same number, " +
    "leading zeros differ: 8 digits vs 6)' when the two are one value written two ways, which tokens hide), '+ SEG  text' for a segment only on the " +
    "right, '- SEG  text' for one only on the left, messages without a partner, and a summary line. " +
    "Segments pair by id and occurrence (OBX[2] with OBX[2]). Values compare unescaped. Paths in " +
    "ignore are not compared (default MSH.7 MSH.10; giving ignore replaces the default; ignore none " +
    "compares everything).",
  params: [
    { name: "left", type: "string", description: "left file, or - for standard input", positional: true },
    { name: "right", type: "string", description: "right file, or - for standard input", positional: true },
    { name: "left_text", type: "string", description: "the left message(s) themselves, instead of a file" },
    { name: "right_text", type: "string", description: "the right message(s) themselves, instead of a file" },
    { name: "key", type: "string", description: "pair messages by the value at this path, e.g. MSH.10" },
    {
      name: "ignore",
      type: "string[]",
      description: "paths not compared, replacing the default MSH.7 MSH.10; none compares everything",
      metavar: "PATH",
    },
    {
      name: "exit_code",
      type: "boolean",
      description:
        "by hand: exit 1 when the sides differ, 0 when not, 2 on an error, as git diff --exit-code",
      default: false,
    },
  ],
  examples: [
    "before.hl7 after.hl7",
    "prod.hl7 test.hl7 --key PID.3.1 --ignore MSH.7 --ignore MSH.10 --ignore PV1.19",
    "a.hl7 b.hl7 --ignore none",
    "before.hl7 after.hl7 --exit-code",
  ],
  exampleInput: { left: "before.hl7", right: "after.hl7", ignore: ["MSH.7"] },
} as const satisfies ToolDef;
