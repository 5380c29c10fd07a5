/**
 * Reading at most the spec's 250 KB of a file's lines, cut at a whole line, with the footer that
 * says how to go on. Shared by read_file (tools/files/run/read_file.ts) and `@file` references
 * (cli/file_refs.ts).
 *
 * @module
 */
import { BINARY_WINDOW, looksBinary } from "./guard.ts";

/** The file-reference size limit of the spec: 250 KB, then truncated with a footer. */
export const READ_LIMIT_BYTES = 250 * 1024;

const NL = 0x0a;

/** What `readLimited` took from a file: at most 250 KB of the chosen lines. */
export interface LimitedRead {
  /** The bytes shown: whole lines when truncated (unless one line alone is too long), never a split character. */
  bytes: Uint8Array;
  /** The file's size in bytes. */
  total: number;
  /** The 250 KB limit was reached. */
  truncated: boolean;
  /** The truncation fell inside line `start` (no complete line fitted). */
  lineTooLong: boolean;
  /** A NUL byte in the first 8 KB: nothing was read. */
  binary: boolean;
  start: number;
  /** The last line (1-based) whose bytes are in `bytes` entirely; 0 when none. */
  lastShownLine: number;
}

/**
 * Reads lines `start`..`end` of an open file, stopping at the spec's 250 KB file-reference limit.
 * When cut, the bytes end at the last complete line (or, for one overlong line, at the last whole
 * UTF-8 character).
 */
export async function readLimited(file: Deno.FsFile, start = 1, end?: number): Promise<LimitedRead> {
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
        return {
          bytes: new Uint8Array(0),
          total,
          truncated: false,
          lineTooLong: false,
          binary: true,
          start,
          lastShownLine: 0,
        };
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
        // A line counts as shown once its newline (or the end of the file) is in.
        if (nl !== -1) lastShownLine = line;
      } else if (end !== undefined && line > end) {
        break reading;
      }
      if (nl === -1) break;
      line++;
      i = stop;
    }
  }
  if (!truncated && outLen > 0 && out[outLen - 1] !== NL && line >= start) lastShownLine = line;
  let bytes = out.subarray(0, outLen);
  let lineTooLong = false;
  if (truncated) {
    // Cut back to the last complete line so the continuation starts cleanly at a line.
    const cut = bytes.lastIndexOf(NL);
    if (cut === -1) {
      lineTooLong = true;
      bytes = bytes.subarray(0, utf8WholeEnd(bytes));
    } else {
      bytes = bytes.subarray(0, cut + 1);
    }
  }
  return { bytes, total, truncated, lineTooLong, binary: false, start, lastShownLine };
}

/**
 * The footer after a truncated read: `[<label>: truncated at 250 KB of N bytes; lines a-b shown;
 * continue with <continueWith> b+1]`, or the one-overlong-line note. Starts with a newline when
 * the text shown does not end in one.
 */
export function truncationFooter(r: LimitedRead, label: string, continueWith: string): string {
  if (r.lineTooLong) {
    return `\n[${label}: line ${r.start} alone is longer than 250 KB (file ${r.total} bytes); shown in part]`;
  }
  return `[${label}: truncated at 250 KB of ${r.total} bytes; lines ${r.start}-${r.lastShownLine} shown; ` +
    `continue with ${continueWith} ${r.lastShownLine + 1}]`;
}

/** The length of `bytes` without a partial UTF-8 character at its end. */
export function utf8WholeEnd(bytes: Uint8Array): number {
  const end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) === 0x80) back++;
  const lead = end - back - 1;
  if (lead >= 0) {
    const b = bytes[lead];
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > back + 1) return lead;
  }
  return end;
}
