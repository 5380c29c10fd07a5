/// <reference lib="deno.worker" />
/**
 * grep_files' regular-expression matching, off the main thread: a pattern that backtracks
 * catastrophically (`(a+)+$`) can run for minutes inside one `test` call, which nothing on the
 * same thread can interrupt. The tool terminates this worker at its deadline instead.
 * Messages: `{pattern, flags}` once, then `{id, text, limit}` → `{id, hits}` (0-based line numbers).
 */
let re: RegExp | undefined;

self.onmessage = (e: MessageEvent) => {
  const m = e.data;
  if (m.pattern !== undefined) {
    re = new RegExp(m.pattern, m.flags);
    return;
  }
  const hits: number[] = [];
  const lines = (m.text as string).split("\n");
  for (let i = 0; i < lines.length && hits.length < m.limit; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (re!.test(line)) hits.push(i);
  }
  self.postMessage({ id: m.id, hits });
};
