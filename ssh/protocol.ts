/**
 * The master's socket protocol (version 1). One request per connection: the client connects, sends
 * one request, reads the reply, and the connection closes. Closing the connection early cancels the
 * request (a running remote command is killed).
 *
 * Framing: every message is a frame `[type: u8][length: u32 big-endian][payload]`, payload at most
 * 1 MiB. Types:
 * - `J` (0x4a) a JSON object (UTF-8), either direction;
 * - `O` (0x4f) / `E` (0x45) stdout / stderr bytes of a command (master → client);
 * - `D` (0x44) file bytes (master → client for pull and read, client → master for push).
 *
 * Requests (the first frame, `J`): `{"t":"req","v":1,"op":..., "token"?: ...}` with op one of
 * - `status` → `done` with `{pid, alias, target, since, transport, fingerprint, served}`;
 * - `exec {command, timeoutMs?, maxBytes?}` → `O`/`E` frames, then `done {code, exitSignal?,
 *   droppedStdout, droppedStderr, timedOut, banner}`;
 * - `stat {path}` / `list {path}` / `realpath {path}` → `done {value}`;
 * - `read {path, offset, length}` → `D` frames, then `done {bytes}`;
 * - `pull {path}` → `start {size}`, `D` frames, then `done {size, bytes}`;
 * - `push {path, size, mode?}` → the client sends `D` frames then `J {"t":"eof"}`; the master
 *   answers `done {size, bytes}`;
 * - `close` → `done {}`, then the master closes its SSH connection, removes the socket and exits.
 * Any request may instead end in `error {kind, message, extra}` (an SshError on the wire).
 *
 * `token` is required on the TCP transport (Windows), where the socket file holds it; on a Unix
 * socket the file's mode (0600, folder 0700) is the access control and no token is used.
 *
 * @module
 */
import { SshError } from "./errors.ts";

export const PROTOCOL_VERSION = 1;
export const FRAME_JSON = 0x4a;
export const FRAME_OUT = 0x4f;
export const FRAME_ERR = 0x45;
export const FRAME_DATA = 0x44;
export const MAX_FRAME = 1 << 20;

export type Op =
  | "status"
  | "exec"
  | "stat"
  | "list"
  | "realpath"
  | "read"
  | "pull"
  | "pull_into"
  | "push"
  | "close";

export interface Request {
  t: "req";
  v: number;
  op: Op;
  token?: string;
  command?: string;
  timeoutMs?: number;
  maxBytes?: number;
  path?: string;
  /** pull_into: the local file the master writes (see ssh/master_requests.ts). */
  into?: string;
  offset?: number;
  length?: number;
  size?: number;
  mode?: number;
}

export interface Frame {
  type: number;
  payload: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of one frame. */
export function encodeFrame(type: number, payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_FRAME) {
    throw new RangeError(`frame of ${payload.length} bytes exceeds ${MAX_FRAME}`);
  }
  const out = new Uint8Array(5 + payload.length);
  out[0] = type;
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

export function jsonFrame(obj: unknown): Uint8Array {
  return encodeFrame(FRAME_JSON, encoder.encode(JSON.stringify(obj)));
}

export function parseJson(frame: Frame): Record<string, unknown> {
  if (frame.type !== FRAME_JSON) {
    throw protocolError(`expected a JSON frame, got type 0x${frame.type.toString(16)}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(decoder.decode(frame.payload));
  } catch {
    throw protocolError("unreadable JSON frame");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw protocolError("JSON frame is not an object");
  return v as Record<string, unknown>;
}

export function protocolError(message: string): SshError {
  return new SshError("protocol", `SSH master protocol error: ${message}`);
}

/** The stream ended in the middle of a frame: the other side went away. */
function truncated(message: string): SshError {
  return new SshError("protocol", `SSH master protocol error: ${message}`, { truncated: true });
}

export interface ByteWriter {
  write(p: Uint8Array): Promise<number>;
}

/** Writes all bytes (a socket write may take only part). */
export async function writeAll(w: ByteWriter, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await w.write(bytes.subarray(off));
}

/** Writes one frame; large payloads go without a copy (header, then payload). */
export async function writeFrame(w: ByteWriter, type: number, payload: Uint8Array): Promise<void> {
  if (payload.length < 64 * 1024) {
    await writeAll(w, encodeFrame(type, payload));
    return;
  }
  if (payload.length > MAX_FRAME) {
    for (let off = 0; off < payload.length; off += MAX_FRAME) {
      await writeFrame(w, type, payload.subarray(off, Math.min(payload.length, off + MAX_FRAME)));
    }
    return;
  }
  const head = new Uint8Array(5);
  head[0] = type;
  new DataView(head.buffer).setUint32(1, payload.length);
  await writeAll(w, head);
  await writeAll(w, payload);
}

export interface ByteReader {
  read(p: Uint8Array): Promise<number | null>;
}

/** Reads frames from a byte stream, buffering as needed. */
export class FrameReader {
  #src: ByteReader;
  #buf = new Uint8Array(256 * 1024);
  #start = 0;
  #end = 0;
  constructor(src: ByteReader) {
    this.#src = src;
  }

  async #fill(n: number): Promise<boolean> {
    while (this.#end - this.#start < n) {
      if (this.#start > 0 && (this.#buf.length - this.#end < n || this.#start === this.#end)) {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      }
      if (this.#buf.length - this.#start < n) {
        const bigger = new Uint8Array(Math.max(n, this.#buf.length * 2));
        bigger.set(this.#buf.subarray(this.#start, this.#end));
        this.#end -= this.#start;
        this.#start = 0;
        this.#buf = bigger;
      }
      const got = await this.#src.read(this.#buf.subarray(this.#end));
      if (got === null || got === 0) return false;
      this.#end += got;
    }
    return true;
  }

  /** The next frame; null at a clean end of stream; a protocol error on a torn frame. */
  async next(): Promise<Frame | null> {
    if (!(await this.#fill(5))) {
      if (this.#end === this.#start) return null;
      throw truncated("the stream ended inside a frame header");
    }
    const type = this.#buf[this.#start];
    const len = new DataView(this.#buf.buffer, this.#buf.byteOffset + this.#start + 1, 4).getUint32(0);
    if (len > MAX_FRAME) throw protocolError(`frame of ${len} bytes exceeds ${MAX_FRAME}`);
    if (type !== FRAME_JSON && type !== FRAME_OUT && type !== FRAME_ERR && type !== FRAME_DATA) {
      throw protocolError(`unknown frame type 0x${type.toString(16)}`);
    }
    this.#start += 5;
    if (!(await this.#fill(len))) throw truncated("the stream ended inside a frame");
    const payload = this.#buf.slice(this.#start, this.#start + len);
    this.#start += len;
    return { type, payload };
  }
}

/** Constant-time comparison of two tokens. */
export function sameToken(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
