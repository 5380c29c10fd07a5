/**
 * Where a tool's text input comes from: a file (through the file tools' protection check), `-`
 * for standard input (manual mode only), or literal text. Shared by the HL7 and PHI tools; loaded
 * only when one of them runs.
 */
import { lazy } from "../core/lazy.ts";
import type { DecodedText } from "../hl7/charset.ts";
import { type ToolContext, toolError, type ToolResult } from "./types.ts";
import { readCheckedText } from "./files/guard.ts";

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

/**
 * A file the model or operator named, read through the one guarded door of the file tools. A SMAT
 * archive (a .smatdb by its content, whatever its name) or the sampled TSV of ssh_pull_smat gives
 * its messages, oldest first, one after the other.
 */
export async function readInputFile(path: string, ctx: ToolContext): Promise<InputText> {
  const r = await readCheckedText(path, ctx);
  if (r.ok) {
    if (!r.text.replace(/^\uFEFF/, "").startsWith("mid\ttime_in\ttime_iso\tcontent_base64")) {
      return {
        ok: true,
        text: r.text,
        label: path,
        decoded: r.decoded,
        notes: r.decoded.notes.map((n) => `${path}: ${n}`),
      };
    }
    const smat = await lazy<typeof import("./engine/smat/mod.ts")>(import.meta.url, "./engine/smat/mod.ts");
    return archiveText(path, smat.parseSampleTsv(r.text, path, {}, Number.MAX_SAFE_INTEGER), "sampled TSV");
  }
  if (!r.result.text.includes('"error":"binary_file"')) return r;
  const smat = await lazy<typeof import("./engine/smat/mod.ts")>(import.meta.url, "./engine/smat/mod.ts");
  const { localEngineFs } = await lazy<typeof import("./engine/engine_fs.ts")>(
    import.meta.url,
    "./engine/engine_fs.ts",
  );
  const fs = localEngineFs(ctx);
  if (!smat.isPlainSqlite(await fs.readRange(path, 0, 16).catch(() => new Uint8Array()))) {
    if (!/\.smatdb$/i.test(path)) return r;
  }
  try {
    const read = await smat.readSmatDb(fs, path, {}, Number.MAX_SAFE_INTEGER);
    if (read.skipped) {
      return { ok: false, result: toolError("smat_unreadable", read.skipped.message, { path }) };
    }
    return archiveText(path, read.messages, "SMAT archive");
  } catch (err) {
    if (err instanceof smat.SmatQueryError) {
      return { ok: false, result: toolError(err.kind, err.message, { path }) };
    }
    throw err;
  }
}

function archiveText(path: string, newestFirst: Array<{ content: string }>, what: string): InputText {
  const text = newestFirst.toReversed().map((m) => m.content.replace(/[\r\n]+$/, "")).join("\r\n");
  return { ok: true, text, label: `${path} (${what}, ${newestFirst.length} messages)`, notes: [] };
}
