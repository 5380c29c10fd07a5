/**
 * A remote engine: the engine tools' file seam ({@link EngineFs}, tools/engine/engine_fs.ts) over an
 * SSH alias, so `list_sites` and the `nc_*` tools work on the engine root of an engine host exactly
 * as they do on a local one. Files are read over the master (or a direct connection, reused while
 * busy and closed when idle) by SFTP: stat, listing, whole files and byte ranges; a file the engine
 * library needs on disk (node:sqlite opens `.smatdb` and `version.db` by path) is pulled into the
 * pull cache. Both are cached by size and modification time: an unchanged file is not fetched again
 * (in memory for reads, on disk for pulled copies, across processes).
 *
 * The root is the `hciroot` argument, else the alias's pinned engine root, else `$HCIROOT` as the
 * login shell on the host sets it; `$HCISITE` comes from the host's login shell too.
 *
 * @module
 */
import { posix } from "node:path";
import type { ToolContext } from "../types.ts";
import { Engine, EngineInputError } from "../engine/engine.ts";
import { type EngineDirEntry, type EngineFs, EngineFsError, type EngineStat } from "../engine/engine_fs.ts";
import {
  cacheFileFor,
  type OpenedRemote,
  openRemote,
  pullToFile,
  type Remote,
  type RemoteStat,
  SshError,
  wrapCommand,
} from "../../ssh/mod.ts";
import { concat } from "../../core/bytes.ts";

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

/** Forgets the in-memory cache (tests and benchmarks measure cold reads with it). */
export function clearRemoteCache(): void {
  cache.clear();
  cachedBytes = 0;
}

/** Connection-level failures surface with their own kind ("master_closed" and its exact words). */
function connectionError(err: SshError): EngineInputError {
  return new EngineInputError(err.kind, err.message, err.extra);
}

