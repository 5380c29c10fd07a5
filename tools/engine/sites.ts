/**
 * The sites of an engine root (research/cloverleaf.md 2.2, 2.4): `$HCIROOT/server/server.ini` lists
 * them in one `environs=` line (`;`-separated site folders; the site name is the last component); a
 * root without it (or without that line) is searched for `$HCIROOT/<site>/NetConfig`. A listed folder
 * that does not exist on this host (a root copied or mounted elsewhere) is looked for under the root
 * by its name. `siteInfo` (`key=value` lines) gives the release and description.
 *
 * @module
 */
import type { EngineFs, EngineStat } from "./engine_fs.ts";
import { stripCr } from "../../core/clean.ts";

export interface Site {
  name: string;
  /** The site folder on the engine host. */
  dir: string;
  /** The folder as server.ini lists it, when it came from there. */
  listed?: string;
  /** Whether `<dir>/NetConfig` exists. */
  hasNetConfig: boolean;
}

export interface SiteList {
  root: string;
  /** `server.ini` (environs line) or `walk` (folders holding a NetConfig). */
  source: "server.ini" | "walk";
  sites: Site[];
  /** Things an operator should know (a listed site that is missing, a remapped folder). */
  notes: string[];
}

/**
 * The folders of the `environs=` line of server.ini text; empty when there is none.
 *
 * @example
 * ```ts
 * parseEnvirons("[exports]\nenvirons=/hci/i/adt;/hci/i/lab\n"); // ["/hci/i/adt", "/hci/i/lab"]
 * ```
 */
export function parseEnvirons(text: string): string[] | undefined {
  for (const raw of stripCr(text).split("\n")) {
    const m = raw.match(/^\s*environs\s*=(.*)$/i);
    if (!m) continue;
    return m[1].split(";").map((s) => s.trim()).filter((s) => s !== "");
  }
  return undefined;
}

/** The last component of a site path, either separator (Infor's NCFG:siteNames does the same). */
export function siteNameOf(path: string): string {
  return path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? path;
}

/**
 * `key=value` lines of a siteInfo file (`#` comments skipped, surrounding quotes removed).
 *
 * @example
 * ```ts
 * parseSiteInfo('releasenum=20.1\nsitedescription="ADT feeds"\n').get("sitedescription"); // "ADT feeds"
 * ```
 */
export function parseSiteInfo(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of stripCr(text).split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    let v = line.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    out.set(line.slice(0, eq).trim().toLowerCase(), v);
  }
  return out;
}

/** Is `path` the root or inside it (either separator, trailing separators ignored)? */
export function isUnder(path: string, root: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/\/+$/, "");
  const p = norm(path), r = norm(root);
  return p === r || p.startsWith(r + "/");
}

/** Lists the sites of an engine root. */
export async function listSites(fs: EngineFs, root: string): Promise<SiteList> {
  const notes: string[] = [];
  const ini = fs.join(root, "server", "server.ini");
  let environs: string[] | undefined;
  if (await fs.exists(ini)) environs = parseEnvirons(await fs.readText(ini));
  if (environs !== undefined) {
    const sites: Site[] = [];
    const seen = new Set<string>();
    for (const listed of environs) {
      const name = siteNameOf(listed);
      if (seen.has(name)) continue;
      seen.add(name);
      // A listed folder outside this root (a copied or mounted root whose server.ini still names the
      // original) gives way to the root's own folder of that name, when there is one.
      const local = fs.join(root, name);
      let dir = listed;
      let st: EngineStat | undefined;
      if (!isUnder(listed, root)) {
        const lst = await fs.stat(local).catch(() => undefined);
        if (lst?.isDirectory) {
          notes.push(`site ${name}: server.ini lists ${listed}, outside ${root}; using ${local}`);
          dir = local;
          st = lst;
        }
      }
      if (!st) {
        st = await fs.stat(dir).catch(() => undefined);
        if (!st?.isDirectory && dir !== local) {
          const lst = await fs.stat(local).catch(() => undefined);
          if (lst?.isDirectory) {
            notes.push(`site ${name}: ${listed} not found; using ${local}`);
            dir = local;
            st = lst;
          }
        }
        if (!st?.isDirectory) {
          notes.push(`site ${name}: listed in server.ini as ${listed}, but no such folder`);
        }
      }
      const hasNetConfig = st?.isDirectory
        ? await fs.exists(fs.join(dir, "NetConfig")).catch(() => false)
        : false;
      sites.push({ name, dir, listed, hasNetConfig });
    }
    return { root, source: "server.ini", sites, notes };
  }
  const sites: Site[] = [];
  for (const e of await fs.list(root)) {
    if (!e.isDirectory) continue;
    const dir = fs.join(root, e.name);
    const st = await fs.stat(fs.join(dir, "NetConfig")).catch(() => undefined);
    if (st?.isFile) sites.push({ name: e.name, dir, hasNetConfig: true });
  }
  return { root, source: "walk", sites, notes };
}

/** A site's siteInfo, or undefined when it has none. */
export async function readSiteInfo(fs: EngineFs, site: Site): Promise<Map<string, string> | undefined> {
  const path = fs.join(site.dir, "siteInfo");
  if (!(await fs.exists(path).catch(() => false))) return undefined;
  return parseSiteInfo(await fs.readText(path));
}
