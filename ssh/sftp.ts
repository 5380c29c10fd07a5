/**
 * SFTP on an open connection: stat, listing, realpath, ranged reads, and pipelined whole-file
 * transfers (pull: reads issued ahead, delivered in order, byte count checked; push: a temporary
 * name beside the target, size checked, then an atomic rename). One SFTP session per connection,
 * opened on first use under the connection's channel limit. Every request is an operation of the
 * connection's state (ssh/conn_state.ts): a connection lost mid-transfer rejects it at once, and a
 * transfer cut that way is reported as partial.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { concat } from "../core/bytes.ts";
import type { Ssh2Client, Ssh2Sftp, Ssh2Stats } from "./_ssh2.ts";
import type { ChannelGate } from "./channel_gate.ts";
import type { ConnectionState } from "./conn_state.ts";
import { SshError } from "./errors.ts";
import type { PullOptions, PullSink, PushSource, RemoteEntry, RemoteStat, TransferResult } from "./remote.ts";

/**
 * Pipelined SFTP reads: at least 16 requests (about 4 MiB) in flight, each of the largest size the
 * server serves in one reply ({@link readSize}).
 */
const READ_DEPTH = 16;
const READ_IN_FLIGHT = 4 << 20;
/** The read size when ssh2 does not say: OpenSSH's sftp-server limit (256 KiB less 1 KiB). */
const READ_CHUNK_FALLBACK = 255 * 1024;
const WRITE_CHUNK = 64 * 1024;
const WRITE_DEPTH = 16;
/** SFTP status codes (draft-ietf-secsh-filexfer-02). */
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;

/** Maps an SFTP error to an SshError naming the path. */
function sftpError(alias: string, path: string, err: Error & { code?: number | string }): SshError {
  if (err.code === SFTP_NO_SUCH_FILE) {
    return new SshError("not_found", `no such file on ${alias}: ${path}`, { alias, path });
  }
  if (err.code === SFTP_PERMISSION_DENIED) {
    return new SshError("permission_denied", `permission denied on ${alias}: ${path}`, { alias, path });
  }
  return new SshError("io_error", `SFTP on ${alias} failed for ${path}: ${err.message}`, { alias, path });
}

/**
 * The largest read the server answers in one reply, as ssh2 knows it: from OpenSSH's
 * `limits@openssh.com` extension (255 KiB on OpenSSH 8.6+), else ssh2's own guess per server
 * (254 KiB for OpenSSH, 31 KiB for others). ssh2 splits a larger read into that much plus a
 * remainder it asks for only after the first part came back: two requests and two round trips per
 * read. (In a raw ssh2 read loop on loopback, 100 MiB in 256 KiB reads took ~420 ms, in 255 KiB
 * reads ~220 ms; in this module's in-order pipeline the difference is within the noise on loopback.)
 * tests/ssh/pull_large.test.ts checks that ssh2 still reports it.
 */
export function readSize(sftp: Pick<Ssh2Sftp, "_maxReadLen">): number {
  const n = sftp._maxReadLen;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 1024
    ? Math.min(n, 4 << 20)
    : READ_CHUNK_FALLBACK;
}

function toStat(s: Ssh2Stats): RemoteStat {
  return {
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    size: s.size,
    mtimeMs: s.mtime * 1000,
    mode: s.mode & 0o7777,
  };
}

/** The SFTP side of one connection. */
export class SftpOps {
  readonly #client: Ssh2Client;
  readonly #state: ConnectionState;
  readonly #gate: ChannelGate;
  readonly #alias: string;
  #sftp: Promise<Ssh2Sftp> | undefined;

  constructor(client: Ssh2Client, state: ConnectionState, gate: ChannelGate) {
    this.#client = client;
    this.#state = state;
    this.#gate = gate;
    this.#alias = state.alias;
  }

