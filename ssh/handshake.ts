/**
 * The handshake of one ssh2 connection: reach the host, check its key against the
 * trust-on-first-use store before authenticating, authenticate with the stored password.
 *
 * Password authentication only (then keyboard-interactive answering with the same password, for PAM
 * hosts that offer no plain password method); never keys or an agent. TCP_NODELAY is set: without
 * it every request/response pair waits ~40 ms on delayed ACKs (measured: SFTP stat 44 ms → 0.4 ms,
 * exec round trip 90 ms → 4 ms).
 *
 * @module
 */
import type { Secret } from "../core/secret.ts";
import { newClient, type Ssh2Client } from "./_ssh2.ts";
import { ALGORITHMS, hostKeyOrder } from "./algorithms.ts";
import { SshError } from "./errors.ts";
import {
  type HostKeyVerdict,
  type KnownHosts,
  loadKnownHosts,
  recordedTypes,
  recordHostKey,
  verdictFor,
} from "./known_hosts.ts";
import { describeTarget, type Host } from "./registry.ts";

/** How to open a connection: the handshake uses most of it; `mode` and `onLost` are the connection's. */
export interface ConnectOptions {
  alias: string;
  host: Host;
  password: Secret;
  /** $ASSIST_HOME, for the host-key store. */
  home: string;
  mode: "master" | "direct";
  /** Bound on reaching the host and authenticating. @default 15000 */
  readyTimeoutMs?: number;
  /** SSH keepalive interval; 0 disables. @default 15000 */
  keepaliveMs?: number;
  /** Called when the connection drops after it was ready (the master exits on it). */
  onLost?: (reason: string) => void;
}

export const DEFAULT_READY_TIMEOUT_MS = 15_000;
export const KEEPALIVE_MS = 15_000;
/** Unanswered keepalives before the connection counts as lost. */
export const KEEPALIVE_COUNT_MAX = 3;

/** A socket error in the operator's words. */
function socketReason(err: Error & { code?: string }): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "EHOSTUNREACH":
      return "no route to host";
    case "ENETUNREACH":
      return "network unreachable";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return "unknown host name";
    case "ECONNRESET":
      return "connection reset";
    case "ETIMEDOUT":
      return "connection timed out";
    default:
      return err.message;
  }
}

/** An authenticated ssh2 client, ready for channels. */
export interface Handshaken {
  client: Ssh2Client;
  /** The server's login banner, if it sent one. */
  banner: string;
  /** The host-key verdict (new keys are reported by setup). */
  hostKey: HostKeyVerdict | undefined;
}

/**
 * Reaches the host, checks its key, authenticates and records a new host key; throws an SshError
 * with a kind (timeout, unreachable, auth_failed, host_key_changed, io_error).
 */
export async function handshake(options: ConnectOptions): Promise<Handshaken> {
  const { host, alias } = options;
  const target = describeTarget(host);
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  let store: KnownHosts;
  try {
    store = await loadKnownHosts(options.home);
  } catch (err) {
    throw new SshError("io_error", `cannot read the host-key store: ${(err as Error).message}`, { alias });
  }
  let recording: Promise<void> | undefined;
  const client = newClient();
  let verdict: HostKeyVerdict | undefined;
  let verifyError: unknown;
  let banner = "";
  const password = options.password;
  let triedPassword = false;
  let triedKeyboard = false;

  const ready = new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (err: SshError) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      try {
        client.destroy();
      } catch { /* already down */ }
      reject(err);
    };
    // ssh2's readyTimeout covers connect, key exchange and authentication; this guard is a second
    // bound in case a callback never comes.
    const guard = setTimeout(() => {
      fail(
        new SshError(
          "timeout",
          `no SSH answer from ${target} within ${Math.round(readyTimeoutMs / 1000)} s`,
          {
            alias,
          },
        ),
      );
    }, readyTimeoutMs + 2000);
    client.on("banner", (message) => {
      banner += message;
    });
    client.once("ready", () => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      resolve();
    });
    client.on("error", (err) => {
      if (settled) return;
      if (verdict?.status === "changed") {
        fail(
          new SshError(
            "host_key_changed",
            `the host key of ${alias} (${target}) has CHANGED: it is now ${verdict.fingerprint}, recorded ` +
              `${verdict.recorded.join(", ")}; if the host was really re-keyed, run ` +
              `/ssh-forget-hostkey ${alias} and then /ssh-setup ${alias}`,
            { alias, fingerprint: verdict.fingerprint },
          ),
        );
        return;
      }
      if (verifyError !== undefined) {
        fail(
          new SshError(
            "io_error",
            `cannot check the host key of ${target}: ${(verifyError as Error).message}`,
            {
              alias,
            },
          ),
        );
        return;
      }
      switch (err.level) {
        case "client-authentication":
          fail(
            new SshError(
              "auth_failed",
              `${target} refused the stored password of ${alias}; set it again with /ssh-pass ${alias} ` +
                `and retry`,
              { alias },
            ),
          );
          return;
        case "client-timeout":
          fail(
            new SshError(
              "timeout",
              `no SSH answer from ${target} within ${Math.round(readyTimeoutMs / 1000)} s`,
              {
                alias,
              },
            ),
          );
          return;
        case "client-socket":
        case "client-dns":
          fail(new SshError("unreachable", `cannot reach ${target}: ${socketReason(err)}`, { alias }));
          return;
        default:
          fail(new SshError("unreachable", `SSH handshake with ${target} failed: ${err.message}`, { alias }));
      }
    });
    client.on("close", () => {
      fail(new SshError("unreachable", `${target} closed the connection during the handshake`, { alias }));
    });
  });

  client.connect({
    host: host.host,
    port: host.port,
    username: host.user,
    readyTimeout: readyTimeoutMs,
    keepaliveInterval: options.keepaliveMs ?? KEEPALIVE_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    algorithms: { ...ALGORITHMS, serverHostKey: hostKeyOrder(recordedTypes(store, host.host, host.port)) },
    // Answered synchronously (see ssh/known_hosts.ts for why); a new key is recorded right after.
    hostVerifier: (key, verify) => {
      try {
        const blob = new Uint8Array(key);
        verdict = verdictFor(store, host.host, host.port, blob);
        if (verdict.status === "new") {
          recording = recordHostKey(options.home, host.host, host.port, blob);
          recording.catch(() => {});
        }
      } catch (err) {
        verifyError = err;
      }
      verify(verifyError === undefined && verdict?.status !== "changed");
    },
    authHandler: (methodsLeft, _partial, next) => {
      if (!triedPassword) {
        triedPassword = true;
        next({ type: "password", username: host.user, password: password.reveal() });
        return;
      }
      if (!triedKeyboard && methodsLeft?.includes("keyboard-interactive")) {
        triedKeyboard = true;
        next({
          type: "keyboard-interactive",
          username: host.user,
          prompt: (_name, _instructions, _lang, prompts, finish) => {
            // Answer a password question with the password; anything else (a one-time code)
            // gets an empty answer and fails, rather than the password going somewhere else.
            finish(prompts.map((p) => (!p.echo && /pass/i.test(p.prompt) ? password.reveal() : "")));
          },
        });
        return;
      }
      next(false);
    },
  });
  // The socket exists once connect() has returned; delayed ACKs otherwise stall every round trip.
  client.setNoDelay(true);
  await ready;
  if (recording) {
    try {
      await recording;
    } catch (err) {
      client.destroy();
      throw new SshError("io_error", `cannot record the host key of ${target}: ${(err as Error).message}`, {
        alias,
      });
    }
  }
  return { client, banner, hostKey: verdict };
}
