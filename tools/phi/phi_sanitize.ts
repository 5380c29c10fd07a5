/**
 * phi_sanitize: a de-identified copy of a file or standard input, to share a message with a vendor.
 * It goes through the same gate as a tool result (HL7 field policy, tiers 1-4, the sidecar when it
 * runs, base64 pass) in mode `on` (or `strict` when configured), with tokens from the shared lookup
 * table, so the copy uses the same tokens as everything else and can be reversed locally.
 */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

export const phiSanitizeTool: ToolDef = {
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
    },
    { name: "output", type: "string", description: "write the copy to this file instead of returning it" },
  ],
  examples: ["msgs/adt_a01.hl7", "msgs/adt_a01.hl7 --output /tmp/adt_a01.deid.hl7", "- < pasted.hl7"],
  async run(input, ctx) {
    const path = input.path as string;
    const { readInput } = await lazy<typeof import("../input.ts")>(import.meta.url, "../input.ts");
    const src = await readInput({ file: path }, ctx);
    if (!src.ok) return src.result;
    const text = src.text;
    const { createPhiEngine } = await lazy<typeof import("../../phi/mod.ts")>(
      import.meta.url,
      "../../phi/mod.ts",
    );
    const mode = ctx.config.autoPhi === "strict" ? "strict" : "on";
    const engine = await createPhiEngine({ config: { ...ctx.config, autoPhi: mode } });
    const out = await engine.sanitizeToolResult(text, "phi_sanitize");
    if (out.refused) {
      return toolError("refused", "strict auto-PHI could not de-identify this input; nothing written");
    }
    const counts = new Map<string, number>();
    for (const t of out.tokenized) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
    const summary = `${out.tokenized.length} value(s) tokenized` +
      (counts.size ? `: ${[...counts].map(([c, n]) => `${c}×${n}`).join(" ")}` : "");
    const output = input.output as string | undefined;
    if (output === undefined) return { text: out.text };
    const { checkWriteTarget } = await lazy<typeof import("../files/guard.ts")>(
      import.meta.url,
      "../files/guard.ts",
    );
    const target = await checkWriteTarget(output, ctx);
    if (!target.ok) return target.result;
    try {
      const { atomicWrite } = await lazy<typeof import("../../core/atomic_write.ts")>(
        import.meta.url,
        "../../core/atomic_write.ts",
      );
      await atomicWrite(target.literal, out.text, { mode: 0o600 });
    } catch (err) {
      return toolError("io_error", `cannot write ${output}: ${(err as Error).message}`, { path: output });
    }
    const warn = out.warnings.length ? ` (${out.warnings.join("; ")})` : "";
    return { text: `phi_sanitize: wrote ${output}; ${summary}${warn}` };
  },
};
