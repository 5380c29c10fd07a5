/**
 * The one output budget of a command run for the model, shared by `bash_exec` (a local child) and
 * `ssh_exec` (a remote channel):
 *
 * - bytes: each stream keeps its first {@link EXEC_CAPTURE_BYTES} bytes and counts the rest
 *   ({@link OutputCapture}), so a runaway command cannot exhaust memory. For ssh_exec the cap is
 *   applied where the channel is read (ssh/, possibly in the master process), which is why this
 *   module lives in core/;
 * - lines: stdout, then `[stderr]` and stderr, at most `max_lines` lines in all, stderr keeping up
 *   to a quarter of the budget (more when stdout is short), because stderr usually says what went
 *   wrong ({@link budgetLines}), followed by the truncation and discarded-bytes notes.
 *
 * Each tool adds its own notes (timeout, signal, noise filter) and its exit footer after these lines.
 *
 * @module
 */
import { concat } from "./bytes.ts";

/** Bytes kept per stream of a command's output; the rest is counted and discarded. */
export const EXEC_CAPTURE_BYTES = 4 * 1024 * 1024;

/**
 * Keeps the first `cap` bytes of a stream and counts the rest. Chunks are copied, so a producer
 * may reuse its buffers.
 *
 * @example
 * ```ts
 * import { OutputCapture } from "./exec_budget.ts";
 * const c = new OutputCapture(4);
 * c.add(new Uint8Array([1, 2, 3]));
 * c.add(new Uint8Array([4, 5, 6]));
 * c.bytes(); // Uint8Array [1, 2, 3, 4]
 * c.dropped; // 2
 * ```
 */
export class OutputCapture {
  #parts: Uint8Array[] = [];
  #kept = 0;
  /** Bytes counted and discarded beyond the cap. */
  dropped = 0;
  constructor(readonly cap: number = EXEC_CAPTURE_BYTES) {}

  add(chunk: Uint8Array): void {
    const room = this.cap - this.#kept;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#parts.push(new Uint8Array(piece));
    this.#kept += piece.length;
    this.dropped += chunk.length - piece.length;
  }

  /** The kept bytes, in order. */
  bytes(): Uint8Array {
    return concat(this.#parts, this.#kept);
  }
}

/** Text as lines: a final newline ends the last line rather than starting an empty one; CRs go. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

export interface BudgetInput {
  /** The tool's name, for its notes: `[<tool>: output truncated: ...]`. */
  tool: string;
  stdout: string;
  stderr: string;
  maxLines: number;
  /** Bytes the capture discarded, both streams together. */
  droppedBytes: number;
}

/**
 * The budgeted lines of a command's output: stdout, `[stderr]` and stderr within `maxLines`, then a
 * truncation note when lines were cut and a note of the bytes the capture discarded. Pure.
 *
 * @example
 * ```ts
 * import { budgetLines } from "./exec_budget.ts";
 * budgetLines({ tool: "bash_exec", stdout: "a\nb\nc\n", stderr: "oops\n", maxLines: 2, droppedBytes: 0 });
 * // ["a", "[stderr]", "oops", "[bash_exec: output truncated: 2 of 4 lines shown; raise max_lines]"]
 * ```
 */
export function budgetLines(o: BudgetInput): string[] {
  const out = splitLines(o.stdout);
  const err = splitLines(o.stderr);
  let outQuota = out.length;
  let errQuota = err.length;
  if (out.length + err.length > o.maxLines) {
    errQuota = Math.min(err.length, Math.max(Math.ceil(o.maxLines / 4), o.maxLines - out.length));
    outQuota = Math.min(out.length, o.maxLines - errQuota);
  }
  const lines = out.slice(0, outQuota);
  if (err.length > 0) lines.push("[stderr]", ...err.slice(0, errQuota));
  const total = out.length + err.length;
  const shown = outQuota + errQuota;
  if (shown < total) {
    lines.push(`[${o.tool}: output truncated: ${shown} of ${total} lines shown; raise max_lines]`);
  }
  if (o.droppedBytes > 0) lines.push(`[${o.tool}: ${o.droppedBytes} further bytes of output discarded]`);
  return lines;
}
