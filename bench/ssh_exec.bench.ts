/**
 * Exec round trip on loopback against a real sshd (tests/support/sshd.ts): a command through the
 * master (a real `assist internal ssh-master` process, reached over its Unix socket) versus direct
 * mode (connect, key exchange, password authentication, exec, close). Both run the same command in
 * the login shell. Target: the master at least 5 times faster. Also the whole `assist tools
 * ssh_exec` process each way, as an operator feels it, and against `ssh -S` over an OpenSSH
 * ControlMaster as a whole process (issue 17 item 12: at most 3x).
 *
 *     deno bench -q -P=test bench/ssh_exec.bench.ts      (needs root: it creates a throwaway user)
 */
import { Sshd } from "../tests/support/sshd.ts";
import { assistOk, envFor } from "../tests/ssh/_support.ts";
import { MasterClient } from "../ssh/client.ts";
import { connect } from "../ssh/connection.ts";
import { wrapCommand } from "../ssh/wrap.ts";
import { Secret } from "../core/secret.ts";
import { closeControlMasterSync, openControlMaster, opensshOptions } from "./_openssh.ts";

const sshd = await Sshd.start();
const home = await Deno.makeTempDir({ prefix: "assist-bench-ssh-" });
const env = envFor(home);
await Deno.mkdir(env.TMPDIR, { recursive: true });
const assist = (args: string[], stdin?: string, more: Record<string, string> = {}) =>
  assistOk(args, { ...env, ...more }, stdin);

await assist(["ssh", "add", "m", sshd.target]);
await assist(["ssh", "add", "d", sshd.target]);
await assist(["ssh", "pass", "m"], sshd.password + "\n");
await assist(["ssh", "pass", "d"], sshd.password + "\n");
await assist(["ssh", "set-direct", "d"]);
const setup = await assist(["ssh", "setup", "m"]);
const masterPid = Number(setup.match(/pid (\d+)\)/)![1]);

globalThis.addEventListener("unload", () => {
  try {
    Deno.kill(masterPid, "SIGKILL");
  } catch { /* gone */ }
  sshd.disposeSync();
  try {
    Deno.removeSync(home, { recursive: true });
  } catch { /* gone */ }
});

// OpenSSH's own multiplexing, for the whole-process comparison: a key for its client, one master.
const key = await sshd.authorizeClientKey();
const control = `${home}/cm.sock`;
const sshOpts = [...opensshOptions(key), "-o", `ControlPath=${control}`];
await openControlMaster(sshd, key, control);
globalThis.addEventListener("unload", () => closeControlMasterSync(control));

const command = wrapCommand("true", { noLogin: false }).command;
const client = await MasterClient.open(home, "m");
const host = { alias: "d", user: sshd.user, host: "127.0.0.1", port: sshd.port };

Deno.bench("exec `true` via the master", { group: "ssh exec round trip" }, async () => {
  const r = await client.exec(command);
  if (r.code !== 0) throw new Error(`rc ${r.code}`);
});

Deno.bench("exec `true` in direct mode (connect + auth + exec)", {
  group: "ssh exec round trip",
  baseline: true,
}, async () => {
  const c = await connect({ alias: "d", host, password: new Secret(sshd.password), home, mode: "direct" });
  const r = await c.exec(command);
  await c.close();
  if (r.code !== 0) throw new Error(`rc ${r.code}`);
});

Deno.bench(
  "assist tools ssh_exec via the master (whole process)",
  { group: "ssh_exec command", n: 20 },
  async () => {
    await assist(["tools", "ssh_exec", "m", "true"]);
  },
);

Deno.bench("assist tools ssh_exec in direct mode (whole process)", {
  group: "ssh_exec command",
  baseline: true,
  n: 20,
}, async () => {
  await assist(["tools", "ssh_exec", "d", "true"]);
});

Deno.bench("ssh -S over an OpenSSH ControlMaster (whole process)", {
  group: "vs OpenSSH",
  baseline: true,
  n: 20,
}, async () => {
  const o = await new Deno.Command("ssh", {
    args: [...sshOpts, "-p", String(sshd.port), `${sshd.user}@127.0.0.1`, "true"],
    stdin: "null",
  }).output();
  if (!o.success) throw new Error("ssh -S failed");
});

Deno.bench(
  "assist tools ssh_exec via the master (whole process) ",
  { group: "vs OpenSSH", n: 20 },
  async () => {
    await assist(["tools", "ssh_exec", "m", "true"]);
  },
);
