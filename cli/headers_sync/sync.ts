/**
 * The headers push (spec, Events: headers sync; Outbound calls: headers push): the part of
 * `log/headers.log` not pushed yet goes over the target alias's control master, converted to JSONL,
 * and is appended to `<remote_dir>/headers-<hostname>.jsonl`. The mark in `.env` (cli/headers_sync/
 * settings.ts) records how far it got, so a push of nothing new sends nothing and touches no host,
 * and a rotated or shrunk log re-seeds from its start (the rotated generation's unpushed tail goes
 * first). Only the master is used: a closed master, a direct-mode alias, a missing target or a
 * transport error ends the push with one line and the mark unchanged. Nothing here throws.
 *
 * Remotely: `mkdir -p` of the folder (0700), the chunk pushed to a temporary file beside the target
 * (the master's atomic push), then `cat chunk >> target; rm chunk` in one exec.
 *
 * @module
 */
import { homePaths } from "../../core/home.ts";
import type { Config } from "../../core/config.ts";
import { describeError } from "../../core/errors.ts";
import { lazy } from "../../core/lazy.ts";
import { completeLines, HEAD_BYTES, type Mark, planReads, type Seen, toJsonl } from "./logic.ts";
import { readSettings, writeSettings } from "./settings.ts";

/** The bound on a push at REPL exit. */
export const EXIT_DEADLINE_MS = 5_000;
/** The bound on `/headers-sync now`. */
export const NOW_DEADLINE_MS = 30_000;

export interface PushOutcome {
  /** False: a warning (nothing was pushed, the mark is unchanged). */
  ok: boolean;
  /** One line for the operator. */
  line: string;
  /** Header blocks appended remotely. */
  blocks: number;
}

export interface PushOptions {
  /** This machine's name in the remote file name and in each block (default `Deno.hostname()`). */
  hostname?: string;
  deadlineMs?: number;
}

/** A file name part from the host name: anything outside `[A-Za-z0-9._-]` becomes `_`. */
export function safeHostname(name: string): string {
  const s = name.trim().replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return s === "" ? "unknown-host" : s.slice(0, 128);
}

/** `~` and `~/x` as the login folder sees them (exec and SFTP both start there). */
function remotePath(dir: string): string {
  const d = dir.trim().replace(/\/+$/, "");
  if (d === "~" || d === "") return ".";
  if (d.startsWith("~/")) return d.slice(2) || ".";
  return d;
}

function hostname(o: PushOptions): string {
  if (o.hostname) return safeHostname(o.hostname);
  try {
    return safeHostname(Deno.hostname());
  } catch {
    return "unknown-host";
  }
}

/** The remote file the pushes of this machine go to, as set (for `/headers-sync status`). */
export function remoteFileOf(remoteDir: string, o: PushOptions = {}): string {
  return `${remoteDir.replace(/\/+$/, "")}/headers-${hostname(o)}.jsonl`;
}

function fileId(info: Deno.FileInfo): string {
  return `${info.dev ?? ""}:${info.ino ?? ""}:${info.birthtime?.getTime() ?? ""}`;
}

async function readAt(path: string, from: number, to: number): Promise<Uint8Array<ArrayBuffer>> {
  using f = await Deno.open(path, { read: true });
  await f.seek(from, Deno.SeekMode.Start);
  const out = new Uint8Array(to - from);
  let got = 0;
  while (got < out.length) {
    const n = await f.read(out.subarray(got));
    if (n === null) break;
    got += n;
  }
  return out.subarray(0, got);
}

async function headOf(path: string, length: number): Promise<string> {
  const bytes = await readAt(path, 0, length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `${bytes.length}:${digest.toHex()}`;
}

/** How the file looks now (undefined when absent), its fingerprint over `length` bytes. */
async function see(path: string, length: number): Promise<Seen | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  if (!info.isFile) return undefined;
  return { id: fileId(info), size: info.size, head: await headOf(path, Math.min(length, info.size)) };
}

/** Rejects after `ms` with a timeout message, aborting `ac`. */
function deadline<T>(p: Promise<T>, ms: number, ac: AbortController): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ac.abort();
      reject(new Error(`gave up after ${Math.round(ms / 1000)} s`));
    }, ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Pushes what is new. Never throws: every failure is an outcome with `ok: false` and one line.
 *
 * @example
 * ```ts
 * import { pushHeaders } from "./sync.ts";
 * declare const home: string;
 * const r = await pushHeaders(home);
 * console.log(r.line); // "headers-sync: nothing new" or "headers-sync: pushed 3 header blocks ..."
 * ```
 */
export async function pushHeaders(home: string, o: PushOptions = {}): Promise<PushOutcome> {
  const ac = new AbortController();
  try {
    return await deadline(push(home, o, ac.signal), o.deadlineMs ?? NOW_DEADLINE_MS, ac);
  } catch (err) {
    return { ok: false, line: `headers-sync: not pushed: ${describeError(err)}`, blocks: 0 };
  }
}

