/**
 * A 100 MB pull on loopback against a real sshd (tests/support/sshd.ts): `ssh_pull`'s path (SFTP,
 * pipelined reads, written to a local file, byte count verified) through the master and in direct
 * mode, against OpenSSH's `scp` of the same file. scp runs twice: on its own connection each time
 * (as an operator types it), and over an OpenSSH ControlMaster (no handshake, like our master).
 * Target: at least half of scp's throughput. Throughput = 100 MiB / time per iteration. Issue 17
 * item 13: the whole `assist tools ssh_pull` process through the master, where the master writes
 * the file itself, at most 1.5x scp over a ControlMaster.
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

await assist(["ssh", "add", "m", sshd.target]);
await assist(["ssh", "pass", "m"], sshd.password + "\n");
const setup = await assist(["ssh", "setup", "m"]);
const masterPid = Number(setup.match(/pid (\d+)\)/)![1]);
const key = await sshd.authorizeClientKey();
const sshOpts = [
  "-i",
  key,
  "-o",
  "StrictHostKeyChecking=no",
  "-o",
  "UserKnownHostsFile=/dev/null",
  "-o",
  "LogLevel=ERROR",
  "-o",
  "BatchMode=yes",
];
const control = `${home}/cm.sock`;
const cm = await new Deno.Command("ssh", {
  args: [
    ...sshOpts,
    "-o",
    "ControlMaster=yes",
    "-o",
    `ControlPath=${control}`,
    "-o",
    "ControlPersist=yes",
    "-fN",
    "-p",
    String(sshd.port),
    `${sshd.user}@127.0.0.1`,
  ],
  stdin: "null",
}).output();
if (!cm.success) throw new Error("cannot open the OpenSSH ControlMaster for the scp baseline");
const cmCheck = await new Deno.Command("ssh", { args: ["-o", `ControlPath=${control}`, "-O", "check", "x"] })
  .output();
const cmPid = Number(new TextDecoder().decode(cmCheck.stderr).match(/pid=(\d+)/)?.[1] ?? 0);

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
  new Deno.Command("ssh", {
    args: ["-o", `ControlPath=${control}`, "-O", "exit", "x"],
    stderr: "null",
    stdout: "null",
  })
    .outputSync();
  try {
    Deno.kill(masterPid, "SIGKILL");
  } catch { /* gone */ }
  sshd.disposeSync();
  for (const dir of [home, out]) {
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

async function scp(extra: string[]): Promise<void> {
  const o = await new Deno.Command("scp", {
    args: [
      "-q",
      ...sshOpts,
      ...extra,
      "-P",
      String(sshd.port),
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
