/**
 * phi_scan: what the PHI gate would tokenize in a file (or standard input), with tier and category,
 * without writing anything. Values are masked unless the operator asks for them by hand.
 */
import { createPhiEngine } from "../../../phi/mod.ts";
import { readInput } from "../../input.ts";
import { type ToolContext, toolError, type ToolInput, type ToolResult } from "../../types.ts";

/** `S…(10)`: the first character and the length, never the value. */
export function maskValue(value: string): string {
  const first = [...value][0] ?? "";
  return `${first}…(${[...value].length})`;
}

/** `line:column` (1-based); `\r`, `\n` and `\r\n` all end a line (HL7 segments are lines). */
function lineCol(text: string, offset: number): string {
  let line = 1, start = 0;
  const re = /\r\n|\r|\n/g;
  for (let m = re.exec(text); m && m.index < offset; m = re.exec(text)) line++, start = m.index + m[0].length;
  return `${line}:${offset - start + 1}`;
}

export async function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const path = input.path as string;
  if (input.show_values && ctx.caller === "model") {
    return toolError("refused", "show_values is only available to the operator by hand");
  }
  const src = await readInput({ file: path }, ctx);
  if (!src.ok) return src.result;
  const text = src.text;
  const engine = await createPhiEngine({ config: ctx.config });
  const found = await engine.scan(text, input.as_prompt ? "user_input" : "tool_result");
  const notes = src.notes.length ? { notes: src.notes } : {};
  if (found.length === 0) return { text: "phi_scan: nothing would be tokenized", ...notes };
  const counts = new Map<string, number>();
  const lines = found.map((f) => {
    counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
    const shown = input.show_values ? JSON.stringify(f.value) : maskValue(f.value);
    return [lineCol(text, f.start), f.tier, f.category, f.token ?? "new", shown, f.context ?? ""].join(
      "\t",
    );
  });
  const summary = [...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join(" ");
  return { text: `${lines.join("\n")}\nphi_scan: ${found.length} value(s): ${summary}`, ...notes };
}
