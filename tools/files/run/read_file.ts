/**
 * read_file: a text file, whole or by line range, cut at 250 KB with a footer that says how to go on.
 * Bytes are read by hl7/charset.ts (MSH-18, else UTF-8, else Windows-1252 with a note).
 */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { readFileTool as def } from "../read_file_tool.ts";
import type { readFileTool } from "../read_file_tool.ts";
import { decodeBytes, firstDeclared } from "../../../hl7/charset.ts";
import { crToNewlines, startsLikeHl7 } from "../../../hl7/screen.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { checkPath, fsError } from "../guard.ts";
import { readLimited, truncationFooter } from "../read_limited.ts";

export async function run(input: InputOf<typeof readFileTool>, ctx: ToolContext): Promise<ToolResult> {
  const path = input.path;
  const start = input.start_line ?? 1;
  const end = input.end_line;
  if (end !== undefined && end < start) {
    return toolError("bad_range", `end_line ${end} is before start_line ${start}`);
  }
  const checked = await checkPath(path, ctx);
  if (!checked.ok) return checked.result;
  let file: Deno.FsFile;
  try {
    const info = await Deno.stat(checked.real);
    if (info.isDirectory) return fsError(path, new Deno.errors.IsADirectory());
    file = await Deno.open(checked.real, { read: true });
  } catch (err) {
    return fsError(path, err);
  }
  try {
    return hl7Lines(await readRange(file, path, start, end), ctx);
  } catch (err) {
    return fsError(path, err);
  } finally {
    file.close();
  }
}

async function readRange(file: Deno.FsFile, path: string, start: number, end: number | undefined) {
  const r = await readLimited(file, start, end);
  if (r.binary) {
    return toolError("binary_file", `${path} is a binary file (${r.total} bytes); not shown`, { path });
  }
  if (start > 1 && r.lastShownLine === 0 && !r.truncated) {
    // HL7 with CR terminators is one line to a line count: say so, and what reads it by segment.
    await file.seek(0, Deno.SeekMode.Start);
    const head = new Uint8Array(4096);
    const n = (await file.read(head)) ?? 0;
    const text = new TextDecoder().decode(head.subarray(0, n));
    // deno-lint-ignore no-control-regex -- MLLP's start block (0x0B) may lead the file
    const hl7 = /^(\uFEFF|\x0b)?(MSH|FHS|BHS)\|/.test(text) && /\r(?!\n)/.test(text) && !text.includes("\n");
    const why = hl7
      ? " (its HL7 segments end in CR, not newlines, so it is one line; hl7_show reads it segment by segment)"
      : "";
    return toolError("bad_range", `${path} has fewer than ${start} lines${why}`, { path });
  }
  // A range past the first lines: the message header (and its MSH-18) may be above it.
  let declared = "";
  if (start > 1) {
    const head = new Uint8Array(HEAD_BYTES);
    const n = await readHead(file, head);
    declared = firstDeclared(head.subarray(0, n));
  }
  const decoded = decodeBytes(r.bytes, { declared });
  // A UTF-8 byte-order mark is kept by the decoder (for exact write-back); here it is only noise.
  const text = decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
  const shown = r.truncated ? text + truncationFooter(r, "read_file", "start_line") : text;
  return decoded.notes.length
    ? { text: shown, notes: decoded.notes.map((n) => `${path}: ${n}`) }
    : { text: shown };
}

/** How much of a file's start is searched for an MSH-18 when a line range starts below it. */
const HEAD_BYTES = 64 * 1024;

/** Reads up to `buf.length` bytes from the start of `file`; the count read. */
async function readHead(file: Deno.FsFile, buf: Uint8Array): Promise<number> {
  await file.seek(0, Deno.SeekMode.Start);
  let n = 0;
  while (n < buf.length) {
    const got = await file.read(buf.subarray(n));
    if (got === null) break;
    n += got;
  }
  return n;
}

/**
 * HL7 whose segments end in a bare CR (as the standard has them): on a terminal each CR returns to
 * the start of the same line, so every segment overwrote the last. For a terminal the segments are
 * put on lines of their own (display only); anyone else (the model, a pipe) gets the exact bytes,
 * and the model a note that the terminators are CRs.
 */
function hl7Lines(result: ToolResult, ctx: ToolContext): ToolResult {
  if (result.isError) return result;
  const text = result.text;
  if (!startsLikeHl7(text) || !/\r(?!\n)/.test(text)) return result;
  if (ctx.terminal) return { ...result, text: crToNewlines(text) };
  if (ctx.caller !== "model") return result;
  return {
    ...result,
    text: text + (text.endsWith("\n") ? "" : "\n") +
      "[read_file: HL7 segments here end in CR (\\r), not newlines; the text above is the file's exact bytes]",
  };
}
