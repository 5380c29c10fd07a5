/** hl7_diff: field-level differences between two messages or two files of messages. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

export const hl7DiffTool: ToolDef = {
  name: "hl7_diff",
  summary: "Field-level diff of two HL7 messages or files of messages",
  description: "Compare HL7 v2 messages field by field: two messages, or two files of messages paired " +
    "by position or by a key path (key MSH.10 or PID.3.1). Each side is a file (- for standard input, " +
    "by hand only) or literal text (left_text, right_text). Output: a block per differing pair with " +
    "lines 'PATH  LEFT -> RIGHT' ((empty) for an empty value), '+ SEG  text' for a segment only on the " +
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
  ],
  examples: [
    "before.hl7 after.hl7",
    "prod.hl7 test.hl7 --key PID.3.1 --ignore MSH.7 --ignore MSH.10 --ignore PV1.19",
    "a.hl7 b.hl7 --ignore none",
  ],
  async run(input, ctx) {
    const files = [input.left, input.right].filter((f): f is string => f !== undefined);
    const leftText = input.left_text as string | undefined;
    const rightText = input.right_text as string | undefined;
    // Files fill the sides that have no literal text, in order (by hand, positionals shift).
    const left = leftText !== undefined
      ? { text: leftText }
      : files.length
      ? { file: files.shift()! }
      : undefined;
    const right = rightText !== undefined
      ? { text: rightText }
      : files.length
      ? { file: files.shift()! }
      : undefined;
    if (files.length > 0) return toolError("bad_input", "give two inputs: a file or text for each side");
    if (!left || !right) return toolError("bad_input", "give two inputs: left and right (files or text)");
    if ("file" in left && "file" in right && left.file === "-" && right.file === "-") {
      return toolError("bad_input", "only one side can be standard input");
    }
    const ignoreList = input.ignore as string[] | undefined;
    const hl7 = await lazy<typeof import("../../hl7/mod.ts")>(import.meta.url, "../../hl7/mod.ts");
    const { readInput, hl7Error } = await lazy<typeof import("./_input.ts")>(import.meta.url, "./_input.ts");
    let label = "";
    try {
      const ignore = ignoreList === undefined
        ? undefined
        : ignoreList.length === 1 && ignoreList[0].trim().toLowerCase() === "none"
        ? []
        : ignoreList.map((p) => hl7.parsePath(p));
      const key = input.key === undefined ? undefined : hl7.parsePath(input.key as string);
      const sides = [];
      for (const source of [left, right]) {
        const src = await readInput(source, ctx);
        if (!src.ok) return src.result;
        label = src.label;
        const doc = hl7.parseMessages(src.text);
        if (doc.messages.length === 0) {
          return toolError("no_messages", `no HL7 messages found in ${src.label}`);
        }
        sides.push(doc.messages);
      }
      return { text: hl7.formatDiff(hl7.diffMessageLists(sides[0], sides[1], { key, ignore })) };
    } catch (err) {
      const result = await hl7Error(err, label || "input");
      if (result) return result;
      throw err;
    }
  },
};