  /** Whether the connection can no longer carry requests (a failed request then reports why). */
  #gone(): boolean {
    return this.#state.state !== "ready";
  }

  #sftpSession(): Promise<Ssh2Sftp> {
    if (this.#gone()) return Promise.reject(this.#state.error());
    if (!this.#sftp) {
      const p = this.#gate.acquire().then((release) =>
        this.#state.op<Ssh2Sftp>((resolve, reject) => {
          this.#client.sftp((err, sftp) => {
            if (err || !sftp) {
              release();
              this.#sftp = undefined;
              if (this.#gone()) reject(this.#state.error());
              else {reject(
                  new SshError("io_error", `SFTP is not available on ${this.#alias}: ${err?.message}`),
                );}
              return;
            }
            sftp.on("close", () => {
              release();
              if (this.#sftp === p) this.#sftp = undefined;
            });
            sftp.on("error", () => {/* surfaced per request */});
            resolve(sftp);
          });
          // The connection went away before the session opened.
          return () => {
            release();
            if (this.#sftp === p) this.#sftp = undefined;
          };
        })
      );
      this.#sftp = p;
    }
    return this.#sftp;
  }

  /** Runs one SFTP call, mapping its error; a dropped connection becomes connection_lost. */
  #call<T>(path: string, fn: (sftp: Ssh2Sftp, cb: (err: unknown, value: T) => void) => void): Promise<T> {
    return this.#sftpSession().then((sftp) =>
      this.#state.op<T>((resolve, reject) => {
        fn(sftp, (err, value) => {
          if (err) {
            if (this.#gone()) reject(this.#state.error());
            else reject(sftpError(this.#alias, path, err as Error & { code?: number }));
          } else resolve(value);
        });
      })
    );
  }

  async stat(path: string): Promise<RemoteStat | undefined> {
    try {
      return toStat(await this.#call<Ssh2Stats>(path, (s, cb) => s.stat(path, cb)));
    } catch (err) {
      if (err instanceof SshError && err.kind === "not_found") return undefined;
      throw err;
    }
  }

  realpath(path: string): Promise<string> {
    return this.#call<string>(path, (s, cb) => s.realpath(path, cb));
  }

  async list(path: string): Promise<RemoteEntry[]> {
    const entries = await this.#call<{ filename: string; attrs: Ssh2Stats }[]>(
      path,
      (s, cb) => s.readdir(path, cb),
    );
    const out: RemoteEntry[] = [];
    const dir = path.endsWith("/") ? path : `${path}/`;
    for (const e of entries) {
      if (e.filename === "." || e.filename === "..") continue;
      let st: RemoteStat | undefined = toStat(e.attrs);
      if (e.attrs.isSymbolicLink()) {
        st = await this.stat(dir + e.filename).catch(() => undefined);
        if (!st) continue; // dangling link
      }
      out.push({ name: e.filename, ...st });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async #open(path: string, flags: string, mode?: number): Promise<{ sftp: Ssh2Sftp; handle: Buffer }> {
    const sftp = await this.#sftpSession();
    const handle = await this.#call<Buffer>(path, (s, cb) => s.open(path, flags, mode ? { mode } : {}, cb));
    return { sftp, handle };
  }

  #closeHandle(sftp: Ssh2Sftp, handle: Buffer): Promise<void> {
    return this.#state.op<void>((resolve) => {
      try {
        sftp.close(handle, () => resolve());
      } catch {
        resolve();
      }
    }).catch(() => {});
  }

  #read(
    sftp: Ssh2Sftp,
    path: string,
    handle: Buffer,
    pos: number,
    len: number,
    into?: Buffer,
  ): Promise<Uint8Array> {
    return this.#state.op((resolve, reject) => {
      const buf = into ?? Buffer.allocUnsafe(len);
      sftp.read(handle, buf, 0, len, pos, (err, n) => {
        if (err) {
          if (this.#gone()) reject(this.#state.error());
          else reject(sftpError(this.#alias, path, err));
          return;
        }
        resolve(new Uint8Array(buf.buffer, buf.byteOffset, n ?? 0));
      });
    });
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const { sftp, handle } = await this.#open(path, "r");
    try {
      const parts: Uint8Array[] = [];
      const chunk = readSize(sftp);
      let got = 0;
      while (got < length) {
        const piece = await this.#read(sftp, path, handle, offset + got, Math.min(chunk, length - got));
        if (piece.length === 0) break;
        parts.push(piece);
        got += piece.length;
      }
      return concat(parts, got);
    } finally {
      await this.#closeHandle(sftp, handle);
    }
  }

  async pull(path: string, sink: PullSink, options: PullOptions = {}): Promise<TransferResult> {
    const { sftp, handle } = await this.#open(path, "r");
    let bytes = 0;
    let size = 0;
    try {
      const st = toStat(await this.#call<Ssh2Stats>(path, (s, cb) => s.fstat(handle, cb)));
      if (st.isDirectory) {
        throw new SshError("is_directory", `${path} on ${this.#alias} is a folder, not a file`, { path });
      }
      size = st.size;
      options.onStart?.(size);
      // Reads are issued up to `depth` ahead and delivered strictly in order, each into a
      // buffer of a small pool that is reused once the sink is done with it (PullSink's contract),
      // so a pull of any size allocates depth + 1 buffers, not one per read.
      const chunkSize = readSize(sftp);
      const depth = Math.max(READ_DEPTH, Math.min(64, Math.ceil(READ_IN_FLIGHT / chunkSize)));
      const queue: { pos: number; len: number; buf: Buffer; p: Promise<Uint8Array> }[] = [];
      const pool: Buffer[] = [];
      let next = 0;
      const issue = () => {
        while (queue.length < depth && next < size) {
          const len = Math.min(chunkSize, size - next);
          const buf = pool.pop() ?? Buffer.allocUnsafe(chunkSize);
          const p = this.#read(sftp, path, handle, next, len, buf);
          p.catch(() => {}); // awaited in order below
          queue.push({ pos: next, len, buf, p });
          next += len;
        }
      };
      issue();
      while (queue.length > 0) {
        if (options.signal?.aborted) throw new SshError("cancelled", "cancelled");
        const head = queue.shift()!;
        let chunk = await head.p;
        if (chunk.length === 0) break; // the file shrank: caught by the count check
        await sink(chunk);
        bytes += chunk.length;
        // A short read that is not the end: fetch the rest of this piece before moving on.
        let at = head.pos + chunk.length;
        while (chunk.length > 0 && at < head.pos + head.len) {
          chunk = await this.#read(sftp, path, handle, at, head.pos + head.len - at, head.buf);
          if (chunk.length === 0) break;
          await sink(chunk);
          bytes += chunk.length;
          at += chunk.length;
        }
        if (at < head.pos + head.len) break;
        pool.push(head.buf);
        issue();
      }
    } catch (err) {
      if (
        err instanceof SshError && (err.kind === "connection_lost" || err.kind === "io_error") && size > 0
      ) {
        throw new SshError(
          "partial_transfer",
          `partial transfer of ${path} from ${this.#alias}: ${bytes} of ${size} bytes arrived (${err.message})`,
          { alias: this.#alias, path, bytes, size },
        );
      }
      throw err;
    } finally {
      if (!this.#gone()) await this.#closeHandle(sftp, handle);
    }
    if (bytes !== size) {
      throw new SshError(
        "partial_transfer",
        `partial transfer of ${path} from ${this.#alias}: ${bytes} of ${size} bytes arrived`,
        { alias: this.#alias, path, bytes, size },
      );
    }
    return { size, bytes };
  }

  async push(
    source: PushSource,
    path: string,
    options: { signal?: AbortSignal; mode?: number } = {},
  ): Promise<TransferResult> {
    const slash = path.lastIndexOf("/");
    const tmp = `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.assist-part-${
      crypto.getRandomValues(new Uint8Array(4)).toHex()
    }`;
    // An error names the target the operator gave, never the temporary name beside it.
    const named = (err: unknown) =>
      err instanceof SshError && err.message.includes(tmp)
        ? new SshError(err.kind, err.message.split(tmp).join(path), { ...err.extra, path }, err)
        : err;
    const { sftp, handle } = await this.#open(tmp, "w", options.mode ?? 0o644).catch((err) => {
      if (err instanceof SshError && err.kind === "not_found") {
        throw new SshError("not_found", `no such folder on ${this.#alias} for ${path}`, {
          alias: this.#alias,
          path,
        });
      }
      throw named(err);
    });
    let bytes = 0;
    let handleOpen = true;
    try {
      const inflight: Promise<void>[] = [];
      const write = (buf: Buffer, pos: number) =>
        this.#state.op<void>((resolve, reject) => {
          sftp.write(handle, buf, 0, buf.length, pos, (err) => {
            if (!err) resolve();
            else if (this.#gone()) reject(this.#state.error());
            else reject(sftpError(this.#alias, path, err));
          });
        });
      for await (const chunk of source.chunks) {
        if (options.signal?.aborted) throw new SshError("cancelled", "cancelled");
        for (let off = 0; off < chunk.length; off += WRITE_CHUNK) {
          const piece = chunk.subarray(off, Math.min(chunk.length, off + WRITE_CHUNK));
          const p = write(Buffer.from(piece), bytes);
          p.catch(() => {});
          inflight.push(p);
          bytes += piece.length;
          if (inflight.length >= WRITE_DEPTH) await inflight.shift();
        }
      }
      await Promise.all(inflight);
      const st = toStat(await this.#call<Ssh2Stats>(tmp, (s, cb) => s.fstat(handle, cb)));
      if (bytes !== source.size || st.size !== source.size) {
        throw new SshError(
          "partial_transfer",
          `partial transfer to ${this.#alias}:${path}: ${st.size} of ${source.size} bytes written`,
          { alias: this.#alias, path, bytes: st.size, size: source.size },
        );
      }
      handleOpen = false;
      await this.#closeHandle(sftp, handle);
      await this.#rename(sftp, tmp, path);
      const final = await this.stat(path);
      if (!final || final.size !== source.size) {
        throw new SshError(
          "partial_transfer",
          `after the push, ${this.#alias}:${path} holds ${final?.size ?? 0} bytes, not ${source.size}`,
          { alias: this.#alias, path, bytes: final?.size ?? 0, size: source.size },
        );
      }
      return { size: source.size, bytes };
    } catch (err) {
      if (!this.#gone()) {
        if (handleOpen) await this.#closeHandle(sftp, handle);
        await this.#state.op<void>((r) => sftp.unlink(tmp, () => r())).catch(() => {});
      }
      if (err instanceof SshError && err.kind === "connection_lost") {
        throw new SshError(
          "partial_transfer",
          `partial transfer to ${this.#alias}:${path}: ${bytes} of ${source.size} bytes sent (${err.message})`,
          { alias: this.#alias, path, bytes, size: source.size },
        );
      }
      throw named(err);
    }
  }

  #rename(sftp: Ssh2Sftp, from: string, to: string): Promise<void> {
    return this.#state.op<void>((resolve, reject) => {
      const done = (err?: (Error & { code?: number }) | null) => {
        if (!err) resolve();
        else if (this.#gone()) reject(this.#state.error());
        else reject(sftpError(this.#alias, to, err));
      };
      try {
        // posix-rename@openssh.com replaces the target atomically; plain SFTP rename refuses to.
        sftp.ext_openssh_rename(from, to, done);
      } catch {
        sftp.unlink(to, () => sftp.rename(from, to, done));
      }
    });
  }
}
