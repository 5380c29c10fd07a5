/**
 * The client side of the master's socket (protocol: ssh/protocol.ts), as a {@link Remote}: any
 * `assist` process (the REPL, `assist tools ssh_*`, another master's setup check) reaches an open
 * master through it. A missing socket, or one nobody listens on (a master that was killed: the file
 * is removed here), is a closed master: "open the master with /ssh-setup <alias> first".
 *
 * @module
 */
import { homePaths } from "../core/home.ts";
import { fromWire, masterClosed, SshError } from "./errors.ts";
import { socketPath, type Transport } from "./paths.ts";
import {
  FRAME_DATA,
  FRAME_ERR,
  FRAME_JSON,
  FRAME_OUT,
  FrameReader,
  jsonFrame,
  type Op,
  parseJson,
  PROTOCOL_VERSION,
  protocolError,
  type Request,
  writeAll,
  writeFrame,
} from "./protocol.ts";
import type {
  ExecOptions,
  ExecResult,
  PullOptions,
  PullSink,
  PushSource,
  Remote,
  RemoteEntry,
  RemoteStat,
  TransferResult,
} from "./remote.ts";
import { concat } from "../core/bytes.ts";

/** How long a request may wait for the master's next frame (a transfer's next chunk, a reply). */
const IDLE_MS = 60_000;
/** A status probe (used by status and setup): a stuck master must not hang them. */
const STATUS_IDLE_MS = 5_000;
/** An exec without its own timeout. */
const EXEC_IDLE_MS = 3_600_000;

/** `.ssh-sockets/<alias>.lost`: why the alias's last master ended on its own. */
export function lostNotePath(home: string, alias: string): string {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return `${homePaths(home).sshSockets}${sep}${alias}.lost`;
}

/** The reason and time a master lost its connection, if it left a note. */
export async function readLostNote(
  home: string,
  alias: string,
): Promise<{ reason: string; at: string } | undefined> {
  try {
    const obj = JSON.parse(await Deno.readTextFile(lostNotePath(home, alias)));
    if (typeof obj?.reason === "string" && typeof obj?.at === "string") return obj;
  } catch { /* none */ }
  return undefined;
}

interface Address {
  transport: Transport;
  path: string;
  port?: number;
  token?: string;
}

/**
 * Where the alias's master listens, or undefined when there is no socket file. The file says which
 * transport the master chose (ssh/paths.ts chooseTransport): a socket is a Unix socket; a regular
 * file holds the loopback port and token.
 */
async function address(home: string, alias: string): Promise<Address | undefined> {
  const path = socketPath(home, alias);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    return undefined;
  }
  if (!info.isFile) return { transport: "unix", path };
  try {
    const obj = JSON.parse(await Deno.readTextFile(path));
    if (obj?.transport === "tcp" && Number.isInteger(obj.port) && typeof obj.token === "string") {
      return { transport: "tcp", path, port: obj.port, token: obj.token };
    }
  } catch { /* unreadable */ }
  return { transport: "tcp", path };
}

/** Connects to the master; a dead socket file is removed and reported as a closed master. */
async function dial(
  home: string,
  alias: string,
  addr?: Address,
): Promise<{ conn: Deno.Conn; token?: string }> {
  const a = addr ?? await address(home, alias);
  const closed = async () => {
    const note = await readLostNote(home, alias);
    return masterClosed(alias, note ? `its connection was lost at ${note.at}: ${note.reason}` : undefined);
  };
  if (!a) throw await closed();
  try {
    if (a.transport === "unix") return { conn: await Deno.connect({ transport: "unix", path: a.path }) };
    if (a.port === undefined) throw new Deno.errors.ConnectionRefused("no port");
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: a.port });
    conn.setNoDelay(true);
    return { conn, token: a.token };
  } catch (err) {
    if (err instanceof Deno.errors.ConnectionRefused || err instanceof Deno.errors.NotFound) {
      // Nobody listens: a killed master left its socket behind. Clean it up.
      await Deno.remove(a.path).catch(() => {});
      throw await closed();
    }
    throw new SshError("io_error", `cannot reach the master of ${alias}: ${(err as Error).message}`, {
      alias,
    });
  }
}

