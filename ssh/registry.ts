/**
 * The SSH host registry (spec, "SSH host registry"): `$ASSIST_HOME/.ssh-hosts.tsv`, one host per line,
 * three tab-separated columns `alias`, `user@host`, `port`. The per-alias engine-root pin and
 * direct-mode flag live in a file of their own, `$ASSIST_HOME/.ssh-host-options.json`, so any
 * three-column reader of the registry keeps working. This module owns both files; both are changed
 * by a locked read-modify-write at mode 0600 (core/state_file.ts) that edits only the alias it was
 * asked about: several `assist ssh add` at once all land, and comments and lines (or JSON keys) this
 * version does not understand stay.
 *
 * @module
 */
import { updateStateFile } from "../core/state_file.ts";
import { stripCr } from "../core/clean.ts";
import { homePaths } from "../core/home.ts";
import { AssistError } from "../core/errors.ts";
import { type HintFn, slashHint } from "../core/hint.ts";
import { SshError } from "./errors.ts";

export interface Host {
  alias: string;
  user: string;
  /** Host name or address, without brackets (an IPv6 address is bare here). */
  host: string;
  port: number;
}

export interface HostOptions {
  /** Engine root pinned for the alias: remote commands skip the login shell and export this HCIROOT. */
  hciroot?: string;
  /** Direct (no-multiplex) mode: one authenticated connection per command. */
  direct?: boolean;
}

export const DEFAULT_PORT = 22;

/** Aliases name files (`.ssh-creds/<alias>`, `.ssh-sockets/<alias>.sock`): a safe, short charset. */
const ALIAS_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Checks an alias; throws a usage error naming the rule.
 *
 * @example
 * ```ts
 * checkAlias("prod-eng1"); // ok
 * checkAlias("../x"); // throws
 * ```
 */
export function checkAlias(alias: string): string {
  const a = stripCr(alias).trim();
  if (!ALIAS_RE.test(a) || a.endsWith(".sock")) {
    throw new AssistError(
      `bad alias "${alias}": use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)`,
      { level: "usage" },
    );
  }
  return a;
}

/**
 * Parses `user@host[:port]` (`user@[v6addr]:port` for IPv6 with a port). Throws a usage error.
 *
 * @example
 * ```ts
 * parseTarget("hci@eng1.example.org:2222"); // { user: "hci", host: "eng1.example.org", port: 2222 }
 * ```
 */
export function parseTarget(target: string): { user: string; host: string; port: number } {
  const t = stripCr(target).trim();
  const bad = (why: string) =>
    new AssistError(`bad target "${target}": ${why} (expected user@host or user@host:port)`, {
      level: "usage",
    });
  const at = t.lastIndexOf("@");
  if (at <= 0) throw bad("no user@");
  const user = t.slice(0, at);
  let rest = t.slice(at + 1);
  if (/[\s\t]/.test(user) || user.includes(":")) throw bad("bad user name");
  let port = DEFAULT_PORT;
  let host: string;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close === -1) throw bad("unclosed [");
    host = rest.slice(1, close);
    rest = rest.slice(close + 1);
    if (rest !== "") {
      if (!rest.startsWith(":")) throw bad("junk after ]");
      port = parsePort(rest.slice(1), bad);
    }
  } else {
    const colons = rest.split(":").length - 1;
    if (colons === 1) {
      const i = rest.indexOf(":");
      host = rest.slice(0, i);
      port = parsePort(rest.slice(i + 1), bad);
    } else {
      host = rest; // none, or a bare IPv6 address
    }
  }
  if (host === "" || /[\s\t/@]/.test(host)) throw bad("bad host");
  return { user, host, port };
}

function parsePort(text: string, bad: (why: string) => Error): number {
  if (!/^\d{1,5}$/.test(text)) throw bad(`bad port "${text}"`);
  const n = Number(text);
  if (n < 1 || n > 65535) throw bad(`port ${n} out of range`);
  return n;
}

/** `user@host:port` for messages (IPv6 bracketed). */
export function describeTarget(h: { user: string; host: string; port: number }): string {
  const host = h.host.includes(":") ? `[${h.host}]` : h.host;
  return `${h.user}@${host}:${h.port}`;
}

/**
 * Parses the registry text. Blank lines and `#` comments are skipped; a line with a bad shape is
 * skipped too (a hand edit must not lock the operator out of every other host).
 */
