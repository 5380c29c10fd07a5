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
  /**
   * The body. Each declares its input as `InputOf<typeof def>` (tools/types.ts), which is what
   * `validateInput(def, ...)` returns (tools/args.ts); every caller validates first, so the table
   * can hold the bodies under one signature (a method, whose parameter may be the narrower type).
   */
  run(input: ToolInput, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * Tool name → its body module (`run/<name>.ts`, which re-exports the definition). Each entry is a
 * literal lazy load, so the layer test reads where it goes; the test of this table loads through it.
 */
const BODIES = {
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
} satisfies Record<string, () => Promise<LoadedTool>>;

/** Each body module's own type, by tool name (tests/tools/input_types.test.ts checks each `run`). */
export type ToolBodies = typeof BODIES;

/** The table under one signature, for lookup by any name. */
export const TOOL_BODIES: Readonly<Record<string, () => Promise<LoadedTool>>> = BODIES;

/** Every tool name, in the registry's order. */
export const TOOL_NAMES: readonly string[] = Object.keys(TOOL_BODIES);

/** The tool of that name, its definition (the registry's own object) and body; or undefined. */
export function loadTool(name: string): Promise<LoadedTool | undefined> {
  return Object.hasOwn(TOOL_BODIES, name) ? TOOL_BODIES[name]() : Promise.resolve(undefined);
}

/** Runs a tool of the registry on a validated input: loads its body (once per process) and calls it. */
export async function runTool(def: ToolDef, input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  const tool = await loadTool(def.name);
  if (!tool) throw new Error(`no body for tool ${def.name}`);
  return await tool.run(input, ctx);
}
