/** list_dir: one folder's entries with type, size and modification time. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { listDirTool as def } from "../list_dir_tool.ts";
import type { listDirTool } from "../list_dir_tool.ts";
import { formatTime } from "../../../core/time.ts";
import { posix, win32 } from "../../../core/path.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { checkPath, fsError, guardFor } from "../guard.ts";

export async function run(input: InputOf<typeof listDirTool>, ctx: ToolContext): Promise<ToolResult> {
  const path = input.path;
  const max = input.max_entries;
  const checked = await checkPath(path, ctx);
  if (!checked.ok) return checked.result;
  const guard = await guardFor(ctx);
  const lib = guard.flavor.windows ? win32 : posix;
  const rows: Array<{ dir: boolean; name: string; line: string }> = [];
  try {
    if (!(await Deno.stat(checked.real)).isDirectory) {
      return toolError("not_a_folder", `${path} is not a folder (use read_file)`, { path });
    }
    for await (const e of Deno.readDir(checked.real)) {
      const literal = lib.join(checked.literal, e.name);
      let real = lib.join(checked.real, e.name);
      if (e.isSymlink) real = await Deno.realPath(real).catch(() => real);
      if (guard.placeOf(literal, real)) {
        rows.push({
          dir: e.isDirectory,
          name: e.name,
          line: `${e.isSymlink ? "l" : e.isDirectory ? "d" : "f"}\t-\t-\t${e.name}${
            e.isDirectory ? "/" : ""
          }\t[protected]`,
        });
        continue;
      }
      let size = "-";
      let mtime = "-";
      let target = "";
      try {
        const st = await Deno.lstat(lib.join(checked.real, e.name));
        size = st.isDirectory ? "-" : String(st.size);
        mtime = st.mtime ? formatTime(st.mtime.getTime()) : "-";
        if (e.isSymlink) target = ` -> ${await Deno.readLink(lib.join(checked.real, e.name))}`;
      } catch { /* vanished or unreadable: keep the name */ }
      const type = e.isSymlink ? "l" : e.isDirectory ? "d" : "f";
      rows.push({
        dir: e.isDirectory,
        name: e.name,
        line: `${type}\t${size}\t${mtime}\t${e.name}${e.isDirectory ? "/" : ""}${target}`,
      });
    }
  } catch (err) {
    return fsError(path, err);
  }
  rows.sort((a, b) => a.dir !== b.dir ? (a.dir ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const lines = rows.slice(0, max).map((r) => r.line);
  if (rows.length === 0) lines.push("(empty folder)");
  if (rows.length > max) {
    lines.push(`[list_dir: ${rows.length - max} more entries not shown; raise max_entries]`);
  }
  return { text: lines.join("\n") };
}
