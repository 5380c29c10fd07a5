/**
 * The pure half of the headers sync: which byte ranges of `log/headers.log` (and of its one rotated
 * generation `headers.log.1`) are new since the last push, and the conversion of the log's lines
 * (cli/model/headers_log.ts: one JSON object per header block) to the pushed JSONL.
 *
 * @module
 */

/** Bytes of a file's start that fingerprint it (with its identity) across pushes. */
export const HEAD_BYTES = 64;

/** What was pushed: the local file's identity, the bytes pushed, the fingerprint of its start. */
export interface Mark {
  /** Device, inode and birth time of the file (core of rotation detection). */
  id: string;
  offset: number;
  /** `<length>:<sha-256 hex>` of the first `min(offset, HEAD_BYTES)` bytes. */
  head: string;
}

/** A local file as seen now. `head` is its fingerprint over the mark's length (see {@link Mark}). */
export interface Seen {
  id: string;
  size: number;
  head: string;
}

export interface Read {
  file: "current" | "rotated";
  from: number;
  to: number;
}

export interface Plan {
  reads: Read[];
  /** Why the push starts over at byte 0 of the current file, when it does. */
  reseed?: "rotated" | "shrunk";
}

/** The same file as the mark, not shorter than what was pushed, with the same start. */
function continues(mark: Mark, seen: Seen | undefined): boolean {
  return seen !== undefined && seen.id === mark.id && seen.size >= mark.offset && seen.head === mark.head;
}

/**
 * The ranges to push. With no mark everything is new. When the current file is the marked one, its
 * tail is new. When it was rotated away and `headers.log.1` is the marked file, that file's tail and
 * the whole current file are new. Any other change (shrunk, truncated, rewritten, replaced) re-seeds
 * from byte 0 of the current file. Pure.
 *
 * @example
 * ```ts
 * import { planReads } from "./logic.ts";
 * const mark = { id: "1:2:3", offset: 100, head: "64:ab" };
 * planReads(mark, { id: "1:2:3", size: 160, head: "64:ab" }, undefined);
 * // { reads: [{ file: "current", from: 100, to: 160 }] }
 * ```
 */
export function planReads(
  mark: Mark | undefined,
  current: Seen | undefined,
  rotated: Seen | undefined,
): Plan {
  const whole = (s: Seen | undefined): Read[] =>
    s && s.size > 0 ? [{ file: "current", from: 0, to: s.size }] : [];
  if (!mark) return { reads: whole(current) };
  if (current && continues(mark, current)) {
    return {
      reads: current.size > mark.offset ? [{ file: "current", from: mark.offset, to: current.size }] : [],
    };
  }
  if (rotated && continues(mark, rotated)) {
    const tail: Read[] = rotated.size > mark.offset
      ? [{ file: "rotated", from: mark.offset, to: rotated.size }]
      : [];
    return { reads: [...tail, ...whole(current)], reseed: "rotated" };
  }
  if (current && current.id === mark.id) return { reads: whole(current), reseed: "shrunk" };
  return { reads: whole(current), reseed: "rotated" };
}

/** The complete lines of a chunk: bytes up to and including its last line break. */
export function completeLines(bytes: Uint8Array): number {
  const i = bytes.lastIndexOf(0x0a);
  return i === -1 ? 0 : i + 1;
}

export interface Converted {
  /** One JSON object per header block, each line ending in a line break. */
  jsonl: string;
  blocks: number;
  /** Lines that were not a header block (a torn or foreign line), left out. */
  skipped: number;
}

/**
 * headers.log lines to the pushed JSONL: each block `{ host, ts, status, headers, tag? }` (any
 * other field headers_log writes is kept), `host` naming the machine the log came from. Pure.
 *
 * @example
 * ```ts
 * import { toJsonl } from "./logic.ts";
 * toJsonl('{"ts":"2026-01-01T00:00:00.000Z","status":"HTTP 200","headers":{"retry-after":"1"}}\n', "ws1");
 * // { jsonl: '{"host":"ws1","ts":"2026-01-01T00:00:00.000Z","status":"HTTP 200","headers":{"retry-after":"1"}}\n', blocks: 1, skipped: 0 }
 * ```
 */
export function toJsonl(text: string, host: string): Converted {
  let jsonl = "";
  let blocks = 0;
  let skipped = 0;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "").trim();
    if (line === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    if (!isBlock(v)) {
      skipped++;
      continue;
    }
    const { ts, status, headers, tag, ...rest } = v;
    const block: Record<string, unknown> = { host, ts, status, headers };
    if (tag !== undefined) block.tag = tag;
    jsonl += JSON.stringify({ ...block, ...rest }) + "\n";
    blocks++;
  }
  return { jsonl, blocks, skipped };
}

interface Block {
  ts?: unknown;
  status: string;
  headers: Record<string, unknown>;
  tag?: unknown;
  [k: string]: unknown;
}

function isBlock(v: unknown): v is Block {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.status === "string" && typeof o.headers === "object" && o.headers !== null &&
    !Array.isArray(o.headers);
}
