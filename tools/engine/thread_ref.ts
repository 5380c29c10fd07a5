/**
 * The one way every engine tool names a thread: `site thread` (two words), `thread.site`, or
 * `thread` alone, which is found in whichever site has it when that is unique (the candidate sites
 * are named when it is not). `$HCISITE` is the default site: a thread alone is looked for there
 * first, and no name at all means that site (else the only site).
 *
 * By hand the site is the first positional, so `nc_show adt_in.adt` and `nc_show adt_in` arrive as
 * a "site" that names no site: such a word is taken as the thread.
 *
 * @module
 */
import type { NcEntry, NetConfig } from "./netconfig/mod.ts";
import type { Engine } from "./engine.ts";
import type { Site } from "./sites.ts";
import { EngineInputError } from "./errors.ts";
import { closestNames } from "../../core/suggest.ts";

/** What a thread name may name: a protocol only, or also a destination or process record. */
export type EntryKind = "thread" | "entry";

/** A resolved reference: the site, its NetConfig and (when one was named) the entry. */
export interface ThreadRef {
  site: Site;
  nc: NetConfig;
  entry?: NcEntry;
}

/** A thread name split from its site: `adt_in.adt` → thread adt_in, site adt (when adt is a site). */
export interface ThreadName {
  thread: string;
  site?: string;
}

const clean = (v: string | undefined) => v === undefined || v.trim() === "" ? undefined : v.trim();

function siteNamed(sites: readonly Site[], name: string): Site | undefined {
  return sites.find((s) => s.name === name) ?? sites.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

/** Whether `name` names a site of the engine root (exact, then case-insensitive). */
export async function namesSite(engine: Engine, name: string): Promise<boolean> {
  return siteNamed((await engine.sites()).sites, name.trim()) !== undefined;
}

/**
 * Splits `thread.site` when the part after the last dot names a site of the engine root, and
 * `site/thread` (as the tools' own output writes a thread of a site) when the part before the
 * slash does; `site` given apart must then agree. A name whose suffix is no site is kept whole.
 */
export async function splitThreadName(
  engine: Engine,
  spec: string,
  site: string | undefined,
): Promise<ThreadName> {
  let name = spec.trim();
  const given = clean(site);
  const slash = name.indexOf("/");
  if (slash > 0 && slash < name.length - 1 && name.indexOf("/", slash + 1) === -1) {
    const hit = siteNamed((await engine.sites()).sites, name.slice(0, slash));
    // Read as `thread.site` below, so both forms agree on every check.
    if (hit) name = `${name.slice(slash + 1)}.${hit.name}`;
  }
  const dot = name.lastIndexOf(".");
  if (dot > 0 && dot < name.length - 1) {
    const suffix = name.slice(dot + 1);
    const hit = siteNamed((await engine.sites()).sites, suffix);
    if (hit) {
      if (given !== undefined && given.toLowerCase() !== hit.name.toLowerCase()) {
        throw new EngineInputError(
          "conflicting_site",
          `${name} names site ${hit.name}, but the site given is ${given}`,
          {
            thread: name.slice(0, dot),
            site: given,
          },
        );
      }
      return { thread: name.slice(0, dot), site: hit.name };
    }
  }
  return { thread: name, site: given };
}

/**
 * The site and thread a tool call names, from its `site` and `thread` inputs (either may hold
 * `thread.site`; a lone "site" that names no site is the thread). Without a thread: the site
 * (`$HCISITE`, else the only one). Throws EngineInputError: `unknown_thread` (with the closest
 * names), `ambiguous_thread` (with the candidate sites), `unknown_site`, `no_site`, `conflicting_site`.
 */
export async function resolveThread(
  engine: Engine,
  siteArg: string | undefined,
  threadArg: string | undefined,
  kind: EntryKind = "thread",
): Promise<ThreadRef> {
  let site = clean(siteArg);
  let thread = clean(threadArg);
  let oneWord = false;
  if (thread === undefined && site !== undefined) {
    const sites = (await engine.sites()).sites;
    if (!siteNamed(sites, site)) {
      // `tool adt_in.adt` or `tool adt_in`: the one word is the thread.
      thread = site;
      site = undefined;
      oneWord = true;
    }
  }
  if (thread === undefined) return await engine.load(site);
  const named = await splitThreadName(engine, thread, site);
  if (named.site !== undefined) {
    const loaded = await engine.load(named.site);
    return { ...loaded, entry: requireIn(loaded.nc, named.thread, loaded.site.name, kind) };
  }
  try {
    return await findAnywhere(engine, named.thread, kind);
  } catch (err) {
    if (!oneWord || !(err instanceof EngineInputError) || err.kind !== "unknown_thread") throw err;
    // The one word named neither a site nor a thread: say both, with the sites to choose from.
    const sites = (await engine.sites()).sites.map((s) => s.name);
    const near = [
      ...new Set([...closestNames(named.thread, sites), ...(err.extra.suggestions as string[] ?? [])]),
    ];
    throw new EngineInputError(
      "unknown_thread",
      `no site or ${what(kind)} "${named.thread}" under ${engine.root} (sites: ${
        sites.join(", ") || "none found"
      })${near.length ? `; did you mean ${near.join(", ")}?` : ""}`,
      { thread: named.thread, sites, ...(near.length ? { suggestions: near } : {}) },
    );
  }
}

/**
 * By hand `tool X Y` where X names no site is read as thread X followed by Y (nc_show's key path).
 * When X is no thread either but Y is one, X was meant as a site: the error says "no site X"
 * with the sites to choose from (unknown_site), not that no site has a thread X.
 */
export async function resolveShifted(
  engine: Engine,
  first: string,
  second: string,
  kind: EntryKind = "thread",
): Promise<ThreadRef> {
  try {
    return await resolveThread(engine, undefined, first, kind);
  } catch (err) {
    if (!(err instanceof EngineInputError) || err.kind !== "unknown_thread") throw err;
    const secondIsThread = await resolveThread(engine, undefined, second, kind).then(
      () => true,
      (e) => e instanceof EngineInputError && e.kind === "ambiguous_thread",
    );
    if (secondIsThread) await engine.site(first); // throws unknown_site, naming the sites
    throw err;
  }
}

/** A thread alone: in `$HCISITE` when that site has it, else in the one site that has it. */
async function findAnywhere(engine: Engine, name: string, kind: EntryKind): Promise<ThreadRef> {
  const home = engine.defaultSiteName();
  if (home !== undefined) {
    const sites = (await engine.sites()).sites;
    if (siteNamed(sites, home)) {
      const loaded = await engine.load(home).catch(() => undefined);
      const entry = loaded && lookup(loaded.nc, name, kind);
      if (loaded && entry) return { ...loaded, entry };
    }
  }
  const { loaded, skipped } = await engine.loadAll();
  const hits = loaded.flatMap((l) => {
    const entry = lookup(l.nc, name, kind);
    return entry ? [{ ...l, entry }] : [];
  });
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) {
    const names = hits.map((h) => h.site.name);
    throw new EngineInputError(
      "ambiguous_thread",
      `${what(kind)} "${name}" is in sites ${names.join(", ")}: name one (${name}.${names[0]} or ${
        names[0]
      } ${name})`,
      { thread: name, sites: names },
    );
  }
  if (loaded.length === 1 && skipped.length === 0) {
    throw unknownIn(loaded[0].nc, name, loaded[0].site.name, kind);
  }
  const near = closestNames(name, loaded.flatMap((l) => candidates(l.nc, kind).map((e) => e.name)));
  const unread = skipped.length ? ` (unreadable: ${skipped.map((s) => s.site).join(", ")})` : "";
  const hint = near.length ? `; did you mean ${[...new Set(near)].join(", ")}?` : "";
  throw new EngineInputError(
    "unknown_thread",
    `no site has a ${what(kind)} "${name}"${unread}${hint}`,
    { thread: name, ...(near.length ? { suggestions: [...new Set(near)] } : {}) },
  );
}

