/**
 * What the tools use to reach an engine host, whichever way it is reached: an open ssh2 connection
 * in this process (direct mode, and inside the master), or a client of the master's socket. Both
 * implement {@link Remote}; failures are {@link SshError}s with a kind.
 *
 * @module
 */

export interface ExecOptions {
  /** Kill the remote command after this long (it gets SIGKILL and the channel is closed). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Bytes kept per stream; the rest is counted and discarded.
   * @default EXEC_CAPTURE_BYTES (4 MiB, core/exec_budget.ts: the budget bash_exec uses too)
   */
  maxBytes?: number;
}

export interface ExecResult {
  /** Exit status; null when the command was killed by a signal or never reported one. */
  code: number | null;
  /** The signal that ended the command, when the server said. */
  exitSignal?: string;
  stdout: Uint8Array;
  stderr: Uint8Array;
  droppedStdout: number;
  droppedStderr: number;
  timedOut: boolean;
  /** The server's login banner, when it sent one (for the stderr noise filter). */
  banner?: string;
}

export interface RemoteStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  /** Modification time, ms since the epoch (SFTP gives seconds). */
  mtimeMs: number;
  mode: number;
}

export interface RemoteEntry extends RemoteStat {
  name: string;
}

/**
 * Receives a pulled file's bytes in order; may apply back-pressure by returning a promise. A chunk's
 * memory is reused for later bytes once the sink has returned (or its promise has settled): a sink
 * that keeps bytes copies them.
 */
export type PullSink = (chunk: Uint8Array) => void | Promise<void>;

export interface PullOptions {
  signal?: AbortSignal;
  /** Called once with the file's size before the first byte. */
  onStart?: (size: number) => void;
}

export interface TransferResult {
  /** The file's size when the transfer started. */
  size: number;
  /** Bytes moved. Equal to `size` on success; a mismatch is a partial_transfer error. */
  bytes: number;
}

export interface PushSource {
  size: number;
  /** The bytes, in order. */
  chunks: AsyncIterable<Uint8Array>;
}

export interface Remote {
  readonly alias: string;
  readonly mode: "master" | "direct";
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Follows symlinks; undefined when nothing is there. */
  stat(path: string): Promise<RemoteStat | undefined>;
  /** A folder's entries (symlinks resolved; dangling ones left out), sorted by name. */
  list(path: string): Promise<RemoteEntry[]>;
  /** `length` bytes at `offset`, fewer at the end of the file. */
  readRange(path: string, offset: number, length: number): Promise<Uint8Array>;
  /** Streams a whole file; the byte count is checked against its size. */
  pull(path: string, sink: PullSink, options?: PullOptions): Promise<TransferResult>;
  /**
   * A master only: pulls a whole file straight into `into`, a local file this process has just
   * created empty (0600) beside its destination, which the master (same user, same machine) writes
   * itself instead of relaying the bytes through its socket. The byte count is checked as in pull.
   */
  pullInto?(path: string, into: string, options?: PullOptions): Promise<TransferResult>;
  /**
   * Writes a file: into a temporary name beside the target, checked for size, then renamed over it,
   * so a failed push never leaves a torn target.
   */
  push(
    source: PushSource,
    path: string,
    options?: { signal?: AbortSignal; mode?: number },
  ): Promise<TransferResult>;
  /** Resolves a path as the server sees it (`.` is the login folder). */
  realpath(path: string): Promise<string>;
  /** Ends this use of the remote (a direct connection is closed; a master stays up). */
  close(): Promise<void>;
}
