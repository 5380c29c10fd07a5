/**
 * What every engine tool starts from: the engine root (`--hciroot`, else `HCIROOT`), the file access
 * seam for it (tools/engine/engine_fs.ts), its sites, and their parsed NetConfigs (cached per file
 * while the program runs, and re-read when the file's size or time changes).
 *
 * @module
 */
import { expandTilde } from "../../core/tilde.ts";
import { lazy } from "../../core/lazy.ts";
import { type EnvReader, readEnv } from "../../core/env.ts";
import { posix, win32 } from "../../core/path.ts";
import { stripCr } from "../../core/clean.ts";
import { type ToolContext, toolError, type ToolResult } from "../types.ts";
import { type EngineFs, EngineFsError, localEngineFs } from "./engine_fs.ts";
import { EngineInputError } from "./errors.ts";
import { listSites, type Site, type SiteList } from "./sites.ts";
import { type NetConfig, NetConfigError, parseNetConfig } from "./netconfig/mod.ts";

function clean(v: string | undefined): string | undefined {
  return v === undefined ? undefined : stripCr(v).trim() || undefined;
}

/** The engine root: the `hciroot` argument, else `$HCIROOT`; relative paths against the working folder. */
export function engineRoot(
  hciroot: string | undefined,
  ctx: ToolContext,
  env: EnvReader = readEnv,
): string {
  const given = hciroot !== undefined && hciroot.trim() !== ""
    ? stripCr(hciroot).trim()
    : clean(env("HCIROOT"));
  if (given === undefined) {
    throw new EngineInputError("no_engine_root", "no engine root: pass --hciroot <path> or set HCIROOT");
  }
  const lib = Deno.build.os === "windows" ? win32 : posix;
  return lib.resolve(ctx.cwd, expandTilde(given));
}

interface CacheEntry {
  size: number;
  mtimeMs?: number;
  nc: NetConfig;
}

const CACHE_LIMIT = 64;
const cache = new Map<string, CacheEntry>();

/** Forgets every cached NetConfig (benchmarks measure cold reads with it). */
export function clearNetConfigCache(): void {
  cache.clear();
}

/**
 * Reads and parses a NetConfig through the seam, from the cache when the file is unchanged.
 * Throws EngineFsError or NetConfigError.
 */
export async function loadNetConfig(fs: EngineFs, path: string, source: string): Promise<NetConfig> {
  const st = await fs.stat(path);
  if (!st) throw new EngineFsError("not_found", `no NetConfig at ${path}`, path);
  if (st.isDirectory) throw new EngineFsError("is_directory", `${path} is a folder, not a NetConfig`, path);
  const key = `${fs.label}\0${path}`;
  const hit = cache.get(key);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.nc.source === source) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.nc;
  }
  const nc = parseNetConfig(await fs.readText(path), { source });
  cache.set(key, { size: st.size, mtimeMs: st.mtimeMs, nc });
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return nc;
}

export interface LoadedSite {
  site: Site;
  nc: NetConfig;
}

/**
 * One engine root as the tools see it.
 *
 * @example
 * ```ts
 * import type { ToolContext } from "../types.ts";
 * declare const input: { hciroot?: string; site?: string }, ctx: ToolContext;
 * const engine = openEngine(input.hciroot, ctx);
 * const { site, nc } = await engine.load(input.site);
 * ```
 */
export class Engine {
  readonly fs: EngineFs;
  readonly root: string;
  readonly #env: EnvReader;
  #sites: Promise<SiteList> | undefined;

  constructor(fs: EngineFs, root: string, env: EnvReader = readEnv) {
    this.fs = fs;
    this.root = root;
    this.#env = env;
  }

