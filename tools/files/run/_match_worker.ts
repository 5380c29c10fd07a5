/// <reference lib="deno.worker" />
/**
 * grep_files' regular-expression matching, off the main thread: a pattern that backtracks
 * catastrophically (`(a+)+$`) can run for minutes inside one `test` call, which nothing on the
 * same thread can interrupt. The tool terminates this worker at its deadline instead. (Patterns
 * that cannot backtrack so run in-process: ../match_lines.ts.)
 * Messages: `{pattern, flags}` once, then `{id, text, limit}` → `{id, hits}` (0-based line numbers).
 */
import { matchLines } from "../match_lines.ts";

let re: RegExp | undefined;

self.onmessage = (e: MessageEvent) => {
  const m = e.data;
  if (m.pattern !== undefined) {
    re = new RegExp(m.pattern, m.flags);
    return;
  }
  self.postMessage({ id: m.id, hits: matchLines(re!, m.text as string, m.limit) });
};