async function push(home: string, o: PushOptions, signal: AbortSignal): Promise<PushOutcome> {
  const s = await readSettings(home);
  if (!s.target) {
    return {
      ok: false,
      line: "headers-sync: no target alias (set one with /headers-sync target <alias>)",
      blocks: 0,
    };
  }
  const alias = s.target;
  const log = homePaths(home).headersLog;
  const rotatedPath = `${log}.1`;
  const markLen = Math.min(s.mark?.offset ?? 0, HEAD_BYTES);
  const current = await see(log, markLen);
  const rotated = s.mark ? await see(rotatedPath, markLen) : undefined;
  const plan = planReads(s.mark, current, rotated);

  // Read the complete lines of each range; a line still being written waits for the next push.
  const chunks: Uint8Array[] = [];
  let end: { path: string; id: string; offset: number } | undefined;
  for (const r of plan.reads) {
    const path = r.file === "current" ? log : rotatedPath;
    const bytes = await readAt(path, r.from, r.to);
    const n = completeLines(bytes);
    chunks.push(bytes.subarray(0, n));
    const seen = (r.file === "current" ? current : rotated)!;
    end = { path, id: seen.id, offset: r.from + n };
  }
  if (!end && plan.reseed && current) end = { path: log, id: current.id, offset: 0 };
  const host = hostname(o);
  const text = new TextDecoder().decode(concat(chunks));
  const conv = toJsonl(text, host);
  const newMark = async (): Promise<Mark | undefined> =>
    end
      ? { id: end.id, offset: end.offset, head: await headOf(end.path, Math.min(end.offset, HEAD_BYTES)) }
      : undefined;

  if (conv.blocks === 0) {
    // Nothing to send: no host is contacted; a re-seed (or skipped lines) still moves the mark.
    const m = await newMark();
    if (m && (m.id !== s.mark?.id || m.offset !== s.mark?.offset)) await writeSettings(home, { mark: m });
    const why = plan.reseed ? ` (the local log was ${plan.reseed}; started over)` : "";
    return { ok: true, line: `headers-sync: nothing new${why}`, blocks: 0 };
  }

  const ssh = await lazy<typeof import("../../ssh/mod.ts")>(import.meta.url, "../../ssh/mod.ts");
  await ssh.getHost(home, alias); // an unknown alias ends the push here
  const options = await ssh.readOptions(home, alias);
  if (options.direct) {
    return {
      ok: false,
      line: `headers-sync: ${alias} is in direct mode; the push goes over a control master only ` +
        `(/ssh-set-multiplex ${alias}, then /ssh-setup ${alias})`,
      blocks: 0,
    };
  }
  let remote;
  try {
    ({ remote } = await ssh.openRemote(home, alias));
  } catch (err) {
    if (err instanceof ssh.SshError && err.kind === "master_closed") {
      return { ok: false, line: `headers-sync: not pushed: ${ssh.masterClosedMessage(alias)}`, blocks: 0 };
    }
    throw err;
  }
  try {
    const dir = remotePath(s.remoteDir);
    const target = `${dir}/headers-${host}.jsonl`;
    const part = `${dir}/.headers-${host}.jsonl.part-${crypto.getRandomValues(new Uint8Array(4)).toHex()}`;
    const q = ssh.shQuote;
    const run = async (command: string, what: string) => {
      const r = await remote.exec(command, { timeoutMs: NOW_DEADLINE_MS, signal, maxBytes: 64 * 1024 });
      if (r.code !== 0) {
        const err = new TextDecoder().decode(r.stderr).trim().split("\n").pop() ?? "";
        throw new Error(
          `${what} on ${alias} failed (exit ${r.code ?? r.exitSignal ?? "?"}${err ? `: ${err}` : ""})`,
        );
      }
    };
    await run(`umask 077 && mkdir -p -- ${q(dir)}`, `creating ${s.remoteDir}`);
    const body = new TextEncoder().encode(conv.jsonl);
    await remote.push({ size: body.length, chunks: one(body) }, part, { signal, mode: 0o600 });
    await run(
      `umask 077; cat -- ${q(part)} >> ${q(target)}; rc=$?; rm -f -- ${q(part)}; exit $rc`,
      `appending to ${remoteFileOf(s.remoteDir, o)}`,
    );
    await writeSettings(home, { mark: (await newMark())! });
  } finally {
    await remote.close().catch(() => {});
  }
  const why = plan.reseed ? ` (the local log was ${plan.reseed}; started over)` : "";
  const skipped = conv.skipped
    ? `; ${conv.skipped} unreadable line${conv.skipped === 1 ? "" : "s"} left out`
    : "";
  return {
    ok: true,
    line: `headers-sync: pushed ${conv.blocks} header block${conv.blocks === 1 ? "" : "s"} to ${alias}:${
      remoteFileOf(s.remoteDir, o)
    }${why}${skipped}`,
    blocks: conv.blocks,
  };
}

async function* one(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * At REPL exit: when the sync is on, one push bounded by {@link EXIT_DEADLINE_MS}; a failure is one
 * `warn` line, success is quiet. Never throws.
 *
 * @example
 * ```ts
 * import { syncHeadersAtExit } from "./sync.ts";
 * import { loadConfig } from "../../core/config.ts";
 * await syncHeadersAtExit(loadConfig(), (line) => console.error(line));
 * ```
 */
export async function syncHeadersAtExit(config: Config, warn: (line: string) => void): Promise<void> {
  try {
    const s = await readSettings(config.home);
    if (!s.enabled) return;
    const r = await pushHeaders(config.home, { deadlineMs: EXIT_DEADLINE_MS });
    if (!r.ok) warn(r.line);
  } catch (err) {
    warn(`headers-sync: not pushed: ${describeError(err)}`);
  }
}
