/**
 * A 100 MB pull on loopback against a real sshd (tests/support/sshd.ts): `ssh_pull`'s path (SFTP,
 * pipelined reads, written to a local file, byte count verified) through the master and in direct
 * mode, against OpenSSH's `scp` of the same file. scp runs twice: on its own connection each time
 * (as an operator types it), and over an OpenSSH ControlMaster (no handshake, like our master).
 * Target: at least half of scp's throughput. Throughput = 100 MiB / time per iteration. Issue 17
 * item 13: the whole `assist tools ssh_pull` process through the master, where the master writes
 * the file itself, at most 1.5x scp over a ControlMaster. A second group runs the same two through
 * a relay on loopback that holds every chunk for DELAY_MS in each direction (a 10 ms round trip, as
 * to a nearby data centre), where the SSH channel window, not the CPU, sets the pace.
 *
 *     deno bench -q -P=test bench/ssh_pull.bench.ts      (needs root: it creates a throwaway user)
 */
import { Sshd } from "../tests/support/sshd.ts";
import { assistOk, envFor } from "../tests/ssh/_support.ts";
import { MasterClient } from "../ssh/client.ts";
import { connect } from "../ssh/connection.ts";
import { pullToFile } from "../ssh/transfer.ts";
import { Secret } from "../core/secret.ts";
import { cpuTimeMs } from "../tests/ssh/_proc.ts";
import { closeControlMasterSync, openControlMaster, opensshOptions } from "./_openssh.ts";

const MIB = 100;
const sshd = await Sshd.start();
const home = await Deno.makeTempDir({ prefix: "assist-bench-pull-" });
// Outside the assistant's home: ssh_pull refuses to write into it (tools/files/protect.ts).
const out = await Deno.makeTempDir({ prefix: "assist-bench-pull-out-" });
const env = envFor(home);
await Deno.mkdir(env.TMPDIR, { recursive: true });
const assist = (args: string[], stdin?: string) => assistOk(args, env, stdin);

// 100 MiB of incompressible bytes.
const data = new Uint8Array(MIB << 20);
for (let off = 0; off < data.length; off += 65536) crypto.getRandomValues(data.subarray(off, off + 65536));
await sshd.putFile("big.bin", data);

/** `assist ssh add/pass/setup` for an alias; the master's pid. */
async function openMaster(alias: string, port: number): Promise<number> {
  await assist(["ssh", "add", alias, `${sshd.user}@127.0.0.1:${port}`]);
  await assist(["ssh", "pass", alias], sshd.password + "\n");
  const setup = await assist(["ssh", "setup", alias]);
  return Number(setup.match(/pid (\d+)\)/)![1]);
}

const key = await sshd.authorizeClientKey();
const sshOpts = opensshOptions(key);

/** How long the relay holds each chunk, each way. */
const DELAY_MS = 5;

/**
 * A TCP relay on 127.0.0.1 to `port` that delivers every chunk DELAY_MS after it arrived, in order,
 * in both directions: a link with a round trip of 2 x DELAY_MS and loopback bandwidth.
 */
function delayedRelay(port: number): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const pump = async (from: Deno.Conn, to: Deno.Conn) => {
    const queue: { due: number; bytes: Uint8Array }[] = [];
    let ended = false;
    let wake: (() => void) | undefined;
    (async () => {
      const buf = new Uint8Array(1 << 20);
      while (true) {
        const n = await from.read(buf).catch(() => null);
        if (n === null) break;
        queue.push({ due: performance.now() + DELAY_MS, bytes: buf.slice(0, n) });
        wake?.();
      }
      ended = true;
      wake?.();
    })();
    try {
      while (!ended || queue.length > 0) {
        if (queue.length === 0) {
          await new Promise<void>((r) => wake = r);
          wake = undefined;
          continue;
        }
        const wait = queue[0].due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const { bytes } = queue.shift()!;
        for (let off = 0; off < bytes.length;) off += await to.write(bytes.subarray(off));
      }
      await to.closeWrite();
    } catch { /* the other side went away */ }
  };
  (async () => {
    for await (const conn of listener) {
      const upstream = await Deno.connect({ hostname: "127.0.0.1", port });
      conn.setNoDelay(true);
      upstream.setNoDelay(true);
      pump(conn, upstream);
      pump(upstream, conn);
    }
  })();
  return (listener.addr as Deno.NetAddr).port;
}

const relayPort = delayedRelay(sshd.port);
const masterPid = await openMaster("m", sshd.port);
const farMasterPid = await openMaster("far", relayPort);
const control = `${home}/cm.sock`;
const farControl = `${home}/cm-far.sock`;
const cmPid = await openControlMaster(sshd, key, control);
const farCmPid = await openControlMaster(sshd, key, farControl, relayPort);

