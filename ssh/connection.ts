/**
 * One authenticated ssh2 connection to an engine host, as a {@link Remote}: exec channels, and SFTP
 * for stat, listing, ranged reads and pipelined transfers. The master holds one for its lifetime;
 * direct mode opens one per command.
 *
 * Connecting: password authentication only (then keyboard-interactive answering with the same
 * password, for PAM hosts that offer no plain password method); never keys or an agent. The host
 * key is checked against the trust-on-first-use store before authentication. TCP_NODELAY is set:
 * without it every request/response pair waits ~40 ms on delayed ACKs (measured: SFTP stat 44 ms →
 * 0.4 ms, exec round trip 90 ms → 4 ms).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Secret } from "../core/secret.ts";
import { concat } from "../core/bytes.ts";
import { newClient, type Ssh2Channel, type Ssh2Client, type Ssh2Sftp, type Ssh2Stats } from "./_ssh2.ts";
import { ALGORITHMS, hostKeyOrder } from "./algorithms.ts";
import { SshError } from "./errors.ts";
import {
  type HostKeyVerdict,
  type KnownHosts,
  loadKnownHosts,
  recordedTypes,
  recordHostKey,
  verdictFor,
} from "./known_hosts.ts";
import { describeTarget, type Host } from "./registry.ts";
import {
  EXEC_CAPTURE_BYTES,
  type ExecOptions,
  type ExecResult,
  type PullOptions,
  type PullSink,
  type PushSource,
  type Remote,
  type RemoteEntry,
  type RemoteStat,
  type TransferResult,
} from "./remote.ts";

export interface ConnectOptions {
  alias: string;
  host: Host;
  password: Secret;
  /** $ASSIST_HOME, for the host-key store. */
  home: string;
  mode: "master" | "direct";
  /** Bound on reaching the host and authenticating. @default 15000 */
  readyTimeoutMs?: number;
  /** SSH keepalive interval; 0 disables. @default 15000 */
  keepaliveMs?: number;
  /** Called when the connection drops after it was ready (the master exits on it). */
  onLost?: (reason: string) => void;
}

export const DEFAULT_READY_TIMEOUT_MS = 15_000;
export const KEEPALIVE_MS = 15_000;
/** Unanswered keepalives before the connection counts as lost. */
export const KEEPALIVE_COUNT_MAX = 3;
/** OpenSSH allows 10 sessions per connection (MaxSessions); we keep one for SFTP and a margin. */
const MAX_CHANNELS = 8;
/** How long a killed command's channel may take to close before we stop waiting for it. */
const KILL_GRACE_MS = 2000;
/** Pipelined SFTP reads: 16 requests of 256 KiB in flight (measured best on loopback). */
const READ_CHUNK = 256 * 1024;
const READ_DEPTH = 16;
const WRITE_CHUNK = 64 * 1024;
const WRITE_DEPTH = 16;
/** SFTP status codes (draft-ietf-secsh-filexfer-02). */
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;

function socketReason(err: Error & { code?: string }): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "EHOSTUNREACH":
      return "no route to host";
    case "ENETUNREACH":
      return "network unreachable";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return "unknown host name";
    case "ECONNRESET":
      return "connection reset";
    case "ETIMEDOUT":
      return "connection timed out";
    default:
      return err.message;
  }
}

