/**
 * One tool's definition by name, without loading the others: `assist tools <name>` loads only the
 * definition it runs (and that definition loads only its own body), where tools/registry.ts loads
 * all of them for the model's tool list and `tools list`. The names and order here are the
 * registry's (tests/tools/by_name.test.ts holds them equal), so no tool is described twice.
 */
import { lazy } from "../core/lazy.ts";
import type { ToolDef } from "./types.ts";

const LOADERS: Readonly<Record<string, () => Promise<ToolDef>>> = {
  read_file: async () =>
    (await lazy<typeof import("./files/read_file_tool.ts")>(import.meta.url, "./files/read_file_tool.ts"))
      .readFileTool,
  grep_files: async () =>
    (await lazy<typeof import("./files/grep_files_tool.ts")>(import.meta.url, "./files/grep_files_tool.ts"))
      .grepFilesTool,
  glob_files: async () =>
    (await lazy<typeof import("./files/glob_files_tool.ts")>(import.meta.url, "./files/glob_files_tool.ts"))
      .globFilesTool,
  list_dir: async () =>
    (await lazy<typeof import("./files/list_dir_tool.ts")>(import.meta.url, "./files/list_dir_tool.ts"))
      .listDirTool,
  bash_exec: async () =>
    (await lazy<typeof import("./bash/bash_exec_tool.ts")>(import.meta.url, "./bash/bash_exec_tool.ts"))
      .bashExecTool,
  ssh_status: async () =>
    (await lazy<typeof import("./ssh/ssh_status_tool.ts")>(import.meta.url, "./ssh/ssh_status_tool.ts"))
      .sshStatusTool,
  ssh_exec: async () =>
    (await lazy<typeof import("./ssh/ssh_exec_tool.ts")>(import.meta.url, "./ssh/ssh_exec_tool.ts"))
      .sshExecTool,
  ssh_pull: async () =>
    (await lazy<typeof import("./ssh/ssh_pull_tool.ts")>(import.meta.url, "./ssh/ssh_pull_tool.ts"))
      .sshPullTool,
  ssh_push: async () =>
    (await lazy<typeof import("./ssh/ssh_push_tool.ts")>(import.meta.url, "./ssh/ssh_push_tool.ts"))
      .sshPushTool,
  ssh_pull_smat: async () =>
    (await lazy<typeof import("./ssh/ssh_pull_smat_tool.ts")>(import.meta.url, "./ssh/ssh_pull_smat_tool.ts"))
      .sshPullSmatTool,
  list_sites: async () =>
    (await lazy<typeof import("./engine/list_sites_tool.ts")>(import.meta.url, "./engine/list_sites_tool.ts"))
      .listSitesTool,
  nc_threads: async () =>
    (await lazy<typeof import("./engine/nc_threads_tool.ts")>(import.meta.url, "./engine/nc_threads_tool.ts"))
      .ncThreadsTool,
  nc_show: async () =>
    (await lazy<typeof import("./engine/nc_show_tool.ts")>(import.meta.url, "./engine/nc_show_tool.ts"))
      .ncShowTool,
  nc_routes: async () =>
    (await lazy<typeof import("./engine/nc_routes_tool.ts")>(import.meta.url, "./engine/nc_routes_tool.ts"))
      .ncRoutesTool,
  nc_paths: async () =>
    (await lazy<typeof import("./engine/nc_paths_tool.ts")>(import.meta.url, "./engine/nc_paths_tool.ts"))
      .ncPathsTool,
  nc_revisions: async () =>
    (await lazy<typeof import("./engine/nc_revisions_tool.ts")>(
      import.meta.url,
      "./engine/nc_revisions_tool.ts",
    )).ncRevisionsTool,
  nc_diff_interface: async () =>
    (await lazy<typeof import("./engine/nc_diff_interface_tool.ts")>(
      import.meta.url,
      "./engine/nc_diff_interface_tool.ts",
    )).ncDiffInterfaceTool,
  nc_refs: async () =>
    (await lazy<typeof import("./engine/nc_refs_tool.ts")>(import.meta.url, "./engine/nc_refs_tool.ts"))
      .ncRefsTool,
  nc_docs: async () =>
    (await lazy<typeof import("./engine/nc_docs_tool.ts")>(import.meta.url, "./engine/nc_docs_tool.ts"))
      .ncDocsTool,
  nc_msgs: async () =>
    (await lazy<typeof import("./engine/nc_msgs_tool.ts")>(import.meta.url, "./engine/nc_msgs_tool.ts"))
      .ncMsgsTool,
  nc_route_test: async () =>
    (await lazy<typeof import("./engine/nc_route_test_tool.ts")>(
      import.meta.url,
      "./engine/nc_route_test_tool.ts",
    ))
      .ncRouteTestTool,
  nc_regression: async () =>
    (await lazy<typeof import("./engine/nc_regression_tool.ts")>(
      import.meta.url,
      "./engine/nc_regression_tool.ts",
    ))
      .ncRegressionTool,
  hl7_field: async () =>
    (await lazy<typeof import("./hl7/hl7_field_tool.ts")>(import.meta.url, "./hl7/hl7_field_tool.ts"))
      .hl7FieldTool,
  hl7_diff: async () =>
    (await lazy<typeof import("./hl7/hl7_diff_tool.ts")>(import.meta.url, "./hl7/hl7_diff_tool.ts"))
      .hl7DiffTool,
  hl7_show: async () =>
    (await lazy<typeof import("./hl7/hl7_show_tool.ts")>(import.meta.url, "./hl7/hl7_show_tool.ts"))
      .hl7ShowTool,
  phi_scan: async () =>
    (await lazy<typeof import("./phi/phi_scan_tool.ts")>(import.meta.url, "./phi/phi_scan_tool.ts"))
      .phiScanTool,
  phi_sanitize: async () =>
    (await lazy<typeof import("./phi/phi_sanitize_tool.ts")>(import.meta.url, "./phi/phi_sanitize_tool.ts"))
      .phiSanitizeTool,
};

/** Every tool name, in the registry's order. */
export const TOOL_NAMES: readonly string[] = Object.keys(LOADERS);

/** The definition of the tool of that name (the registry's own object), or undefined. */
export function loadTool(name: string): Promise<ToolDef | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]() : Promise.resolve(undefined);
}
