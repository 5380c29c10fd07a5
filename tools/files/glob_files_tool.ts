/** glob_files: paths matching a glob pattern, never listing inside protected places. */
import type { ToolDef } from "../types.ts";

export const globFilesTool = {
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
  exampleInput: { pattern: "**/*.tcl", path: "/hci/prod" },
} as const satisfies ToolDef;
