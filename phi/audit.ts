/**
 * The auto-PHI audit log, `$ASSIST_HOME/log/auto-phi.log` (spec, "Auto-PHI audit record"): one JSON
 * object per line with `ts`, `value`, `category`, `token`, `tier`, `surface`, `context`. It records
 * the detected values themselves, so it is a protected local file: mode 0600 in a 0700 folder, never
 * readable by model tools (tools/files/protect.ts), never uploaded. The engine writes one record per
 * value per session, surface and source (tool name or prompt), with the tier and field where it was
 * first seen: a message seen again in a later turn does not grow the log. Records are appended with one `O_APPEND` write per pass, so concurrent
 * sessions interleave whole lines.
 *
 * The notice line (spec, "Terminal notice lines") carries categories and counts only, never a value:
 *
 *     phi> auto-tokenized <n> value(s) [<surface>]: <CATEGORY>×<count> ...
 */
import type { Tier } from "./detect.ts";

export type Surface = "user_input" | "tool_result";

export interface AuditRecord {
  /** ISO 8601 UTC timestamp. */
  ts: string;
  value: string;
  category: string;
  token: string;
  /** `definite`, `contextual`, `hl7`, `known`, `hl7_pipeline`; `sidecar` for tier 5 (an addition). */
  tier: Exclude<Tier, "manual">;
  surface: Surface;
  /** Where: the tool name or `prompt`, then the HL7 field path or the tier's reason. */
  context: string;
}

const enc = new TextEncoder();
const posix = Deno.build.os !== "windows";

const ready = new Set<string>();

function ensurePrivateDir(path: string): void {
  if (ready.has(path)) return;
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (cut > 0) {
    const dir = path.slice(0, cut);
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (posix) {
      const info = Deno.statSync(dir);
      if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(dir, 0o700);
    }
  }
  ready.add(path);
}

/**
 * Appends records to the audit log (creating it 0600, its folder 0700). Build each record with the
 * spec's keys in the spec's order and nothing else: it is written as it is.
 *
 * @example
 * await appendAudit(homePaths(home).autoPhiLog, [{ ts, value: "12345678", category: "MRN",
 *   token: "[[MRN_1]]", tier: "contextual", surface: "user_input", context: "prompt" }]);
 */
export function appendAudit(path: string, records: readonly AuditRecord[]): Promise<void> {
  // Synchronous: one small append per pass, no thread-pool round trips on the gate's hot path.
  try {
    appendAuditSync(path, records);
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err);
  }
}

function appendAuditSync(path: string, records: readonly AuditRecord[]): void {
  if (records.length === 0) return;
  ensurePrivateDir(path);
  // Each record is written as it is: callers build it with the spec's keys in the spec's order
  // (ts, value, category, token, tier, surface, context), which saves a copy per record.
  const text = records.map((r) => JSON.stringify(r) + "\n").join("");
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  } catch (err) {
    ready.delete(path); // the folder may have gone: check it again next time
    throw err;
  }
  try {
    if (posix) {
      const info = file.statSync();
      if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(path, 0o600);
    }
    const bytes = enc.encode(text);
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
  } finally {
    file.close();
  }
}

/**
 * The terminal notice for one pass, or undefined when nothing was tokenized. Categories are listed
 * by count (highest first), then by name.
 *
 * @example
 * noticeLine("tool_result", ["NAME", "MRN", "NAME"]);
 * // "phi> auto-tokenized 3 value(s) [tool_result]: NAME×2 MRN×1"
 */
export function noticeLine(surface: Surface, categories: readonly string[]): string | undefined {
  if (categories.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const c of categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([c, n]) => `${c}×${n}`);
  return `phi> auto-tokenized ${categories.length} value(s) [${surface}]: ${parts.join(" ")}`;
}