export function parseHosts(text: string): Host[] {
  const out: Host[] = [];
  const seen = new Set<string>();
  for (const raw of stripCr(text).split("\n")) {
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const [alias, target, portText] = raw.split("\t");
    if (!alias || !target || !ALIAS_RE.test(alias.trim())) continue;
    const at = target.lastIndexOf("@");
    if (at <= 0) continue;
    const port = portText === undefined || portText.trim() === "" ? DEFAULT_PORT : Number(portText.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
    const a = alias.trim();
    if (seen.has(a)) continue;
    seen.add(a);
    out.push({ alias: a, user: target.slice(0, at), host: target.slice(at + 1).trim(), port });
  }
  return out;
}

/** The registry text for a host list. */
export function formatHosts(hosts: Host[]): string {
  return hosts.map((h) => `${h.alias}\t${h.user}@${h.host}\t${h.port}\n`).join("");
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

export function optionsPath(home: string): string {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return `${home.replace(/[\\/]+$/, "")}${sep}.ssh-host-options.json`;
}

export async function readHosts(home: string): Promise<Host[]> {
  return parseHosts(await readText(homePaths(home).sshHosts));
}

/**
 * The registry text with `alias` set to `host` (or removed, when `host` is undefined). The first
 * line that registers the alias is replaced in place (a later line of the same alias, which
 * `parseHosts` ignores, goes with it); a new alias is appended. Every other line (comments, blank
 * lines, lines it does not understand, their line ends) stays as it was. Pure.
 *
 * @example
 * ```ts
 * editHosts("# lab\nh1\tu@a\t22\n", "h2", { alias: "h2", user: "v", host: "b", port: 2222 });
 * // "# lab\nh1\tu@a\t22\nh2\tv@b\t2222\n"
 * ```
 */
export function editHosts(text: string, alias: string, host: Host | undefined): string {
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    if (parseHosts(line)[0]?.alias !== alias) {
      out.push(line);
      continue;
    }
    if (host && !placed) out.push(formatHosts([host]).replace(/\n$/, ""));
    placed = true;
  }
  if (host && !placed) out.push(formatHosts([host]).replace(/\n$/, ""));
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

/**
 * Sets (or, with `host` undefined, removes) one alias in the registry: a locked read-modify-write
 * (core/state_file.ts) that keeps every line it does not own. Returns whether the alias was there
 * before. `retry` words the next step of a failure in the caller's form.
 */
export async function setHost(
  home: string,
  alias: string,
  host: Host | undefined,
  retry?: string,
): Promise<boolean> {
  let existed = false;
  await updateStateFile(homePaths(home).sshHosts, (old) => {
    const text = old ? new TextDecoder().decode(old) : "";
    existed = parseHosts(text).some((h) => h.alias === alias);
    if (!host && !existed) return undefined;
    return editHosts(text, alias, host);
  }, { onError: { retry } });
  return existed;
}

/**
 * The host of an alias, or an SshError("unknown_alias") naming how to add it.
 */
export async function getHost(home: string, alias: string, hint: HintFn = slashHint): Promise<Host> {
  const hosts = await readHosts(home);
  const h = hosts.find((x) => x.alias === alias);
  if (!h) {
    throw new SshError(
      "unknown_alias",
      `unknown SSH alias "${alias}" (add it with ${hint("ssh-add", [alias, "<user@host[:port]>"])})`,
      { alias },
    );
  }
  return h;
}

/** Parses the options file; unknown or malformed entries are ignored. */
export function parseOptions(text: string): Map<string, HostOptions> {
  const out = new Map<string, HostOptions>();
  if (text.trim() === "") return out;
  let obj: unknown;
  try {
    obj = JSON.parse(stripCr(text));
  } catch {
    return out;
  }
  const aliases = (obj as { aliases?: unknown })?.aliases;
  if (!aliases || typeof aliases !== "object") return out;
  for (const [alias, v] of Object.entries(aliases as Record<string, unknown>)) {
    if (!v || typeof v !== "object") continue;
    const o = v as Record<string, unknown>;
    const opts: HostOptions = {};
    if (typeof o.hciroot === "string" && o.hciroot.trim() !== "") opts.hciroot = stripCr(o.hciroot).trim();
    if (o.direct === true) opts.direct = true;
    out.set(alias, opts);
  }
  return out;
}

export async function readAllOptions(home: string): Promise<Map<string, HostOptions>> {
  return parseOptions(await readText(optionsPath(home)));
}

export async function readOptions(home: string, alias: string): Promise<HostOptions> {
  return (await readAllOptions(home)).get(alias) ?? {};
}

/**
 * The options file's text with one alias's entry changed (`undefined` removes it). Every other entry,
 * and every key this version does not know, stays as it was; a file that is not JSON is replaced
 * only when there is something to write (it held nothing this version could read). Pure.
 */
export function editOptions(text: string, alias: string, opts: HostOptions | undefined): string | undefined {
  let obj: Record<string, unknown> = {};
  try {
    const v = JSON.parse(stripCr(text));
    if (v && typeof v === "object" && !Array.isArray(v)) obj = v;
  } catch { /* not JSON: start anew */ }
  const raw = obj.aliases;
  const aliases: Record<string, unknown> = raw && typeof raw === "object" && !Array.isArray(raw)
    ? { ...raw as Record<string, unknown> }
    : {};
  const before = aliases[alias];
  const entry: Record<string, unknown> = before && typeof before === "object" && !Array.isArray(before)
    ? { ...before as Record<string, unknown> }
    : {};
  if (opts === undefined) {
    if (!Object.hasOwn(aliases, alias)) return undefined;
    delete aliases[alias];
  } else {
    delete entry.hciroot;
    delete entry.direct;
    if (opts.hciroot) entry.hciroot = opts.hciroot;
    if (opts.direct) entry.direct = true;
    if (Object.keys(entry).length > 0) aliases[alias] = entry;
    else delete aliases[alias];
  }
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(aliases).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) sorted[k] = aliases[k];
  return JSON.stringify({ version: 1, ...obj, aliases: sorted }, null, 2) + "\n";
}

/**
 * Changes one alias's options (a locked read-modify-write). `undefined` fields are cleared. `retry`
 * words the next step of a failure in the caller's form.
 */
export async function updateOptions(
  home: string,
  alias: string,
  change: (o: HostOptions) => HostOptions,
  retry?: string,
): Promise<HostOptions> {
  let next: HostOptions = {};
  await updateStateFile(optionsPath(home), (old) => {
    const text = old ? new TextDecoder().decode(old) : "";
    next = change({ ...(parseOptions(text).get(alias) ?? {}) });
    return editOptions(text, alias, next);
  }, { onError: { retry } });
  return next;
}

/** Removes an alias's options entirely (`retry`: as for {@link updateOptions}). */
export async function dropOptions(home: string, alias: string, retry?: string): Promise<void> {
  await updateStateFile(optionsPath(home), (old) => {
    return old ? editOptions(new TextDecoder().decode(old), alias, undefined) : undefined;
  }, { onError: { retry } });
}
