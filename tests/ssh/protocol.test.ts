/**
 * The master's socket protocol, in process: framing, and a MasterServer (over a fake remote) with
 * MasterClient on both transports (the Unix socket, and the loopback + token transport used on
 * Windows), including errors, partial transfers, cancellation and stale sockets.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { tempDir } from "../support/run_assist.ts";
import { ensureHome } from "../../core/home.ts";
import {
  encodeFrame,
  FRAME_DATA,
  FRAME_JSON,
  FrameReader,
  jsonFrame,
  MAX_FRAME,
  parseJson,
  PROTOCOL_VERSION,
  sameToken,
} from "../../ssh/protocol.ts";
import { MasterServer } from "../../ssh/master.ts";
import { MasterClient, probeMaster } from "../../ssh/client.ts";
import { SshError } from "../../ssh/errors.ts";
import { socketPath, type Transport } from "../../ssh/paths.ts";
import type {
  ExecOptions,
  ExecResult,
  PullOptions,
  PullSink,
  PushSource,
  Remote,
  TransferResult,
} from "../../ssh/remote.ts";
import { concat } from "../../core/bytes.ts";

/** A byte source that hands out its data a few bytes at a time. */
function trickle(data: Uint8Array, step = 3) {
  let off = 0;
  return {
    read(p: Uint8Array): Promise<number | null> {
      if (off >= data.length) return Promise.resolve(null);
      const n = Math.min(step, p.length, data.length - off);
      p.set(data.subarray(off, off + n));
      off += n;
      return Promise.resolve(n);
    },
  };
}

Deno.test("framing: frames survive any read split; torn, oversized and unknown frames are errors", async () => {
  const big = new Uint8Array(300_000).map((_, i) => i % 251);
  const stream = concat([
    jsonFrame({ t: "req", v: 1 }),
    encodeFrame(FRAME_DATA, big),
    encodeFrame(FRAME_DATA, new Uint8Array()),
  ]);
  for (const step of [1, 7, 65536, 1 << 20]) {
    const r = new FrameReader(trickle(stream, step));
    assertEquals(parseJson((await r.next())!), { t: "req", v: 1 });
    const f = (await r.next())!;
    assertEquals(f.type, FRAME_DATA);
    assertEquals(f.payload, big);
    assertEquals((await r.next())!.payload.length, 0);
    assertEquals(await r.next(), null);
  }
  await rejects(
    new FrameReader(trickle(stream.subarray(0, 10))).next().then((f) => f),
    /ended inside a frame/,
  );
  const huge = new Uint8Array(5);
  huge[0] = FRAME_JSON;
  new DataView(huge.buffer).setUint32(1, MAX_FRAME + 1);
  await rejects(new FrameReader(trickle(huge)).next(), /exceeds/);
  await rejects(new FrameReader(trickle(encodeFrame(0x7a, new Uint8Array(1)))).next(), /unknown frame type/);
  assert(sameToken("abc", "abc") && !sameToken("abc", "abd") && !sameToken("abc", "abcd"));
});

const pattern = (n: number) => new Uint8Array(n).map((_, i) => (i * 31 + 7) % 256);

class FakeRemote implements Remote {
  readonly alias = "fake";
  readonly mode = "direct" as const;
  pushed: Uint8Array | undefined;
  aborted = 0;
  async exec(command: string, o: ExecOptions = {}): Promise<ExecResult> {
    const base = { code: 0, droppedStdout: 0, droppedStderr: 0, timedOut: false, banner: "Authorized only" };
    if (command === "wait") {
      await new Promise<void>((r) => o.signal?.addEventListener("abort", () => (this.aborted++, r())));
      throw new SshError("cancelled", "cancelled");
    }
    if (command === "big") return { ...base, stdout: pattern(3_000_000), stderr: new Uint8Array() };
    if (command === "fail") throw new SshError("connection_lost", "the connection to fake was lost: test");
    const enc = new TextEncoder();
    return { ...base, code: 3, stdout: enc.encode(`ran ${command}\n`), stderr: enc.encode("warn\n") };
  }
  stat(path: string) {
    return Promise.resolve(
      path === "/x" ? { isFile: true, isDirectory: false, size: 5, mtimeMs: 1000, mode: 0o644 } : undefined,
    );
  }
  list(_path: string) {
    return Promise.resolve([{
      name: "a",
      isFile: true,
      isDirectory: false,
      size: 1,
      mtimeMs: 0,
      mode: 0o600,
    }]);
  }
  realpath(path: string) {
    return Promise.resolve(`/home/u/${path}`);
  }
  readRange(_path: string, offset: number, length: number) {
    return Promise.resolve(pattern(10_000).slice(offset, offset + length));
  }
  async pull(path: string, sink: PullSink, o: PullOptions = {}): Promise<TransferResult> {
    if (path === "missing") throw new SshError("not_found", `no such file on fake: ${path}`, { path });
    const data = pattern(5_000_000);
    o.onStart?.(data.length);
    const stopAt = path === "dies" ? 2_000_000 : data.length;
    for (let off = 0; off < stopAt; off += 200_000) {
      await sink(data.subarray(off, Math.min(stopAt, off + 200_000)));
    }
    if (path === "dies") {
      throw new SshError(
        "partial_transfer",
        `partial transfer of dies from fake: ${stopAt} of ${data.length} bytes arrived`,
        {
          bytes: stopAt,
          size: data.length,
        },
      );
    }
    return { size: data.length, bytes: data.length };
  }
  async push(source: PushSource, _path: string): Promise<TransferResult> {
    const parts: Uint8Array[] = [];
    for await (const c of source.chunks) parts.push(new Uint8Array(c));
    this.pushed = concat(parts);
    return { size: source.size, bytes: this.pushed.length };
  }
  close() {
    return Promise.resolve();
  }
}

