/**
 * The one seam between the engine tools and the engine's files. Every engine tool reads `$HCIROOT`
 * (NetConfig, server.ini, siteInfo, revisions, SMAT archives) through an {@link EngineFs} and nothing
 * else, so the same tools run against a remote engine root once the SSH layer supplies an EngineFs
 * that works over the SSH master (`cat`, `stat`, `ls`, `dd` there; a pull for {@link EngineFs.localFile}).
 *
 * The local implementation puts every path through the file tools' protection check
 * (tools/files/guard.ts), exactly as read_file does: a protected place under `$ASSIST_HOME` is never
 * opened, however the engine root is given.
 *
 * Engine paths are the engine host's paths: `/`-separated on a remote Unix engine; on a local
 * Windows engine the platform's own form (`join` knows which).
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import { posix, win32 } from "../../core/path.ts";
import type { ToolContext } from "../types.ts";
import { checkPath, guardFor } from "../files/guard.ts";

export interface EngineStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  /** Modification time, ms since the epoch, when known. */
  mtimeMs?: number;
}

export interface EngineDirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
}

export type EngineFsErrorKind =
  | "not_found"
  | "protected_path"
  | "permission_denied"
  | "is_directory"
  | "io_error";

/** A failed file access, with a kind callers act on (the tools turn it into a structured error). */
export class EngineFsError extends AssistError {
  readonly kind: EngineFsErrorKind;
  readonly path: string;
  readonly extra: Record<string, unknown>;
  constructor(kind: EngineFsErrorKind, message: string, path: string, extra: Record<string, unknown> = {}) {
    super(message, { level: "input" });
    this.name = "EngineFsError";
    this.kind = kind;
    this.path = path;
    this.extra = extra;
  }
}

/**
 * Read access to one engine host's files.
 *
 * @example
 * ```ts
 * declare const fs: EngineFs, root: string;
 * const text = await fs.readText(fs.join(root, "server", "server.ini"));
 * ```
 */
export interface EngineFs {
  /** Where the files are: `local`, or for the SSH layer `ssh:<alias>` (used in messages and cache keys). */
  readonly label: string;
  /** Joins path parts the engine host's way. */
  join(...parts: string[]): string;
  /** The last component of a path (either separator). */
  basename(path: string): string;
  /** The whole file as UTF-8 text (a NUL-containing file is still decoded; callers decide). */
  readText(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  /** `length` bytes at `offset` (fewer at the end of the file), for SMAT `.msg` records. */
  readRange(path: string, offset: number, length: number): Promise<Uint8Array>;
  /** undefined when the path does not exist. */
  stat(path: string): Promise<EngineStat | undefined>;
  /** A folder's entries sorted by name; protected entries are left out. */
  list(dir: string): Promise<EngineDirEntry[]>;
  exists(path: string): Promise<boolean>;
  /**
   * A path on this machine holding the file's bytes, for readers that need a real file (node:sqlite
   * opens `.smatdb` and `version.db` by path). Local: the checked, symlink-resolved path itself.
   * Remote (SSH layer): the file is pulled into the pull cache first and that copy's path returned.
   */
  localFile(path: string): Promise<string>;
}

function mapError(path: string, err: unknown): EngineFsError {
  if (err instanceof EngineFsError) return err;
  if (err instanceof Deno.errors.NotFound) {
    return new EngineFsError("not_found", `no such file or folder: ${path}`, path);
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return new EngineFsError("permission_denied", `permission denied: ${path}`, path);
  }
  if (err instanceof Deno.errors.IsADirectory) {
    return new EngineFsError("is_directory", `${path} is a folder`, path);
  }
  return new EngineFsError("io_error", `cannot read ${path}: ${(err as Error).message}`, path);
}

/**
 * The local engine file system: every path checked by the protection guard first.
 *
 * @example
 * ```ts
 * import type { ToolContext } from "../types.ts";
 * declare const ctx: ToolContext;
 * const fs = localEngineFs(ctx);
 * const ini = await fs.readText("/hci/cis20.1/integrator/server/server.ini");
 * ```
 */
export function localEngineFs(ctx: ToolContext): EngineFs {
  const lib = Deno.build.os === "windows" ? win32 : posix;
  const checked = async (path: string): Promise<string> => {
    const c = await checkPath(path, ctx);
    if (!c.ok) {
      let message = "refused: protected path";
      let extra: Record<string, unknown> = {};
      try {
        const obj = JSON.parse(c.result.text);
        message = obj.message ?? message;
        extra = obj;
      } catch { /* keep the default */ }
      const kind = (extra.error === "bad_path" ? "io_error" : "protected_path") as EngineFsErrorKind;
      throw new EngineFsError(kind, message, path, { protected: extra.protected });
    }
    return c.real;
  };
  return {
    label: "local",
    join: (...parts) => lib.join(...parts),
    basename: (path) => path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? path,
    async readText(path) {
      const real = await checked(path);
      try {
        return new TextDecoder().decode(await Deno.readFile(real));
      } catch (err) {
        throw mapError(path, err);
      }
    },
    async readBytes(path) {
      const real = await checked(path);
      try {
        return await Deno.readFile(real);
      } catch (err) {
        throw mapError(path, err);
      }
    },
    async readRange(path, offset, length) {
      const real = await checked(path);
      let file: Deno.FsFile | undefined;
      try {
        file = await Deno.open(real, { read: true });
        await file.seek(offset, Deno.SeekMode.Start);
        const buf = new Uint8Array(length);
        let got = 0;
        while (got < length) {
          const n = await file.read(buf.subarray(got));
          if (n === null) break;
          got += n;
        }
        return got === length ? buf : buf.subarray(0, got);
      } catch (err) {
        throw mapError(path, err);
      } finally {
        file?.close();
      }
    },
    async stat(path) {
      const real = await checked(path);
      try {
        const s = await Deno.stat(real);
        return { isFile: s.isFile, isDirectory: s.isDirectory, size: s.size, mtimeMs: s.mtime?.getTime() };
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return undefined;
        throw mapError(path, err);
      }
    },
    async list(dir) {
      const real = await checked(dir);
      const guard = await guardFor(ctx);
      const out: EngineDirEntry[] = [];
      try {
        for await (const e of Deno.readDir(real)) {
          let isDirectory = e.isDirectory, isFile = e.isFile;
          let target = lib.join(real, e.name);
          if (e.isSymlink) {
            try {
              target = await Deno.realPath(target);
              const s = await Deno.stat(target);
              isDirectory = s.isDirectory;
              isFile = s.isFile;
            } catch {
              continue; // a dangling link is no engine file
            }
          }
          if (guard.placeOf(lib.join(dir, e.name), target)) continue;
          out.push({ name: e.name, isFile, isDirectory });
        }
      } catch (err) {
        throw mapError(dir, err);
      }
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async exists(path) {
      return (await this.stat(path)) !== undefined;
    },
    async localFile(path) {
      const real = await checked(path);
      try {
        const s = await Deno.stat(real);
        if (s.isDirectory) throw new Deno.errors.IsADirectory();
      } catch (err) {
        throw mapError(path, err);
      }
      return real;
    },
  };
}
