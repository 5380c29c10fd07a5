/**
 * The one way tools reach an alias: {@link openRemote} gives a {@link Remote} over the alias's
 * master (multiplexed, no new authentication), or, for an alias in direct mode, a fresh
 * connection authenticated with the stored password. ssh2 itself is loaded only for direct mode:
 * a client of the master needs nothing but the socket.
 *
 * @module
 */
import type { HintFn } from "../core/hint.ts";
import { lazy } from "../core/lazy.ts";
import { MasterClient } from "./client.ts";
import { readCredential } from "./creds.ts";
import { getHost, type Host, type HostOptions, readOptions } from "./registry.ts";
import type { Remote } from "./remote.ts";

export interface OpenedRemote {
  remote: Remote;
  host: Host;
  options: HostOptions;
}

export interface OpenOptions {
  /** Direct mode: the bound on connecting. */
  readyTimeoutMs?: number;
  /** How messages name a command (`assist ssh add ...` or `/ssh-add ...`). @default slashHint */
  hint?: HintFn;
}

/**
 * Opens the alias. Errors: unknown_alias, master_closed ("open the master with /ssh-setup <alias>
 * first"), and for direct mode no_credential, auth_failed, host_key_changed, unreachable, timeout.
 * The caller closes the remote when done (a no-op for the master).
 */
export async function openRemote(home: string, alias: string, o: OpenOptions = {}): Promise<OpenedRemote> {
  const host = await getHost(home, alias, o.hint);
  const options = await readOptions(home, alias);
  if (options.direct) {
    const password = await readCredential(home, alias);
    const { connect } = await lazy<typeof import("./connection.ts")>(import.meta.url, "./connection.ts");
    const remote = await connect({
      alias,
      host,
      password,
      home,
      mode: "direct",
      readyTimeoutMs: o.readyTimeoutMs,
    });
    return { remote, host, options };
  }
  return { remote: await MasterClient.open(home, alias), host, options };
}