/** One request/response exchange. */
class Exchange {
  readonly reader: FrameReader;
  #timedOut = false;
  #deadline = 0;
  #waiting = false;
  #watching = false;
  constructor(readonly conn: Deno.Conn, readonly alias: string, readonly idleMs: number) {
    this.reader = new FrameReader(conn);
  }
  send(bytes: Uint8Array): Promise<void> {
    return writeAll(this.conn, bytes);
  }
  /**
   * The next frame; the stream ending early means the master died mid-request. A master that says
   * nothing for `idleMs` (stopped, or stuck) is given up on: the request fails instead of hanging.
   */
  async next(): Promise<{ type: number; payload: Uint8Array }> {
    let f;
    this.#deadline = Date.now() + this.idleMs;
    this.#waiting = true;
    if (!this.#watching) this.#watch(this.idleMs);
    try {
      f = await this.reader.next();
    } catch (err) {
      if (this.#timedOut) throw this.#silent();
      if (err instanceof SshError && err.extra.truncated !== true) throw err;
      throw this.#gone();
    } finally {
      this.#waiting = false;
    }
    if (f === null) throw this.#timedOut ? this.#silent() : this.#gone();
    return f;
  }
  /**
   * The idle watchdog: one timer at a time per exchange, re-armed to the latest deadline when it
   * fires early (each frame moves the deadline). AbortSignal.timeout, not setTimeout: in this Deno
   * the first setTimeout of a process loads the Node timers layer (~5 ms, a third of an empty
   * `deno run`), and an `assist tools ssh_exec` is a process of its own. Its timer does not keep
   * the process alive; a pending read does.
   */
  #watch(ms: number): void {
    this.#watching = true;
    AbortSignal.timeout(ms).addEventListener("abort", () => {
      this.#watching = false;
      if (!this.#waiting) return;
      const left = this.#deadline - Date.now();
      if (left > 0) return this.#watch(left);
      this.#timedOut = true;
      this.close();
    }, { once: true });
  }
  #silent(): SshError {
    return new SshError(
      "timeout",
      `the master of ${this.alias} did not answer within ${Math.round(this.idleMs / 1000)} s ` +
        `(close it with /ssh-close ${this.alias} and open it again with /ssh-setup ${this.alias})`,
      { alias: this.alias },
    );
  }
  #gone(): SshError {
    return new SshError(
      "connection_lost",
      `the master of ${this.alias} went away during the request (run /ssh-setup ${this.alias} again)`,
      { alias: this.alias },
    );
  }
  close(): void {
    try {
      this.conn.close();
    } catch { /* closed */ }
  }
}

/** The final JSON frame: `done` gives its fields; `error` throws the SshError. */
function finalOf(obj: Record<string, unknown>): Record<string, unknown> {
  if (obj.t === "done") return obj;
  if (obj.t === "error") throw fromWire(obj);
  throw protocolError(`unexpected message "${String(obj.t)}"`);
}

/**
 * Whether the alias's master is up: its `status` facts, or undefined (a stale socket is removed).
 */
export async function probeMaster(home: string, alias: string): Promise<Record<string, unknown> | undefined> {
  try {
    return await new MasterClient(home, alias).status();
  } catch (err) {
    if (err instanceof SshError && err.kind === "master_closed") return undefined;
    throw err;
  }
}

/** The next frame of a reply; a failure after the caller's signal fired is reported as cancelled. */
async function nextFrame(ex: Exchange, signal?: AbortSignal): ReturnType<Exchange["next"]> {
  try {
    return await ex.next();
  } catch (e) {
    if (signal?.aborted) throw new SshError("cancelled", "cancelled");
    throw e;
  }
}

export class MasterClient implements Remote {
  readonly mode = "master" as const;
  constructor(readonly home: string, readonly alias: string) {}

  /** A client for an alias whose master is up (the socket file exists), else master_closed. */
  static async open(home: string, alias: string): Promise<MasterClient> {
    const a = await address(home, alias);
    if (!a) {
      const note = await readLostNote(home, alias);
      throw masterClosed(alias, note ? `its connection was lost at ${note.at}: ${note.reason}` : undefined);
    }
    return new MasterClient(home, alias);
  }

