/**
 * Finding a thread (or destination, or process) of a site by name, with the error an operator can
 * act on: the names that come closest.
 *
 * @module
 */
import type { NcEntry, NetConfig } from "../netconfig/mod.ts";
import { EngineInputError } from "../engine.ts";

function closest(name: string, candidates: string[]): string[] {
  const n = name.toLowerCase();
  const scored = candidates.map((c) => {
    const l = c.toLowerCase();
    const d = l.includes(n) || n.includes(l) ? 0 : distance(n, l);
    return { c, d };
  });
  return scored.filter((s) => s.d <= Math.max(2, Math.floor(name.length / 3))).sort((a, b) =>
    a.d - b.d || (a.c < b.c ? -1 : 1)
  )
    .slice(0, 3).map((s) => s.c);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

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
  const near = closest(
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
