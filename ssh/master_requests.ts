/**
 * The requests the SSH master serves (protocol: ssh/protocol.ts). A request is decoded in one place,
 * {@link decodeRequest}: the JSON frame, the envelope (`t`, `v`), the token on the TCP transport,
 * and the fields of its kind, checked and typed. It then runs through one table,
 * {@link REQUESTS}: request kind → its field decoder and its handler. A kind the table does not
 * hold is refused with a protocol error that names it and the kinds this master serves.
 *
 * @module
 */
import { SshError } from "./errors.ts";
import {
  type ByteWriter,
  type Frame,
  FRAME_DATA,
  FRAME_ERR,
  FRAME_JSON,
  FRAME_OUT,
  type FrameReader,
  jsonFrame,
  type Op,
  parseJson,
  PROTOCOL_VERSION,
  protocolError,
  sameToken,
  writeAll,
  writeFrame,
} from "./protocol.ts";
import type { Remote } from "./remote.ts";

/** The fields of each request kind, as the handlers get them. */
export interface RequestFields {
  status: Record<never, never>;
  exec: { command: string; timeoutMs?: number; maxBytes?: number };
  stat: { path: string };
  list: { path: string };
  realpath: { path: string };
  read: { path: string; offset: number; length: number };
  pull: { path: string };
  pull_into: { path: string; into: string };
  push: { path: string; size: number; mode?: number };
  close: Record<never, never>;
}

/** A decoded request: its kind and its checked fields. */
export type MasterRequest = { [K in Op]: { op: K } & RequestFields[K] }[Op];

/** What a handler works with. */
export interface RequestContext {
  /** The client's connection: replies are written here. */
  conn: ByteWriter;
  /** The client's frames after the request (a push reads its data from here). */
  reader: FrameReader;
  /** Aborted when the client goes away (not for kinds that read their own frames). */
  signal: AbortSignal;
  remote: Remote;
  /** The master's facts for `status`, with the count of requests served. */
  status(): Record<string, unknown>;
  /** A client asked the master to close. */
  requestClose(): void;
}

interface RequestKind<K extends Op> {
  /** Checks and types the request's own fields (the envelope is already checked). */
  decode(raw: Record<string, unknown>): RequestFields[K];
  /** The handler reads the client's frames itself, so the end of its stream is not a cancel. */
  readsFrames?: boolean;
  run(req: RequestFields[K], cx: RequestContext): Promise<void>;
}

function text(raw: Record<string, unknown>, op: Op, name: string): string {
  const v = raw[name];
  if (typeof v !== "string") throw protocolError(`${op} without a ${name}`);
  return v;
}

/** A non-negative integer field; `fallback` when absent (undefined: the field is optional). */
function count<F extends number | undefined>(
  raw: Record<string, unknown>,
  op: Op,
  name: string,
  fallback: F,
): number | F {
  const v = raw[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw protocolError(`${op} with a ${name} that is not a non-negative integer`);
  }
  return v;
}

function required(raw: Record<string, unknown>, op: Op, name: string): number {
  const v = count(raw, op, name, undefined);
  if (v === undefined) throw protocolError(`${op} without a ${name}`);
  return v;
}

const done = (cx: RequestContext, fields: Record<string, unknown> = {}) =>
  writeAll(cx.conn, jsonFrame({ t: "done", ...fields }));

const path = (op: Op) => (raw: Record<string, unknown>) => ({ path: text(raw, op, "path") });

/** pull_into: a progress frame after this many bytes written. */
const PROGRESS_BYTES = 16 << 20;

/**
 * Opens the local file a `pull_into` writes. The master writes only into what the client has just
 * made for it after its own write-target checks (tools/ssh/run/_remote.ts, ssh/transfer.ts): an
 * existing, empty, regular file (not a link) named `<destination>.part-<8 hex>`, owned by this user
 * and private to it (0600). Anything else is refused, so the request cannot make the master write
 * anywhere the client could not have.
 */
async function openPullTarget(into: string): Promise<Deno.FsFile> {
  const refuse = (why: string) =>
    new SshError("permission_denied", `the master will not write ${into}: ${why}`, { path: into });
  if (!/[\\/][^\\/]*\.part-[0-9a-f]{8}$/.test(into) || !/^(\/|[A-Za-z]:[\\/])/.test(into)) {
    throw refuse("not an absolute path to a .part-<hex> file");
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(into);
  } catch {
    throw refuse("it does not exist (the client creates it first)");
  }
  if (!info.isFile || info.isSymlink) throw refuse("not a regular file");
  if (info.size !== 0) throw refuse("not empty");
  if (Deno.build.os !== "windows") {
    if (info.uid !== Deno.uid()) throw refuse("owned by another user");
    if (info.mode !== null && (info.mode & 0o077) !== 0) throw refuse("readable by others");
  }
  const file = await Deno.open(into, { write: true });
  const opened = file.statSync();
  if (opened.ino !== info.ino || opened.dev !== info.dev) {
    file.close();
    throw refuse("it was replaced while being opened");
  }
  return file;
}