/**
 * Per pull, the process that holds the connection does the decryption: OpenSSH's ControlMaster for
 * scp, our master for ssh_pull. Its CPU time per pull is printed at the end: that is what bounds the
 * wall-clock ratio on a small machine. (Read from /proc through tests/ssh/_proc.ts, outside the
 * timed part of each iteration.)
 */
const holderCpu = new Map<string, { ms: number; pulls: number }>();
async function counted(
  b: Deno.BenchContext,
  name: string,
  pid: number,
  fn: () => Promise<void>,
): Promise<void> {
  const before = await cpuTimeMs(pid);
  b.start();
  await fn();
  b.end();
  const row = holderCpu.get(name) ?? { ms: 0, pulls: 0 };
  row.ms += await cpuTimeMs(pid) - before;
  row.pulls++;
  holderCpu.set(name, row);
}

globalThis.addEventListener("unload", () => {
  for (const [name, { ms, pulls }] of holderCpu) {
    console.log(`CPU per pull in the process holding the connection, ${name}: ${(ms / pulls).toFixed(0)} ms`);
  }
  for (const path of [control, farControl]) closeControlMasterSync(path);
  for (const pid of [masterPid, farMasterPid]) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
  sshd.disposeSync();
  for (const dir of [home, env.TMPDIR, out]) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* gone */ }
  }
});

const client = await MasterClient.open(home, "m");
const direct = await connect({
  alias: "m",
  host: { alias: "m", user: sshd.user, host: "127.0.0.1", port: sshd.port },
  password: new Secret(sshd.password),
  home,
  mode: "direct",
});

async function check(path: string): Promise<void> {
  const size = (await Deno.stat(path)).size;
  if (size !== data.length) throw new Error(`${path}: ${size} bytes`);
  await Deno.remove(path);
}

async function scp(extra: string[], port = sshd.port): Promise<void> {
  const o = await new Deno.Command("scp", {
    args: [
      "-q",
      ...sshOpts,
      ...extra,
      "-P",
      String(port),
      `${sshd.user}@127.0.0.1:big.bin`,
      `${out}/scp.bin`,
    ],
    stdin: "null",
  }).output();
  if (!o.success) throw new Error("scp failed");
  await check(`${out}/scp.bin`);
}

const opts = { group: "100 MiB pull", n: 8, warmup: 1 };

Deno.bench("scp (own connection each time)", opts, async () => {
  await scp([]);
});

// The comparator of issue 17 item 13: the summary gives every other row as a ratio to it.
Deno.bench("scp over an OpenSSH ControlMaster", { ...opts, baseline: true }, async (b) => {
  await counted(b, "scp (OpenSSH ControlMaster)", cmPid, () => scp(["-o", `ControlPath=${control}`]));
});

Deno.bench("assist tools ssh_pull via the master (whole process)", opts, async (b) => {
  await counted(b, "ssh_pull (assist master)", masterPid, async () => {
    await assist(["tools", "ssh_pull", "m", "big.bin", `${out}/t.bin`]);
    await check(`${out}/t.bin`);
  });
});

Deno.bench("ssh_pull via the assist master (SFTP, verified)", opts, async () => {
  await pullToFile(client, "big.bin", `${out}/m.bin`);
  await check(`${out}/m.bin`);
});

Deno.bench("ssh_pull on an open direct connection (SFTP, verified)", opts, async () => {
  await pullToFile(direct, "big.bin", `${out}/d.bin`);
  await check(`${out}/d.bin`);
});

const far = { group: `100 MiB pull, ${2 * DELAY_MS} ms round trip`, n: 4, warmup: 1 };

Deno.bench(
  `scp over an OpenSSH ControlMaster, ${2 * DELAY_MS} ms round trip`,
  { ...far, baseline: true },
  async (b) => {
    await counted(
      b,
      `scp (OpenSSH ControlMaster), ${2 * DELAY_MS} ms round trip`,
      farCmPid,
      () => scp(["-o", `ControlPath=${farControl}`], relayPort),
    );
  },
);

Deno.bench(`assist tools ssh_pull via the master, ${2 * DELAY_MS} ms round trip`, far, async (b) => {
  await counted(b, `ssh_pull (assist master), ${2 * DELAY_MS} ms round trip`, farMasterPid, async () => {
    await assist(["tools", "ssh_pull", "far", "big.bin", `${out}/f.bin`]);
    await check(`${out}/f.bin`);
  });
});
