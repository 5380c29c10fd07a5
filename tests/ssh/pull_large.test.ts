/**
 * A large pull against a real sshd (issue 17 item 13): byte for byte through the master (the master
 * writes the part file itself) and on a direct connection, with SFTP reads of exactly the size the
 * server serves in one reply. The read size comes from an ssh2 internal (`_maxReadLen`, learned from
 * OpenSSH's `limits@openssh.com`); the first step fails if an ssh2 upgrade stops providing it.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Sshd } from "../support/sshd.ts";
import { assist, envFor, killPid, masterPid } from "./_support.ts";
import { connect } from "../../ssh/connection.ts";
import { handshake } from "../../ssh/handshake.ts";
import { readSize } from "../../ssh/sftp.ts";
import { CHANNEL_WINDOW } from "../../ssh/_ssh2_window.ts";
import { pullToFile } from "../../ssh/transfer.ts";
import type { Ssh2Sftp } from "../../ssh/_ssh2.ts";
import { Secret } from "../../core/secret.ts";

/** Random bytes of any length (getRandomValues gives at most 64 KiB at a time). */
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) {
    crypto.getRandomValues(out.subarray(off, Math.min(n, off + 65536)));
  }
  return out;
}

/** OpenSSH's sftp-server answers reads of up to 256 KiB less 1 KiB (SFTP_MAX_READ_LENGTH). */
const OPENSSH_MAX_READ = 255 * 1024;

Deno.test("a large pull is byte-exact through the master and direct, in reads of the server's limit", async (t) => {
  await using sshd = await Sshd.start();
  const home = await Deno.makeTempDir({ prefix: "assist-ssh-pull-large-" });
  const env = envFor(home);
  const masters: number[] = [];
  const options = {
    alias: "e1",
    host: { alias: "e1", user: sshd.user, host: "127.0.0.1", port: sshd.port },
    password: new Secret(sshd.password),
    home,
  };
  // Past the master's 16 MiB progress step, more than the ~4 MiB of reads in flight (so the read
  // buffers are reused), and not a multiple of the read size (a short last read).
  const data = randomBytes((17 << 20) + 4097);
  await sshd.putFile("big.bin", data);
  try {
    await t.step("ssh2 still tells the server's read limit, and pulls use it", async () => {
      const { client } = await handshake({ ...options, mode: "direct" });
      try {
        const sftp = await new Promise<Ssh2Sftp>((resolve, reject) =>
          client.sftp((err, s) => err ? reject(err) : resolve(s))
        );
        // ssh2 hands the session over only after the server answered limits@openssh.com.
        assertEquals(sftp._maxReadLen, OPENSSH_MAX_READ);
        assertEquals(readSize(sftp), OPENSSH_MAX_READ);
      } finally {
        client.end();
      }
    });

    await t.step("ssh2 offers the larger channel window and tops it up to that window", async () => {
      assert(CHANNEL_WINDOW > 2 << 20, "not larger than ssh2's own 2 MiB");
      const { client } = await handshake({ ...options, mode: "direct" });
      try {
        const sftp = await new Promise<Ssh2Sftp>((resolve, reject) =>
          client.sftp((err, s) => err ? reject(err) : resolve(s))
        );
        // ssh2 internals (lib/Channel.js, lib/client.js): what the channel has left of its window.
        const window = () => (sftp as unknown as { incoming: { window: number } }).incoming.window;
        // Offered at open: the SFTP version exchange used a few bytes of it.
        assert(window() > CHANNEL_WINDOW - 4096, `window at open: ${window()}`);
        // Read more than the whole window: the server can only go on if it is topped up, and the
        // top-ups go back to the larger window (ssh2's own would stop at 2 MiB).
        const handle = await new Promise<Buffer>((resolve, reject) =>
          sftp.open("big.bin", "r", {}, (err, h) => err ? reject(err) : resolve(h))
        );
        const buf = Buffer.alloc(OPENSSH_MAX_READ);
        let lowest = Infinity;
        for (let pos = 0; pos < data.length; pos += OPENSSH_MAX_READ) {
          const n = await new Promise<number>((resolve, reject) =>
            sftp.read(
              handle as never,
              buf as never,
              0,
              buf.length,
              pos,
              (err, got) => err ? reject(err) : resolve(got),
            )
          );
          assertEquals(new Uint8Array(buf.buffer, buf.byteOffset, n), data.subarray(pos, pos + n));
          lowest = Math.min(lowest, window());
        }
        assert(lowest > 2 << 20, `the window fell to ${lowest}`);
        assert(window() > CHANNEL_WINDOW / 2, `window after ${data.length} bytes: ${window()}`);
      } finally {
        client.end();
      }
    });

    await t.step("direct: every read but the last is one full reply, and the bytes are exact", async () => {
      const direct = await connect({ ...options, mode: "direct" });
      try {
        const got = new Uint8Array(data.length);
        const sizes: number[] = [];
        let at = 0;
        const r = await direct.pull("big.bin", (chunk) => {
          got.set(chunk, at);
          at += chunk.length;
          sizes.push(chunk.length);
        });
        assertEquals(r, { size: data.length, bytes: data.length });
        assertEquals(got, data);
        const full = Math.floor(data.length / OPENSSH_MAX_READ);
        assertEquals(sizes.length, full + 1);
        assert(sizes.slice(0, full).every((n) => n === OPENSSH_MAX_READ), `read sizes ${sizes.slice(0, 4)}`);
        assertEquals(sizes[full], data.length - full * OPENSSH_MAX_READ);

        const dest = `${home}-tmp/direct.bin`;
        await Deno.mkdir(`${home}-tmp`, { recursive: true });
        await pullToFile(direct, "big.bin", dest);
        assertEquals(await Deno.readFile(dest), data);
      } finally {
        await direct.close();
      }
    });

    await t.step(
      "through the master (it writes the part file): byte-exact, private, nothing left",
      async () => {
        await assist(["ssh", "add", "e1", sshd.target], env);
        await assist(["ssh", "pass", "e1"], env, sshd.password + "\n");
        const setup = await assist(["ssh", "setup", "e1"], env);
        assertEquals(setup.code, 0, setup.all);
        masters.push(masterPid(setup.stdout));
        const dest = `${home}-tmp/out/big.bin`;
        await Deno.mkdir(`${home}-tmp/out`, { recursive: true });
        const r = await assist(["tools", "ssh_pull", "e1", "big.bin", dest], env);
        assertEquals(r.code, 0, r.all);
        assertEquals(
          r.stdout,
          `${dest}\n[ssh_pull: ${data.length} bytes from e1:big.bin; byte count verified]\n`,
        );
        assertEquals(await Deno.readFile(dest), data);
        assertEquals((await Deno.stat(dest)).mode! & 0o777, 0o600);
        assertEquals([...Deno.readDirSync(`${home}-tmp/out`)].map((e) => e.name), ["big.bin"]);
      },
    );
  } finally {
    for (const pid of masters) killPid(pid);
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(`${home}-tmp`, { recursive: true }).catch(() => {});
  }
});
