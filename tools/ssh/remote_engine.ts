/**
 * A remote engine root: an engine file seam over an SSH alias, so `list_sites` and the `nc_*` tools
 * work on the engine root of an engine host exactly as they do on a local one. Files are read over
 * the master (or a direct connection, reused while busy and closed when idle) by SFTP: stat, listing,
 * whole files and byte ranges; a file the engine library needs on disk (node:sqlite opens `.smatdb`
 * and `version.db` by path) is pulled into the pull cache. Both are cached by size and modification
 * time: an unchanged file is not fetched again (in memory for reads, on disk for pulled copies,
 * across processes).
 *
 * This side knows SSH and files only: it hands back the files, the root and the host's variables,
 * and every failure is an {@link SshError}. The engine side (tools/engine/remote.ts) maps those to
 * the engine's errors and builds the engine, so tools/engine depends on this module and never the
 * other way round.
 *
 * The root is the `hciroot` argument, else the alias's pinned engine root, else `$HCIROOT` as the
 * login shell on the host sets it; `$HCISITE` comes from the host's login shell too.
 *
 * @module
 */
import type { HintFn } from "../../core/hint.ts";
import { posix } from "../../core/path.ts";
import type { ToolContext } from "../types.ts";
import { cacheFileFor, pullToFile } from "../../ssh/transfer.ts";
import { type OpenedRemote, openRemote } from "../../ssh/open.ts";
import { type Remote, type RemoteStat } from "../../ssh/remote.ts";
import { SshError } from "../../ssh/errors.ts";
import { wrapCommand } from "../../ssh/wrap.ts";
import { concat } from "../../core/bytes.ts";

/** A file's facts as the engine seam wants them. */
export interface RemoteFileStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs?: number;
}

/**
 * Read access to an engine host's files (the shape of the engine tools' EngineFs, which the engine
 * side checks when it wraps this). Every failure is an SshError: file-level kinds (`not_found`,
 * `permission_denied`, `is_directory`, `partial_transfer`, `io_error`) or connection-level ones.
 */
export interface RemoteFiles {
  readonly label: string;
  join(...parts: string[]): string;
  basename(path: string): string;
  readText(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  readRange(path: string, offset: number, length: number): Promise<Uint8Array>;
  stat(path: string): Promise<RemoteFileStat | undefined>;
  list(dir: string): Promise<Array<{ name: string; isFile: boolean; isDirectory: boolean }>>;
  exists(path: string): Promise<boolean>;
  localFile(path: string): Promise<string>;
}

/** What the remote side hands the engine side. */
export interface RemoteEngineRoot {
  files: RemoteFiles;
  /** `hciroot`, else the pin, else the login `$HCIROOT`; undefined when none is set (not checked further). */
  root: string | undefined;
  /** HCIROOT, HCISITE and TZ as the host's login shell (or the pin) sets them; ZONE the host clock's zone. */
  vars: { HCIROOT?: string; HCISITE?: string; TZ?: string; ZONE?: string };
}

/** A direct connection stays open this long after its last use, then closes. */
const IDLE_CLOSE_MS = 1500;
/** In-memory file cache bound (per process). */
const CACHE_BYTES = 64 * 1024 * 1024;

interface Cached {
  size: number;
  mtimeMs: number;
  bytes: Uint8Array;
}

const cache = new Map<string, Cached>();
let cachedBytes = 0;

function remember(key: string, entry: Cached): void {
  const old = cache.get(key);
  if (old) cachedBytes -= old.bytes.length, cache.delete(key);
  if (entry.bytes.length > CACHE_BYTES / 4) return;
  cache.set(key, entry);
  cachedBytes += entry.bytes.length;
  while (cachedBytes > CACHE_BYTES) {
    const [k, v] = cache.entries().next().value!;
    cache.delete(k);
    cachedBytes -= v.bytes.length;
  }
}

/**
 * The alias's remote, opened on first use; a direct connection is closed after a short idle time
 * and reopened when needed again (a master client costs nothing to keep).
 */
class LazyRemote {
  #opened: Promise<OpenedRemote> | undefined;
  #busy = 0;
  #idle: ReturnType<typeof setTimeout> | undefined;
  constructor(readonly home: string, readonly alias: string, readonly hint?: HintFn) {}

