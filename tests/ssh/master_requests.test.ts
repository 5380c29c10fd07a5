/**
 * The master's request table (ssh/master_requests.ts): a request is decoded in one place (envelope,
 * token, kind, fields) and dispatched by kind; an unknown kind gets a clear protocol error, both
 * from the decoder and from a running MasterServer.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { tempDir } from "../support/run_assist.ts";
import { ensureHome } from "../../core/home.ts";
import { concat } from "../../core/bytes.ts";
import { type Frame, FrameReader, jsonFrame, parseJson, PROTOCOL_VERSION } from "../../ssh/protocol.ts";
import { decodeRequest, dispatch, readsFrames, REQUEST_KINDS, REQUESTS } from "../../ssh/master_requests.ts";
import { MasterServer } from "../../ssh/master.ts";
import { SshError } from "../../ssh/errors.ts";
import { socketPath } from "../../ssh/paths.ts";
import type { Remote } from "../../ssh/remote.ts";

const frame = (obj: Record<string, unknown>): Frame => ({
  type: 0x4a,
  payload: new TextEncoder().encode(JSON.stringify(obj)),
});
const req = (op: unknown, fields: Record<string, unknown> = {}) =>
  frame({ t: "req", v: PROTOCOL_VERSION, op, ...fields });

function protocolError(pattern: RegExp) {
  return (e: unknown) => {
    assert(e instanceof SshError, `an SshError, got ${e}`);
    assertEquals(e.kind, "protocol");
    assert(pattern.test(e.message), `${e.message} matches ${pattern}`);
    return true;
  };
}

Deno.test("request table: one entry per protocol kind; only push reads its own frames", () => {
  assertEquals(REQUEST_KINDS.toSorted(), [
    "close",
    "exec",
    "list",
    "pull",
    "push",
    "read",
    "realpath",
    "stat",
    "status",
  ]);
  assertEquals(REQUEST_KINDS.filter((k) => REQUESTS[k].readsFrames), ["push"]);
});

Deno.test("decodeRequest: an unknown kind is refused with a clear error naming it and the known ones", () => {
  const known =
    /\(this master serves status, exec, stat, list, realpath, read, pull, push, close\); update both/;
  throws(() => decodeRequest(req("frobnicate")), protocolError(/unknown request "frobnicate"/));
  throws(() => decodeRequest(req("frobnicate")), protocolError(known));
  // Names an object has by inheritance are not kinds.
  for (const op of ["toString", "__proto__", "constructor", "hasOwnProperty"]) {
    throws(() => decodeRequest(req(op)), protocolError(new RegExp(`unknown request "${op}"`)));
  }
  throws(
    () => decodeRequest(frame({ t: "req", v: PROTOCOL_VERSION })),
    protocolError(/unknown request "undefined"/),
  );
  throws(() => decodeRequest(req(7)), protocolError(/unknown request "7"/));
});

Deno.test("decodeRequest: envelope, token and each kind's fields are checked in one place", () => {
  throws(() => decodeRequest(frame({ t: "req", v: 99, op: "status" })), protocolError(/version 99/));
  throws(
    () => decodeRequest(frame({ t: "hello", v: PROTOCOL_VERSION, op: "status" })),
    protocolError(/unsupported/),
  );
  throws(
    () => decodeRequest({ type: 0x44, payload: new Uint8Array() }),
    protocolError(/expected a JSON frame/),
  );
  throws(
    () => decodeRequest(req("status"), "secret"),
    (e: unknown) => e instanceof SshError && e.kind === "permission_denied",
  );
  assertEquals(decodeRequest(req("status", { token: "secret" }), "secret"), { op: "status" });
  throws(() => decodeRequest(req("exec")), protocolError(/exec without a command/));
  throws(() => decodeRequest(req("exec", { command: "x", timeoutMs: "soon" })), protocolError(/timeoutMs/));
  throws(() => decodeRequest(req("stat")), protocolError(/stat without a path/));
  throws(() => decodeRequest(req("push", { path: "/a" })), protocolError(/push without a size/));
  throws(() => decodeRequest(req("push", { path: "/a", size: -1 })), protocolError(/size/));
  throws(() => decodeRequest(req("read", { path: "/a", offset: 1.5 })), protocolError(/offset/));
  assertEquals(decodeRequest(req("exec", { command: "uptime", timeoutMs: 5000 })), {
    op: "exec",
    command: "uptime",
    timeoutMs: 5000,
    maxBytes: undefined,
  });
  assertEquals(decodeRequest(req("read", { path: "/a", length: 10 })), {
    op: "read",
    path: "/a",
    offset: 0,
    length: 10,
  });
  assertEquals(decodeRequest(req("push", { path: "/a", size: 3, mode: 0o600 })), {
    op: "push",
    path: "/a",
    size: 3,
    mode: 0o600,
  });
  assertEquals(readsFrames(decodeRequest(req("push", { path: "/a", size: 3 }))), true);
  assertEquals(readsFrames(decodeRequest(req("stat", { path: "/a" }))), false);
});

Deno.test("dispatch: each kind reaches its own handler", async () => {
  const calls: string[] = [];
  const remote = {
    alias: "fake",
    mode: "master",
    stat: (p: string) => (calls.push(`stat ${p}`), Promise.resolve(undefined)),
    realpath: (p: string) => (calls.push(`realpath ${p}`), Promise.resolve(`/home/u/${p}`)),
    list: (p: string) => (calls.push(`list ${p}`), Promise.resolve([])),
  } as unknown as Remote;
  const written: Uint8Array[] = [];
  let closes = 0;
  const cx = {
    conn: { write: (p: Uint8Array) => (written.push(p.slice()), Promise.resolve(p.length)) },
    reader: new FrameReader({ read: () => Promise.resolve(null) }),
    signal: new AbortController().signal,
    remote,
    status: () => ({ pid: 1, served: 3 }),
    requestClose: () => void closes++,
  };
  const replies = async () => {
    const all = concat(written.splice(0));
    let off = 0;
    const r = new FrameReader({
      read(p) {
        if (off >= all.length) return Promise.resolve(null);
        const n = Math.min(p.length, all.length - off);
        p.set(all.subarray(off, off + n));
        off += n;
        return Promise.resolve(n);
      },
    });
    const out: Record<string, unknown>[] = [];
    for (let f = await r.next(); f; f = await r.next()) out.push(parseJson(f));
    return out;
  };
  await dispatch(decodeRequest(req("stat", { path: "/x" })), cx);
  assertEquals(await replies(), [{ t: "done", value: null }]);
  await dispatch(decodeRequest(req("realpath", { path: "." })), cx);
  assertEquals(await replies(), [{ t: "done", value: "/home/u/." }]);
  await dispatch(decodeRequest(req("list", { path: "/d" })), cx);
  assertEquals(await replies(), [{ t: "done", value: [] }]);
  await dispatch(decodeRequest(req("status")), cx);
  assertEquals(await replies(), [{ t: "done", pid: 1, served: 3 }]);
  await dispatch(decodeRequest(req("close")), cx);
  assertEquals(await replies(), [{ t: "done" }]);
  assertEquals(calls, ["stat /x", "realpath .", "list /d"]);
  assertEquals(closes, 1);
});

Deno.test("a running master answers an unknown request kind with a protocol error, not a crash", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const server = await MasterServer.start({
    alias: "fake",
    remote: {} as Remote,
    transport: "unix",
    path: socketPath(tmp.path, "fake"),
    info: () => ({ pid: 1 }),
    onCloseRequest: () => {},
  });
  try {
    const ask = async (op: string) => {
      const conn = await Deno.connect({ transport: "unix", path: socketPath(tmp.path, "fake") });
      try {
        await conn.write(jsonFrame({ t: "req", v: PROTOCOL_VERSION, op }));
        const reply = await new FrameReader(conn).next();
        return parseJson(reply!);
      } finally {
        conn.close();
      }
    };
    const r = await ask("frobnicate");
    assertEquals(r.t, "error");
    assertEquals(r.kind, "protocol");
    assert(
      String(r.message).startsWith('SSH master protocol error: unknown request "frobnicate"'),
      String(r.message),
    );
    // The master still serves after it.
    const s = await ask("status");
    assertEquals(s.t, "done");
    assertEquals(s.served, 1, "the refused request was not served");
  } finally {
    await server.stop();
  }
});
