/** glob_files: paths matching a glob pattern, never listing inside protected places. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";
import type { WalkStats } from "./walk.ts";

export const globFilesTool: ToolDef = {
  name: "glob_files",
  summary: "Find files and folders by glob pattern (*, **, ?, [..], {a,b})",
  description: "List paths matching a glob pattern, sorted, folders with a trailing /. Patterns: * within " +
    "one path component, ** across components, ?, [abc], [!abc], {a,b}. A relative pattern is taken " +
    "against `path` (default the working folder). Protected places under $ASSIST_HOME are never listed.",
  params: [
    {
      name: "pattern",
      type: "string",
      description: "glob pattern, e.g. **/NetConfig",
      required: true,
      positional: true,
    },
    {
      name: "path",
      type: "string",
      description: "folder the pattern is relative to",
      default: ".",
      positional: true,
    },
    {
      name: "max_results",
      type: "integer",
      description: "stop after this many paths",
      default: 500,
      min: 1,
      max: 100000,
    },
  ],
  examples: ["'*/NetConfig' /hci/prod", "'**/*.tcl' --max-results 50"],
  async run(input, ctx) {
    // Loaded on use, so `assist tools list` does not pay for the path machinery.
    const { posix, win32 } = await lazy<typeof import("node:path")>(import.meta.url, "node:path");
    const { checkPath, fsError, guardFor } = await lazy<typeof import("./guard.ts")>(
      import.meta.url,
      "./guard.ts",
    );
    const { globDepth, globToRegExp, splitGlob } = await lazy<typeof import("./glob.ts")>(
      import.meta.url,
      "./glob.ts",
    );
    const { walk } = await lazy<typeof import("./walk.ts")>(import.meta.url, "./walk.ts");
    const pattern = input.pattern as string;
    const max = input.max_results as number;
    const guard = await guardFor(ctx);
    const lib = guard.flavor.windows ? win32 : posix;
    const { base, rest } = splitGlob(pattern, guard.flavor.windows);
    const baseDir = lib.isAbsolute(base) ? base : lib.join(input.path as string, base);
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
    const shown = lib.isAbsolute(base) || base !== "." ? baseDir : (input.path as string);
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
  },
};
