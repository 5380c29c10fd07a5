/**
 * Transfers between this machine and an engine host, with the spec's guarantees: the byte count is
 * verified (a partial transfer is an error, never a short file), a pull lands in a `.part` file that
 * is renamed into place only when complete (mode 0600: pulled files may hold PHI), and a push goes
 * through a temporary remote name (ssh/connection.ts). Also the pull cache location and the
 * resolution of remote paths (`~/...`, `$HCIROOT/...`).
 *
 * @module
 */
import { SshError } from "./errors.ts";
import { ensurePrivateDir, osTempDir, pullCacheDir, pullCachePath } from "./paths.ts";
import type { Remote, TransferResult } from "./remote.ts";
import { wrapCommand } from "./wrap.ts";
import { readEnv } from "../core/env.ts";

/** The pull cache folder `<os temp>/assist-pulls`, created private (0700, ours). */
export async function pullCache(): Promise<string> {
  const dir = pullCacheDir(osTempDir(readEnv, Deno.build.os));
  await ensurePrivateDir(dir);
  return dir;
}

/** The pull-cache file for a remote path of an alias (the folder is created). */
export async function cacheFileFor(alias: string, remotePath: string): Promise<string> {
  return await pullCachePath(await pullCache(), alias, remotePath);
}

/**
 * Pulls a remote file to a local path: streamed into `<local>.part-<random>` (0600), renamed over
 * `local` only after the count matched the remote size, then the local size is checked once more.
 * Through a master the part file is written by the master itself (Remote.pullInto).
 */
export async function pullToFile(
  remote: Remote,
  remotePath: string,
  localPath: string,
  signal?: AbortSignal,
): Promise<TransferResult> {
  const part = `${localPath}.part-${crypto.getRandomValues(new Uint8Array(4)).toHex()}`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(part, { write: true, createNew: true, mode: 0o600 });
  } catch (err) {
    throw new SshError("io_error", `cannot write ${localPath}: ${(err as Error).message}`, {
      path: localPath,
    });
  }
  let closed = false;
  try {
    const stream = async () => {
      const r = await remote.pull(remotePath, async (chunk) => {
        let off = 0;
        while (off < chunk.length) off += await file.write(chunk.subarray(off));
      }, { signal });
      file.close();
      closed = true;
      return r;
    };
    let r: TransferResult;
    if (remote.pullInto) {
      // Through a master: it writes the part file itself (no relay through its socket).
      file.close();
      closed = true;
      try {
        r = await remote.pullInto(remotePath, await Deno.realPath(part), { signal });
      } catch (err) {
        // A master started by an older assist does not know the request: stream as before.
        if (!(err instanceof SshError && err.kind === "protocol" && err.message.includes('"pull_into"'))) {
          throw err;
        }
        file = await Deno.open(part, { write: true, truncate: true });
        closed = false;
        r = await stream();
      }
    } else {
      r = await stream();
    }
    const size = (await Deno.stat(part)).size;
    if (size !== r.size) {
      throw new SshError(
        "partial_transfer",
        `partial transfer of ${remotePath}: ${size} of ${r.size} bytes reached ${localPath}`,
        { path: remotePath, bytes: size, size: r.size },
      );
    }
    await Deno.rename(part, localPath);
    return r;
  } catch (err) {
    if (!closed) {
      try {
        file.close();
      } catch { /* closed */ }
    }
    await Deno.remove(part).catch(() => {});
    throw err;
  }
}

/** Reads a local file as chunks for a push. */
async function* fileChunks(path: string): AsyncIterable<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(256 * 1024);
    while (true) {
      const n = await file.read(buf);
      if (n === null) return;
      yield buf.slice(0, n);
    }
  } finally {
    file.close();
  }
}

/** Pushes a local file; the remote size is checked after the rename. */
export async function pushFromFile(
  remote: Remote,
  localPath: string,
  remotePath: string,
  signal?: AbortSignal,
): Promise<TransferResult> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(localPath);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new SshError("not_found", `no such local file: ${localPath}`, { path: localPath });
    }
    throw new SshError("io_error", `cannot read ${localPath}: ${(err as Error).message}`, {
      path: localPath,
    });
  }
  if (!info.isFile) throw new SshError("is_directory", `${localPath} is not a file`, { path: localPath });
  const mode = info.mode !== null ? info.mode & 0o777 : undefined;
  return await remote.push({ size: info.size, chunks: fileChunks(localPath) }, remotePath, { signal, mode });
}

const HCIROOT_PREFIX = /^(\$HCIROOT|\$\{HCIROOT\})(?=\/|$)/;

/**
 * The engine root of an alias: the pin, else `$HCIROOT` as the login shell sets it (empty when the
 * profile sets none).
 */
export async function remoteHciroot(
  remote: Remote,
  options: { hciroot?: string; noLogin: boolean },
  signal?: AbortSignal,
): Promise<string> {
  if (options.hciroot) return options.hciroot;
  const w = wrapCommand(`printf 'HCIROOT=%s\\n' "$HCIROOT"`, { noLogin: options.noLogin });
  const r = await remote.exec(w.command, { timeoutMs: 30_000, signal, maxBytes: 64 * 1024 });
  const text = new TextDecoder().decode(r.stdout);
  const line = text.split("\n").filter((l) => l.startsWith("HCIROOT=")).pop();
  return line ? line.slice("HCIROOT=".length).replace(/\r$/, "").trim() : "";
}

/**
 * A remote path as SFTP takes it: `~` and `~/x` are relative to the login folder; `$HCIROOT/x` (or
 * `${HCIROOT}/x`) uses the alias's engine root.
 */
export async function resolveRemotePath(
  remote: Remote,
  path: string,
  options: { hciroot?: string; noLogin: boolean },
  signal?: AbortSignal,
): Promise<string> {
  const p = path.replace(/\r/g, "").trim();
  if (p === "~") return ".";
  if (p.startsWith("~/")) return p.slice(2) || ".";
  if (HCIROOT_PREFIX.test(p)) {
    const root = await remoteHciroot(remote, options, signal);
    if (root === "") {
      throw new SshError(
        "not_found",
        `HCIROOT is not set on ${remote.alias}: pin it with /ssh-set-hciroot ${remote.alias} <path> or give a full path`,
        { alias: remote.alias },
      );
    }
    return p.replace(HCIROOT_PREFIX, root.replace(/\/+$/, ""));
  }
  return p;
}
