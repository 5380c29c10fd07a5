/**
 * The life of one ssh2 connection as an explicit state machine, and the registry of the remote
 * operations in flight on it (ssh/connection.ts owns one of each).
 *
 * ```
 * connecting ──► ready ──► closing ──► closed
 *     │            │                     ▲
 *     │            └──► lost ────────────┤
 *     └──────────────────────────────────┘   (a failed handshake)
 * ```
 *
 * - `connecting`: key exchange and authentication; no operation may start.
 * - `ready`: operations start and run.
 * - `closing`: we asked the server to end the connection; no new operation starts, the ones in
 *   flight may still finish.
 * - `lost`: the connection dropped under us (socket error, keepalive timeout, the server went away).
 * - `closed`: the end; nothing leaves it.
 *
 * Entering `lost` or `closed` rejects every operation still in flight: ssh2 does not always call
 * back the requests of a connection that dropped mid-transfer, so a caller is told here and never
 * waits forever.
 *
 * @module
 */
import { SshError } from "./errors.ts";

export type ConnState = "connecting" | "ready" | "closing" | "lost" | "closed";

/** The transitions allowed from each state; anything else is refused. */
export const TRANSITIONS: Readonly<Record<ConnState, readonly ConnState[]>> = {
  connecting: ["ready", "closed"],
  ready: ["closing", "lost"],
  closing: ["closed"],
  lost: ["closed"],
  closed: [],
};

/** Settles an operation from outside (the connection went away); may undo the operation's setup. */
interface Pending {
  fail(err: SshError): void;
}

/**
 * Starts an operation: call `resolve` or `reject` once. May return a clean-up, run when the
 * operation is failed from outside because the connection went away.
 */
export type OpExecutor<T> = (
  resolve: (value: T) => void,
  reject: (err: unknown) => void,
) => void | (() => void);

export class ConnectionState {
  readonly alias: string;
  readonly target: string;
  #state: ConnState = "connecting";
  #reason: string | undefined;
  #pending = new Set<Pending>();

  constructor(alias: string, target: string) {
    this.alias = alias;
    this.target = target;
  }

  get state(): ConnState {
    return this.#state;
  }

  /** Why the connection was lost; undefined unless the state is `lost` (or `closed` after it). */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Operations in flight. */
  get inFlight(): number {
    return this.#pending.size;
  }

  can(next: ConnState): boolean {
    return TRANSITIONS[this.#state].includes(next);
  }

  /**
   * Moves to `next`; a transition the table does not allow throws (a bug in the caller). `reason`
   * says why a connection was lost. Entering `lost` or `closed` fails every operation in flight.
   */
  to(next: ConnState, reason?: string): void {
    if (!this.can(next)) {
      throw new Error(`connection to ${this.alias}: ${this.#state} → ${next} is not a valid transition`);
    }
    this.#state = next;
    if (next === "lost") this.#reason = reason ?? "unknown reason";
    if (next === "lost" || next === "closed") {
      const err = this.error();
      const pending = [...this.#pending];
      this.#pending.clear();
      for (const p of pending) p.fail(err);
    }
  }

  /** The error an operation gets in the current state (not meaningful while `ready`). */
  error(): SshError {
    const who = `the connection to ${this.alias} (${this.target})`;
    const extra = { alias: this.alias };
    if (this.#state === "connecting") {
      return new SshError("connection_lost", `${who} is not ready yet`, extra);
    }
    if (this.#state === "closing") return new SshError("connection_lost", `${who} is closing`, extra);
    // Closed after it was lost keeps the reason it was lost for.
    if (this.#state === "closed" && this.#reason === undefined) {
      return new SshError("connection_lost", `${who} was closed`, extra);
    }
    return new SshError("connection_lost", `${who} was lost: ${this.#reason ?? "unknown reason"}`, extra);
  }

  /** Throws unless operations may start (the state is `ready`). */
  check(): void {
    if (this.#state !== "ready") throw this.error();
  }

  /**
   * One remote operation's promise: refused unless `ready`, and rejected when the connection is
   * lost or closed while it runs.
   */
  op<T>(executor: OpExecutor<T>): Promise<T> {
    if (this.#state !== "ready") return Promise.reject(this.error());
    return new Promise<T>((resolve, reject) => {
      let cleanup: (() => void) | void = undefined;
      const entry: Pending = {
        fail: (err) => {
          try {
            cleanup?.();
          } catch { /* best effort */ }
          reject(err);
        },
      };
      this.#pending.add(entry);
      try {
        cleanup = executor(
          (v) => (this.#pending.delete(entry), resolve(v)),
          (e) => (this.#pending.delete(entry), reject(e)),
        );
      } catch (err) {
        this.#pending.delete(entry);
        reject(err);
      }
    });
  }
}
