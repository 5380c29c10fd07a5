/**
 * Where each tool's body lives, and loading it: the one table from tool name to body module
 * (`run/<name>.ts`), in the registry's order (tests/tools/by_name.test.ts holds the two equal).
 * Definitions (`<name>_tool.ts`) know nothing of their bodies; a body imports and re-exports its
 * definition, so one load gives both and no module imports its own importer (docs/ARCHITECTURE.md,
 * "Rules"). The agent loop, `assist tools <name>` and the tool-backed slash commands all run a tool
 * through {@link runTool}, which loads only that one body.
 */
import { lazy } from "../core/lazy.ts";
import type { ToolContext, ToolDef, ToolInput, ToolResult } from "./types.ts";

/** A tool's definition and its body. */
export interface LoadedTool {
  def: ToolDef;
  run: (input: ToolInput, ctx: ToolContext) => Promise<ToolResult>;
}

/** Tool name → its body module, relative to this folder. */
export const TOOL_BODIES: Readonly<Record<string, string>> = {
  read_file: "./files/run/read_file.ts",
  grep_files: "./files/run/grep_files.ts",
  glob_files: "./files/run/glob_files.ts",
  list_dir: "./files/run/list_dir.ts",
  bash_exec: "./bash/run/bash_exec.ts",
  ssh_status: "./ssh/run/ssh_status.ts",
  ssh_exec: "./ssh/run/ssh_exec.ts",
  ssh_pull: "./ssh/run/ssh_pull.ts",
  ssh_push: "./ssh/run/ssh_push.ts",
  ssh_pull_smat: "./ssh/run/ssh_pull_smat.ts",
  list_sites: "./engine/run/list_sites.ts",
  nc_threads: "./engine/run/nc_threads.ts",
  nc_show: "./engine/run/nc_show.ts",
  nc_routes: "./engine/run/nc_routes.ts",
  nc_paths: "./engine/run/nc_paths.ts",
  nc_revisions: "./engine/run/nc_revisions.ts",
  nc_diff_interface: "./engine/run/nc_diff_interface.ts",
  nc_refs: "./engine/run/nc_refs.ts",
  nc_docs: "./engine/run/nc_docs.ts",
  nc_msgs: "./engine/run/nc_msgs.ts",
  nc_route_test: "./engine/run/nc_route_test.ts",
  nc_regression: "./engine/run/nc_regression.ts",
  hl7_field: "./hl7/run/hl7_field.ts",
  hl7_diff: "./hl7/run/hl7_diff.ts",
  hl7_show: "./hl7/run/hl7_show.ts",
  phi_scan: "./phi/run/phi_scan.ts",
  phi_sanitize: "./phi/run/phi_sanitize.ts",
};

/** Every tool name, in the registry's order. */
export const TOOL_NAMES: readonly string[] = Object.keys(TOOL_BODIES);

/** The tool of that name, its definition (the registry's own object) and body; or undefined. */
export function loadTool(name: string): Promise<LoadedTool | undefined> {
  if (!Object.hasOwn(TOOL_BODIES, name)) return Promise.resolve(undefined);
  return lazy<LoadedTool>(import.meta.url, TOOL_BODIES[name]);
}

/** Runs a tool of the registry: loads its body (once per process) and calls it. */
export async function runTool(def: ToolDef, input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const tool = await loadTool(def.name);
  if (!tool) throw new Error(`no body for tool ${def.name}`);
  return await tool.run(input, ctx);
}