function what(kind: EntryKind): string {
  return kind === "thread" ? "thread" : "thread, destination or process";
}

function lookup(nc: NetConfig, name: string, kind: EntryKind): NcEntry | undefined {
  return kind === "thread" ? nc.protocol(name) : nc.find(name);
}

function candidates(nc: NetConfig, kind: EntryKind): NcEntry[] {
  return nc.entries.filter((e) => kind === "entry" || e.type === "protocol");
}

function requireIn(nc: NetConfig, name: string, site: string, kind: EntryKind): NcEntry {
  const hit = lookup(nc, name, kind);
  if (hit) return hit;
  throw unknownIn(nc, name, site, kind);
}

function unknownIn(nc: NetConfig, name: string, site: string, kind: EntryKind): EngineInputError {
  const near = closestNames(name, candidates(nc, kind).map((e) => e.name));
  const hint = near.length ? `; did you mean ${near.join(", ")}?` : "";
  // `where` is a site name, or a phrase naming a file (`the NetConfig /tmp/NetConfig.bak`).
  const place = site.startsWith("the ") ? site : `site ${site}`;
  return new EngineInputError("unknown_thread", `no ${what(kind)} "${name}" in ${place}${hint}`, {
    site,
    thread: name,
    ...(near.length ? { suggestions: near } : {}),
  });
}

/**
 * A thread (kind "thread") or any record (kind "entry") of one NetConfig by name; throws
 * `unknown_thread` naming the closest names. `where` names the site or file in the message.
 */
export function requireEntryIn(
  nc: NetConfig,
  name: string,
  where: string,
  kind: EntryKind = "thread",
): NcEntry {
  return requireIn(nc, name, where, kind);
}
