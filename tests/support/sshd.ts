/**
 * A real OpenSSH server for the SSH tests: `/usr/sbin/sshd` (Debian openssh-server, installed by
 * .ci/run) on 127.0.0.1 on a free port, with its own config and host keys in a temporary folder, a
 * throwaway system user with a password, and a fake engine host in that user's home:
 *
 * - `hci/cis20.1/integrator`: the engine tests' synthetic root (tests/support/fixture_root.ts:
 *   server.ini, sites adt/lab/hub/pharm, NetConfigs, SMAT archives) plus `adt_recent.smatdb`, whose
 *   messages are recent (for `days_back` sampling), and stub `bin/hcisitectl`, `bin/hcicmd`;
 * - a login profile (`.bash_profile`) that sets HCIROOT, HCISITE and PATH, or a sudo-gated variant
 *   whose profile gives up (with sudo's own messages) before setting anything.
 *
 * No sshd means a thrown error (the suite fails; it is never skipped). Everything started here is
 * stopped by `[Symbol.asyncDispose]` even when a test fails: the sshd and its session processes (by
 * pid), the user (userdel), the folder. Users left behind by a killed run are removed on the next
 * start. The password goes to chpasswd on stdin, never in an argv.
 *
 * Must run as root (useradd, sshd): the CI container and this workplace do.
 */
import { runCommand } from "./run_assist.ts";
import { writeFixtureRoot } from "./fixture_root.ts";
import { hl7, writeSmatDb } from "./smat_writer.ts";
import { descendants, pidsOfUid, PROC_HELPER as PROC_HELPER_SYNC } from "../ssh/_proc.ts";

export const SSHD = "/usr/sbin/sshd";
const USER_PREFIX = "asst";
const GECOS = "assist-ssh-test";

export interface SshdConfig {
  /** sshd `Ciphers` (restricts the server to these). */
  ciphers?: string[];
  /** sshd `KexAlgorithms`. */
  kex?: string[];
  /** sshd `HostKeyAlgorithms`. */
  hostKeyAlgorithms?: string[];
  /** A pre-authentication banner text. */
  banner?: string;
  /** Password authentication (default on). */
  passwordAuth?: boolean;
  /** Only keyboard-interactive (through PAM) instead of the password method, as many PAM hosts do. */
  keyboardInteractiveOnly?: boolean;
}

export type Profile = "plain" | "sudo-gated" | "none";

async function run(
  cmd: string,
  args: string[],
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  const r = await runCommand(cmd, args, { stdin });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function must(cmd: string, args: string[], stdin?: string): Promise<string> {
  // useradd, userdel and chpasswd lock /etc/passwd and friends; suites running in parallel can
  // collide on the lock ("cannot lock /etc/passwd; try again later"): wait and retry.
  for (let attempt = 0;; attempt++) {
    const r = await run(cmd, args, stdin);
    if (r.code === 0) return r.out;
    if (attempt < 20 && /lock/i.test(r.err)) {
      await new Promise((res) => setTimeout(res, 100 + Math.random() * 200));
      continue;
    }
    throw new Error(`${cmd} ${args.join(" ")} failed (${r.code}): ${r.err.trim()}`);
  }
}

/** A port nobody listens on right now. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

export { descendants };

/** Removes test users whose home folder is gone (a run that was killed before it could clean up). */
async function sweepStaleUsers(): Promise<void> {
  const passwd = await Deno.readTextFile("/etc/passwd");
  for (const line of passwd.split("\n")) {
    const [name, , , , gecos, home] = line.split(":");
    if (!name?.startsWith(USER_PREFIX) || gecos !== GECOS) continue;
    try {
      await Deno.stat(home);
    } catch {
      await must("userdel", ["-f", name]).catch(() => {});
    }
  }
}

function kill(pid: number, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(pid, signal);
  } catch { /* gone */ }
}

