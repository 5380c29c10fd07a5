/**
 * The algorithm lists the client offers, in preference order (the server takes the client's first
 * match). Pinned here rather than left to ssh2's defaults because under Deno some of ssh2's
 * defaults do not work and others are slow (anchors.md 4.2; tests/ssh/matrix.test.ts checks every
 * entry against a real sshd restricted to it):
 * - Key exchange `ecdh-sha2-nistp521` fails under Deno 2.9 ("invalid curve"): left out. (An
 *   `ecdsa-sha2-nistp521` host key verifies fine.)
 * - Ciphers: chacha20-poly1305 is the fastest here (measured on loopback: about 230 MB/s through an
 *   exec channel against 160 for aes128-ctr and 115 for aes128-gcm), so it comes first; AES-GCM
 *   works in Deno 2.9 (denoland/deno#28589 no longer bites) but is the slowest, so it comes last.
 * - Legacy `diffie-hellman-group14-sha1` and `ssh-rsa` stay at the end for old engine hosts.
 *
 * @module
 */
export const ALGORITHMS: Readonly<
  Record<"kex" | "serverHostKey" | "cipher" | "hmac" | "compress", string[]>
> = {
  kex: [
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256",
    "ecdh-sha2-nistp384",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group16-sha512",
    "diffie-hellman-group18-sha512",
    "diffie-hellman-group14-sha256",
    "diffie-hellman-group14-sha1",
  ],
  serverHostKey: [
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "rsa-sha2-512",
    "rsa-sha2-256",
    "ssh-rsa",
  ],
  cipher: [
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
  ],
  hmac: [
    "hmac-sha2-256-etm@openssh.com",
    "hmac-sha2-512-etm@openssh.com",
    "hmac-sha2-256",
    "hmac-sha2-512",
    "hmac-sha1-etm@openssh.com",
    "hmac-sha1",
  ],
  compress: ["none"],
};

/** Algorithms known not to work under Deno with ssh2 1.17: never offered. */
export const AVOIDED: readonly string[] = ["ecdh-sha2-nistp521"];

/**
 * The host-key algorithm list for a host whose recorded key types are known: those types first
 * (as OpenSSH orders its own list), so a host keeps presenting the key that was recorded instead
 * of a newer type that would look like a changed key. Pure.
 *
 * @example
 * ```ts
 * hostKeyOrder(["ssh-rsa"]); // ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa", "ssh-ed25519", ...]
 * ```
 */
export function hostKeyOrder(
  recordedTypes: readonly string[],
  list: readonly string[] = ALGORITHMS.serverHostKey,
): string[] {
  const algorithmsOf = (type: string) =>
    type === "ssh-rsa" ? ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] : [type];
  const first = recordedTypes.flatMap(algorithmsOf).filter((a) => list.includes(a));
  return [...new Set([...first, ...list])];
}