/** The table: request kind → decoder and handler. */
export const REQUESTS: { readonly [K in Op]: RequestKind<K> } = {
  status: {
    decode: () => ({}),
    run: (_req, cx) => done(cx, cx.status()),
  },
  exec: {
    decode: (raw) => ({
      command: text(raw, "exec", "command"),
      timeoutMs: count(raw, "exec", "timeoutMs", undefined),
      maxBytes: count(raw, "exec", "maxBytes", undefined),
    }),
    async run(req, cx) {
      const r = await cx.remote.exec(req.command, {
        timeoutMs: req.timeoutMs,
        maxBytes: req.maxBytes,
        signal: cx.signal,
      });
      if (r.stdout.length) await writeFrame(cx.conn, FRAME_OUT, r.stdout);
      if (r.stderr.length) await writeFrame(cx.conn, FRAME_ERR, r.stderr);
      await done(cx, {
        code: r.code,
        exitSignal: r.exitSignal,
        droppedStdout: r.droppedStdout,
        droppedStderr: r.droppedStderr,
        timedOut: r.timedOut,
        banner: r.banner ?? "",
      });
    },
  },
  stat: {
    decode: path("stat"),
    run: async (req, cx) => done(cx, { value: (await cx.remote.stat(req.path)) ?? null }),
  },
  list: {
    decode: path("list"),
    run: async (req, cx) => done(cx, { value: await cx.remote.list(req.path) }),
  },
  realpath: {
    decode: path("realpath"),
    run: async (req, cx) => done(cx, { value: await cx.remote.realpath(req.path) }),
  },
  read: {
    decode: (raw) => ({
      path: text(raw, "read", "path"),
      offset: count(raw, "read", "offset", 0),
      length: count(raw, "read", "length", 0),
    }),
    async run(req, cx) {
      const bytes = await cx.remote.readRange(req.path, req.offset, req.length);
      if (bytes.length) await writeFrame(cx.conn, FRAME_DATA, bytes);
      await done(cx, { bytes: bytes.length });
    },
  },
  pull: {
    decode: path("pull"),
    async run(req, cx) {
      let started: Promise<void> | undefined;
      const r = await cx.remote.pull(req.path, async (chunk) => {
        await started;
        await writeFrame(cx.conn, FRAME_DATA, chunk);
      }, {
        signal: cx.signal,
        onStart: (size) => {
          started = writeAll(cx.conn, jsonFrame({ t: "start", size }));
        },
      });
      await started;
      await done(cx, { size: r.size, bytes: r.bytes });
    },
  },
  pull_into: {
    decode: (raw) => ({ path: text(raw, "pull_into", "path"), into: text(raw, "pull_into", "into") }),
    async run(req, cx) {
      const file = await openPullTarget(req.into);
      try {
        let bytes = 0;
        let reported = 0;
        let started: Promise<void> | undefined;
        const r = await cx.remote.pull(req.path, async (chunk) => {
          // Synchronous: a quarter-MiB write to the page cache, without a promise per packet.
          for (let off = 0; off < chunk.length;) off += file.writeSync(chunk.subarray(off));
          bytes += chunk.length;
          // A frame now and then keeps the client's idle watchdog fed on a long pull.
          if (bytes - reported >= PROGRESS_BYTES) {
            reported = bytes;
            await started;
            await writeAll(cx.conn, jsonFrame({ t: "progress", bytes }));
          }
        }, {
          signal: cx.signal,
          onStart: (size) => {
            started = writeAll(cx.conn, jsonFrame({ t: "start", size }));
          },
        });
        await started;
        await done(cx, { size: r.size, bytes: r.bytes });
      } finally {
        file.close();
      }
    },
  },
  push: {
    decode: (raw) => ({
      path: text(raw, "push", "path"),
      size: required(raw, "push", "size"),
      mode: count(raw, "push", "mode", undefined),
    }),
    readsFrames: true,
    async run(req, cx) {
      const reader = cx.reader;
      const chunks = (async function* () {
        while (true) {
          const f = await reader.next();
          if (f === null) throw new SshError("cancelled", "the client went away during the push");
          if (f.type === FRAME_DATA) yield f.payload;
          else if (f.type === FRAME_JSON && parseJson(f).t === "eof") return;
          else throw protocolError("unexpected frame during a push");
        }
      })();
      const r = await cx.remote.push({ size: req.size, chunks }, req.path, {
        signal: cx.signal,
        mode: req.mode,
      });
      await done(cx, { size: r.size, bytes: r.bytes });
    },
  },
  close: {
    decode: () => ({}),
    async run(_req, cx) {
      await done(cx).catch(() => {});
      cx.requestClose();
    },
  },
};

/** The request kinds this master serves. */
export const REQUEST_KINDS = Object.keys(REQUESTS) as Op[];

function isOp(op: unknown): op is Op {
  return typeof op === "string" && Object.hasOwn(REQUESTS, op);
}

/**
 * Decodes a client's first frame into a request: a JSON object with `t: "req"` and this protocol
 * version, the token when the master has one (TCP), a kind the table holds, and that kind's
 * fields. Throws an SshError (kind `protocol`, or `permission_denied` for a bad token).
 */
export function decodeRequest(frame: Frame, token?: string): MasterRequest {
  const raw = parseJson(frame);
  if (raw.t !== "req" || raw.v !== PROTOCOL_VERSION) {
    throw protocolError(`unsupported request (version ${String(raw.v)}); update both assist processes`);
  }
  if (token !== undefined && (typeof raw.token !== "string" || !sameToken(raw.token, token))) {
    throw new SshError("permission_denied", "the SSH master refused a request without its token");
  }
  const op = raw.op;
  if (!isOp(op)) {
    throw protocolError(
      `unknown request "${String(op)}" (this master serves ${REQUEST_KINDS.join(", ")}); ` +
        `update both assist processes`,
    );
  }
  return { op, ...REQUESTS[op].decode(raw) } as MasterRequest;
}

/** Whether a request reads the client's frames itself (then the end of its stream is no cancel). */
export function readsFrames(req: MasterRequest): boolean {
  return REQUESTS[req.op].readsFrames === true;
}

/** Runs a decoded request through the table. */
export function dispatch(req: MasterRequest, cx: RequestContext): Promise<void> {
  const kind = REQUESTS[req.op] as RequestKind<Op>;
  return kind.run(req as never, cx);
}