/** Opens and authenticates a connection; throws an SshError with a kind. */
export async function connect(options: ConnectOptions): Promise<SshConnection> {
  const { host, alias } = options;
  const target = describeTarget(host);
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  let store: KnownHosts;
  try {
    store = await loadKnownHosts(options.home);
  } catch (err) {
    throw new SshError("io_error", `cannot read the host-key store: ${(err as Error).message}`, { alias });
  }
  let recording: Promise<void> | undefined;
  const client = newClient();
  let verdict: HostKeyVerdict | undefined;
  let verifyError: unknown;
  let banner = "";
  const password = options.password;
  let triedPassword = false;
  let triedKeyboard = false;

  const ready = new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (err: SshError) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      try {
        client.destroy();
      } catch { /* already down */ }
      reject(err);
    };
    // ssh2's readyTimeout covers connect, key exchange and authentication; this guard is a second
    // bound in case a callback never comes.
    const guard = setTimeout(() => {
      fail(
        new SshError(
          "timeout",
          `no SSH answer from ${target} within ${Math.round(readyTimeoutMs / 1000)} s`,
          {
            alias,
          },
        ),
      );
    }, readyTimeoutMs + 2000);
    client.on("banner", (message) => {
      banner += message;
    });
    client.once("ready", () => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      resolve();
    });
    client.on("error", (err) => {
      if (settled) return;
      if (verdict?.status === "changed") {
        fail(
          new SshError(
            "host_key_changed",
            `the host key of ${alias} (${target}) has CHANGED: it is now ${verdict.fingerprint}, recorded ` +
              `${verdict.recorded.join(", ")}; if the host was really re-keyed, run ` +
              `\`assist ssh forget-hostkey ${alias}\` and then /ssh-setup ${alias}`,
            { alias, fingerprint: verdict.fingerprint },
          ),
        );
        return;
      }
      if (verifyError !== undefined) {
        fail(
          new SshError(
            "io_error",
            `cannot check the host key of ${target}: ${(verifyError as Error).message}`,
            {
              alias,
            },
          ),
        );
        return;
      }
      switch (err.level) {
        case "client-authentication":
          fail(
            new SshError(
              "auth_failed",
              `${target} refused the stored password of ${alias}; set it again with /ssh-pass ${alias} ` +
                `and retry`,
              { alias },
            ),
          );
          return;
        case "client-timeout":
          fail(
            new SshError(
              "timeout",
              `no SSH answer from ${target} within ${Math.round(readyTimeoutMs / 1000)} s`,
              {
                alias,
              },
            ),
          );
          return;
        case "client-socket":
        case "client-dns":
          fail(new SshError("unreachable", `cannot reach ${target}: ${socketReason(err)}`, { alias }));
          return;
        default:
          fail(new SshError("unreachable", `SSH handshake with ${target} failed: ${err.message}`, { alias }));
      }
    });
    client.on("close", () => {
      fail(new SshError("unreachable", `${target} closed the connection during the handshake`, { alias }));
    });
  });

  client.connect({
    host: host.host,
    port: host.port,
    username: host.user,
    readyTimeout: readyTimeoutMs,
    keepaliveInterval: options.keepaliveMs ?? KEEPALIVE_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    algorithms: { ...ALGORITHMS, serverHostKey: hostKeyOrder(recordedTypes(store, host.host, host.port)) },
    // Answered synchronously (see ssh/known_hosts.ts for why); a new key is recorded right after.
    hostVerifier: (key, verify) => {
      try {
        const blob = new Uint8Array(key);
        verdict = verdictFor(store, host.host, host.port, blob);
        if (verdict.status === "new") {
          recording = recordHostKey(options.home, host.host, host.port, blob);
          recording.catch(() => {});
        }
      } catch (err) {
        verifyError = err;
      }
      verify(verifyError === undefined && verdict?.status !== "changed");
    },
    authHandler: (methodsLeft, _partial, next) => {
      if (!triedPassword) {
        triedPassword = true;
        next({ type: "password", username: host.user, password: password.reveal() });
        return;
      }
      if (!triedKeyboard && methodsLeft?.includes("keyboard-interactive")) {
        triedKeyboard = true;
        next({
          type: "keyboard-interactive",
          username: host.user,
          prompt: (_name, _instructions, _lang, prompts, finish) => {
            // Answer a password question with the password; anything else (a one-time code)
            // gets an empty answer and fails, rather than the password going somewhere else.
            finish(prompts.map((p) => (!p.echo && /pass/i.test(p.prompt) ? password.reveal() : "")));
          },
        });
        return;
      }
      next(false);
    },
  });
  // The socket exists once connect() has returned; delayed ACKs otherwise stall every round trip.
  client.setNoDelay(true);
  await ready;
  if (recording) {
    try {
      await recording;
    } catch (err) {
      client.destroy();
      throw new SshError("io_error", `cannot record the host key of ${target}: ${(err as Error).message}`, {
        alias,
      });
    }
  }
  return new SshConnection(client, options, banner, verdict);
}

/**
 * Sends a signal to a session's process group (OpenSSH: killpg). ssh2's own `signal()` only sends
 * while the channel is writable, and ours is not: stdin got its EOF at once. So the request goes
 * through the channel's protocol object directly (ssh2 1.17, pinned; Channel.signal does the same
 * call).
 */
function sendSignal(ch: Ssh2Channel, name: string): void {
  const c = ch as unknown as {
    outgoing?: { id: number; state: string };
    _client?: { _protocol?: { signal(id: number, name: string): void } };
  };
  try {
    if (c.outgoing?.state === "open" && c._client?._protocol) c._client._protocol.signal(c.outgoing.id, name);
    else ch.signal(name);
  } catch { /* the channel is gone */ }
}

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

