/**
 * The slice of npm:ssh2 (1.17.0, pinned in deno.json) this program uses, typed by hand: ssh2 ships no
 * types, and the few calls below are all we rely on. Only ssh/connection.ts imports this module, so
 * ssh2 is loaded only when a connection is really opened.
 *
 * @module
 */
// First: sets ssh2's channel window before ssh2's client module is loaded (see that module).
import "./_ssh2_window.ts";
// ssh2 is CommonJS without type declarations: its default export is typed here.
import ssh2Module from "ssh2";
import type { Buffer } from "node:buffer";

export type Callback<T> = (
  err: (Error & { code?: number | string; level?: string }) | undefined | null,
  value: T,
) => void;

export interface Ssh2Stats {
  mode: number;
  uid: number;
  gid: number;
  size: number;
  atime: number;
  mtime: number;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

export interface Ssh2DirEntry {
  filename: string;
  longname: string;
  attrs: Ssh2Stats;
}

export interface Ssh2Sftp {
  open(path: string, flags: string, attrs: { mode?: number }, cb: Callback<Buffer>): void;
  close(handle: Buffer, cb: (err?: Error | null) => void): void;
  read(
    handle: Buffer,
    buf: Buffer,
    off: number,
    len: number,
    pos: number,
    cb: (err: (Error & { code?: number }) | undefined | null, bytesRead: number) => void,
  ): void;
  write(
    handle: Buffer,
    buf: Buffer,
    off: number,
    len: number,
    pos: number,
    cb: (err?: (Error & { code?: number }) | null) => void,
  ): void;
  fstat(handle: Buffer, cb: Callback<Ssh2Stats>): void;
  stat(path: string, cb: Callback<Ssh2Stats>): void;
  lstat(path: string, cb: Callback<Ssh2Stats>): void;
  readdir(path: string, cb: Callback<Ssh2DirEntry[]>): void;
  unlink(path: string, cb: (err?: (Error & { code?: number }) | null) => void): void;
  rename(from: string, to: string, cb: (err?: (Error & { code?: number }) | null) => void): void;
  ext_openssh_rename(from: string, to: string, cb: (err?: (Error & { code?: number }) | null) => void): void;
  realpath(path: string, cb: Callback<string>): void;
  /**
   * ssh2 internal (lib/protocol/SFTP.js): the largest read it sends as one request, from the
   * server's `limits@openssh.com` reply when it has one. Read by ssh/sftp.ts readSize.
   */
  readonly _maxReadLen?: number;
  end(): void;
  on(event: "close", fn: () => void): this;
  on(event: "error", fn: (err: Error) => void): this;
}

export interface Ssh2Stream {
  on(event: "data", fn: (chunk: Buffer) => void): this;
  on(event: "close", fn: () => void): this;
  on(event: "error", fn: (err: Error) => void): this;
  on(event: "end", fn: () => void): this;
}

export interface Ssh2Channel extends Ssh2Stream {
  stderr: Ssh2Stream;
  on(event: "data", fn: (chunk: Buffer) => void): this;
  on(event: "close", fn: () => void): this;
  on(event: "error", fn: (err: Error) => void): this;
  on(event: "end", fn: () => void): this;
  on(event: "exit", fn: (code: number | null, signal?: string) => void): this;
  end(): void;
  close(): void;
  signal(name: string): boolean;
}

export type AuthRequest =
  | { type: "password"; username: string; password: string }
  | {
    type: "keyboard-interactive";
    username: string;
    prompt: (
      name: string,
      instructions: string,
      lang: string,
      prompts: { prompt: string; echo: boolean }[],
      finish: (answers: string[]) => void,
    ) => void;
  }
  | false;

export interface Ssh2ConnectConfig {
  host: string;
  port: number;
  username: string;
  readyTimeout: number;
  keepaliveInterval: number;
  keepaliveCountMax: number;
  hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => void;
  authHandler: (
    methodsLeft: string[] | null,
    partialSuccess: boolean | null,
    next: (req: AuthRequest) => void,
  ) => void;
  algorithms: Record<string, string[]>;
  ident?: string;
}

export interface Ssh2Client {
  connect(config: Ssh2ConnectConfig): this;
  exec(command: string, cb: Callback<Ssh2Channel>): boolean;
  sftp(cb: Callback<Ssh2Sftp>): boolean;
  setNoDelay(noDelay: boolean): this;
  end(): this;
  destroy(): this;
  on(event: "ready" | "close" | "end", fn: () => void): this;
  on(event: "error", fn: (err: Error & { level?: string; code?: string }) => void): this;
  on(event: "banner", fn: (message: string) => void): this;
  once(event: "ready" | "close" | "end", fn: () => void): this;
  once(event: "error", fn: (err: Error & { level?: string; code?: string }) => void): this;
  removeAllListeners(event?: string): this;
}

interface Ssh2Exports {
  Client: new () => Ssh2Client;
}

/** A fresh ssh2 client. */
export function newClient(): Ssh2Client {
  return new (ssh2Module as unknown as Ssh2Exports).Client();
}
