/** read_file: a text file, whole or by line range, cut at 250 KB with a footer that says how to go on. */
import type { ToolDef } from "../types.ts";

export const readFileTool = {
  name: "read_file",
  summary: "Read a text file, or a range of its lines (250 KB at most per call)",
  description: "Read a text file from the local machine. Optionally only lines start_line..end_line " +
    "(1-based, inclusive). Output stops at 250 KB with a footer giving the line to continue from. " +
    "Binary files (a NUL byte in the first 8 KB) are not shown. Files under $ASSIST_HOME/log, " +
    "/sanitize, /sessions and the secret files are refused with a JSON error that must be reported.",
  params: [
    { name: "path", type: "string", description: "file to read", required: true, positional: true },
    {
      name: "start_line",
      type: "integer",
      description: "first line to show (1-based)",
      min: 1,
      metavar: "N",
    },
    { name: "end_line", type: "integer", description: "last line to show (inclusive)", min: 1, metavar: "N" },
  ],
  examples: ["/hci/prod/siteA/NetConfig", "notes.txt --start-line 100 --end-line 160"],
  exampleInput: { path: "/hci/prod/siteA/NetConfig", start_line: 100, end_line: 160 },
} as const satisfies ToolDef;
