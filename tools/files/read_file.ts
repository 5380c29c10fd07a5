/** read_file: a text file, whole or by line range, cut at 250 KB with a footer that says how to go on. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";

/** The file-reference size limit of the spec: 250 KB, then truncated with a footer. */
export const READ_LIMIT_BYTES = 250 * 1024;

const NL = 0x0a;

export const readFileTool: ToolDef = {
  name: "read_file",
  summary: "Read a text file, or a range of its lines (250 KB at most per call)",
  description: "Read a text file from the local machine. Optionally only lines start_line..end_line " +
    "(1-based, inclusive). Output stops at 250 KB with a footer giving the line to continue from. " +
    "Binary files (a NUL byte in the first 8 KB) are not shown. Files under $ASSIST_HOME/log, " +
    "/sanitize, /sessions and the secret files are refused with a JSON error that must be reported.",
  params: [
    { name: "path", type: "string", description: "file to read", required: true, positional: true },
    {
      name: "start_line",
      type: "integer",
      description: "first line to show (1-based)",
      min: 1,
      metavar: "N",
    },
    { name: "end_line", type: "integer", description: "last line to show (inclusive)", min: 1, metavar: "N" },
  ],
  examples: ["/hci/prod/siteA/NetConfig", "notes.txt --start-line 100 --end-line 160"],
  async run(input, ctx) {
    const path = input.path as string;
    const start = (input.start_line as number | undefined) ?? 1;
    const end = input.end_line as number | undefined;
    if (end !== undefined && end < start) {
      return toolError("bad_range", `end_line ${end} is before start_line ${start}`);
    }
    // Loaded on use, so `assist tools list` does not pay for the path machinery.
    const { checkPath, fsError } = await lazy<typeof import("./guard.ts")>(import.meta.url, "./guard.ts");
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
      return await readRange(file, path, start, end);
    } catch (err) {
      return fsError(path, err);
    } finally {
      file.close();
    }
  },
};

async function readRange(file: Deno.FsFile, path: string, start: number, end: number | undefined) {
  const { BINARY_WINDOW, looksBinary } = await lazy<typeof import("./guard.ts")>(
    import.meta.url,
    "./guard.ts",
  );
  const total = (await file.stat()).size;
  const out = new Uint8Array(Math.min(READ_LIMIT_BYTES, total));
  let outLen = 0;
  let line = 1; // line number of the next byte read
  let lastShownLine = 0;
  let truncated = false;
  let firstChunk = true;
  const buf = new Uint8Array(64 * 1024);
  reading: for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    const chunk = buf.subarray(0, n);
    if (firstChunk) {
      firstChunk = false;
      if (looksBinary(chunk.subarray(0, BINARY_WINDOW))) {
        return toolError("binary_file", `${path} is a binary file (${total} bytes); not shown`, { path });
      }
    }
    let i = 0;
    while (i < chunk.length) {
      const nl = chunk.indexOf(NL, i);
      const stop = nl === -1 ? chunk.length : nl + 1;
      if (line >= start && (end === undefined || line <= end)) {
        const piece = chunk.subarray(i, stop);
        if (outLen + piece.length > READ_LIMIT_BYTES) {
          const room = READ_LIMIT_BYTES - outLen;
          out.set(piece.subarray(0, room), outLen);
          outLen += room;
          truncated = true;
          break reading;
        }
        out.set(piece, outLen);
        outLen += piece.length;
        lastShownLine = line;
      } else if (end !== undefined && line > end) {
        break reading;
      }
      if (nl === -1) break;
      line++;
      i = stop;
    }
  }
  let text = decodeWhole(out.subarray(0, outLen), truncated);
  if (truncated) {
    // Cut back to the last complete line so the continuation starts cleanly at a line.
    const cut = text.lastIndexOf("\n");
    if (cut === -1) {
      text += `\n[read_file: line ${start} alone is longer than 250 KB (file ${total} bytes); shown in part]`;
      return { text };
    }
    text = text.slice(0, cut + 1) +
      `[read_file: truncated at 250 KB of ${total} bytes; lines ${start}-${lastShownLine} shown; ` +
      `continue with start_line ${lastShownLine + 1}]`;
    return { text };
  }
  if (start > 1 && lastShownLine === 0) {
    return toolError("bad_range", `${path} has fewer than ${start} lines`, { path });
  }
  return { text };
}

/** UTF-8 decode; when the buffer was cut, a partial trailing character is dropped, not mangled. */
function decodeWhole(bytes: Uint8Array, cut: boolean): string {
  let end = bytes.length;
  if (cut) {
    let back = 0;
    while (back < 4 && end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) === 0x80) back++;
    const lead = end - back - 1;
    if (lead >= 0) {
      const b = bytes[lead];
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (need > back + 1) end = lead;
    }
  }
  return new TextDecoder().decode(bytes.subarray(0, end));
}
