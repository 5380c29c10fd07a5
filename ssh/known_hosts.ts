/**
 * Host keys, trust on first use: `$ASSIST_HOME/.ssh-known-hosts`, in OpenSSH's known_hosts line format
 * (`host` or `[host]:port`, key type, base64 key), so an operator can read it, compare it with
 * `ssh-keyscan`, or copy lines in. The first key a host presents is recorded; later a different key
 * is refused with one line that says how to reset (`assist ssh forget-hostkey <alias>`). This module
 * owns the file; it is rewritten atomically at mode 0600.
 *
 * The verdict is synchronous on purpose: the store is read before connecting and ssh2's host
 * verifier answers at once. With an asynchronous answer, ssh2 1.17 under Deno stalls the handshake
 * whenever the server's NEWKEYS and EXT_INFO arrive before the answer (measured: about 4 in 10
 * fresh processes hung until the ready timeout). A new key is written after the verdict.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { updateStateFile } from "../core/state_file.ts";
import { stripCr } from "../core/clean.ts";

export function knownHostsPath(home: string): string {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return `${home.replace(/[\\/]+$/, "")}${sep}.ssh-known-hosts`;
}

/**
 * The known_hosts name of a host: the bare name on port 22, else `[host]:port`.
 *
 * @example
 * ```ts
 * knownHostName("eng1", 22); // "eng1"
 * knownHostName("127.0.0.1", 2222); // "[127.0.0.1]:2222"
 * ```
 */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** The key type named inside an SSH public key blob (its first length-prefixed string). */
export function keyType(blob: Uint8Array): string {
  if (blob.length < 4) return "unknown";
  const len = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(0);
  if (len === 0 || len > 64 || 4 + len > blob.length) return "unknown";
  return new TextDecoder().decode(blob.subarray(4, 4 + len));
}

/** OpenSSH's SHA256 fingerprint form: `SHA256:<base64 without padding>`. Synchronous (see below). */
export function fingerprint(blob: Uint8Array): string {
  const digest = new Uint8Array(createHash("sha256").update(blob).digest());
  return `SHA256:${digest.toBase64().replace(/=+$/, "")}`;
}

interface Entry {
  names: string[];
  type: string;
  key: string;
  line: string;
}

function parse(text: string): { entries: Entry[]; lines: string[] } {
  const lines = stripCr(text).split("\n").filter((l) => l !== "");
  const entries: Entry[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t === "" || t.startsWith("#") || t.startsWith("@") || t.startsWith("|")) continue;
    const [names, type, key] = t.split(/\s+/);
    if (!names || !type || !key) continue;
    entries.push({ names: names.split(","), type, key, line });
  }
  return { entries, lines };
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

export type HostKeyVerdict =
  | { status: "known"; fingerprint: string }
  | { status: "new"; fingerprint: string }
  | { status: "changed"; fingerprint: string; recorded: string[] };

/** The parsed store, read once before a connection. */
export interface KnownHosts {
  entries: Entry[];
}

export async function loadKnownHosts(home: string): Promise<KnownHosts> {
  return { entries: parse(await readText(knownHostsPath(home))).entries };
}

/**
 * The verdict on a presented key, synchronously: "known", "new" (no key recorded for this host and
 * port), or "changed" (a recorded key differs). Nothing is written here.
 */
export function verdictFor(store: KnownHosts, host: string, port: number, blob: Uint8Array): HostKeyVerdict {
  const name = knownHostName(host, port);
  const type = keyType(blob);
  const key = blob.toBase64();
  const fp = fingerprint(blob);
  const mine = store.entries.filter((e) => e.names.includes(name));
  if (mine.some((e) => e.type === type && e.key === key)) return { status: "known", fingerprint: fp };
  if (mine.length === 0) return { status: "new", fingerprint: fp };
  const recorded = mine.map((e) => {
    try {
      return `${e.type} ${fingerprint(Uint8Array.fromBase64(e.key))}`;
    } catch {
      return `${e.type} (unreadable)`;
    }
  });
  return { status: "changed", fingerprint: fp, recorded };
}

/** The key types recorded for a host and port. */
export function recordedTypes(store: KnownHosts, host: string, port: number): string[] {
  const name = knownHostName(host, port);
  return [...new Set(store.entries.filter((e) => e.names.includes(name)).map((e) => e.type))];
}

/**
 * Records a host's key (first use). The store is re-read under its lock (core/state_file.ts), so a
 * concurrent record is not lost.
 */
export async function recordHostKey(
  home: string,
  host: string,
  port: number,
  blob: Uint8Array,
): Promise<void> {
  const name = knownHostName(host, port);
  const type = keyType(blob);
  const key = blob.toBase64();
  await updateStateFile(knownHostsPath(home), (old) => {
    const { entries, lines } = parse(old ? new TextDecoder().decode(old) : "");
    if (entries.some((e) => e.names.includes(name) && e.type === type && e.key === key)) return undefined;
    lines.push(`${name} ${type} ${key}`);
    return lines.join("\n") + "\n";
  });
}

/**
 * Checks a presented host key against the store, recording it when the host is new. (The
 * connection uses {@link loadKnownHosts} + {@link verdictFor} + {@link recordHostKey} instead, to
 * answer ssh2 synchronously.)
 */
export async function checkHostKey(
  home: string,
  host: string,
  port: number,
  blob: Uint8Array,
): Promise<HostKeyVerdict> {
  const v = verdictFor(await loadKnownHosts(home), host, port, blob);
  if (v.status === "new") await recordHostKey(home, host, port, blob);
  return v;
}

/** Removes every recorded key of a host; returns how many lines went. */
export async function forgetHostKey(home: string, host: string, port: number): Promise<number> {
  const name = knownHostName(host, port);
  let dropped = 0;
  await updateStateFile(knownHostsPath(home), (old) => {
    const text = old ? new TextDecoder().decode(old) : "";
    if (text === "") return undefined;
    const { entries, lines } = parse(text);
    const drop = new Set(entries.filter((e) => e.names.includes(name)).map((e) => e.line));
    dropped = drop.size;
    if (drop.size === 0) return undefined;
    const keep = lines.filter((l) => !drop.has(l));
    return keep.length ? keep.join("\n") + "\n" : "";
  });
  return dropped;
}