async function serve(home: string, transport: Transport, remote: Remote) {
  let closeRequested = 0;
  const server = await MasterServer.start({
    alias: "fake",
    remote,
    transport,
    path: socketPath(home, "fake"),
    info: () => ({ pid: 4242, alias: "fake", since: "then", transport }),
    onCloseRequest: () => closeRequested++,
  });
  return { server, closeRequested: () => closeRequested };
}

for (const transport of ["unix", "tcp"] as const) {
  Deno.test(`master server and client over ${transport}: every request, errors, cancel, close`, async (t) => {
    await using tmp = await tempDir();
    await ensureHome(tmp.path);
    const remote = new FakeRemote();
    const { server, closeRequested } = await serve(tmp.path, transport, remote);
    try {
      const info = await Deno.lstat(socketPath(tmp.path, "fake"));
      assertEquals(info.mode! & 0o777, 0o600);
      assertEquals(transport === "unix" ? !info.isFile : info.isFile, true);
      const c = await MasterClient.open(tmp.path, "fake");
      await t.step("status", async () => {
        assertEquals((await c.status()).pid, 4242);
        assertEquals((await probeMaster(tmp.path, "fake"))?.transport, transport);
      });
      await t.step("exec: output, stderr, exit code, banner; 3 MB split over frames", async () => {
        const r = await c.exec("ls");
        assertEquals(new TextDecoder().decode(r.stdout), "ran ls\n");
        assertEquals(new TextDecoder().decode(r.stderr), "warn\n");
        assertEquals([r.code, r.timedOut, r.banner], [3, false, "Authorized only"]);
        assertEquals((await c.exec("big")).stdout, pattern(3_000_000));
      });
      await t.step("errors keep their kind and message", async () => {
        await rejects(
          c.exec("fail"),
          (e: SshError) => e.kind === "connection_lost" && /lost: test/.test(e.message),
        );
        await rejects(c.pull("missing", () => {}), (e: SshError) => e.kind === "not_found");
      });
      await t.step("stat, list, realpath, readRange", async () => {
        assertEquals((await c.stat("/x"))?.size, 5);
        assertEquals(await c.stat("/nope"), undefined);
        assertEquals((await c.list("/"))[0].name, "a");
        assertEquals(await c.realpath("."), "/home/u/.");
        assertEquals(await c.readRange("/f", 100, 50), pattern(10_000).slice(100, 150));
      });
      await t.step(
        "pull streams 5 MB in order; a failure part way is a partial transfer with counts",
        async () => {
          const got: Uint8Array[] = [];
          let started = -1;
          const r = await c.pull("f", (b) => void got.push(new Uint8Array(b)), {
            onStart: (s) => (started = s),
          });
          assertEquals([r.size, r.bytes, started], [5_000_000, 5_000_000, 5_000_000]);
          assertEquals(concat(got), pattern(5_000_000));
          await rejects(
            c.pull("dies", () => {}),
            (e: SshError) => e.kind === "partial_transfer" && /2000000 of 5000000/.test(e.message),
          );
        },
      );
      await t.step("push streams the bytes to the remote", async () => {
        const data = pattern(3_333_333);
        async function* chunks() {
          for (let off = 0; off < data.length; off += 100_000) yield data.subarray(off, off + 100_000);
        }
        const r = await c.push({ size: data.length, chunks: chunks() }, "/dst");
        assertEquals(r.bytes, data.length);
        assertEquals(remote.pushed, data);
      });
      await t.step("a client that goes away cancels its request on the master", async () => {
        const ac = new AbortController();
        const p = c.exec("wait", { signal: ac.signal });
        await new Promise((r) => setTimeout(r, 100));
        ac.abort();
        await rejects(p, (e: SshError) => e.kind === "cancelled" || e.kind === "connection_lost");
        const end = Date.now() + 3000;
        while (remote.aborted === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
        assertEquals(remote.aborted, 1);
      });
      if (transport === "tcp") {
        await t.step("tcp: a request without the token is refused", async () => {
          const addr = JSON.parse(await Deno.readTextFile(socketPath(tmp.path, "fake")));
          assert(/^[0-9a-f]{64}$/.test(addr.token));
          const conn = await Deno.connect({ hostname: "127.0.0.1", port: addr.port });
          await conn.write(
            jsonFrame({ t: "req", v: PROTOCOL_VERSION, op: "exec", command: "ls", token: "0".repeat(64) }),
          );
          const reply = parseJson((await new FrameReader(conn).next())!);
          conn.close();
          assertEquals([reply.t, reply.kind], ["error", "permission_denied"]);
        });
      }
      await t.step("close asks the owner to end", async () => {
        await c.shutdown();
        assertEquals(closeRequested(), 1);
      });
    } finally {
      await server.stop();
    }
    await rejects(Deno.lstat(socketPath(tmp.path, "fake")), Deno.errors.NotFound);
  });
}

Deno.test("client: no socket, or a dead one, is a closed master with the spec's words; the dead one is removed", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  await rejects(
    MasterClient.open(tmp.path, "eng1"),
    (e: SshError) => e.kind === "master_closed" && e.message === "open the master with /ssh-setup eng1 first",
  );
  // A socket file nobody listens on (a killed master): python binds it and exits without unlinking.
  const path = socketPath(tmp.path, "eng1");
  await deadSocket(path);
  await Deno.writeTextFile(
    `${tmp.path}/.ssh-sockets/eng1.lost`,
    JSON.stringify({ reason: "keepalive timeout", at: "T" }),
  );
  const c = await MasterClient.open(tmp.path, "eng1");
  await rejects(
    c.exec("x"),
    (e: SshError) =>
      e.kind === "master_closed" && e.message === "open the master with /ssh-setup eng1 first" &&
      String(e.extra.reason).includes("keepalive timeout"),
  );
  await rejects(Deno.lstat(path), Deno.errors.NotFound);
  assertEquals(await probeMaster(tmp.path, "eng1"), undefined);
});

