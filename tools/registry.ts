/**
 * The one registry of tools. The model's tool list, `assist tools list`, `assist tools <name>` and
 * the REPL's tool-backed slash commands are all generated from this array; no tool is described
 * anywhere else. Order is the order of `tools list` and of the model's tool definitions.
 *
 * Tool modules are small: each keeps heavy dependencies (parsers, engine model, SSH) behind a
 * dynamic import inside its `run`, so listing tools or printing help loads none of them.
 */
import type { ToolDef } from "./types.ts";
import { readFileTool } from "./files/read_file.ts";
import { grepFilesTool } from "./files/grep_files.ts";
import { globFilesTool } from "./files/glob_files.ts";
import { listDirTool } from "./files/list_dir.ts";
import { bashExecTool } from "./bash/bash_exec.ts";
import { hl7FieldTool } from "./hl7/hl7_field.ts";
import { hl7DiffTool } from "./hl7/hl7_diff.ts";
import { hl7ShowTool } from "./hl7/hl7_show.ts";

export const TOOLS: readonly ToolDef[] = [
  readFileTool,
  grepFilesTool,
  globFilesTool,
  listDirTool,
  bashExecTool,
  hl7FieldTool,
  hl7DiffTool,
  hl7ShowTool,
];

/** The tool of that name, or undefined. */
export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}
