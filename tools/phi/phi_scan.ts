/**
 * phi_scan: what the PHI gate would tokenize in a file (or standard input), with tier and category,
 * without writing anything. Values are masked unless the operator asks for them by hand.
 */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

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

export const phiScanTool: ToolDef = {
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
  async run(input, ctx) {
    const path = input.path as string;
    if (input.show_values && ctx.caller === "model") {
      return toolError("refused", "show_values is only available to the operator by hand");
    }
    const { readInput } = await lazy<typeof import("../input.ts")>(import.meta.url, "../input.ts");
    const src = await readInput({ file: path }, ctx);
    if (!src.ok) return src.result;
    const text = src.text;
    const { createPhiEngine } = await lazy<typeof import("../../phi/mod.ts")>(
      import.meta.url,
      "../../phi/mod.ts",
    );
    const engine = await createPhiEngine({ config: ctx.config });
    const found = await engine.scan(text, input.as_prompt ? "user_input" : "tool_result");
    if (found.length === 0) return { text: "phi_scan: nothing would be tokenized" };
    const counts = new Map<string, number>();
    const lines = found.map((f) => {
      counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
      const shown = input.show_values ? JSON.stringify(f.value) : maskValue(f.value);
      return [lineCol(text, f.start), f.tier, f.category, f.token ?? "new", shown, f.context ?? ""].join(
        "\t",
      );
    });
    const summary = [...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join(" ");
    return { text: `${lines.join("\n")}\nphi_scan: ${found.length} value(s): ${summary}` };
  },
};
