/**
 * The SSH operations behind `assist ssh <op>` and the REPL's `/ssh-*` slash commands (cli/commands/ssh.ts):
 * hosts, add, remove, pass, setup, close, status, set-hciroot, set-direct, set-multiplex,
 * forget-hostkey. Each returns the text to show (one line per fact) or throws an AssistError whose
 * message is the one sentence to show. None of them prints, and none of them ever has the password
 * in its result. Hints name commands through the caller's `hint` (the command line says
 * `assist ssh setup eng1`, the REPL `/ssh-setup eng1`); the default is the REPL's form.
 *
 * @module
 */
import { lazy } from "../core/lazy.ts";
import { AssistError, ioError } from "../core/errors.ts";
import type { Secret } from "../core/secret.ts";
import { type HintFn, slashHint } from "../core/hint.ts";
import { lostNotePath, MasterClient, probeMaster, readLostNote } from "./client.ts";
import { credPath, hasCredential, removeCredential, writeCredential } from "./creds.ts";
import { SshError } from "./errors.ts";
import { forgetHostKey } from "./known_hosts.ts";
import { socketPath } from "./paths.ts";
import {
  checkAlias,
  describeTarget,
  dropOptions,
  getHost,
  type Host,
  parseTarget,
  readAllOptions,
  readHosts,
  setHost,
  updateOptions,
} from "./registry.ts";

/** `hosts`: the registered aliases, one per line (`alias  user@host:port`). */
export async function hostsText(home: string, hint: HintFn = slashHint): Promise<string> {
  const hosts = await readHosts(home);
  if (hosts.length === 0) return noHosts(hint);
  const w = Math.max(...hosts.map((h) => h.alias.length)) + 2;
  return hosts.map((h) => h.alias.padEnd(w) + describeTarget(h)).join("\n");
}

/** `add <alias> <user@host[:port]>`: registers (or re-points) an alias. */
export async function addHost(
  home: string,
  aliasArg: string,
  target: string,
  hint: HintFn = slashHint,
): Promise<string> {
  const alias = checkAlias(aliasArg);
  const t = parseTarget(target);
  const host: Host = { alias, ...t };
  const replaced = await setHost(home, alias, host, `run ${hint("ssh-add", [alias, target])} again`);
  const next = (await hasCredential(home, alias))
    ? hint("ssh-setup", [alias])
    : `${hint("ssh-pass", [alias])}, then ${hint("ssh-setup", [alias])}`;
  return `${replaced ? "updated" : "added"} ${alias} → ${describeTarget(host)} (next: ${next})`;
}

/** `remove <alias>`: closes its master, removes host, credential, socket and options. */
export async function removeHost(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  await getHost(home, alias, hint);
  const closed = await closeMaster(home, alias, hint).catch(() => "");
  await removeCredential(home, alias);
  await Deno.remove(socketPath(home, alias)).catch(() => {});
  await Deno.remove(lostNotePath(home, alias)).catch(() => {});
  const retry = `run ${hint("ssh-remove", [alias])} again`;
  await dropOptions(home, alias, retry);
  await setHost(home, alias, undefined, retry);
  return `${closed.startsWith("closed") ? closed + "\n" : ""}removed ${alias} (host, credential and socket)`;
}

/** `pass <alias>`: stores the password (0600). The caller reads it (hidden prompt or stdin). */
export async function setPassword(
  home: string,
  alias: string,
  password: Secret,
  hint: HintFn = slashHint,
): Promise<string> {
  await getHost(home, alias, hint);
  try {
    await writeCredential(home, alias, password);
  } catch (err) {
    throw ioError(err, credPath(home, alias), {
      inHome: true,
      retry: `run ${hint("ssh-pass", [alias])} again`,
    });
  }
  const open = await probeMaster(home, alias).catch(() => undefined);
  return open
    ? `password stored for ${alias}; the open master keeps its connection (close and set it up again to use the new one)`
    : `password stored for ${alias} (next: ${hint("ssh-setup", [alias])})`;
}

/**
 * `setup <alias>`: opens the master (or, in direct mode, checks that a connection and the password
 * work). A master that is already up is left as is.
 */
export async function setup(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  const host = await getHost(home, alias, hint);
  const options = (await readAllOptions(home)).get(alias) ?? {};
  if (!(await hasCredential(home, alias))) {
    throw new SshError(
      "no_credential",
      `no stored password for ${alias} (set it with ${hint("ssh-pass", [alias])})`,
      {
        alias,
      },
    );
  }
  if (options.direct) {
    const { openRemote } = await lazy<typeof import("./open.ts")>(import.meta.url, "./open.ts");
    const { remote } = await openRemote(home, alias);
    const hostKey = (remote as { hostKey?: { status: string; fingerprint: string } }).hostKey;
    await remote.close();
    return [
      `${alias} is in direct mode: connection and password work (${describeTarget(host)}); ` +
      `every command connects on its own`,
      ...(hostKey?.status === "new" ? [newKeyLine(host, hostKey.fingerprint)] : []),
    ].join("\n");
  }
  const running = await probeMaster(home, alias);
  if (running) {
    return `the master for ${alias} is already open (pid ${running.pid}, since ${running.since})`;
  }
  const { spawnMaster } = await lazy<typeof import("./spawn.ts")>(import.meta.url, "./spawn.ts");
  const h = await spawnMaster(home, alias);
  if (!h.ok) throw new SshError(h.error.kind as never, h.error.message, { alias });
  const lines = [`master for ${alias} open (${describeTarget(host)}, pid ${h.pid})`];
  if (h.hostKey?.status === "new") lines.push(newKeyLine(host, h.hostKey.fingerprint));
  return lines.join("\n");
}

function noHosts(hint: HintFn): string {
  return `no SSH hosts (add one with ${hint("ssh-add", ["<alias>", "<user@host[:port]>"])})`;
}