  sites(): Promise<SiteList> {
    return this.#sites ??= (async () => {
      const st = await this.fs.stat(this.root);
      if (!st?.isDirectory) {
        throw new EngineInputError("no_engine_root", `engine root ${this.root} is not a folder`, {
          hciroot: this.root,
        });
      }
      const list = await listSites(this.fs, this.root);
      if (list.sites.length === 0 && list.source === "walk") {
        // No server.ini environs and no site folder: the operator pointed at some other folder.
        const own = await this.fs.stat(this.fs.join(this.root, "NetConfig"));
        const hint = own && !own.isDirectory
          ? `; it holds a NetConfig, so it is a site folder: its engine root is probably the folder above`
          : "";
        throw new EngineInputError(
          "not_engine_root",
          `${this.root} is no engine root: it has no server/server.ini and no site folder with a NetConfig${hint}`,
          { hciroot: this.root },
        );
      }
      return list;
    })();
  }

  /**
   * A variable of the engine host's login (`TZ`, `ZONE`: the host's `/etc/localtime` zone; only
   * HCIROOT, HCISITE, TZ and ZONE are known for an SSH alias), or this process's for a local root.
   */
  hostVar(name: string): string | undefined {
    return clean(this.#env(name));
  }

  /** The engine root is on this machine (not reached over SSH). */
  get isLocal(): boolean {
    return this.fs.label === "local";
  }

  /** `$HCISITE` as this engine sees it (the remote login's on an SSH alias), or undefined. */
  defaultSiteName(): string | undefined {
    return clean(this.#env("HCISITE"));
  }

  /**
   * A site by name (exact, then case-insensitive); without a name, `$HCISITE`, else the only site.
   */
  async site(name?: string): Promise<Site> {
    const list = await this.sites();
    const names = list.sites.map((s) => s.name);
    const wanted = name !== undefined && name.trim() !== "" ? name.trim() : clean(this.#env("HCISITE"));
    if (wanted === undefined) {
      if (list.sites.length === 1) return list.sites[0];
      throw new EngineInputError(
        "no_site",
        `which site? name one (sites: ${names.join(", ") || "none found"}), or set HCISITE`,
        { sites: names },
      );
    }
    const hit = list.sites.find((s) => s.name === wanted) ??
      list.sites.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
    if (!hit) {
      throw new EngineInputError(
        "unknown_site",
        `no site "${wanted}" under ${this.root} (sites: ${names.join(", ") || "none found"})`,
        { site: wanted, sites: names },
      );
    }
    return hit;
  }

  /** The NetConfig path of a site. */
  netConfigPath(site: Site): string {
    return this.fs.join(site.dir, "NetConfig");
  }

  /** A site and its parsed NetConfig. */
  async load(name?: string): Promise<LoadedSite> {
    const site = await this.site(name);
    return { site, nc: await loadNetConfig(this.fs, this.netConfigPath(site), `${site.name}/NetConfig`) };
  }

  /**
   * Every site with a NetConfig, parsed. A site whose NetConfig cannot be read is left out and named
   * in `skipped` with the reason, so one broken site does not hide the others.
   */
  async loadAll(): Promise<{ loaded: LoadedSite[]; skipped: Array<{ site: string; reason: string }> }> {
    const list = await this.sites();
    const loaded: LoadedSite[] = [];
    const skipped: Array<{ site: string; reason: string }> = [];
    for (const site of list.sites) {
      if (!site.hasNetConfig) continue;
      try {
        loaded.push({
          site,
          nc: await loadNetConfig(this.fs, this.netConfigPath(site), `${site.name}/NetConfig`),
        });
      } catch (err) {
        if (err instanceof NetConfigError || err instanceof EngineFsError) {
          skipped.push({ site: site.name, reason: err.message });
        } else throw err;
      }
    }
    return { loaded, skipped };
  }
}

/** An engine root (the argument, else HCIROOT) read through `fs` (default: this machine's files). */
export function openEngine(
  hciroot: string | undefined,
  ctx: ToolContext,
  fs?: EngineFs,
  env: EnvReader = readEnv,
): Engine {
  return new Engine(fs ?? localEngineFs(ctx), engineRoot(hciroot, ctx, env), env);
}

/**
 * The engine a tool call addresses, from its input: `hciroot` (else HCIROOT), on this machine; or,
 * with an `alias`, that engine host's root over SSH (./remote.ts over tools/ssh/remote_engine.ts:
 * the files are read over the alias's master, the root is `hciroot`, else the alias's pin, else the
 * host's login `$HCIROOT`). Asynchronous because finding a remote root asks the host.
 */
export async function engineFor(
  input: { alias?: string; hciroot?: string },
  ctx: ToolContext,
): Promise<Engine> {
  const alias = input.alias?.trim() ?? "";
  if (alias !== "") {
    const { remoteRoot } = await lazy<typeof import("./remote.ts")>(import.meta.url, "./remote.ts");
    const { fs, root, env } = await remoteRoot(ctx, alias, input.hciroot);
    return new Engine(fs, root, env);
  }
  return openEngine(input.hciroot, ctx);
}

/**
 * The structured result for an expected failure (input, file access, NetConfig syntax); anything
 * else is rethrown as the bug it is.
 */
export function failure(err: unknown): ToolResult {
  if (err instanceof EngineInputError) return toolError(err.kind, err.message, err.extra);
  if (err instanceof EngineFsError) return toolError(err.kind, err.message, { path: err.path, ...err.extra });
  if (err instanceof NetConfigError) {
    return toolError("netconfig_syntax", err.message, {
      file: err.source,
      line: err.line,
      column: err.column,
    });
  }
  throw err;
}
