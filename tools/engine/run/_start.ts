/**
 * The thread arguments of the route-test tools, read in one place: `<thread>[.<site>]` with an
 * optional `--site` (the same reading as nc_revisions and nc_diff_interface, ./_lookup.ts), so a
 * change of the thread naming across engine tools is one change here.
 *
 * @module
 */
import type { ToolInput } from "../../types.ts";
import { threadAndSite } from "./_lookup.ts";

/** The start thread and its site (undefined: $HCISITE or the only site) of a tool call. */
export function startThread(input: ToolInput): { thread: string; site?: string } {
  return threadAndSite(String(input.thread ?? "").trim(), (input.site as string | undefined)?.trim());
}

/** The optional scope of nc_regression: a thread (with its site) or a site, or everything. */
export function regressionScope(input: ToolInput): { thread?: string; site?: string } {
  const t = (input.thread as string | undefined)?.trim();
  const site = (input.site as string | undefined)?.trim() || undefined;
  if (!t) return { site };
  return threadAndSite(t, site);
}