  async #start(op: Op, fields: Partial<Request>, signal?: AbortSignal, idleMs = IDLE_MS): Promise<Exchange> {
    if (signal?.aborted) throw new SshError("cancelled", "cancelled");
    const { conn, token } = await dial(this.home, this.alias);
    const ex = new Exchange(conn, this.alias, idleMs);
    const req: Request = { t: "req", v: PROTOCOL_VERSION, op, ...fields, ...(token ? { token } : {}) };
    try {
      await ex.send(jsonFrame(req));
    } catch {
      ex.close();
      throw new SshError("connection_lost", `the master of ${this.alias} went away`, { alias: this.alias });
    }
    // Closing the connection is how a request is cancelled.
    signal?.addEventListener("abort", () => ex.close(), { once: true });
    return ex;
  }

  async #simple(op: Op, fields: Partial<Request>, idleMs = IDLE_MS): Promise<Record<string, unknown>> {
    const ex = await this.#start(op, fields, undefined, idleMs);
    try {
      return finalOf(parseJson(await ex.next()));
    } finally {
      ex.close();
    }
  }

  /** The master's facts; a master that does not answer within 5 s counts as a failure. */
  status(): Promise<Record<string, unknown>> {
    return this.#simple("status", {}, STATUS_IDLE_MS);
  }

  /** Asks the master to end (socket removed, SSH connection closed). */
  async shutdown(): Promise<void> {
    await this.#simple("close", {});
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    // The reply comes when the command ends: allow its own timeout and a margin.
    const idle = options.timeoutMs ? options.timeoutMs + IDLE_MS : EXEC_IDLE_MS;
    const ex = await this.#start(
      "exec",
      {
        command,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
      },
      options.signal,
      idle,
    );
    const out: Uint8Array[] = [];
    const err: Uint8Array[] = [];
    try {
      while (true) {
        const f = await nextFrame(ex, options.signal);
        if (f.type === FRAME_OUT) out.push(f.payload);
        else if (f.type === FRAME_ERR) err.push(f.payload);
        else if (f.type === FRAME_JSON) {
          const d = finalOf(parseJson(f));
          return {
            code: typeof d.code === "number" ? d.code : null,
            exitSignal: typeof d.exitSignal === "string" ? d.exitSignal : undefined,
            stdout: concat(out),
            stderr: concat(err),
            droppedStdout: Number(d.droppedStdout ?? 0),
            droppedStderr: Number(d.droppedStderr ?? 0),
            timedOut: d.timedOut === true,
            banner: typeof d.banner === "string" ? d.banner : "",
          };
        } else throw protocolError("unexpected frame in an exec reply");
      }
    } finally {
      ex.close();
    }
  }

  async stat(path: string): Promise<RemoteStat | undefined> {
    const d = await this.#simple("stat", { path });
    return (d.value ?? undefined) as RemoteStat | undefined;
  }

  async list(path: string): Promise<RemoteEntry[]> {
    return (await this.#simple("list", { path })).value as RemoteEntry[];
  }

  async realpath(path: string): Promise<string> {
    return String((await this.#simple("realpath", { path })).value);
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const ex = await this.#start("read", { path, offset, length });
    const parts: Uint8Array[] = [];
    try {
      while (true) {
        const f = await ex.next();
        if (f.type === FRAME_DATA) parts.push(f.payload);
        else if (f.type === FRAME_JSON) {
          finalOf(parseJson(f));
          return concat(parts);
        } else throw protocolError("unexpected frame in a read reply");
      }
    } finally {
      ex.close();
    }
  }

  /** The error of a pull that ended short: `what` says how much arrived and why. */
  #partialPull(path: string, bytes: number, size: number | undefined, what: string): SshError {
    return new SshError("partial_transfer", `partial transfer of ${path} from ${this.alias}: ${what}`, {
      alias: this.alias,
      path,
      bytes,
      size,
    });
  }

  async pull(path: string, sink: PullSink, options: PullOptions = {}): Promise<TransferResult> {
    const ex = await this.#start("pull", { path }, options.signal);
    let size: number | undefined;
    let bytes = 0;
    try {
      while (true) {
        let f;
        try {
          f = await nextFrame(ex, options.signal);
        } catch (e) {
          if (e instanceof SshError && e.kind === "connection_lost" && size !== undefined) {
            throw this.#partialPull(path, bytes, size, `${bytes} of ${size} bytes arrived (${e.message})`);
          }
          throw e;
        }
        if (f.type === FRAME_DATA) {
          if (size === undefined) throw protocolError("data before the start of a pull");
          await sink(f.payload);
          bytes += f.payload.length;
        } else if (f.type === FRAME_JSON) {
          const obj = parseJson(f);
          if (obj.t === "start") {
            size = Number(obj.size);
            options.onStart?.(size);
            continue;
          }
          const d = finalOf(obj);
          const total = Number(d.size);
          if (size === undefined || bytes !== total || total !== size) {
            throw this.#partialPull(path, bytes, size ?? total, `${bytes} of ${size ?? total} bytes arrived`);
          }
          return { size, bytes };
        } else throw protocolError("unexpected frame in a pull reply");
      }
    } finally {
      ex.close();
    }
  }

  /**
   * Pulls a whole file into `into`, an empty 0600 file the caller has just created beside its
   * destination: the master writes it itself (ssh/master_requests.ts checks what it is given), so
   * the bytes do not cross the master's socket. Only progress and the final count come back.
   */
  async pullInto(path: string, into: string, options: PullOptions = {}): Promise<TransferResult> {
    const ex = await this.#start("pull_into", { path, into }, options.signal);
    let size: number | undefined;
    let bytes = 0;
    try {
      while (true) {
        let f;
        try {
          f = await nextFrame(ex, options.signal);
        } catch (e) {
          if (e instanceof SshError && e.kind === "connection_lost" && size !== undefined) {
            throw this.#partialPull(
              path,
              bytes,
              size,
              `the master went away after ${bytes} of ${size} bytes`,
            );
          }
          throw e;
        }
        if (f.type !== FRAME_JSON) throw protocolError("unexpected frame in a pull_into reply");
        const obj = parseJson(f);
        if (obj.t === "start") {
          size = Number(obj.size);
          options.onStart?.(size);
          continue;
        }
        if (obj.t === "progress") {
          bytes = Number(obj.bytes);
          continue;
        }
        const d = finalOf(obj);
        const total = Number(d.size);
        bytes = Number(d.bytes);
        if (bytes !== total || (size !== undefined && total !== size)) {
          throw this.#partialPull(path, bytes, size ?? total, `${bytes} of ${size ?? total} bytes arrived`);
        }
        return { size: total, bytes };
      }
    } finally {
      ex.close();
    }
  }

  async push(
    source: PushSource,
    path: string,
    options: { signal?: AbortSignal; mode?: number } = {},
  ): Promise<TransferResult> {
    const ex = await this.#start("push", { path, size: source.size, mode: options.mode }, options.signal);
    let sent = 0;
    try {
      let writeFailed = false;
      try {
        for await (const chunk of source.chunks) {
          if (options.signal?.aborted) throw new SshError("cancelled", "cancelled");
          await writeFrame(ex.conn, FRAME_DATA, chunk);
          sent += chunk.length;
        }
        await ex.send(jsonFrame({ t: "eof" }));
      } catch (err) {
        if (err instanceof SshError) throw err;
        writeFailed = true; // the master stopped reading: its reply says why
      }
      let f;
      try {
        f = await ex.next();
      } catch (e) {
        if (e instanceof SshError && e.kind === "connection_lost") {
          throw new SshError(
            "partial_transfer",
            `partial transfer to ${this.alias}:${path}: ${sent} of ${source.size} bytes sent (${e.message})`,
            { alias: this.alias, path, bytes: sent, size: source.size },
          );
        }
        throw e;
      }
      const d = finalOf(parseJson(f));
      if (writeFailed) throw protocolError("the master stopped reading the push but reported success");
      return { size: Number(d.size), bytes: Number(d.bytes) };
    } finally {
      ex.close();
    }
  }

  close(): Promise<void> {
    return Promise.resolve(); // the master stays up; each request had its own connection
  }
}
