/**
 * The thread arguments of the route-test tools, read in one place: `<thread>[.<site>]` with an
 * optional `--site`. nc_route_test resolves its start thread on the engine itself with
 * tools/engine/thread_ref.ts (a thread alone is found in whichever site has it); nc_regression
 * reads its scope here, before either host is reached.
 *
 * @module
 */
import { EngineInputError } from "../errors.ts";

/** `thread.site` split at its last dot (a site given apart must agree), else the name as is. */
function threadAndSite(spec: string, site: string | undefined): { thread: string; site?: string } {
  const dot = spec.lastIndexOf(".");
  if (dot > 0 && dot < spec.length - 1) {
    const s = spec.slice(dot + 1);
    if (site !== undefined && site !== "" && site.toLowerCase() !== s.toLowerCase()) {
      throw new EngineInputError("conflicting_site", `${spec} names site ${s}, but --site says ${site}`);
    }
    return { thread: spec.slice(0, dot), site: s };
  }
  return { thread: spec, site: site === "" ? undefined : site };
}

/** The optional scope of nc_regression: a thread (with its site) or a site, or everything. */
export function regressionScope(
  input: { thread?: string; site?: string },
): { thread?: string; site?: string } {
  const t = input.thread?.trim();
  const site = input.site?.trim() || undefined;
  if (!t) return { site };
  return threadAndSite(t, site);
}