  async use<T>(fn: (r: Remote) => Promise<T>): Promise<T> {
    clearTimeout(this.#idle);
    this.#busy++;
    try {
      this.#opened ??= openRemote(this.home, this.alias, { hint: this.hint });
      let opened: OpenedRemote;
      try {
        opened = await this.#opened;
      } catch (err) {
        this.#opened = undefined;
        throw err;
      }
      return await fn(opened.remote);
    } finally {
      this.#busy--;
      if (this.#busy === 0) {
        this.#idle = setTimeout(() => this.#release(), IDLE_CLOSE_MS);
        Deno.unrefTimer(this.#idle);
      }
    }
  }

  async options(): Promise<OpenedRemote> {
    this.#opened ??= openRemote(this.home, this.alias, { hint: this.hint });
    try {
      return await this.#opened;
    } catch (err) {
      this.#opened = undefined;
      throw err;
    }
  }

  #release(): void {
    const o = this.#opened;
    if (!o || this.#busy > 0) return;
    this.#opened = undefined;
    o.then((x) => x.remote.close()).catch(() => {});
  }
}

function toFileStat(s: RemoteStat): RemoteFileStat {
  return { isFile: s.isFile, isDirectory: s.isDirectory, size: s.size, mtimeMs: s.mtimeMs };
}

/**
 * The files of an alias's host. Paths are the host's (POSIX).
 *
 * @example
 * ```ts
 * import type { ToolContext } from "../types.ts";
 * declare const ctx: ToolContext;
 * const files = remoteFiles(ctx, "eng1");
 * await files.readText("/hci/cis20.1/integrator/server/server.ini");
 * ```
 */
export function remoteFiles(
  ctx: ToolContext,
  alias: string,
  lazy: LazyRemote = new LazyRemote(ctx.config.home, alias, ctx.hint),
): RemoteFiles {
  const key = (path: string) => `${alias}\0${path}`;
  const call = <T>(fn: (r: Remote) => Promise<T>): Promise<T> => lazy.use(fn);
  const stat = (path: string) => call((r) => r.stat(path));
  const readBytes = async (path: string): Promise<Uint8Array> => {
    const st = await stat(path);
    if (!st) throw new SshError("not_found", `no such file on ${alias}: ${path}`, { path });
    if (st.isDirectory) throw new SshError("is_directory", `${path} on ${alias} is a folder`, { path });
    const hit = cache.get(key(path));
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.bytes;
    const parts: Uint8Array[] = [];
    await call((r) => r.pull(path, (c) => void parts.push(new Uint8Array(c))));
    const bytes = concat(parts);
    remember(key(path), { size: st.size, mtimeMs: st.mtimeMs, bytes });
    return bytes;
  };
  return {
    label: `ssh:${alias}`,
    join: (...parts) => posix.join(...parts),
    basename: (path) => path.replace(/\/+$/, "").split("/").pop() ?? path,
    async readText(path) {
      return new TextDecoder().decode(await readBytes(path));
    },
    readBytes,
    async readRange(path, offset, length) {
      const hit = cache.get(key(path));
      if (hit) {
        const st = await stat(path);
        if (st && st.size === hit.size && st.mtimeMs === hit.mtimeMs) {
          return hit.bytes.slice(offset, offset + length);
        }
      }
      return await call((r) => r.readRange(path, offset, length));
    },
    async stat(path) {
      const st = await stat(path);
      return st ? toFileStat(st) : undefined;
    },
    async list(dir) {
      const entries = await call((r) => r.list(dir));
      return entries.map((e) => ({ name: e.name, isFile: e.isFile, isDirectory: e.isDirectory }));
    },
    async exists(path) {
      return (await stat(path)) !== undefined;
    },
    async localFile(path) {
      const st = await stat(path);
      if (!st) throw new SshError("not_found", `no such file on ${alias}: ${path}`, { path });
      if (st.isDirectory) throw new SshError("is_directory", `${path} on ${alias} is a folder`, { path });
      const local = await cacheFileFor(alias, path);
      // The pulled copy carries the remote modification time: same size and time, same file.
      const have = await Deno.stat(local).catch(() => undefined);
      if (have && have.size === st.size && have.mtime?.getTime() === st.mtimeMs) return local;
      await call((r) => pullToFile(r, path, local, ctx.signal));
      await Deno.utime(local, new Date(), new Date(st.mtimeMs));
      return local;
    },
  };
}

type RemoteVar = "HCIROOT" | "HCISITE" | "TZ" | "ZONE";

/**
 * HCIROOT, HCISITE and TZ as the host's login shell (or the pin) sets them, and ZONE: the zone of the
 * host's clock (`/etc/localtime`'s link target, else `/etc/timezone`), for dates in the engine's zone.
 */
async function remoteEnv(
  lazy: LazyRemote,
  ctx: ToolContext,
  pin: string | undefined,
): Promise<Partial<Record<RemoteVar, string>>> {
  const w = wrapCommand(
    `printf 'HCIROOT=%s\\nHCISITE=%s\\nTZ=%s\\nZONE=%s\\n' "$HCIROOT" "$HCISITE" "$TZ" ` +
      `"$(readlink /etc/localtime 2>/dev/null || cat /etc/timezone 2>/dev/null)"`,
    { noLogin: ctx.config.sshNoLogin, hciroot: pin },
  );
  const r = await lazy.use((remote) => remote.exec(w.command, { timeoutMs: 30_000, signal: ctx.signal }));
  const text = new TextDecoder().decode(r.stdout);
  const out: Partial<Record<RemoteVar, string>> = {};
  for (const line of text.replace(/\r/g, "").split("\n")) {
    const m = line.match(/^(HCIROOT|HCISITE|TZ|ZONE)=(.*)$/);
    if (m && m[2].trim() !== "") out[m[1] as RemoteVar] = m[2].trim();
  }
  return out;
}

/**
 * The engine root of an alias and its files: root from `hciroot`, else the pin, else the host's login
 * `$HCIROOT`. Throws SshError (e.g. "master_closed" with the spec's words).
 *
 * @example
 * ```ts
 * import type { ToolContext } from "../types.ts";
 * declare const ctx: ToolContext;
 * const { files, root } = await remoteEngineRoot(ctx, "eng1");
 * ```
 */
export async function remoteEngineRoot(
  ctx: ToolContext,
  alias: string,
  hciroot?: string,
): Promise<RemoteEngineRoot> {
  const lazy = new LazyRemote(ctx.config.home, alias, ctx.hint);
  const opened = await lazy.options();
  const pin = opened.options.hciroot;
  const given = hciroot !== undefined && hciroot.trim() !== "" ? hciroot.trim() : undefined;
  const vars = await remoteEnv(lazy, ctx, pin);
  const root = given ?? pin ?? vars.HCIROOT;
  return {
    files: remoteFiles(ctx, alias, lazy),
    root: root?.startsWith("/") ? posix.normalize(root).replace(/(.)\/+$/, "$1") : root,
    vars: { HCIROOT: root, HCISITE: vars.HCISITE, TZ: vars.TZ, ZONE: vars.ZONE },
  };
}
