/** grep_files: lines matching a regular expression, in files below a folder, never in protected places. */
import type { ToolDef } from "../types.ts";

export const grepFilesTool = {
  name: "grep_files",
  summary: "Search file contents by regular expression (binary files skipped)",
  description: "Search files for lines matching a JavaScript regular expression. `path` is a file or a " +
    "folder searched recursively (skipping .git and node_modules); `glob` filters file names (e.g. " +
    "*.tcl, **/NetConfig). Output lines are path:line:text. Binary files are skipped; results stop at " +
    "max_results. Lines end at LF, CRLF or a lone CR (each HL7 segment is a line). Protected places under " +
    "$ASSIST_HOME are never read.",
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
    {
      name: "timeout_seconds",
      type: "integer",
      description: "give up on a pattern that runs longer than this",
      default: 30,
      min: 1,
      max: 600,
    },
  ],
  examples: ["'ICLSERVERPORT' /hci/prod --glob NetConfig", "'proc ' tclprocs --glob '*.tcl' --ignore-case"],
  exampleInput: { pattern: "ICLSERVERPORT", path: "/hci/prod", glob: "NetConfig" },
} as const satisfies ToolDef;
