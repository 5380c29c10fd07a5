/**
 * Where a tool's text input comes from: a file (through the file tools' protection check), `-`
 * for standard input (manual mode only), or literal text. Shared by the HL7 and PHI tools; loaded
 * only when one of them runs.
 */
import { type ToolContext, toolError, type ToolResult } from "./types.ts";
import { readCheckedText } from "./files/guard.ts";

/** Where one input comes from. */
export type InputSource = { file: string } | { text: string };

export type InputText = { ok: true; text: string; label: string } | { ok: false; result: ToolResult };

/**
 * Reads one input: literal text as is; `-` from stdin when the caller offers it; any other value
 * as a file path resolved against ctx.cwd, checked against the protected places of $ASSIST_HOME.
 */
export async function readInput(source: InputSource, ctx: ToolContext): Promise<InputText> {
  if ("text" in source) return { ok: true, text: source.text, label: "text" };
  if (source.file === "-") {
    if (!ctx.readStdin) {
      return {
        ok: false,
        result: toolError(
          "bad_input",
          "- (standard input) works only when the tool is run by hand; give a file or text",
        ),
      };
    }
    return { ok: true, text: await ctx.readStdin(), label: "stdin" };
  }
  return readInputFile(source.file, ctx);
}

/** A file the model or operator named, read through the one guarded door of the file tools. */
export async function readInputFile(path: string, ctx: ToolContext): Promise<InputText> {
  const r = await readCheckedText(path, ctx);
  return r.ok ? { ok: true, text: r.text, label: path } : r;
}
