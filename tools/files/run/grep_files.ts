/** grep_files: lines matching a regular expression, in files below a folder, never in protected places. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { grepFilesTool as def } from "../grep_files_tool.ts";
import type { grepFilesTool } from "../grep_files_tool.ts";
import { posix, win32 } from "../../../core/path.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { globToRegExp } from "../glob.ts";
import { checkPath, fsError, guardFor, looksBinary } from "../guard.ts";
import { walk, type WalkStats } from "../walk.ts";
import { boundedPattern, matchLines, splitLines } from "../match_lines.ts";

/** Files larger than this are skipped (and counted) rather than read whole. */
export const GREP_MAX_FILE_BYTES = 64 * 1024 * 1024;
const LINE_SHOW_CHARS = 300;
const SKIP_DIRS = new Set([".git", ".hg", ".svn", "node_modules"]);

export async function run(input: InputOf<typeof grepFilesTool>, ctx: ToolContext): Promise<ToolResult> {
  const pattern = input.pattern;
  const max = input.max_results;
  try {
    new RegExp(pattern, input.ignore_case ? "i" : ""); // validated here; matched in the worker
  } catch (err) {
    return toolError("bad_pattern", `not a valid regular expression: ${(err as Error).message}`);
  }
  const root = input.path;
  const checked = await checkPath(root, ctx);
  if (!checked.ok) return checked.result;
  const guard = await guardFor(ctx);
  const lib = guard.flavor.windows ? win32 : posix;
  const filter = input.glob === undefined
    ? undefined
    : globToRegExp(input.glob, guard.flavor.caseInsensitive);
  const nameOnly = input.glob !== undefined && !input.glob.includes("/");

  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(checked.real);
  } catch (err) {
    return fsError(root, err);
  }
  const stats: WalkStats = { protectedSkipped: 0, unreadable: 0 };
  const files: Array<{ shown: string; real: string }> = [];
  if (info.isDirectory) {
    for await (
      const e of walk(
        checked.literal,
        checked.real,
        guard,
        { skipDirs: SKIP_DIRS, signal: ctx.signal },
        stats,
      )
    ) {
      if (e.isDirectory) continue;
      if (filter && !filter.test(nameOnly ? lib.basename(e.rel) : e.rel)) continue;
      files.push({ shown: root === "." ? e.rel : `${root.replace(/[\\/]+$/, "")}/${e.rel}`, real: e.real });
    }
  } else {
    files.push({ shown: root, real: checked.real });
  }

  const out: string[] = [];
  let capped = false;
  let binary = 0;
  let large = 0;
  const decoder = new TextDecoder();
  const flags = input.ignore_case ? "i" : "";
  // A pattern that cannot backtrack catastrophically runs here; any other in a worker with a deadline.
  const matcher: Matcher = boundedPattern(pattern)
    ? new InlineMatcher(pattern, flags)
    : new LineMatcher(pattern, flags, input.timeout_seconds * 1000, ctx.signal);
  try {
    for (const f of files) {
      if (ctx.signal?.aborted) break;
      let bytes: Uint8Array;
      try {
        const st = await Deno.stat(f.real);
        // A hard link into a protected place has no link to resolve: compare it by identity.
        if (st.nlink !== null && st.nlink > 1 && await guard.hardLinkPlace(f.real)) {
          stats.protectedSkipped++;
          continue;
        }
        if (st.size > GREP_MAX_FILE_BYTES) {
          large++;
          continue;
        }
        bytes = await Deno.readFile(f.real);
      } catch {
        stats.unreadable++;
        continue;
      }
      if (looksBinary(bytes)) {
        binary++;
        continue;
      }
      const text = decoder.decode(bytes);
      const hits = await matcher.match(text, max - out.length + 1);
      if (hits === undefined) {
        return toolError(
          "pattern_timeout",
          `the regular expression ran longer than ${input.timeout_seconds} s (catastrophic backtracking?); ` +
            "simplify it (avoid nested quantifiers such as (a+)+) or search fewer files",
          { pattern },
        );
      }
      const lines = hits.length ? splitLines(text) : [];
      for (const i of hits) {
        if (out.length >= max) {
          capped = true;
          break;
        }
        const line = lines[i];
        const shownLine = line.length > LINE_SHOW_CHARS ? `${line.slice(0, LINE_SHOW_CHARS)}…` : line;
        out.push(`${f.shown}:${i + 1}:${shownLine}`);
      }
      if (capped) break;
    }
  } finally {
    matcher.close();
  }
  if (out.length === 0) out.push(`no matches for /${pattern}/`);
  if (capped) out.push(`[grep_files: stopped at ${max} matches; narrow the pattern or raise max_results]`);
  const notes: string[] = [];
  if (binary) notes.push(`${binary} binary file(s) skipped`);
  if (large) notes.push(`${large} file(s) over 64 MB skipped`);
  if (stats.unreadable) notes.push(`${stats.unreadable} unreadable path(s)`);
  if (stats.protectedSkipped) notes.push(`${stats.protectedSkipped} protected path(s) not searched`);
  if (notes.length) out.push(`[grep_files: ${notes.join("; ")}]`);
  return { text: out.join("\n") };
}

interface Matcher {
  /** The 0-based numbers of matching lines, or undefined when the deadline passed. */
  match(text: string, limit: number): Promise<number[] | undefined>;
  close(): void;
}

/** Matches lines on this thread: for patterns of bounded work (../match_lines.ts). */
class InlineMatcher implements Matcher {
  #re: RegExp;
  constructor(pattern: string, flags: string) {
    this.#re = new RegExp(pattern, flags);
  }
  match(text: string, limit: number): Promise<number[] | undefined> {
    return Promise.resolve(matchLines(this.#re, text, limit));
  }
  close(): void {}
}

/**
 * Matches lines in a worker with a deadline: `match` resolves to the 0-based numbers of matching
 * lines, or undefined when the deadline passed (the worker is then terminated).
 */
class LineMatcher implements Matcher {
  #worker: Worker;
  #deadline: number;
  #signal?: AbortSignal;
  #id = 0;
  constructor(pattern: string, flags: string, budgetMs: number, signal?: AbortSignal) {
    this.#worker = new Worker(new URL("./_match_worker.ts", import.meta.url).href, { type: "module" });
    this.#worker.postMessage({ pattern, flags });
    this.#deadline = Date.now() + budgetMs;
    this.#signal = signal;
  }

  match(text: string, limit: number): Promise<number[] | undefined> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      const finish = (hits: number[] | undefined) => {
        clearTimeout(timer);
        this.#worker.removeEventListener("message", onMessage);
        this.#signal?.removeEventListener("abort", onAbort);
        resolve(hits);
      };
      const onMessage = (e: MessageEvent) => e.data.id === id && finish(e.data.hits);
      const onAbort = () => finish([]);
      const timer = setTimeout(() => finish(undefined), Math.max(0, this.#deadline - Date.now()));
      this.#worker.addEventListener("message", onMessage);
      this.#signal?.addEventListener("abort", onAbort, { once: true });
      this.#worker.postMessage({ id, text, limit });
    });
  }

  close(): void {
    this.#worker.terminate();
  }
}
