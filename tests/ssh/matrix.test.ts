/**
 * The algorithm matrix against a real sshd restricted to one algorithm at a time (anchors.md 4.2:
 * ssh2 under Deno has broken on several of them): key exchange curve25519, ecdh and dh-group14 (and
 * the other offered ones), each with the ciphers chacha20-poly1305, aes-ctr and aes-gcm; the host
 * key types; keyboard-interactive for PAM hosts. Each combination runs a command and a 1 MiB SFTP
 * pull whose bytes are compared. Where Deno cannot do an algorithm, the client does not offer it.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { Sshd } from "../support/sshd.ts";
import { connect } from "../../ssh/connection.ts";
import { ALGORITHMS, AVOIDED } from "../../ssh/algorithms.ts";
import { Secret } from "../../core/secret.ts";
import { SshError } from "../../ssh/errors.ts";
import { concat } from "../../core/bytes.ts";
import { newClient } from "../../ssh/_ssh2.ts";

const KEX = ["curve25519-sha256", "ecdh-sha2-nistp256", "diffie-hellman-group14-sha256"];
const CIPHERS = [
  "chacha20-poly1305@openssh.com",
  "aes128-ctr",
  "aes256-ctr",
  "aes128-gcm@openssh.com",
  "aes256-gcm@openssh.com",
];

Deno.test("ssh algorithm matrix against a real sshd", async (t) => {
  await using sshd = await Sshd.start();
  const home = await Deno.makeTempDir({ prefix: "assist-ssh-matrix-" });
  const payload = new Uint8Array(1 << 20);
  for (let off = 0; off < payload.length; off += 65536) {
    crypto.getRandomValues(payload.subarray(off, off + 65536));
  }
  await sshd.putFile("payload.bin", payload);
  const host = { alias: "m", user: sshd.user, host: "127.0.0.1", port: sshd.port };
  const session = async () => {
    const c = await connect({ alias: "m", host, password: new Secret(sshd.password), home, mode: "direct" });
    try {
      const r = await c.exec("echo ok");
      assertEquals(new TextDecoder().decode(r.stdout), "ok\n");
      const parts: Uint8Array[] = [];
      const p = await c.pull("payload.bin", (b) => void parts.push(new Uint8Array(b)));
      assertEquals(p.bytes, payload.length);
      assert(concat(parts).every((b, i) => b === payload[i]), "the pulled bytes match");
    } finally {
      await c.close();
    }
  };
  try {
    for (const kex of KEX) {
      for (const cipher of CIPHERS) {
        await t.step(`${kex} + ${cipher}`, async () => {
          await sshd.restart({ kex: [kex], ciphers: [cipher] });
          await session();
        });
      }
    }
    for (const kex of ALGORITHMS.kex.filter((k) => !KEX.includes(k))) {
      await t.step(`offered kex ${kex}`, async () => {
        await sshd.restart({ kex: [kex] });
        await session();
      });
    }
    for (const hk of ["ssh-ed25519", "ecdsa-sha2-nistp256", "rsa-sha2-512", "rsa-sha2-256"]) {
      await t.step(`host key ${hk}`, async () => {
        await Deno.remove(`${home}/.ssh-known-hosts`).catch(() => {});
        await sshd.restart({ hostKeyAlgorithms: [hk] });
        await session();
        const line = (await Deno.readTextFile(`${home}/.ssh-known-hosts`)).trim();
        assertEquals(line.split(" ")[1], hk.startsWith("rsa-") ? "ssh-rsa" : hk);
      });
    }
    await t.step("a host that can present several key types keeps presenting the recorded one", async () => {
      // The store holds the RSA key from the step before; the server now offers every type.
      await sshd.restart({});
      await session();
      assertEquals((await Deno.readTextFile(`${home}/.ssh-known-hosts`)).trim().split("\n").length, 1);
    });
    await t.step("keyboard-interactive only (PAM): answered with the stored password", async () => {
      await sshd.restart({ keyboardInteractiveOnly: true });
      await session();
    });
    await t.step(
      "avoided: the client never offers what Deno cannot do, and fails cleanly when that is all",
      async () => {
        for (const a of AVOIDED) assert(!Object.values(ALGORITHMS).flat().includes(a), a);
        await sshd.restart({ kex: ["ecdh-sha2-nistp521"] });
        const t0 = Date.now();
        await connect({ alias: "m", host, password: new Secret(sshd.password), home, mode: "direct" }).then(
          () => assert(false, "connected without a common key exchange"),
          (e: SshError) => {
            assertEquals(e.kind, "unreachable");
            match(e.message, /SSH handshake with .* failed: .*no matching key exchange/);
          },
        );
        assert(Date.now() - t0 < 5000);
      },
    );
    await t.step("why: ecdh-sha2-nistp521 still fails under this Deno when ssh2 offers it", async () => {
      const err = await new Promise<string | undefined>((resolve) => {
        const c = newClient();
        c.on("ready", () => {
          c.end();
          resolve(undefined);
        });
        c.on("error", (e) => resolve(e.message));
        c.connect({
          host: "127.0.0.1",
          port: sshd.port,
          username: sshd.user,
          readyTimeout: 5000,
          keepaliveInterval: 0,
          keepaliveCountMax: 3,
          hostVerifier: (_k, verify) => verify(true),
          authHandler: (_m, _p, next) =>
            next({ type: "password", username: sshd.user, password: sshd.password }),
          algorithms: { kex: ["ecdh-sha2-nistp521"] },
        });
      });
      assert(
        err !== undefined,
        "ecdh-sha2-nistp521 works under this Deno now: it may be offered again (ssh/algorithms.ts AVOIDED)",
      );
      match(err, /invalid curve/);
    });
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});
