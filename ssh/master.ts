/**
 * The multiplexing master (DESIGN.md, "SSH"): `assist internal ssh-master <alias>`, started in the
 * background by `/ssh-setup <alias>` (ssh/spawn.ts). It reads the stored password once, opens one
 * ssh2 connection (keepalive on, host key checked against the trust-on-first-use store), and serves
 * every other `assist` process on `.ssh-sockets/<alias>.sock` (protocol: ssh/protocol.ts) until it
 * is closed, its connection is lost, its socket disappears, or it gets a signal. On a lost
 * connection it leaves `.ssh-sockets/<alias>.lost` (reason and time) for the next caller and status.
 * Requests are decoded in one place and run through one table (ssh/master_requests.ts).
 *
 * The master never prints after its one handshake line on stdout, and never logs: the password is
 * in no output of it.
 *
 * @module
 */
import { atomicWrite } from "../core/atomic_write.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";
import { readCredential } from "./creds.ts";
import { connect, type SshConnection } from "./connection.ts";
import { SshError, toWire } from "./errors.ts";
import { checkUnixPath, chooseTransport, socketPath, type Transport } from "./paths.ts";
import { FrameReader, jsonFrame, protocolError, sameToken, writeAll } from "./protocol.ts";
import { decodeRequest, dispatch, type MasterRequest, readsFrames } from "./master_requests.ts";
import type { Remote } from "./remote.ts";
import { describeTarget, getHost } from "./registry.ts";
import { lostNotePath, probeMaster } from "./client.ts";

/** What a TCP-transport socket file holds. */
export interface TcpAddress {
  transport: "tcp";
  port: number;
  token: string;
  pid: number;
}

export interface MasterServerOptions {
  alias: string;
  remote: Remote;
  transport: Transport;
  /** The control path: the Unix socket, or the TCP address file. */
  path: string;
  /** Facts for the `status` request. */
  info: () => Record<string, unknown>;
  /** A client asked the master to close. */
  onCloseRequest: () => void;
}

const FIRST_FRAME_TIMEOUT_MS = 10_000;

/** Whether something accepts connections on a Unix socket path. */
async function listening(path: string): Promise<boolean> {
  try {
    const c = await Deno.connect({ transport: "unix", path });
    c.close();
    return true;
  } catch {
    return false;
  }
}

/** The listening half of the master: accepts clients and runs their requests on the remote. */
export class MasterServer {
  readonly #o: MasterServerOptions;
  readonly #listener: Deno.Listener;
  readonly #token: string | undefined;
  readonly #identity: { ino: number | null; dev: number | null } | undefined;
  readonly #conns = new Set<Deno.Conn>();
  #served = 0;
  #active = 0;
  #stopped = false;
  /** Resolves when the accept loop has ended. */
  readonly done: Promise<void>;

  private constructor(
    o: MasterServerOptions,
    listener: Deno.Listener,
    token: string | undefined,
    identity: { ino: number | null; dev: number | null } | undefined,
  ) {
    this.#o = o;
    this.#listener = listener;
    this.#token = token;
    this.#identity = identity;
    this.done = this.#accept();
  }

  /**
   * Binds the control path. A Unix socket is bound under a private temporary name, set to 0600, then
   * published under its final name with a hard link, which fails if the name exists: two masters
   * cannot both win, and a dead master's socket is replaced. (Publishing by link also matters
   * because Deno unlinks a Unix listener's bind path when it closes: the bind path is gone by then,
   * so closing can never remove a newer master's socket.) The TCP transport listens on 127.0.0.1
   * and writes the address file (0600) with a fresh token.
   */
  static async start(o: MasterServerOptions): Promise<MasterServer> {
    if (o.transport === "unix") {
      checkUnixPath(o.path);
      const slash = o.path.lastIndexOf("/");
      const tmp = `${o.path.slice(0, slash + 1)}.${o.alias}.${
        crypto.getRandomValues(new Uint8Array(4)).toHex()
      }`;
      checkUnixPath(tmp);
      const listener = Deno.listen({ transport: "unix", path: tmp });
      try {
        await Deno.chmod(tmp, 0o600);
        for (let attempt = 0;; attempt++) {
          try {
            await Deno.link(tmp, o.path);
            break;
          } catch (err) {
            if (!(err instanceof Deno.errors.AlreadyExists) || attempt > 0) throw err;
            if (await listening(o.path)) {
              throw new SshError("io_error", `a master for ${o.alias} is already running (${o.path})`, {
                alias: o.alias,
              });
            }
            await Deno.remove(o.path).catch(() => {}); // a dead master's socket
          }
        }
        await Deno.remove(tmp);
      } catch (err) {
        listener.close();
        await Deno.remove(tmp).catch(() => {});
        throw err;
      }
      const info = await Deno.lstat(o.path);
      return new MasterServer(o, listener, undefined, { ino: info.ino, dev: info.dev });
    }
    const listener = Deno.listen({ transport: "tcp", hostname: "127.0.0.1", port: 0 });
    const token = crypto.getRandomValues(new Uint8Array(32)).toHex();
    const address: TcpAddress = {
      transport: "tcp",
      port: (listener.addr as Deno.NetAddr).port,
      token,
      pid: Deno.pid,
    };
    await atomicWrite(o.path, JSON.stringify(address) + "\n", { mode: 0o600 });
    return new MasterServer(o, listener, token, undefined);
  }

  get served(): number {
    return this.#served;
  }

