/**
 * One tool by name, without loading the others: `assist tools <name>` loads only the tool it runs,
 * where tools/registry.ts loads every definition for the model's tool list and `tools list`. Each
 * loader imports the tool's body (run/<name>.ts), which re-exports its definition, so one module
 * graph load gives both: a definition's own `run` would load the body a second time (every dynamic
 * import is a graph load of its own, about a millisecond at start-up). The names and order here are
 * the registry's (tests/tools/by_name.test.ts holds them equal), so no tool is described twice.
 */
import { lazy } from "../core/lazy.ts";
import type { ToolContext, ToolDef, ToolInput, ToolResult } from "./types.ts";

/** A tool's definition and the body its `run` would load. */
export interface LoadedTool {
  def: ToolDef;
  run: (input: ToolInput, ctx: ToolContext) => Promise<ToolResult>;
}

const LOADERS: Readonly<Record<string, () => Promise<LoadedTool>>> = {
  read_file: () =>
    lazy<typeof import("./files/run/read_file.ts")>(import.meta.url, "./files/run/read_file.ts"),
  grep_files: () =>
    lazy<typeof import("./files/run/grep_files.ts")>(import.meta.url, "./files/run/grep_files.ts"),
  glob_files: () =>
    lazy<typeof import("./files/run/glob_files.ts")>(import.meta.url, "./files/run/glob_files.ts"),
  list_dir: () => lazy<typeof import("./files/run/list_dir.ts")>(import.meta.url, "./files/run/list_dir.ts"),
  bash_exec: () => lazy<typeof import("./bash/run/bash_exec.ts")>(import.meta.url, "./bash/run/bash_exec.ts"),
  ssh_status: () =>
    lazy<typeof import("./ssh/run/ssh_status.ts")>(import.meta.url, "./ssh/run/ssh_status.ts"),
  ssh_exec: () => lazy<typeof import("./ssh/run/ssh_exec.ts")>(import.meta.url, "./ssh/run/ssh_exec.ts"),
  ssh_pull: () => lazy<typeof import("./ssh/run/ssh_pull.ts")>(import.meta.url, "./ssh/run/ssh_pull.ts"),
  ssh_push: () => lazy<typeof import("./ssh/run/ssh_push.ts")>(import.meta.url, "./ssh/run/ssh_push.ts"),
  ssh_pull_smat: () =>
    lazy<typeof import("./ssh/run/ssh_pull_smat.ts")>(import.meta.url, "./ssh/run/ssh_pull_smat.ts"),
  list_sites: () =>
    lazy<typeof import("./engine/run/list_sites.ts")>(import.meta.url, "./engine/run/list_sites.ts"),
  nc_threads: () =>
    lazy<typeof import("./engine/run/nc_threads.ts")>(import.meta.url, "./engine/run/nc_threads.ts"),
  nc_show: () => lazy<typeof import("./engine/run/nc_show.ts")>(import.meta.url, "./engine/run/nc_show.ts"),
  nc_routes: () =>
    lazy<typeof import("./engine/run/nc_routes.ts")>(import.meta.url, "./engine/run/nc_routes.ts"),
  nc_paths: () =>
    lazy<typeof import("./engine/run/nc_paths.ts")>(import.meta.url, "./engine/run/nc_paths.ts"),
  nc_revisions: () =>
    lazy<typeof import("./engine/run/nc_revisions.ts")>(import.meta.url, "./engine/run/nc_revisions.ts"),
  nc_diff_interface: () =>
    lazy<typeof import("./engine/run/nc_diff_interface.ts")>(
      import.meta.url,
      "./engine/run/nc_diff_interface.ts",
    ),
  nc_refs: () => lazy<typeof import("./engine/run/nc_refs.ts")>(import.meta.url, "./engine/run/nc_refs.ts"),
  nc_docs: () => lazy<typeof import("./engine/run/nc_docs.ts")>(import.meta.url, "./engine/run/nc_docs.ts"),
  nc_msgs: () => lazy<typeof import("./engine/run/nc_msgs.ts")>(import.meta.url, "./engine/run/nc_msgs.ts"),
  nc_route_test: () =>
    lazy<typeof import("./engine/run/nc_route_test.ts")>(import.meta.url, "./engine/run/nc_route_test.ts"),
  nc_regression: () =>
    lazy<typeof import("./engine/run/nc_regression.ts")>(import.meta.url, "./engine/run/nc_regression.ts"),
  hl7_field: () => lazy<typeof import("./hl7/run/hl7_field.ts")>(import.meta.url, "./hl7/run/hl7_field.ts"),
  hl7_diff: () => lazy<typeof import("./hl7/run/hl7_diff.ts")>(import.meta.url, "./hl7/run/hl7_diff.ts"),
  hl7_show: () => lazy<typeof import("./hl7/run/hl7_show.ts")>(import.meta.url, "./hl7/run/hl7_show.ts"),
  phi_scan: () => lazy<typeof import("./phi/run/phi_scan.ts")>(import.meta.url, "./phi/run/phi_scan.ts"),
  phi_sanitize: () =>
    lazy<typeof import("./phi/run/phi_sanitize.ts")>(import.meta.url, "./phi/run/phi_sanitize.ts"),
};

/** Every tool name, in the registry's order. */
export const TOOL_NAMES: readonly string[] = Object.keys(LOADERS);

/** The tool of that name, its definition (the registry's own object) and body; or undefined. */
export function loadTool(name: string): Promise<LoadedTool | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]() : Promise.resolve(undefined);
}