function toStat(s: Ssh2Stats): RemoteStat {
  return {
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    size: s.size,
    mtimeMs: s.mtime * 1000,
    mode: s.mode & 0o7777,
  };
}

/** A tiny counting semaphore: channel opens beyond the server's session limit wait their turn. */
class Gate {
  #free: number;
  #waiting: (() => void)[] = [];
  constructor(n: number) {
    this.#free = n;
  }
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((r) => this.#waiting.push(r));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}

export class SshConnection implements Remote {
  readonly alias: string;
  readonly mode: "master" | "direct";
  readonly banner: string;
  /** The host-key verdict of this connection (new keys are reported by setup). */
  readonly hostKey: HostKeyVerdict | undefined;
  readonly target: string;
  #client: Ssh2Client;
  #sftp: Promise<Ssh2Sftp> | undefined;
  #lost: string | undefined;
  #closing = false;
  #gate = new Gate(MAX_CHANNELS);
  #lostListeners = new Set<(reason: string) => void>();
  /** Rejecters of the remote operations in flight: a lost connection settles them all. */
  #pending = new Set<(err: SshError) => void>();

  constructor(
    client: Ssh2Client,
    options: ConnectOptions,
    banner: string,
    hostKey: HostKeyVerdict | undefined,
  ) {
    this.#client = client;
    this.alias = options.alias;
    this.mode = options.mode;
    this.banner = banner;
    this.hostKey = hostKey;
    this.target = describeTarget(options.host);
    client.removeAllListeners("error");
    client.removeAllListeners("close");
    client.on("error", (err) => {
      this.#markLost(
        err.level === "client-timeout" ? "keepalive timeout (the host stopped answering)" : err.message,
      );
    });
    client.on("close", () => this.#markLost("the connection was closed"));
    if (options.onLost) this.#lostListeners.add(options.onLost);
  }

  /** Why the connection is gone, or undefined while it is up. */
  get lost(): string | undefined {
    return this.#lost;
  }

  onLost(fn: (reason: string) => void): void {
    this.#lostListeners.add(fn);
  }

  #markLost(reason: string): void {
    if (this.#lost !== undefined) return;
    this.#lost = this.#closing ? "closed" : reason;
    this.#sftp = undefined;
    // ssh2 does not always call back the requests of a connection that dropped mid-transfer:
    // fail them here, so a caller is told and never waits forever.
    const lostErr = this.#lostError();
    for (const fail of this.#pending) fail(lostErr);
    this.#pending.clear();
    if (!this.#closing) { for (const fn of this.#lostListeners) fn(reason); }
  }

  #lostError(): SshError {
    return new SshError(
      "connection_lost",
      `the connection to ${this.alias} (${this.target}) was lost: ${this.#lost ?? "unknown reason"}`,
      { alias: this.alias },
    );
  }

  /** One remote operation's promise, also rejected when the connection is lost. */
  #op<T>(executor: (resolve: (v: T) => void, reject: (e: unknown) => void) => void): Promise<T> {
    if (this.#lost !== undefined) return Promise.reject(this.#lostError());
    return new Promise<T>((resolve, reject) => {
      const fail = (e: SshError) => reject(e);
      this.#pending.add(fail);
      executor(
        (v) => (this.#pending.delete(fail), resolve(v)),
        (e) => (this.#pending.delete(fail), reject(e)),
      );
    });
  }

  #check(): void {
    if (this.#lost !== undefined) throw this.#lostError();
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.#lost !== undefined) return Promise.reject(this.#lostError());
    return this.#gate.acquire().then((release) => this.#exec(command, options).finally(release));
  }

  #exec(command: string, options: ExecOptions): Promise<ExecResult> {
    const cap = options.maxBytes ?? EXEC_CAPTURE_BYTES;
    return new Promise<ExecResult>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new SshError("cancelled", "cancelled"));
        return;
      }
      this.#client.exec(command, (err, ch) => {
        if (err || !ch) {
          if (this.#lost !== undefined) reject(this.#lostError());
          else {
            reject(
              new SshError(
                "io_error",
                `${this.alias} refused to run a command: ${err?.message ?? "no channel"}`,
              ),
            );
          }
          return;
        }
        const out = new Capture(cap);
        const errs = new Capture(cap);
        let code: number | null = null;
        let exitSignal: string | undefined;
        let exited = false;
        let timedOut = false;
        let cancelled = false;
        let settled = false;
        let grace: ReturnType<typeof setTimeout> | undefined;
        const kill = () => {
          sendSignal(ch, "KILL");
          try {
            ch.close();
          } catch { /* closed */ }
          // A server that ignores the signal keeps the channel open while the command runs: do not
          // wait for it.
          grace = setTimeout(() => finish(), KILL_GRACE_MS);
        };
        const timer = options.timeoutMs
          ? setTimeout(() => (timedOut = true, kill()), options.timeoutMs)
          : undefined;
        const onAbort = () => {
          cancelled = true;
          kill();
        };
        options.signal?.addEventListener("abort", onAbort);
        ch.on("data", (d) => out.add(d));
        ch.stderr.on("data", (d) => errs.add(d));
        ch.on("exit", (c: number | null, sig?: string) => {
          exited = true;
          code = typeof c === "number" ? c : null;
          if (sig) exitSignal = sig;
        });
        ch.on("error", () => {/* reported by close */});
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          clearTimeout(grace);
          options.signal?.removeEventListener("abort", onAbort);
          if (cancelled) {
            reject(new SshError("cancelled", "cancelled"));
            return;
          }
          if (!exited && !timedOut) {
            // No exit status: the connection went down under the command (or the server dropped
            // the channel). Give the connection a moment to report why.
            setTimeout(() => {
              if (this.#lost !== undefined) reject(this.#lostError());
              else {
                resolve({
                  code: null,
                  stdout: out.bytes(),
                  stderr: errs.bytes(),
                  droppedStdout: out.dropped,
                  droppedStderr: errs.dropped,
                  timedOut,
                });
              }
            }, 50);
            return;
          }
          resolve({
            code,
            exitSignal,
            stdout: out.bytes(),
            stderr: errs.bytes(),
            droppedStdout: out.dropped,
            droppedStderr: errs.dropped,
            timedOut,
            banner: this.banner,
          });
        };
        ch.on("close", finish);
        // The command reads no input: EOF at once, so nothing on the host waits for a keyboard.
        ch.end();
      });
    });
  }

  #sftpSession(): Promise<Ssh2Sftp> {
    this.#check();
    if (!this.#sftp) {
      const p = this.#gate.acquire().then((release) =>
        new Promise<Ssh2Sftp>((resolve, reject) => {
          this.#client.sftp((err, sftp) => {
            if (err || !sftp) {
              release();
              this.#sftp = undefined;
              if (this.#lost !== undefined) reject(this.#lostError());
              else {reject(
                  new SshError("io_error", `SFTP is not available on ${this.alias}: ${err?.message}`),
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
        })
      );
      this.#sftp = p;
    }
    return this.#sftp;
  }

  /** Runs one SFTP call, mapping its error; a dropped connection becomes connection_lost. */
  #call<T>(path: string, fn: (sftp: Ssh2Sftp, cb: (err: unknown, value: T) => void) => void): Promise<T> {
    return this.#sftpSession().then((sftp) =>
      this.#op<T>((resolve, reject) => {
        fn(sftp, (err, value) => {
          if (err) {
            if (this.#lost !== undefined) reject(this.#lostError());
            else reject(sftpError(this.alias, path, err as Error & { code?: number }));
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
    return this.#op<void>((resolve) => {
      try {
        sftp.close(handle, () => resolve());
      } catch {
        resolve();
      }
    }).catch(() => {});
  }

  #read(sftp: Ssh2Sftp, path: string, handle: Buffer, pos: number, len: number): Promise<Uint8Array> {
    return this.#op((resolve, reject) => {
      const buf = Buffer.allocUnsafe(len);
      sftp.read(handle, buf, 0, len, pos, (err, n) => {
        if (err) {
          if (this.#lost !== undefined) reject(this.#lostError());
          else reject(sftpError(this.alias, path, err));
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
      let got = 0;
      while (got < length) {
        const piece = await this.#read(sftp, path, handle, offset + got, Math.min(READ_CHUNK, length - got));
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
        throw new SshError("is_directory", `${path} on ${this.alias} is a folder, not a file`, { path });
      }
      size = st.size;
      options.onStart?.(size);
      // Reads are issued up to READ_DEPTH ahead and delivered strictly in order.
      const queue: { pos: number; len: number; p: Promise<Uint8Array> }[] = [];
      let next = 0;
      const issue = () => {
        while (queue.length < READ_DEPTH && next < size) {
          const len = Math.min(READ_CHUNK, size - next);
          const p = this.#read(sftp, path, handle, next, len);
          p.catch(() => {}); // awaited in order below
          queue.push({ pos: next, len, p });
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
          chunk = await this.#read(sftp, path, handle, at, head.pos + head.len - at);
          if (chunk.length === 0) break;
          await sink(chunk);
          bytes += chunk.length;
          at += chunk.length;
        }
        if (at < head.pos + head.len) break;
        issue();
      }
    } catch (err) {
      if (
        err instanceof SshError && (err.kind === "connection_lost" || err.kind === "io_error") && size > 0
      ) {
        throw new SshError(
          "partial_transfer",
          `partial transfer of ${path} from ${this.alias}: ${bytes} of ${size} bytes arrived (${err.message})`,
          { alias: this.alias, path, bytes, size },
        );
      }
      throw err;
    } finally {
      if (this.#lost === undefined) await this.#closeHandle(sftp, handle);
    }
    if (bytes !== size) {
      throw new SshError(
        "partial_transfer",
        `partial transfer of ${path} from ${this.alias}: ${bytes} of ${size} bytes arrived`,
        { alias: this.alias, path, bytes, size },
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
    const { sftp, handle } = await this.#open(tmp, "w", options.mode ?? 0o644).catch((err) => {
      if (err instanceof SshError && err.kind === "not_found") {
        throw new SshError("not_found", `no such folder on ${this.alias} for ${path}`, {
          alias: this.alias,
          path,
        });
      }
      throw err;
    });
    let bytes = 0;
    let handleOpen = true;
    try {
      const inflight: Promise<void>[] = [];
      const write = (buf: Buffer, pos: number) =>
        this.#op<void>((resolve, reject) => {
          sftp.write(handle, buf, 0, buf.length, pos, (err) => {
            if (!err) resolve();
            else if (this.#lost !== undefined) reject(this.#lostError());
            else reject(sftpError(this.alias, path, err));
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
          `partial transfer to ${this.alias}:${path}: ${st.size} of ${source.size} bytes written`,
          { alias: this.alias, path, bytes: st.size, size: source.size },
        );
      }
      handleOpen = false;
      await this.#closeHandle(sftp, handle);
      await this.#rename(sftp, tmp, path);
      const final = await this.stat(path);
      if (!final || final.size !== source.size) {
        throw new SshError(
          "partial_transfer",
          `after the push, ${this.alias}:${path} holds ${final?.size ?? 0} bytes, not ${source.size}`,
          { alias: this.alias, path, bytes: final?.size ?? 0, size: source.size },
        );
      }
      return { size: source.size, bytes };
    } catch (err) {
      if (this.#lost === undefined) {
        if (handleOpen) await this.#closeHandle(sftp, handle);
        await new Promise<void>((r) => sftp.unlink(tmp, () => r()));
      }
      if (err instanceof SshError && err.kind === "connection_lost") {
        throw new SshError(
          "partial_transfer",
          `partial transfer to ${this.alias}:${path}: ${bytes} of ${source.size} bytes sent (${err.message})`,
          { alias: this.alias, path, bytes, size: source.size },
        );
      }
      throw err;
    }
  }

  #rename(sftp: Ssh2Sftp, from: string, to: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (err?: (Error & { code?: number }) | null) => {
        if (!err) resolve();
        else reject(sftpError(this.alias, to, err));
      };
      try {
        // posix-rename@openssh.com replaces the target atomically; plain SFTP rename refuses to.
        sftp.ext_openssh_rename(from, to, done);
      } catch {
        sftp.unlink(to, () => sftp.rename(from, to, done));
      }
    });
  }

  close(): Promise<void> {
    if (this.#lost !== undefined) return Promise.resolve();
    this.#closing = true;
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        try {
          this.#client.destroy();
        } catch { /* gone */ }
        resolve();
      }, 2000);
      this.#client.once("close", () => {
        clearTimeout(t);
        resolve();
      });
      try {
        this.#client.end();
      } catch {
        clearTimeout(t);
        resolve();
      }
    });
  }
}

/** Keeps the first `cap` bytes of a stream and counts the rest. */
class Capture {
  #parts: Uint8Array[] = [];
  #kept = 0;
  dropped = 0;
  constructor(readonly cap: number) {}
  add(chunk: Uint8Array): void {
    const room = this.cap - this.#kept;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#parts.push(new Uint8Array(piece));
    this.#kept += piece.length;
    this.dropped += chunk.length - piece.length;
  }
  bytes(): Uint8Array {
    return concat(this.#parts, this.#kept);
  }
}