  /** Whether the control path still belongs to this master (a removed socket ends it). */
  async ownsPath(): Promise<boolean> {
    try {
      if (this.#identity) {
        const info = await Deno.lstat(this.#o.path);
        return info.ino === this.#identity.ino && info.dev === this.#identity.dev;
      }
      const obj = JSON.parse(await Deno.readTextFile(this.#o.path)) as Partial<TcpAddress>;
      return typeof obj.token === "string" && this.#token !== undefined && sameToken(obj.token, this.#token);
    } catch {
      return false;
    }
  }

  /**
   * Stops accepting, removes the control path if it is still ours, lets running requests report
   * (for up to `graceMs`: a transfer cut by a lost connection tells its client why), then cuts
   * whatever is left.
   */
  async stop(graceMs = 0): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const mine = await this.ownsPath();
    try {
      this.#listener.close();
    } catch { /* closed */ }
    if (mine) await Deno.remove(this.#o.path).catch(() => {});
    const end = Date.now() + graceMs;
    while (this.#active > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    for (const c of this.#conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await this.done;
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        if (this.#o.transport === "tcp") {
          try {
            (conn as Deno.TcpConn).setNoDelay(true);
          } catch { /* not TCP */ }
        }
        this.#conns.add(conn);
        this.#active++;
        this.#handle(conn).finally(() => {
          this.#active--;
          this.#conns.delete(conn);
          try {
            conn.close();
          } catch { /* closed */ }
        });
      }
    } catch {
      // the listener was closed
    }
  }

  async #handle(conn: Deno.Conn): Promise<void> {
    const reader = new FrameReader(conn);
    let req: MasterRequest;
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const first = await Promise.race([
        reader.next(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(protocolError("no request within 10 s")), FIRST_FRAME_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      if (!first) return;
      req = decodeRequest(first, this.#token);
    } catch (err) {
      await writeAll(conn, jsonFrame({ t: "error", ...toWire(err) })).catch(() => {});
      return;
    }
    this.#served++;
    const ac = new AbortController();
    // A client that goes away cancels its request (not for a kind that reads its own frames).
    if (!readsFrames(req)) {
      reader.next().then((f) => {
        if (f === null) ac.abort();
      }, () => ac.abort());
    }
    try {
      await dispatch(req, {
        conn,
        reader,
        signal: ac.signal,
        remote: this.#o.remote,
        status: () => ({ ...this.#o.info(), served: this.#served }),
        requestClose: this.#o.onCloseRequest,
      });
    } catch (err) {
      await writeAll(conn, jsonFrame({ t: "error", ...toWire(err) })).catch(() => {});
    }
  }
}

/** The handshake line the master prints once on stdout for the process that started it. */
export type Handshake =
  | { ok: true; pid: number; transport: Transport; hostKey?: { status: string; fingerprint: string } }
  | { ok: false; error: { kind: string; message: string } };

function say(h: Handshake): void {
  try {
    const bytes = new TextEncoder().encode(JSON.stringify(h) + "\n");
    let off = 0;
    while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
  } catch { /* the starter went away */ }
}

/** How often the master checks that its socket is still there. */
const WATCH_MS = 2000;

/**
 * The master process: `assist internal ssh-master <alias>`. Returns its exit code when it ends.
 */
export async function runMaster(alias: string): Promise<number> {
  let conn: SshConnection | undefined;
  let server: MasterServer | undefined;
  let home: string;
  try {
    const config = loadConfig();
    home = config.home;
    await ensureHome(home);
    const host = await getHost(home, alias);
    const path = socketPath(home, alias);
    const transport = chooseTransport(Deno.build.os);
    const running = await probeMaster(home, alias);
    if (running) {
      throw new SshError("io_error", `a master for ${alias} is already running (pid ${running.pid})`, {
        alias,
      });
    }
    // The password is read once, here, and used for this one authentication.
    const password = await readCredential(home, alias);
    let onLost: (reason: string) => void = () => {};
    conn = await connect({ alias, host, password, home, mode: "master", onLost: (r) => onLost(r) });
    const since = Date.now();
    const c = conn;
    let finish: () => void = () => {};
    const finished = new Promise<void>((r) => (finish = r));
    let ending = false;
    const end = async (lostReason?: string) => {
      if (ending) return;
      ending = true;
      clearInterval(watch);
      if (lostReason !== undefined) {
        await atomicWrite(
          lostNotePath(home, alias),
          JSON.stringify({ reason: lostReason, at: new Date().toISOString() }) + "\n",
          { mode: 0o600 },
        ).catch(() => {});
      }
      // A lost connection: running requests get a moment to tell their clients what happened.
      await server?.stop(lostReason !== undefined ? 3000 : 0).catch(() => {});
      await c.close().catch(() => {});
      finish();
    };
    onLost = (reason) => void end(reason);
    server = await MasterServer.start({
      alias,
      remote: conn,
      transport,
      path,
      info: () => ({
        pid: Deno.pid,
        alias,
        target: describeTarget(host),
        since: new Date(since).toISOString(),
        transport,
        fingerprint: c.hostKey?.fingerprint,
      }),
      onCloseRequest: () => void end(),
    });
    await Deno.remove(lostNotePath(home, alias)).catch(() => {});
    const watch = setInterval(async () => {
      if (!(await server!.ownsPath())) void end();
    }, WATCH_MS);
    for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      try {
        Deno.addSignalListener(sig, () => void end());
      } catch { /* not on this platform */ }
    }
    say({
      ok: true,
      pid: Deno.pid,
      transport,
      hostKey: conn.hostKey
        ? { status: conn.hostKey.status, fingerprint: conn.hostKey.fingerprint }
        : undefined,
    });
    if (conn.lost !== undefined) await end(conn.lost);
    await finished;
    return 0;
  } catch (err) {
    await server?.stop().catch(() => {});
    await conn?.close().catch(() => {});
    const w = toWire(err);
    say({ ok: false, error: { kind: w.kind, message: w.message } });
    return 1;
  }
}