const STUB_HCISITECTL = `#!/bin/sh
# Stub of the engine's site daemon control (research/cloverleaf.md 4.2): no arguments = status.
if [ -z "$HCIROOT" ]; then echo "hcisitectl: HCIROOT is not set" >&2; exit 1; fi
echo "Lockmgr    is running on pid 18831"
echo "hcimonitord is running on pid 18826"
`;

const STUB_HCICMD = `#!/bin/sh
# Stub of the engine command client (research/cloverleaf.md 4.3).
if [ -z "$HCIROOT" ]; then echo "hcicmd: HCIROOT is not set" >&2; exit 1; fi
echo "Response:"
case "$*" in
  *psummary*) echo "psummary {adt_proc running {Started at Fri Feb 27 14:05:10 2015}}" ;;
  *save_cycle*) echo "inbound message saving cycled" ;;
  *) echo "ok" ;;
esac
`;

const STUB_SUDO = `#!/bin/sh
# Stand-in for sudo on a host whose engine account needs a password: says what sudo says with no
# terminal, and fails.
printf '[sudo] password for %s: ' "$(id -un)" >&2
echo "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper" >&2
echo "sudo: a password is required" >&2
exit 1
`;

export class Sshd {
  readonly dir: string;
  readonly user: string;
  readonly password: string;
  readonly home: string;
  readonly hciroot: string;
  port: number;
  #proc: Deno.ChildProcess | undefined;
  #config: SshdConfig = {};
  #logFile: string;

  private constructor(dir: string, user: string, password: string, port: number) {
    this.dir = dir;
    this.user = user;
    this.password = password;
    this.home = `${dir}/home`;
    this.hciroot = `${this.home}/hci/cis20.1/integrator`;
    this.port = port;
    this.#logFile = `${dir}/sshd.log`;
  }

