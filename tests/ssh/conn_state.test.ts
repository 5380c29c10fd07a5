/**
 * The connection's state machine (ssh/conn_state.ts) and its wiring in ssh/connection.ts: which
 * transitions are allowed and which refused, that operations start only when ready, and that every
 * operation in flight is rejected when the connection is lost or closed. The wiring tests drive an
 * SshConnection with a stand-in ssh2 client whose requests never answer, as a dropped connection's
 * requests may never answer in ssh2.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects, throws } from "node:assert/strict";
import { EventEmitter } from "node:events";
import { ConnectionState, type ConnState, TRANSITIONS } from "../../ssh/conn_state.ts";
import { SshConnection } from "../../ssh/connection.ts";
import { SshError } from "../../ssh/errors.ts";
import type { Ssh2Client } from "../../ssh/_ssh2.ts";
import { Secret } from "../../core/secret.ts";

const STATES: ConnState[] = ["connecting", "ready", "closing", "lost", "closed"];

/** A fresh state machine brought to `s` by allowed steps. */
function stateIn(s: ConnState): ConnectionState {
  const m = new ConnectionState("eng1", "hci@127.0.0.1:22");
  const path: Record<ConnState, ConnState[]> = {
    connecting: [],
    ready: ["ready"],
    closing: ["ready", "closing"],
    lost: ["ready", "lost"],
    closed: ["closed"],
  };
  for (const step of path[s]) m.to(step, step === "lost" ? "test" : undefined);
  assertEquals(m.state, s);
  return m;
}

function isLost(pattern: RegExp) {
  return (e: unknown) => {
    assert(e instanceof SshError, `an SshError, got ${e}`);
    assertEquals(e.kind, "connection_lost");
    assert(pattern.test(e.message), `${e.message} matches ${pattern}`);
    return true;
  };
}

/** An operation that never settles by itself (a request ssh2 never answers). */
function hanging(m: ConnectionState, cleaned?: string[]): Promise<void> {
  return m.op<void>(() => () => void cleaned?.push("cleaned"));
}

Deno.test("state machine: exactly the transitions in the table are allowed, every other is refused", () => {
  assertEquals(TRANSITIONS, {
    connecting: ["ready", "closed"],
    ready: ["closing", "lost"],
    closing: ["closed"],
    lost: ["closed"],
    closed: [],
  });
  for (const from of STATES) {
    for (const to of STATES) {
      const m = stateIn(from);
      const allowed: boolean = TRANSITIONS[from].includes(to);
      assertEquals(m.can(to), allowed, `${from} → ${to}`);
      if (allowed) {
        m.to(to, "why");
        assertEquals(m.state, to);
      } else {
        throws(() => m.to(to), new RegExp(`${from} → ${to} is not a valid transition`));
        assertEquals(m.state, from, "a refused transition leaves the state as it was");
      }
    }
  }
});

Deno.test("state machine: operations start only when ready, with an error that says why", async () => {
  await rejects(hanging(stateIn("connecting")), isLost(/eng1 .* is not ready yet/));
  await rejects(hanging(stateIn("closing")), isLost(/is closing/));
  await rejects(hanging(stateIn("lost")), isLost(/was lost: test$/));
  await rejects(hanging(stateIn("closed")), isLost(/was closed$/));
  throws(() => stateIn("closing").check(), isLost(/is closing/));
  stateIn("ready").check();
  assertEquals(await stateIn("ready").op<number>((resolve) => resolve(7)), 7);
});

Deno.test("state machine: going lost rejects every operation in flight and runs its clean-up", async () => {
  const m = stateIn("ready");
  const cleaned: string[] = [];
  const a = hanging(m, cleaned);
  const b = hanging(m, cleaned);
  const settled = m.op<string>((resolve) => resolve("done"));
  assertEquals(await settled, "done");
  assertEquals(m.inFlight, 2);
  m.to("lost", "keepalive timeout (the host stopped answering)");
  await rejects(a, isLost(/the connection to eng1 \(hci@127\.0\.0\.1:22\) was lost: keepalive timeout/));
  await rejects(b, isLost(/was lost: keepalive timeout/));
  assertEquals(cleaned, ["cleaned", "cleaned"]);
  assertEquals(m.inFlight, 0);
  assertEquals(m.reason, "keepalive timeout (the host stopped answering)");
  // Closed after lost keeps the reason.
  m.to("closed");
  await rejects(hanging(m), isLost(/was lost: keepalive timeout/));
});

