/**
 * phi_sanitize: a de-identified copy of a file or standard input, to share a message with a vendor.
 * It goes through the same gate as a tool result (HL7 field policy, tiers 1-4, the sidecar when it
 * runs, base64 pass) in mode `on` (or `strict` when configured), with tokens from the shared lookup
 * table, so the copy uses the same tokens as everything else and can be reversed locally. The copy
 * is written in the character set(s) the input was read in (hl7/charset.ts), so a Latin-1 message
 * stays Latin-1 and its MSH-18 stays true.
 */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { phiSanitizeTool as def } from "../phi_sanitize_tool.ts";
import type { phiSanitizeTool } from "../phi_sanitize_tool.ts";
import { CharsetError, encodeText } from "../../../hl7/charset.ts";
import { atomicWrite } from "../../../core/atomic_write.ts";
import { hl7ForTerminal } from "../../../hl7/screen.ts";
import { createPhiEngine, namesCoverage, PhiRefusedError } from "../../../phi/mod.ts";
import { ANY_TOKEN_RE } from "../../../phi/token.ts";
import { checkWriteTarget } from "../../files/guard.ts";
import { readInput } from "../../input.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";

export async function run(input: InputOf<typeof phiSanitizeTool>, ctx: ToolContext): Promise<ToolResult> {
  const path = input.path;
  const src = await readInput({ file: path }, ctx);
  if (!src.ok) return src.result;
  const text = src.text;
  const mode = ctx.config.autoPhi === "strict" ? "strict" : "on";
  // The copy outlives this process (a vendor's reply quoting it is revealed later): every token in
  // it must be in the lookup table, so a table that cannot be written refuses the copy.
  const engine = await createPhiEngine({
    config: { ...ctx.config, autoPhi: mode },
    storedTokensOnly: true,
  });
  let out;
  try {
    out = await engine.sanitizeToolResult(text, "phi_sanitize");
  } catch (err) {
    if (err instanceof PhiRefusedError) {
      return toolError("refused", `${err.message}; nothing written`);
    }
    throw err;
  }
  if (out.refused) {
    return toolError("refused", "strict auto-PHI could not de-identify this input; nothing written");
  }
  const counts = new Map<string, number>();
  for (const t of out.tokenized) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
  // Occurrences: tokens in the copy that were not in the input already.
  const tokensIn = (s: string) => s.match(ANY_TOKEN_RE)?.length ?? 0;
  const occurrences = tokensIn(out.text) - tokensIn(text);
  const summary = `${out.tokenized.length} distinct value(s) tokenized, ${occurrences} occurrence(s)` +
    (counts.size
      ? `; distinct values by category: ${[...counts].map(([c, n]) => `${c}×${n}`).join(" ")}`
      : "");
  const coverage = await namesCoverage(ctx.config);
  const output = input.output;
  const notes = src.notes.length ? { notes: src.notes } : {};
  if (output === undefined) {
    // The copy is the result; the coverage line goes to the operator's stderr (by hand) or after it.
    // On a terminal the segments stand on their own lines; piped, the copy keeps its exact CRs.
    if (coverage && ctx.notice) ctx.notice(coverage);
    const shown = ctx.terminal ? hl7ForTerminal(out.text) : out.text;
    return { text: coverage && !ctx.notice ? `${shown}\n${coverage}` : shown, ...notes };
  }
  let bytes: Uint8Array;
  try {
    bytes = src.decoded ? encodeText(out.text, src.decoded) : new TextEncoder().encode(out.text);
  } catch (err) {
    if (err instanceof CharsetError) {
      return toolError("charset", `${output}: ${err.message}`, { path: output });
    }
    throw err;
  }
  const target = await checkWriteTarget(output, ctx);
  if (!target.ok) return target.result;
  try {
    await atomicWrite(target.literal, bytes, { mode: 0o600 });
  } catch (err) {
    return toolError("io_error", `cannot write ${output}: ${(err as Error).message}`, { path: output });
  }
  const warn = out.warnings.length ? ` (${out.warnings.join("; ")})` : "";
  return {
    text: `phi_sanitize: wrote ${output}; ${summary}${warn}${coverage ? `\n${coverage}` : ""}`,
    ...notes,
  };
}