  /** Starts a server with a fresh user and engine tree. Throws when sshd is missing. */
  static async start(config: SshdConfig = {}, profile: Profile = "plain"): Promise<Sshd> {
    try {
      await Deno.stat(SSHD);
    } catch {
      throw new Error(`${SSHD} not found: install openssh-server (.ci/run does); the SSH suite cannot run`);
    }
    await sweepStaleUsers();
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "assist-sshd-" }));
    await Deno.chmod(dir, 0o755); // the user must reach its home inside
    const user = USER_PREFIX + crypto.getRandomValues(new Uint8Array(4)).toHex();
    // A password with shell-hostile characters: it must survive every path as data.
    const password = `Pw-${crypto.getRandomValues(new Uint8Array(6)).toHex()}'$"\\ !x`;
    const s = new Sshd(dir, user, password, freePort());
    try {
      await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 });
      await must("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/host_ed25519`]);
      await must("ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", `${dir}/host_rsa`]);
      await must("ssh-keygen", ["-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f", `${dir}/host_ecdsa`]);
      await Deno.mkdir(s.home, { mode: 0o755 });
      await must("useradd", ["-M", "-d", s.home, "-s", "/bin/bash", "-c", GECOS, user]);
      await must("chpasswd", [], `${user}:${password}\n`);
      await s.#writeEngine();
      await s.setProfile(profile);
      await must("chown", ["-R", `${user}:${user}`, s.home]);
      await s.restart(config);
      return s;
    } catch (err) {
      await s[Symbol.asyncDispose]();
      throw err;
    }
  }

  async #writeEngine(): Promise<void> {
    await writeFixtureRoot(this.hciroot);
    await Deno.mkdir(`${this.hciroot}/bin`, { recursive: true });
    await Deno.mkdir(`${this.hciroot}/sbin`, { recursive: true });
    await Deno.writeTextFile(`${this.hciroot}/bin/hcisitectl`, STUB_HCISITECTL, { mode: 0o755 });
    await Deno.writeTextFile(`${this.hciroot}/bin/hcicmd`, STUB_HCICMD, { mode: 0o755 });
    await Deno.mkdir(`${this.home}/bin`, { recursive: true });
    await Deno.writeTextFile(`${this.home}/bin/sudo`, STUB_SUDO, { mode: 0o755 });
    // Recent messages for days_back: 1,500 over the last 30 days, newest first in time.
    const now = Date.now();
    const msgs = Array.from({ length: 1500 }, (_, i) => {
      const time = now - i * 30 * 60_000; // every 30 minutes back
      return { mid: 90000 + i, time, source: "adt_in", content: hl7("ADT^A08", i + 1, time) };
    });
    writeSmatDb(`${this.hciroot}/adt/exec/processes/adt_proc/adt_recent.smatdb`, msgs);
  }

  /** Messages in `adt_recent.smatdb` newer than `days` days (what a sample should hold, before the cap). */
  static recentCount(days: number): number {
    return Math.min(1500, Math.floor((days * 86_400_000) / (30 * 60_000)) + 1);
  }

  /** Writes the login profile: plain (sets the engine environment), sudo-gated, or none. */
  async setProfile(profile: Profile): Promise<void> {
    const path = `${this.home}/.bash_profile`;
    const env = [
      `HCIROOT=${this.hciroot}; export HCIROOT`,
      `HCISITE=adt; export HCISITE`,
      `PATH="$HCIROOT/bin:$HCIROOT/sbin:$PATH"; export PATH`,
    ];
    if (profile === "none") {
      await Deno.remove(path).catch(() => {});
      return;
    }
    const text = profile === "plain" ? ["# Engine login profile (synthetic).", ...env, ""].join("\n") : [
      "# The engine environment is only reachable through sudo to the engine account.",
      `"$HOME/bin/sudo" -u hci -i true || exit 1`,
      ...env,
      "",
    ].join("\n");
    await Deno.writeTextFile(path, text);
    await must("chown", [`${this.user}:${this.user}`, path]);
  }

  /** (Re)starts sshd with a config; the port stays the same. */
  async restart(config: SshdConfig = this.#config): Promise<void> {
    await this.stop();
    this.#config = config;
    const lines = [
      `Port ${this.port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${this.dir}/host_ed25519`,
      `HostKey ${this.dir}/host_ecdsa`,
      `HostKey ${this.dir}/host_rsa`,
      `PidFile ${this.dir}/sshd.pid`,
      `UsePAM ${config.keyboardInteractiveOnly ? "yes" : "no"}`,
      `PasswordAuthentication ${
        config.passwordAuth === false || config.keyboardInteractiveOnly ? "no" : "yes"
      }`,
      `KbdInteractiveAuthentication ${config.keyboardInteractiveOnly ? "yes" : "no"}`,
      "PubkeyAuthentication yes",
      "PermitRootLogin no",
      "StrictModes no",
      `AllowUsers ${this.user}`,
      "Subsystem sftp internal-sftp",
      "MaxStartups 50",
      "LogLevel VERBOSE",
    ];
    if (config.ciphers) lines.push(`Ciphers ${config.ciphers.join(",")}`);
    if (config.kex) lines.push(`KexAlgorithms ${config.kex.join(",")}`);
    if (config.hostKeyAlgorithms) lines.push(`HostKeyAlgorithms ${config.hostKeyAlgorithms.join(",")}`);
    if (config.banner !== undefined) {
      await Deno.writeTextFile(`${this.dir}/banner.txt`, config.banner);
      lines.push(`Banner ${this.dir}/banner.txt`);
    }
    await Deno.writeTextFile(`${this.dir}/sshd_config`, lines.join("\n") + "\n");
    await must(SSHD, ["-t", "-f", `${this.dir}/sshd_config`]);
    this.#proc = new Deno.Command(SSHD, {
      args: ["-D", "-f", `${this.dir}/sshd_config`, "-E", this.#logFile],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        const c = await Deno.connect({ hostname: "127.0.0.1", port: this.port });
        c.close();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`sshd did not start on port ${this.port}: ${await this.log()}`);
  }

  /** The sshd listener's pid. */
  get pid(): number | undefined {
    return this.#proc?.pid;
  }

  /** The server log so far. */
  async log(): Promise<string> {
    return await Deno.readTextFile(this.#logFile).catch(() => "");
  }

  /** Kills every session process (the per-connection sshd children): connections drop at once. */
  async killSessions(): Promise<number> {
    if (!this.#proc) return 0;
    const pids = await descendants(this.#proc.pid);
    for (const p of pids) kill(p);
    return pids.length;
  }

  /** Stops the listener and every session. */
  async stop(): Promise<void> {
    const p = this.#proc;
    if (!p) return;
    this.#proc = undefined;
    const pids = await descendants(p.pid);
    kill(p.pid);
    for (const c of pids) kill(c);
    await p.status;
  }

  /** New host keys (a re-keyed host); takes effect at the next restart. */
  async rotateHostKeys(): Promise<void> {
    for (const k of ["host_ed25519", "host_ecdsa", "host_rsa"]) {
      await Deno.remove(`${this.dir}/${k}`).catch(() => {});
      await Deno.remove(`${this.dir}/${k}.pub`).catch(() => {});
    }
    await must("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${this.dir}/host_ed25519`]);
    await must("ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", `${this.dir}/host_rsa`]);
    await must("ssh-keygen", ["-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f", `${this.dir}/host_ecdsa`]);
  }

  /** Changes the user's password on the host (chpasswd reads it on stdin). */
  async changePassword(password: string): Promise<void> {
    await must("chpasswd", [], `${this.user}:${password}\n`);
  }

  /** `user@127.0.0.1:port`, as `assist ssh add` takes it. */
  get target(): string {
    return `${this.user}@127.0.0.1:${this.port}`;
  }

  /** Writes a file in the user's home (owned by the user). */
  async putFile(rel: string, data: string | Uint8Array, mode = 0o644): Promise<string> {
    const path = `${this.home}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(path, data, { mode });
    else await Deno.writeFile(path, data, { mode });
    await must("chown", [`${this.user}:${this.user}`, path]);
    return path;
  }

  /**
   * A key pair authorized for the user (for OpenSSH's own client in the benchmarks: scp cannot be
   * given a password without a helper). Returns the private key's path.
   */
  async authorizeClientKey(): Promise<string> {
    const key = `${this.dir}/client_ed25519`;
    await must("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
    await this.putFile(".ssh/authorized_keys", await Deno.readTextFile(`${key}.pub`), 0o600);
    return key;
  }

  /**
   * The synchronous form of the disposal, for an `unload` handler (benchmarks have no async
   * teardown): the listener, its sessions and the user's processes by pid, the user, the folder.
   */
  disposeSync(): void {
    const p = this.#proc;
    this.#proc = undefined;
    const py = (args: string[]) => {
      const o = new Deno.Command("python3", { args: ["-c", PROC_HELPER_SYNC, ...args], stdout: "piped" })
        .outputSync();
      return new TextDecoder().decode(o.stdout).trim().split(/\s+/).filter((x) => x !== "").map(Number);
    };
    if (p) {
      for (const c of py(["tree", String(p.pid)])) kill(c);
      kill(p.pid);
    }
    const uid = new TextDecoder().decode(
      new Deno.Command("id", { args: ["-u", this.user], stdout: "piped", stderr: "null" })
        .outputSync().stdout,
    ).trim();
    if (/^\d+$/.test(uid)) { for (const pid of py(["uid", uid])) kill(pid); }
    new Deno.Command("userdel", { args: ["-f", this.user], stdout: "null", stderr: "null" }).outputSync();
    try {
      Deno.removeSync(this.dir, { recursive: true });
    } catch { /* gone */ }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop().catch(() => {});
    // Processes of the throwaway user (a session that outlived the kill) go, by pid, before the user.
    const uid = (await run("id", ["-u", this.user])).out.trim();
    if (/^\d+$/.test(uid)) { for (const pid of await pidsOfUid(uid)) kill(pid); }
    await must("userdel", ["-f", this.user]).catch(() => {});
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
