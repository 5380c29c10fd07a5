/**
 * Read-modify-write of a state file that several processes may change at once (`.history`,
 * `.ssh-hosts.tsv`, `.ssh-host-options.json`, `.env`): issue #29 item 4.
 *
 * - **Locked.** The whole read, change and replace runs under an exclusive OS file lock
 *   (`flock` / `LockFileEx` via `Deno.FsFile.lock`) on `<file>.lock` beside it, so a change is
 *   always made to the file as the last writer left it and no writer's change is lost. The OS
 *   drops the lock when its process ends, however it ends (SIGKILL included): no stale lock.
 * - **Its own temporary.** Each write goes through `<file>.<pid>.<random>.new` (core/atomic_write.ts:
 *   written, flushed, renamed over the file), so two writers never share a temporary; a crash leaves
 *   the old file whole. Temporaries a killed writer left are removed by the next writer, under the
 *   lock (no other writer can be using one then).
 * - **What it does not understand stays.** The caller gets the file's bytes as they are and returns
 *   the new bytes: the format modules edit the lines they own and keep every other line as it was.
 *
 * A failure (a full disk, a read-only file system) is an `AssistError` naming the file and the next
 * step (core/io_error.ts), and leaves the old file as it was.
 *
 * @module
 */
import { atomicWrite } from "./atomic_write.ts";
import { ioError } from "./errors.ts";
import type { IoErrorOptions } from "./io_error.ts";

export interface UpdateOptions {
  /** Mode of the file and of its lock at creation (POSIX). @default 0o600 */
  mode?: number;
  /** How a failure names the next step (core/io_error.ts). */
  onError?: IoErrorOptions;
}

/**
 * Applies `change` to the file at `path` under its lock. `change` receives the current bytes
 * (undefined when the file does not exist) and returns the new content, or undefined to leave the
 * file as it is. Returns what `change` returned.
 *
 * @example
 * ```ts
 * declare const home: string;
 * await updateStateFile(`${home}/.history`, (old) => {
 *   const text = old ? new TextDecoder().decode(old) : "";
 *   return text + "ls -l\n";
 * });
 * ```
 */
export async function updateStateFile(
  path: string,
  change: (old: Uint8Array | undefined) => string | Uint8Array | undefined,
  options: UpdateOptions = {},
): Promise<string | Uint8Array | undefined> {
  const mode = options.mode ?? 0o600;
  const fail = (err: unknown) => ioError(err, path, { inHome: true, ...options.onError });
  let lock: Deno.FsFile;
  try {
    lock = await Deno.open(`${path}.lock`, { read: true, write: true, create: true, mode });
  } catch (err) {
    throw fail(err);
  }
  try {
    await lock.lock(true);
    await sweepTemporaries(path);
    let old: Uint8Array | undefined;
    try {
      old = await Deno.readFile(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    const next = change(old);
    if (next !== undefined) await atomicWrite(path, next, { mode, tmpSuffix: temporarySuffix() });
    return next;
  } catch (err) {
    throw fail(err);
  } finally {
    // Closing the file drops the lock (also when the process dies).
    lock.close();
  }
}

/** A temporary's suffix no other writer uses: `.<pid>.<random>.new`. */
export function temporarySuffix(): string {
  return `.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.new`;
}

/** The shape of a temporary of `base` (the file name): `<base>.<pid>.<hex>.new`. */
function isTemporaryOf(name: string, base: string): boolean {
  if (!name.startsWith(`${base}.`) || !name.endsWith(".new")) return false;
  return /^\d+\.[0-9a-f]{8}$/.test(name.slice(base.length + 1, -".new".length));
}

/** Removes the temporaries killed writers left beside `path` (called under the lock). */
async function sweepTemporaries(path: string): Promise<void> {
  const cut = Math.max(path.lastIndexOf("/"), Deno.build.os === "windows" ? path.lastIndexOf("\\") : -1);
  const dir = cut === -1 ? "." : path.slice(0, cut) || "/";
  const base = path.slice(cut + 1);
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && isTemporaryOf(e.name, base)) {
        await Deno.remove(`${dir}/${e.name}`).catch(() => {});
      }
    }
  } catch { /* an unreadable folder: the write below says so */ }
}
