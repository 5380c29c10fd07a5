/**
 * phi_scan: what the PHI gate would tokenize in a file (or standard input), with tier and category,
 * without writing anything. Values are masked unless the operator asks for them by hand.
 */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { phiScanTool as def } from "../phi_scan_tool.ts";
import type { phiScanTool } from "../phi_scan_tool.ts";
import { createPhiEngine, namesCoverage, type ScanFinding } from "../../../phi/mod.ts";
import { readInput } from "../../input.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";

/** `S…(10)`: the first character and the length, never the value. */
export function maskValue(value: string): string {
  const first = [...value][0] ?? "";
  return `${first}…(${[...value].length})`;
}

/**
 * `line:column` (1-based) of each offset; `\r`, `\n` and `\r\n` all end a line (HL7 segments are
 * lines). One forward walk over the text for all offsets (sorted or not): linear in the text.
 */
export function lineCols(text: string, offsets: readonly number[]): string[] {
  const order = offsets.map((_, k) => k).sort((a, b) => offsets[a] - offsets[b]);
  const out = new Array<string>(offsets.length);
  let line = 1, start = 0, at = 0;
  for (const k of order) {
    const target = offsets[k];
    while (at < target) {
      const c = text.charCodeAt(at++);
      if (c === 10 || (c === 13 && text.charCodeAt(at) !== 10)) line++, start = at;
    }
    out[k] = `${line}:${target - start + 1}`;
  }
  return out;
}

/** Inputs larger than this are scanned in pieces (at line ends, before an `MSH|` line when there is one). */
export const SCAN_PIECE = 1 << 20;

/** Where to cut `text` into pieces of about `size`: after a line end, before a message if possible. */
export function pieceEnds(text: string, size = SCAN_PIECE): number[] {
  const ends: number[] = [];
  let at = 0;
  while (text.length - at > size) {
    const target = at + size;
    let cut = -1;
    // A message start within the last quarter of the piece, else the last line end before target.
    const msh = text.lastIndexOf("MSH|", target);
    if (msh > at + (size >> 2) * 3 && (text[msh - 1] === "\n" || text[msh - 1] === "\r")) cut = msh;
    if (cut === -1) {
      const nl = Math.max(text.lastIndexOf("\n", target), text.lastIndexOf("\r", target));
      cut = nl > at ? nl + 1 : target;
    }
    ends.push(cut);
    at = cut;
  }
  ends.push(text.length);
  return ends;
}

export async function run(input: InputOf<typeof phiScanTool>, ctx: ToolContext): Promise<ToolResult> {
  const path = input.path;
  if (input.show_values && ctx.caller === "model") {
    return toolError("refused", "show_values is only available to the operator by hand");
  }
  const src = await readInput({ file: path }, ctx);
  if (!src.ok) return src.result;
  const text = src.text;
  const engine = await createPhiEngine({ config: ctx.config });
  const surface = input.as_prompt ? "user_input" : "tool_result";
  // Large inputs in pieces (each pass is linear; pieces let the operator see progress).
  const found: ScanFinding[] = [];
  const ends = text.length > SCAN_PIECE ? pieceEnds(text) : [text.length];
  let at = 0;
  for (const end of ends) {
    if (ctx.signal?.aborted) break;
    const piece = ends.length === 1 ? text : text.slice(at, end);
    for (const f of await engine.scan(piece, surface)) {
      f.start += at;
      f.end += at;
      found.push(f);
    }
    at = end;
    if (ends.length > 1) {
      ctx.progress?.(
        `phi_scan: ${(at / 1e6).toFixed(1)} of ${(text.length / 1e6).toFixed(1)} MB, ${found.length} found`,
      );
    }
  }
  if (ends.length > 1) ctx.progress?.("");
  const coverage = await namesCoverage(ctx.config);
  const tail = coverage ? `\n${coverage}` : "";
  const notes = src.notes.length ? { notes: src.notes } : {};
  if (found.length === 0) return { text: `phi_scan: nothing would be tokenized${tail}`, ...notes };
  const counts = new Map<string, number>();
  const distinct = new Set<string>();
  const where = lineCols(text, found.map((f) => f.start));
  const lines = found.map((f, k) => {
    counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
    distinct.add(f.canonical);
    const shown = input.show_values ? JSON.stringify(f.value) : maskValue(f.value);
    return [where[k], f.tier, f.category, f.token ?? "new", shown, f.context ?? ""].join("\t");
  });
  const summary = [...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join(" ");
  return {
    text:
      `${lines.join("\n")}\nphi_scan: ${found.length} occurrence(s) of ${distinct.size} distinct value(s) ` +
      `(phi_sanitize counts distinct values); occurrences by category: ${summary}${tail}`,
    ...notes,
  };
}
