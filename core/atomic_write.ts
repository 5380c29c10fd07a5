/**
 * Atomic replacement of a state file: the content goes to `<path>.new`, created with its final mode,
 * is flushed to disk, then renamed over `<path>`. A reader sees the old file or the new one, never a
 * torn one; a crash leaves at most a stray `.new`.
 */

export interface AtomicWriteOptions {
  /** File mode at creation (POSIX; ignored on Windows). @default 0o600 */
  mode?: number;
  /** Check the written bytes before they replace the file; throw to keep the old file. */
  validate?: (data: Uint8Array) => void;
  /**
   * Suffix of the temporary file (`<path><tmpSuffix>`). A file several processes may write at once
   * (the REPL history) passes a unique one, e.g. `.<pid>.<random>.new`; the fixed default is the
   * `.new` sidecar other state files rely on. @default ".new"
   */
  tmpSuffix?: string;
}

/**
 * @example
 * ```ts
 * declare const home: string;
 * declare const tokens: unknown;
 * await atomicWrite(`${home}/.oauth.json`, JSON.stringify(tokens), { mode: 0o600 });
 * ```
 */
export async function atomicWrite(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  options.validate?.(bytes);
  const tmp = `${path}${options.tmpSuffix ?? ".new"}`;
  try {
    await writeThrough(path, tmp, bytes, mode);
  } catch (err) {
    // The operator named the file, not its sidecar: a failure names the file (whichever separator
    // the system's message uses), also when that message names none (a write on a full disk), in
    // Deno's own `: write '<path>'` form so core/io_error.ts finds it.
    if (err instanceof Error) {
      err.message = namingTheFile(err.message, tmp, path);
      if (!err.message.includes(path)) err.message += `: write '${path}'`;
    }
    throw err;
  }
}

/**
 * `message` with the temporary file's name replaced by the file's own. Windows writes a path in an
 * error with backslashes whatever separators it was given (`C:\x/state.json.new` comes back as
 * `C:\x\state.json.new`), so either separator matches either.
 *
 * @example
 * ```ts
 * import { namingTheFile } from "./atomic_write.ts";
 * namingTheFile("open 'C:\\x\\s.json.new'", "C:\\x/s.json.new", "C:\\x/s.json"); // "open 'C:\\x/s.json'"
 * ```
 */
export function namingTheFile(message: string, tmp: string, path: string): string {
  const anySep = tmp.split(/[\\/]/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(
    "[\\\\/]",
  );
  return message.replace(new RegExp(anySep, "g"), () => path);
}

async function writeThrough(path: string, tmp: string, bytes: Uint8Array, mode: number): Promise<void> {
  // A stale `.new` (a crash, or something planted) is removed, never written through: a symlink
  // there must not redirect the write. `createNew` then fails if anything reappears in between.
  try {
    const stale = await Deno.lstat(tmp);
    if (stale.isDirectory) {
      throw new Error(`cannot write ${path}: a folder is in the way of its temporary copy`);
    }
    await Deno.remove(tmp);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const file = await Deno.open(tmp, { write: true, createNew: true, mode });
  try {
    let off = 0;
    while (off < bytes.length) off += await file.write(bytes.subarray(off));
    await file.sync();
  } catch (err) {
    // A full disk fails here: the half-written temporary goes, the old file stays.
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  file.close();
  try {
    // The mode given at creation is filtered by the umask, and an old `.new` keeps its mode:
    // set it explicitly before the file becomes visible under its real name.
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