function newKeyLine(host: Host, fingerprint: string): string {
  return `new host key of ${host.host}:${host.port} recorded: ${fingerprint}`;
}

/** `close <alias>`: ends the master and removes its socket. */
export async function closeMaster(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  await getHost(home, alias, hint);
  let client: MasterClient;
  try {
    client = await MasterClient.open(home, alias);
    await client.shutdown();
  } catch (err) {
    if (err instanceof SshError && err.kind === "master_closed") return `no master open for ${alias}`;
    throw err;
  }
  // The master removes its socket as it goes; wait for that (bounded), then make sure.
  const path = socketPath(home, alias);
  for (let i = 0; i < 40; i++) {
    try {
      await Deno.lstat(path);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await Deno.remove(path).catch(() => {});
  return `closed the master for ${alias}`;
}

export interface AliasStatus {
  alias: string;
  target: string;
  mode: "multiplex" | "direct";
  /** "open", "closed", or "-" (direct mode has no master). */
  master: "open" | "closed" | "-";
  pid?: number;
  since?: string;
  /** Why the last master ended on its own, when it left a note. */
  lost?: string;
  credential: boolean;
  hciroot?: string;
}

/** The state of each alias (or one): master open or closed, credential present or not. */
export async function statusOf(
  home: string,
  alias?: string,
  hint: HintFn = slashHint,
): Promise<AliasStatus[]> {
  const hosts = await readHosts(home);
  const all = await readAllOptions(home);
  const chosen = alias === undefined ? hosts : hosts.filter((h) => h.alias === alias);
  if (alias !== undefined && chosen.length === 0) await getHost(home, alias, hint); // throws unknown_alias
  const out: AliasStatus[] = [];
  for (const h of chosen) {
    const o = all.get(h.alias) ?? {};
    const s: AliasStatus = {
      alias: h.alias,
      target: describeTarget(h),
      mode: o.direct ? "direct" : "multiplex",
      master: "closed",
      credential: await hasCredential(home, h.alias),
      hciroot: o.hciroot,
    };
    const up = await probeMaster(home, h.alias).catch(() => undefined);
    if (up) {
      s.master = "open";
      s.pid = Number(up.pid);
      s.since = String(up.since);
    } else if (o.direct) {
      s.master = "-";
    } else {
      const note = await readLostNote(home, h.alias);
      if (note) s.lost = `${note.reason} (${note.at})`;
    }
    out.push(s);
  }
  return out;
}

/** `status [alias]` as a table. */
export async function statusText(home: string, alias?: string, hint: HintFn = slashHint): Promise<string> {
  const rows = await statusOf(home, alias, hint);
  if (rows.length === 0) return noHosts(hint);
  const table = [
    ["ALIAS", "TARGET", "MODE", "MASTER", "CREDENTIAL", "HCIROOT"],
    ...rows.map((r) => [
      r.alias,
      r.target,
      r.mode,
      r.master === "open" ? `open (pid ${r.pid})` : r.master,
      r.credential ? "present" : "missing",
      r.hciroot ?? "-",
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const lines = table.map((row) =>
    row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join("  ")
  );
  for (const r of rows) if (r.lost) lines.push(`${r.alias}: the last master lost its connection: ${r.lost}`);
  return lines.join("\n");
}

/** `set-hciroot <alias> <path>`: pins the engine root; an empty path clears the pin. */
export async function setHciroot(
  home: string,
  alias: string,
  path: string,
  hint: HintFn = slashHint,
): Promise<string> {
  await getHost(home, alias, hint);
  const p = path.replace(/\r/g, "").trim();
  if (p !== "" && !p.startsWith("/")) {
    throw new AssistError(`the engine root must be an absolute path on the host (got "${path}")`, {
      level: "usage",
    });
  }
  await updateOptions(
    home,
    alias,
    (o) => ({ ...o, hciroot: p === "" ? undefined : p.replace(/(.)\/+$/, "$1") }),
    `run ${hint("ssh-set-hciroot", [alias, path])} again`,
  );
  return p === ""
    ? `engine-root pin of ${alias} cleared: commands run in a login shell again`
    : `engine root of ${alias} pinned to ${p}: commands skip the login profile and export HCIROOT=${p}`;
}

/** `set-direct <alias>`: direct (no-multiplex) mode; closes an open master. */
export async function setDirect(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  await getHost(home, alias, hint);
  const closed = await closeMaster(home, alias, hint).catch(() => "");
  await updateOptions(
    home,
    alias,
    (o) => ({ ...o, direct: true }),
    `run ${hint("ssh-set-direct", [alias])} again`,
  );
  return `${closed.startsWith("closed") ? closed + "\n" : ""}${alias} is in direct mode: every command ` +
    `authenticates on its own connection with the stored password`;
}

/** `set-multiplex <alias>`: back from direct mode to the master. */
export async function setMultiplex(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  await getHost(home, alias, hint);
  await updateOptions(
    home,
    alias,
    (o) => ({ ...o, direct: undefined }),
    `run ${hint("ssh-set-multiplex", [alias])} again`,
  );
  return `${alias} is multiplexed again (open the master with ${hint("ssh-setup", [alias])})`;
}

/** `forget-hostkey <alias>`: drops the recorded host key, so the next connection records it anew. */
export async function forgetHostkey(home: string, alias: string, hint: HintFn = slashHint): Promise<string> {
  const h = await getHost(home, alias, hint);
  const n = await forgetHostKey(home, h.host, h.port);
  return n === 0
    ? `no recorded host key for ${h.host}:${h.port}`
    : `forgot the recorded host key of ${h.host}:${h.port} (the next ${
      hint("ssh-setup", [alias])
    } records the new one)`;
}
