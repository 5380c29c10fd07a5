/**
 * Retention of session artifacts: at REPL start, sessions whose newest artifact is older than
 * `ASSIST_SESSION_RETENTION_DAYS` (default 30) are removed, both files together. Only files named
 * as artifacts.ts names them are touched.
 *
 * @module
 */
import { homePaths } from "../../core/home.ts";
import { SESSION_ID_RE } from "./artifacts.ts";

/**
 * Removes the sessions older than `days`; returns how many sessions were removed.
 *
 * @example
 * ```ts
 * import { pruneSessions } from "./retention.ts";
 * const removed = await pruneSessions("/home/op/.assist", 30);
 * ```
 */
export async function pruneSessions(home: string, days: number, now = Date.now()): Promise<number> {
  const dir = homePaths(home).sessions;
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  const newest = new Map<string, { mtime: number; names: string[] }>();
  try {
    for await (const e of Deno.readDir(dir)) {
      const m = /^(.+)\.(log\.md|messages\.json)$/.exec(e.name);
      if (!e.isFile || !m || !SESSION_ID_RE.test(m[1])) continue;
      const info = await Deno.lstat(`${dir}${sep}${e.name}`).catch(() => undefined);
      if (!info) continue;
      const entry = newest.get(m[1]) ?? { mtime: 0, names: [] };
      entry.mtime = Math.max(entry.mtime, info.mtime?.getTime() ?? now);
      entry.names.push(e.name);
      newest.set(m[1], entry);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return 0;
    throw err;
  }
  const cutoff = now - days * 86_400_000;
  let removed = 0;
  for (const { mtime, names } of newest.values()) {
    if (mtime >= cutoff) continue;
    for (const name of names) await Deno.remove(`${dir}${sep}${name}`).catch(() => {});
    removed++;
  }
  return removed;
}
