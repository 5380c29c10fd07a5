/**
 * Where a tool's text input comes from: a file (through the file tools' protection check), `-`
 * for standard input (manual mode only), or literal text. Shared by the HL7 and PHI tools; loaded
 * only when one of them runs.
 */
import { lazy } from "../core/lazy.ts";
import type { DecodedText } from "../hl7/charset.ts";
import { type ToolContext, toolError, type ToolResult } from "./types.ts";

/** Where one input comes from. */
export type InputSource = { file: string } | { text: string };

export type InputText =
  | {
    ok: true;
    text: string;
    label: string;
    /** How a file's (or standard input's) bytes were read; absent for literal text. */
    decoded?: DecodedText;
    /** One line each, to pass on with the result: how the bytes were read when a fallback was taken. */
    notes: string[];
  }
  | { ok: false; result: ToolResult };

/**
 * Reads one input: literal text as is; `-` from stdin when the caller offers it; any other value
 * as a file path resolved against ctx.cwd, checked against the protected places of $ASSIST_HOME.
 */
export async function readInput(source: InputSource, ctx: ToolContext): Promise<InputText> {
  if ("text" in source) return { ok: true, text: source.text, label: "text", notes: [] };
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
    const got = await ctx.readStdin();
    if (typeof got === "string") return { ok: true, text: got, label: "stdin", notes: [] };
    const { decodeBytes } = await lazy<typeof import("../hl7/charset.ts")>(
      import.meta.url,
      "../hl7/charset.ts",
    );
    const decoded = decodeBytes(got);
    return {
      ok: true,
      text: decoded.text,
      label: "stdin",
      decoded,
      notes: decoded.notes.map((n) => `stdin: ${n}`),
    };
  }
  return readInputFile(source.file, ctx);
}

/** A file the model or operator named, read through the one guarded door of the file tools. */
export async function readInputFile(path: string, ctx: ToolContext): Promise<InputText> {
  const { readCheckedText } = await lazy<typeof import("./files/guard.ts")>(
    import.meta.url,
    "./files/guard.ts",
  );
  const r = await readCheckedText(path, ctx);
  if (!r.ok) return r;
  return {
    ok: true,
    text: r.text,
    label: path,
    decoded: r.decoded,
    notes: r.decoded.notes.map((n) => `${path}: ${n}`),
  };
}