/** An SshError as the seam's error (file-level kinds), or as a tool input error (connection-level). */
function mapError(path: string, err: unknown): Error {
  if (!(err instanceof SshError)) return err as Error;
  switch (err.kind) {
    case "not_found":
    case "permission_denied":
    case "is_directory":
      return new EngineFsError(err.kind, err.message, path, err.extra);
    case "partial_transfer":
    case "io_error":
      return new EngineFsError("io_error", err.message, path, err.extra);
    default:
      return connectionError(err);
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
  constructor(readonly home: string, readonly alias: string) {}

  async use<T>(fn: (r: Remote) => Promise<T>): Promise<T> {
    clearTimeout(this.#idle);
    this.#busy++;
    try {
      this.#opened ??= openRemote(this.home, this.alias);
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
    this.#opened ??= openRemote(this.home, this.alias);
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

function toEngineStat(s: RemoteStat): EngineStat {
  return { isFile: s.isFile, isDirectory: s.isDirectory, size: s.size, mtimeMs: s.mtimeMs };
}

/**
 * The engine file seam over an alias. Paths are the host's (POSIX).
 *
 * @example
 * const fs = remoteEngineFs(ctx, "eng1");
 * await fs.readText("/hci/cis20.1/integrator/server/server.ini");
 */
export function remoteEngineFs(
  ctx: ToolContext,
  alias: string,
  lazy = new LazyRemote(ctx.config.home, alias),
): EngineFs {
  const key = (path: string) => `${alias}\0${path}`;
  const call = async <T>(path: string, fn: (r: Remote) => Promise<T>): Promise<T> => {
    try {
      return await lazy.use(fn);
    } catch (err) {
      throw mapError(path, err);
    }
  };
  const stat = (path: string) => call(path, (r) => r.stat(path));
  const readBytes = async (path: string): Promise<Uint8Array> => {
    const st = await stat(path);
    if (!st) throw new EngineFsError("not_found", `no such file on ${alias}: ${path}`, path);
    if (st.isDirectory) throw new EngineFsError("is_directory", `${path} on ${alias} is a folder`, path);
    const hit = cache.get(key(path));
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.bytes;
    const parts: Uint8Array[] = [];
    await call(path, (r) => r.pull(path, (c) => void parts.push(new Uint8Array(c))));
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
      return await call(path, (r) => r.readRange(path, offset, length));
    },
    async stat(path) {
      const st = await stat(path);
      return st ? toEngineStat(st) : undefined;
    },
    async list(dir): Promise<EngineDirEntry[]> {
      const entries = await call(dir, (r) => r.list(dir));
      return entries.map((e) => ({ name: e.name, isFile: e.isFile, isDirectory: e.isDirectory }));
    },
    async exists(path) {
      return (await stat(path)) !== undefined;
    },
    async localFile(path) {
      const st = await stat(path);
      if (!st) throw new EngineFsError("not_found", `no such file on ${alias}: ${path}`, path);
      if (st.isDirectory) throw new EngineFsError("is_directory", `${path} on ${alias} is a folder`, path);
      let local: string;
      try {
        local = await cacheFileFor(alias, path);
      } catch (err) {
        throw mapError(path, err);
      }
      // The pulled copy carries the remote modification time: same size and time, same file.
      const have = await Deno.stat(local).catch(() => undefined);
      if (have && have.size === st.size && have.mtime?.getTime() === st.mtimeMs) return local;
      await call(path, (r) => pullToFile(r, path, local, ctx.signal));
      await Deno.utime(local, new Date(), new Date(st.mtimeMs));
      return local;
    },
  };
}

/** HCIROOT and HCISITE as the host's login shell (or the pin) sets them. */
async function remoteEnv(
  lazy: LazyRemote,
  ctx: ToolContext,
  pin: string | undefined,
): Promise<{ HCIROOT?: string; HCISITE?: string }> {
  const w = wrapCommand(`printf 'HCIROOT=%s\\nHCISITE=%s\\n' "$HCIROOT" "$HCISITE"`, {
    noLogin: ctx.config.sshNoLogin,
    hciroot: pin,
  });
  let text: string;
  try {
    const r = await lazy.use((remote) => remote.exec(w.command, { timeoutMs: 30_000, signal: ctx.signal }));
    text = new TextDecoder().decode(r.stdout);
  } catch (err) {
    throw err instanceof SshError ? connectionError(err) : err;
  }
  const out: { HCIROOT?: string; HCISITE?: string } = {};
  for (const line of text.replace(/\r/g, "").split("\n")) {
    const m = line.match(/^(HCIROOT|HCISITE)=(.*)$/);
    if (m && m[2].trim() !== "") out[m[1] as "HCIROOT" | "HCISITE"] = m[2].trim();
  }
  return out;
}

/**
 * The engine of an alias: root from `hciroot`, else the pin, else the host's login `$HCIROOT`.
 * Throws EngineInputError (with the SSH kind for connection failures, e.g. "master_closed").
 */
export async function remoteEngine(ctx: ToolContext, alias: string, hciroot?: string): Promise<Engine> {
  const lazy = new LazyRemote(ctx.config.home, alias);
  let opened: OpenedRemote;
  try {
    opened = await lazy.options();
  } catch (err) {
    throw err instanceof SshError ? connectionError(err) : err;
  }
  const pin = opened.options.hciroot;
  const given = hciroot !== undefined && hciroot.trim() !== "" ? hciroot.trim() : undefined;
  const env = await remoteEnv(lazy, ctx, pin);
  const root = given ?? pin ?? env.HCIROOT;
  if (!root) {
    throw new EngineInputError(
      "no_engine_root",
      `no engine root on ${alias}: its login shell sets no HCIROOT; pass --hciroot <path> or pin one with ` +
        `/ssh-set-hciroot ${alias} <path>`,
      { alias },
    );
  }
  if (!root.startsWith("/")) {
    throw new EngineInputError(
      "no_engine_root",
      `the engine root on ${alias} must be an absolute path (got ${root})`,
      {
        alias,
      },
    );
  }
  const remoteVars: Record<string, string | undefined> = { HCIROOT: root, HCISITE: env.HCISITE };
  return new Engine(
    remoteEngineFs(ctx, alias, lazy),
    posix.normalize(root).replace(/(.)\/+$/, "$1"),
    (n) => remoteVars[n],
  );
}
