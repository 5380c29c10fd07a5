/**
 * Ed25519 signatures over the exact MANIFEST bytes, checked with WebCrypto. `MANIFEST.sig` is one
 * line, `ed25519 <key-id> <base64 signature>`, where the key id is the first 16 hex digits of the
 * SHA-256 of the raw 32-byte public key. The program trusts the keys embedded here for the default
 * origin and, for any origin, a key the operator pins in `$ASSIST_HOME/.origin-key` (the raw public
 * key in base64, as `deno task release` prints it). With a trusted key, an unsigned or badly signed
 * MANIFEST is refused; without one the origin is "unsigned" and only the hashes protect the files.
 *
 * @module
 */
import { sha256Hex } from "./hash.ts";

/**
 * Release keys (raw Ed25519 public keys, base64): the current one and the next, so a rotation
 * ships the next key one release before it signs. The private halves are never in the repository.
 */
export const EMBEDDED_KEYS: readonly string[] = [
  "KDY50suAQkGLclYrJwm3iax+blvvR/fd8S2+ZgFEPBk=",
  "z7euEyqkhVVFDEQ7QA1q7ZZq93Mvg2dEwSPLmDYw/tY=",
];

/** The key id of a raw public key (base64). */
export function keyId(publicKeyB64: string): string {
  return sha256Hex(Uint8Array.fromBase64(publicKeyB64)).slice(0, 16);
}

/** A parsed `MANIFEST.sig`. */
export interface SignatureLine {
  keyId: string;
  signature: Uint8Array;
}

/** Parses `MANIFEST.sig`; undefined when it is not the one-line form. */
export function parseSignature(text: string): SignatureLine | undefined {
  const m = /^ed25519 ([0-9a-f]{16}) ([A-Za-z0-9+/]{86}==)\s*$/.exec(text);
  if (!m) return undefined;
  try {
    return { keyId: m[1], signature: Uint8Array.fromBase64(m[2]) };
  } catch {
    return undefined;
  }
}

/** A raw Ed25519 public key in base64 (32 bytes), or undefined. */
export function parsePublicKey(text: string): string | undefined {
  const v = text.trim();
  try {
    return Uint8Array.fromBase64(v).length === 32 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `sig` is a valid signature of `manifest` by one of `trusted` (raw public keys, base64).
 *
 * @example
 * ```ts
 * import { verifyManifest } from "./signature.ts";
 * declare const manifest: Uint8Array;
 * declare const sigText: string;
 * const ok: boolean = await verifyManifest(manifest, sigText, ["<base64 key>"]);
 * ```
 */
export async function verifyManifest(
  manifest: Uint8Array,
  sigText: string,
  trusted: readonly string[],
): Promise<boolean> {
  const sig = parseSignature(sigText);
  if (!sig) return false;
  const key = trusted.find((k) => keyId(k) === sig.keyId);
  if (!key) return false;
  try {
    const pub = await crypto.subtle.importKey(
      "raw",
      Uint8Array.fromBase64(key) as Uint8Array<ArrayBuffer>,
      "Ed25519",
      false,
      ["verify"],
    );
    return await crypto.subtle.verify(
      "Ed25519",
      pub,
      sig.signature as Uint8Array<ArrayBuffer>,
      manifest as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}

/**
 * Signs `manifest` with a PKCS#8 Ed25519 private key (base64 or PEM text); returns the
 * `MANIFEST.sig` line and the public key (base64) that checks it.
 */
export async function signManifest(
  manifest: Uint8Array,
  privateKeyText: string,
): Promise<{ sigLine: string; publicKey: string }> {
  const b64 = privateKeyText.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  const pkcs8 = Uint8Array.fromBase64(b64);
  const priv = await crypto.subtle.importKey("pkcs8", pkcs8 as Uint8Array<ArrayBuffer>, "Ed25519", true, [
    "sign",
  ]);
  const jwk = await crypto.subtle.exportKey("jwk", priv);
  const publicKey = Uint8Array.fromBase64(jwk.x!, { alphabet: "base64url" }).toBase64();
  const sig = new Uint8Array(
    await crypto.subtle.sign("Ed25519", priv, manifest as Uint8Array<ArrayBuffer>),
  );
  return { sigLine: `ed25519 ${keyId(publicKey)} ${sig.toBase64()}\n`, publicKey };
}

/** A new Ed25519 key pair: PKCS#8 private key (PEM) and raw public key (base64). */
export async function generateKeyPair(): Promise<{ privatePem: string; publicKey: string }> {
  const pair = await crypto.subtle.generateKey("Ed25519", true, ["sign", "verify"]) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const body = pkcs8.toBase64().replace(/(.{64})/g, "$1\n").trim();
  return {
    privatePem: `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`,
    publicKey: raw.toBase64(),
  };
}