/** A Unix socket file that nobody listens on. */
async function deadSocket(path: string): Promise<void> {
  const o = await new Deno.Command("python3", {
    args: ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path],
  }).output();
  assertEquals(o.code, 0);
}

Deno.test("server: a second master cannot bind a live socket; stop leaves a socket it does not own", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  // A dead master's socket is replaced.
  await deadSocket(socketPath(tmp.path, "fake"));
  const a = await serve(tmp.path, "unix", new FakeRemote());
  assertEquals((await probeMaster(tmp.path, "fake"))?.pid, 4242);
  try {
    await rejects(serve(tmp.path, "unix", new FakeRemote()), /already running/);
    // Someone replaced the socket (a newer master): the old one must not remove it when it stops.
    await Deno.remove(socketPath(tmp.path, "fake"));
    assertEquals(await a.server.ownsPath(), false);
    await Deno.writeTextFile(socketPath(tmp.path, "fake"), "placeholder");
  } finally {
    await a.server.stop();
  }
  assertEquals(await Deno.readTextFile(socketPath(tmp.path, "fake")), "placeholder");
});

Deno.test("client: a master that accepts but never answers fails the request instead of hanging", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const listener = Deno.listen({ transport: "unix", path: socketPath(tmp.path, "stuck") });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of listener) held.push(c);
  })().catch(() => {});
  try {
    const t0 = Date.now();
    await rejects(
      new MasterClient(tmp.path, "stuck").status(),
      (e: SshError) =>
        e.kind === "timeout" && /the master of stuck did not answer within 5 s/.test(e.message),
    );
    const took = Date.now() - t0;
    assert(took >= 4500 && took < 8000, `${took} ms`);
    // status and setup treat it as not open rather than hanging.
    await rejects(probeMaster(tmp.path, "stuck"), (e: SshError) => e.kind === "timeout");
  } finally {
    listener.close();
    for (const c of held) c.close();
    await accepting;
  }
});
