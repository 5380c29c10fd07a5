/**
 * One authenticated ssh2 connection to an engine host, as a {@link Remote}: exec channels, and SFTP
 * for stat, listing, ranged reads and pipelined transfers. The master holds one for its lifetime;
 * direct mode opens one per command.
 *
 * This module is the entry and keeps the connection's life; the parts live beside it:
 * - ssh/handshake.ts: reaching the host, the host-key check, password authentication;
 * - ssh/conn_state.ts: the state machine (`connecting → ready → closing → closed`, or
 *   `ready → lost → closed`) and the operations in flight, all rejected when the connection is lost;
 * - ssh/exec.ts: commands on exec channels (output within core/exec_budget.ts);
 * - ssh/sftp.ts: SFTP requests and transfers;
 * - ssh/channel_gate.ts: the per-connection channel limit.
 *
 * @module
 */
import { ChannelGate } from "./channel_gate.ts";
import { ConnectionState, type ConnState } from "./conn_state.ts";
import { execOn } from "./exec.ts";
import { type ConnectOptions, handshake } from "./handshake.ts";
import type { HostKeyVerdict } from "./known_hosts.ts";
import { describeTarget } from "./registry.ts";
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
import { SftpOps } from "./sftp.ts";
import type { Ssh2Client } from "./_ssh2.ts";

export {
  type ConnectOptions,
  DEFAULT_READY_TIMEOUT_MS,
  KEEPALIVE_COUNT_MAX,
  KEEPALIVE_MS,
} from "./handshake.ts";
export type { ConnState } from "./conn_state.ts";

/** How long a graceful close may take before the socket is destroyed. */
const CLOSE_GRACE_MS = 2000;

/** Opens and authenticates a connection; throws an SshError with a kind. */
export async function connect(options: ConnectOptions): Promise<SshConnection> {
  const state = new ConnectionState(options.alias, describeTarget(options.host));
  let done;
  try {
    done = await handshake(options);
  } catch (err) {
    state.to("closed");
    throw err;
  }
  return new SshConnection(done.client, options, done.banner, done.hostKey, state);
}

export class SshConnection implements Remote {
  readonly alias: string;
  readonly mode: "master" | "direct";
  readonly banner: string;
  /** The host-key verdict of this connection (new keys are reported by setup). */
  readonly hostKey: HostKeyVerdict | undefined;
  readonly target: string;
  readonly #client: Ssh2Client;
  readonly #state: ConnectionState;
  readonly #gate = new ChannelGate();
  readonly #sftp: SftpOps;
  readonly #lostListeners = new Set<(reason: string) => void>();

  /** Takes over a client whose handshake succeeded; `state` is still `connecting` and becomes `ready`. */
  constructor(
    client: Ssh2Client,
    options: ConnectOptions,
    banner: string,
    hostKey: HostKeyVerdict | undefined,
    state: ConnectionState = new ConnectionState(options.alias, describeTarget(options.host)),
  ) {
    this.#client = client;
    this.#state = state;
    this.alias = options.alias;
    this.mode = options.mode;
    this.banner = banner;
    this.hostKey = hostKey;
    this.target = describeTarget(options.host);
    this.#sftp = new SftpOps(client, state, this.#gate);
    if (options.onLost) this.#lostListeners.add(options.onLost);
    client.removeAllListeners("error");
    client.removeAllListeners("close");
    client.on("error", (err) => {
      this.#dropped(
        err.level === "client-timeout" ? "keepalive timeout (the host stopped answering)" : err.message,
      );
    });
    client.on("close", () => this.#dropped("the connection was closed"));
    state.to("ready");
  }

  /** Where the connection is in its life. */
  get state(): ConnState {
    return this.#state.state;
  }

  /**
   * Why the connection is gone, or undefined while it is up: the reason it was lost, or "closed"
   * once we closed it.
   */
  get lost(): string | undefined {
    const s = this.#state.state;
    if (s === "connecting" || s === "ready") return undefined;
    return this.#state.reason ?? "closed";
  }

  onLost(fn: (reason: string) => void): void {
    this.#lostListeners.add(fn);
  }

  /**
   * The client reported an error or closed. While ready that is a lost connection (operations in
   * flight are rejected, listeners told); while closing it is the end we asked for.
   */
  #dropped(reason: string): void {
    const s = this.#state.state;
    if (s === "ready") {
      this.#state.to("lost", reason);
      for (const fn of this.#lostListeners) fn(reason);
    } else if (s === "closing") {
      this.#state.to("closed");
    }
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return execOn(
      { client: this.#client, state: this.#state, gate: this.#gate, banner: this.banner },
      command,
      options,
    );
  }

  stat(path: string): Promise<RemoteStat | undefined> {
    return this.#sftp.stat(path);
  }

  realpath(path: string): Promise<string> {
    return this.#sftp.realpath(path);
  }

  list(path: string): Promise<RemoteEntry[]> {
    return this.#sftp.list(path);
  }

  readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    return this.#sftp.readRange(path, offset, length);
  }

  pull(path: string, sink: PullSink, options: PullOptions = {}): Promise<TransferResult> {
    return this.#sftp.pull(path, sink, options);
  }

  push(
    source: PushSource,
    path: string,
    options: { signal?: AbortSignal; mode?: number } = {},
  ): Promise<TransferResult> {
    return this.#sftp.push(source, path, options);
  }

  /**
   * Ends the connection: a graceful end, the socket destroyed if the server does not close within
   * CLOSE_GRACE_MS. A lost connection is only marked closed. Closing twice is harmless.
   */
  close(): Promise<void> {
    const s = this.#state.state;
    if (s === "closed") return Promise.resolve();
    if (s === "lost") {
      this.#state.to("closed");
      try {
        this.#client.destroy();
      } catch { /* gone */ }
      return Promise.resolve();
    }
    if (s === "ready") this.#state.to("closing");
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        if (this.#state.can("closed")) this.#state.to("closed");
        resolve();
      };
      const t = setTimeout(() => {
        try {
          this.#client.destroy();
        } catch { /* gone */ }
        done();
      }, CLOSE_GRACE_MS);
      if (this.#state.state === "closed") done();
      else this.#client.once("close", done);
      try {
        this.#client.end();
      } catch {
        done();
      }
    });
  }
}
