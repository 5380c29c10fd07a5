/** list_dir: one folder's entries with type, size and modification time. */
import type { ToolDef } from "../types.ts";

export const listDirTool = {
  name: "list_dir",
  summary: "List a folder: type, size, modification time, name",
  description: "List the entries of one folder (not recursive), folders first, each as a tab-separated " +
    "row: type (d folder, f file, l link), size in bytes, modification time (UTC), name. Protected " +
    "entries of $ASSIST_HOME are marked and never opened.",
  params: [
    { name: "path", type: "string", description: "folder to list", default: ".", positional: true },
    {
      name: "max_entries",
      type: "integer",
      description: "stop after this many entries",
      default: 1000,
      min: 1,
      max: 100000,
    },
  ],
  examples: ["/hci/prod", "$HCIROOT/siteA/exec/processes --max-entries 50"],
  exampleInput: { path: "/hci/prod" },
} as const satisfies ToolDef;
