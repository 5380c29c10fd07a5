/** hl7_diff: field-level differences between two messages or two files of messages. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { hl7DiffTool as def } from "../hl7_diff_tool.ts";
import type { hl7DiffTool } from "../hl7_diff_tool.ts";
import { diffMessageLists, formatDiff } from "../../../hl7/diff.ts";
import { len10Counting } from "../../../hl7/charset.ts";
import { parseMessages } from "../../../hl7/split.ts";
import { parsePath } from "../../../hl7/path.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { hl7Error, readInput } from "./_input.ts";

export async function run(input: InputOf<typeof hl7DiffTool>, ctx: ToolContext): Promise<ToolResult> {
  const files = [input.left, input.right].filter((f): f is string => f !== undefined);
  const leftText = input.left_text;
  const rightText = input.right_text;
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
  const ignoreList = input.ignore;
  let label = "";
  try {
    const ignore = ignoreList === undefined
      ? undefined
      : ignoreList.length === 1 && ignoreList[0].trim().toLowerCase() === "none"
      ? []
      : ignoreList.map((p) => parsePath(p));
    const key = input.key === undefined ? undefined : parsePath(input.key);
    const sides = [];
    const notes: string[] = [];
    for (const source of [left, right]) {
      const src = await readInput(source, ctx);
      if (!src.ok) return src.result;
      label = src.label;
      notes.push(...src.notes);
      const doc = parseMessages(src.text, { len10: src.decoded && len10Counting(src.decoded) });
      if (doc.messages.length === 0) {
        return toolError("no_messages", `no HL7 messages found in ${src.label}`);
      }
      sides.push(doc.messages);
    }
    const diff = diffMessageLists(sides[0], sides[1], { key, ignore });
    const differ = diff.onlyLeft.length > 0 || diff.onlyRight.length > 0 ||
      diff.pairs.some((p) => p.changes.length > 0);
    return {
      text: formatDiff(diff),
      ...(notes.length ? { notes } : {}),
      ...(input.exit_code === true && differ ? { exitCode: 1 } : {}),
    };
  } catch (err) {
    const result = hl7Error(err, label || "input");
    if (result) return result;
    throw err;
  }
}
