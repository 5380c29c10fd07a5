/**
 * Finding a thread (or destination, or process) of a site by name, with the error an operator can
 * act on: the names that come closest.
 *
 * @module
 */
import type { NcEntry, NetConfig } from "../netconfig/mod.ts";
import { EngineInputError } from "../errors.ts";
import { closestNames } from "../../../core/suggest.ts";

/** A protocol (thread) of the site; throws `unknown_thread` naming the closest names. */
export function requireThread(nc: NetConfig, name: string, site: string): NcEntry {
  const hit = nc.protocol(name);
  if (hit) return hit;
  throw unknown(nc, name, site, "thread");
}

/** A protocol, destination or process of the site. */
export function requireEntry(nc: NetConfig, name: string, site: string): NcEntry {
  const hit = nc.find(name);
  if (hit) return hit;
  throw unknown(nc, name, site, "thread, destination or process");
}

function unknown(nc: NetConfig, name: string, site: string, what: string): EngineInputError {
  const near = closestNames(
    name,
    nc.entries.filter((e) => e.type !== "process" || what !== "thread").map((e) => e.name),
  );
  const hint = near.length ? `; did you mean ${near.join(", ")}?` : "";
  return new EngineInputError("unknown_thread", `no ${what} "${name}" in site ${site}${hint}`, {
    site,
    thread: name,
    ...(near.length ? { suggestions: near } : {}),
  });
}

/**
 * Splits `<thread>[.<site>]` (the thread names of the spec's nc_revisions); a site given apart wins
 * over none, and both given must agree.
 */
export function threadAndSite(spec: string, site: string | undefined): { thread: string; site?: string } {
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