Deno.test("state machine: closing lets operations in flight run; closed rejects what is left", async () => {
  const m = stateIn("ready");
  const finishing = m.op<string>((resolve) => void queueMicrotask(() => resolve("finished")));
  const stuck = hanging(m);
  m.to("closing");
  assertEquals(await finishing, "finished");
  assertEquals(m.inFlight, 1);
  m.to("closed");
  await rejects(stuck, isLost(/was closed$/));
  assertEquals(m.reason, undefined);
});

Deno.test("state machine: an executor that throws rejects its operation and leaves nothing pending", async () => {
  const m = stateIn("ready");
  await rejects(
    m.op(() => {
      throw new Error("boom");
    }),
    /boom/,
  );
  assertEquals(m.inFlight, 0);
});

/** A stand-in ssh2 client: channels and SFTP requests open but never answer. */
class SilentClient extends EventEmitter {
  ended = 0;
  destroyed = 0;
  exec(_command: string, cb: (err: Error | undefined, ch: unknown) => void): boolean {
    const ch = Object.assign(new EventEmitter(), {
      stderr: new EventEmitter(),
      end() {},
      close() {},
      signal: () => true,
    });
    queueMicrotask(() => cb(undefined, ch));
    return true;
  }
  sftp(cb: (err: Error | undefined, sftp: unknown) => void): boolean {
    const sftp = Object.assign(new EventEmitter(), {
      stat(_path: string, _cb: unknown) {/* never answers */},
      open(_path: string, _flags: string, _attrs: unknown, _cb: unknown) {/* never answers */},
    });
    queueMicrotask(() => cb(undefined, sftp));
    return true;
  }
  end(): this {
    this.ended++;
    queueMicrotask(() => this.emit("close"));
    return this;
  }
  destroy(): this {
    this.destroyed++;
    return this;
  }
  setNoDelay(): this {
    return this;
  }
}

function connectionOver(client: SilentClient, onLost?: (r: string) => void): SshConnection {
  return new SshConnection(
    client as unknown as Ssh2Client,
    {
      alias: "eng1",
      host: { alias: "eng1", user: "hci", host: "127.0.0.1", port: 22 },
      password: new Secret("unused"),
      home: "/nonexistent",
      mode: "master",
      onLost,
    },
    "",
    undefined,
  );
}

/** Lets the stand-in's callbacks run, so the requests are really in flight. */
const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("connection: a lost connection rejects its exec, SFTP and pull requests in flight", async () => {
  const client = new SilentClient();
  const lost: string[] = [];
  const c = connectionOver(client, (r) => lost.push(r));
  assertEquals(c.state, "ready");
  assertEquals(c.lost, undefined);
  const exec = c.exec("sleep 100");
  const stat = c.stat("/tmp/x");
  const pull = c.pull("/tmp/big", () => {});
  await tick();
  client.emit("error", Object.assign(new Error("timed out"), { level: "client-timeout" }));
  const why = /the connection to eng1 \(hci@127\.0\.0\.1:22\) was lost: keepalive timeout/;
  await rejects(exec, isLost(why));
  await rejects(stat, isLost(why));
  await rejects(pull, isLost(why));
  assertEquals(lost, ["keepalive timeout (the host stopped answering)"]);
  assertEquals(c.state, "lost");
  assertEquals(c.lost, "keepalive timeout (the host stopped answering)");
  // The close event that follows the error changes nothing; new requests are refused at once.
  client.emit("close");
  assertEquals(lost.length, 1);
  await rejects(c.exec("true"), isLost(why));
  await rejects(c.realpath("."), isLost(why));
  await c.close();
  assertEquals(c.state, "closed");
  assertEquals(client.destroyed, 1);
});

Deno.test("connection: close ends the client, rejects what is left, and is not reported as lost", async () => {
  const client = new SilentClient();
  const lost: string[] = [];
  const c = connectionOver(client, (r) => lost.push(r));
  const exec = c.exec("sleep 100");
  await tick();
  const closing = c.close();
  assertEquals(c.state, "closing");
  assertEquals(c.lost, "closed");
  await rejects(c.stat("/tmp/x"), isLost(/is closing/));
  await closing;
  assertEquals(c.state, "closed");
  await rejects(exec, isLost(/was closed$/));
  assertEquals(lost, []);
  assertEquals(client.ended, 1);
  await c.close();
  assertEquals(client.ended, 1, "closing twice is harmless");
});
