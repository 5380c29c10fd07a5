/** glob_files: paths matching a glob pattern, never listing inside protected places. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { globFilesTool as def } from "../glob_files_tool.ts";
import type { globFilesTool } from "../glob_files_tool.ts";
import { posix, win32 } from "../../../core/path.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { globDepth, globToRegExp, splitGlob } from "../glob.ts";
import { checkPath, fsError, guardFor } from "../guard.ts";
import { walk, type WalkStats } from "../walk.ts";

export async function run(input: InputOf<typeof globFilesTool>, ctx: ToolContext): Promise<ToolResult> {
  const pattern = input.pattern;
  const max = input.max_results;
  const guard = await guardFor(ctx);
  const lib = guard.flavor.windows ? win32 : posix;
  const { base, rest } = splitGlob(pattern, guard.flavor.windows);
  const baseDir = lib.isAbsolute(base) ? base : lib.join(input.path, base);
  const checked = await checkPath(baseDir, ctx);
  if (!checked.ok) return checked.result;
  try {
    if (!(await Deno.stat(checked.real)).isDirectory) {
      return toolError("not_a_folder", `${baseDir} is not a folder`, { path: baseDir });
    }
  } catch (err) {
    return fsError(baseDir, err);
  }
  let matcher: RegExp;
  try {
    matcher = globToRegExp(rest, guard.flavor.caseInsensitive);
  } catch {
    return toolError("bad_pattern", `not a usable glob pattern: ${pattern}`);
  }
  const stats: WalkStats = { protectedSkipped: 0, unreadable: 0 };
  const shown = lib.isAbsolute(base) || base !== "." ? baseDir : input.path;
  const hits: string[] = [];
  let capped = false;
  for await (
    const e of walk(
      checked.literal,
      checked.real,
      guard,
      { maxDepth: globDepth(rest), signal: ctx.signal },
      stats,
    )
  ) {
    if (!matcher.test(e.rel)) continue;
    if (hits.length >= max) {
      capped = true;
      break;
    }
    const p = shown === "." ? e.rel : `${shown.replace(/[\\/]+$/, "")}/${e.rel}`;
    hits.push(e.isDirectory ? `${p}/` : p);
  }
  const lines = hits.length ? [...hits] : [`no paths match ${pattern}`];
  if (capped) lines.push(`[glob_files: stopped at ${max} paths; narrow the pattern or raise max_results]`);
  if (stats.protectedSkipped) {
    lines.push(`[glob_files: ${stats.protectedSkipped} protected path(s) not listed]`);
  }
  return { text: lines.join("\n") };
}
