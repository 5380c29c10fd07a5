/**
 * The one registry of tools. The model's tool list, `assist tools list`, `assist tools <name>` and
 * the REPL's tool-backed slash commands are all generated from this array; no tool is described
 * anywhere else. Order is the order of `tools list` and of the model's tool definitions.
 *
 * Only the small definitions are imported here (`tools/<group>/<name>_tool.ts`); each one's `run`
 * loads its body (`run/<name>.ts`) through core/lazy.ts, so listing tools or printing help loads no
 * parser, engine model or SSH code (docs/ARCHITECTURE.md, "How to add a tool").
 */
import type { ToolDef } from "./types.ts";
import { readFileTool } from "./files/read_file_tool.ts";
import { grepFilesTool } from "./files/grep_files_tool.ts";
import { globFilesTool } from "./files/glob_files_tool.ts";
import { listDirTool } from "./files/list_dir_tool.ts";
import { bashExecTool } from "./bash/bash_exec_tool.ts";
import { sshStatusTool } from "./ssh/ssh_status_tool.ts";
import { sshExecTool } from "./ssh/ssh_exec_tool.ts";
import { sshPullTool } from "./ssh/ssh_pull_tool.ts";
import { sshPushTool } from "./ssh/ssh_push_tool.ts";
import { sshPullSmatTool } from "./ssh/ssh_pull_smat_tool.ts";
import { listSitesTool } from "./engine/list_sites_tool.ts";
import { ncThreadsTool } from "./engine/nc_threads_tool.ts";
import { ncShowTool } from "./engine/nc_show_tool.ts";
import { ncRoutesTool } from "./engine/nc_routes_tool.ts";
import { ncPathsTool } from "./engine/nc_paths_tool.ts";
import { ncRevisionsTool } from "./engine/nc_revisions_tool.ts";
import { ncDiffInterfaceTool } from "./engine/nc_diff_interface_tool.ts";
import { ncRefsTool } from "./engine/nc_refs_tool.ts";
import { ncDocsTool } from "./engine/nc_docs_tool.ts";
import { ncMsgsTool } from "./engine/nc_msgs_tool.ts";
import { ncRouteTestTool } from "./engine/nc_route_test_tool.ts";
import { ncRegressionTool } from "./engine/nc_regression_tool.ts";
import { hl7FieldTool } from "./hl7/hl7_field_tool.ts";
import { hl7DiffTool } from "./hl7/hl7_diff_tool.ts";
import { hl7ShowTool } from "./hl7/hl7_show_tool.ts";
import { phiScanTool } from "./phi/phi_scan_tool.ts";
import { phiSanitizeTool } from "./phi/phi_sanitize_tool.ts";

export const TOOLS: readonly ToolDef[] = [
  readFileTool,
  grepFilesTool,
  globFilesTool,
  listDirTool,
  bashExecTool,
  sshStatusTool,
  sshExecTool,
  sshPullTool,
  sshPushTool,
  sshPullSmatTool,
  listSitesTool,
  ncThreadsTool,
  ncShowTool,
  ncRoutesTool,
  ncPathsTool,
  ncRevisionsTool,
  ncDiffInterfaceTool,
  ncRefsTool,
  ncDocsTool,
  ncMsgsTool,
  ncRouteTestTool,
  ncRegressionTool,
  hl7FieldTool,
  hl7DiffTool,
  hl7ShowTool,
  phiScanTool,
  phiSanitizeTool,
];

/** The tool of that name, or undefined. */
export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}
