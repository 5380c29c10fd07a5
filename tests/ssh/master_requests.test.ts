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
import type { PullOptions, PullSink, Remote } from "../../ssh/remote.ts";
import { MasterClient } from "../../ssh/client.ts";
import { pullToFile } from "../../ssh/transfer.ts";

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
    "pull_into",
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
    /\(this master serves status, exec, stat, list, realpath, read, pull, pull_into, push, close\); update both/;
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

/**
 * A remote whose files are byte arrays; pull hands out every chunk in ONE reused buffer, as the
 * SFTP reader's pool does, so a sink that kept a chunk without copying it would be caught.
 */
function bytesRemote(files: Record<string, Uint8Array>): Remote {
  return {
    alias: "fake",
    mode: "master",
    async pull(path: string, sink: PullSink, options: PullOptions = {}) {
      const data = files[path];
      if (!data) throw new SshError("not_found", `no such file on fake: ${path}`, { path });
      options.onStart?.(data.length);
      const buf = new Uint8Array(100_000);
      for (let off = 0; off < data.length; off += buf.length) {
        const n = Math.min(buf.length, data.length - off);
        buf.set(data.subarray(off, off + n));
        await sink(buf.subarray(0, n));
        buf.fill(0xee); // whatever the sink kept is now garbage
      }
      return { size: data.length, bytes: data.length };
    },
  } as unknown as Remote;
}

Deno.test("pull_into: the master writes the client's part file itself, byte for byte", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const data = new Uint8Array(20 << 20); // past the 16 MiB progress step
  for (let off = 0; off < data.length; off += 65536) crypto.getRandomValues(data.subarray(off, off + 65536));
  const server = await MasterServer.start({
    alias: "fake",
    remote: bytesRemote({ "/big.bin": data, "/empty": new Uint8Array() }),
    transport: "unix",
    path: socketPath(tmp.path, "fake"),
    info: () => ({ pid: 1 }),
    onCloseRequest: () => {},
  });
  try {
    const client = new MasterClient(tmp.path, "fake");
    // The whole client path: part file, the master's write, the size check, the rename.
    const dest = `${tmp.path}/out/big.bin`;
    await Deno.mkdir(`${tmp.path}/out`);
    const r = await pullToFile(client, "/big.bin", dest);
    assertEquals(r, { size: data.length, bytes: data.length });
    assertEquals(await Deno.readFile(dest), data);
    assertEquals((await Deno.stat(dest)).mode! & 0o777, 0o600);
    await pullToFile(client, "/empty", `${tmp.path}/out/empty`);
    assertEquals((await Deno.stat(`${tmp.path}/out/empty`)).size, 0);
    // A missing remote file: the error, and no part file left behind.
    await pullToFile(client, "/nope", `${tmp.path}/out/nope`).then(
      () => assert(false, "pulled a missing file"),
      (e) => assertEquals((e as SshError).kind, "not_found"),
    );
    const left = [];
    for await (const e of Deno.readDir(`${tmp.path}/out`)) left.push(e.name);
    assertEquals(left.sort(), ["big.bin", "empty"]);
  } finally {
    await server.stop();
  }
});

Deno.test("pull_into: the master refuses any target but a fresh, empty, private part file", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const server = await MasterServer.start({
    alias: "fake",
    remote: bytesRemote({ "/f": new TextEncoder().encode("payload") }),
    transport: "unix",
    path: socketPath(tmp.path, "fake"),
    info: () => ({ pid: 1 }),
    onCloseRequest: () => {},
  });
  const client = new MasterClient(tmp.path, "fake");
  const refused = async (into: string, why: RegExp) => {
    const e = await client.pullInto("/f", into).then(() => undefined, (err) => err);
    assert(e instanceof SshError, `refused ${into}`);
    assertEquals(e.kind, "permission_denied");
    assert(why.test(e.message), e.message);
  };
  try {
    const d = tmp.path;
    const make = async (name: string, text: string, mode: number) => {
      await Deno.writeTextFile(`${d}/${name}`, text, { mode });
      await Deno.chmod(`${d}/${name}`, mode);
      return `${d}/${name}`;
    };
    await refused(await make("plain.txt", "", 0o600), /\.part-<hex>/);
    await refused("relative.part-0a1b2c3d", /absolute/);
    await refused(`${d}/missing.part-0a1b2c3d`, /does not exist/);
    const full = await make("full.part-0a1b2c3d", "keep me", 0o600);
    await refused(full, /not empty/);
    assertEquals(await Deno.readTextFile(full), "keep me");
    await refused(await make("open.part-0a1b2c3d", "", 0o644), /readable by others/);
    const target = await make("victim.txt", "", 0o600);
    await Deno.symlink(target, `${d}/link.part-0a1b2c3d`);
    await refused(`${d}/link.part-0a1b2c3d`, /not a regular file/);
    assertEquals(await Deno.readTextFile(target), "");
    await Deno.mkdir(`${d}/dir.part-0a1b2c3d`);
    await refused(`${d}/dir.part-0a1b2c3d`, /not a regular file/);
    // And the one accepted form.
    const ok = await make("good.part-0a1b2c3d", "", 0o600);
    assertEquals(await client.pullInto("/f", ok), { size: 7, bytes: 7 });
    assertEquals(await Deno.readTextFile(ok), "payload");
  } finally {
    await server.stop();
  }
});
