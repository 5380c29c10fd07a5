/** grep_files: lines matching a regular expression, in files below a folder, never in protected places. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";
import { toolError } from "../types.ts";
import type { WalkStats } from "./walk.ts";

/** Files larger than this are skipped (and counted) rather than read whole. */
export const GREP_MAX_FILE_BYTES = 64 * 1024 * 1024;
const LINE_SHOW_CHARS = 300;
const SKIP_DIRS = new Set([".git", ".hg", ".svn", "node_modules"]);

export const grepFilesTool: ToolDef = {
  name: "grep_files",
  summary: "Search file contents by regular expression (binary files skipped)",
  description: "Search files for lines matching a JavaScript regular expression. `path` is a file or a " +
    "folder searched recursively (skipping .git and node_modules); `glob` filters file names (e.g. " +
    "*.tcl, **/NetConfig). Output lines are path:line:text. Binary files are skipped; results stop at " +
    "max_results. Protected places under $ASSIST_HOME are never read.",
  params: [
    { name: "pattern", type: "string", description: "regular expression", required: true, positional: true },
    { name: "path", type: "string", description: "file or folder to search", default: ".", positional: true },
    { name: "glob", type: "string", description: "only files whose name or relative path matches" },
    { name: "ignore_case", type: "boolean", description: "case-insensitive match", default: false },
    {
      name: "max_results",
      type: "integer",
      description: "stop after this many matching lines",
      default: 200,
      min: 1,
      max: 100000,
    },
  ],
  examples: ["'ICLSERVERPORT' /hci/prod --glob NetConfig", "'proc ' tclprocs --glob '*.tcl' --ignore-case"],
  async run(input, ctx) {
    // Loaded on use, so `assist tools list` does not pay for the path machinery.
    const { posix, win32 } = await lazy<typeof import("node:path")>(import.meta.url, "node:path");
    const { checkPath, fsError, guardFor, looksBinary } = await lazy<typeof import("./guard.ts")>(
      import.meta.url,
      "./guard.ts",
    );
    const { globToRegExp } = await lazy<typeof import("./glob.ts")>(import.meta.url, "./glob.ts");
    const { walk } = await lazy<typeof import("./walk.ts")>(import.meta.url, "./walk.ts");
    const pattern = input.pattern as string;
    const max = input.max_results as number;
    let re: RegExp;
    try {
      re = new RegExp(pattern, input.ignore_case ? "i" : "");
    } catch (err) {
      return toolError("bad_pattern", `not a valid regular expression: ${(err as Error).message}`);
    }
    const root = input.path as string;
    const checked = await checkPath(root, ctx);
    if (!checked.ok) return checked.result;
    const guard = await guardFor(ctx);
    const lib = guard.flavor.windows ? win32 : posix;
    const filter = input.glob === undefined
      ? undefined
      : globToRegExp(input.glob as string, guard.flavor.caseInsensitive);
    const nameOnly = input.glob !== undefined && !(input.glob as string).includes("/");

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
      const lines = decoder.decode(bytes).split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
        if (!re.test(line)) continue;
        if (out.length >= max) {
          capped = true;
          break;
        }
        const shownLine = line.length > LINE_SHOW_CHARS ? `${line.slice(0, LINE_SHOW_CHARS)}…` : line;
        out.push(`${f.shown}:${i + 1}:${shownLine}`);
      }
      if (capped) break;
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
  },
};
