/**
 * The sync of a source install (the files of this repository, run by Deno) from the update origin.
 *
 * 1. Lock (`$ASSIST_HOME/.update.lock`, then `.assist-update.lock` in the install root, which
 *    launches with different homes share); finish or clean up what a killed sync left (below).
 * 2. Fetch `VERSION`. When it equals `.last-sync-version` and every local file has the size the
 *    local MANIFEST gives, stop: nothing else is fetched (`force` compares every hash instead).
 * 3. Fetch `MANIFEST` (and `MANIFEST.sig`); with a trusted key for the origin the signature must
 *    verify, else the MANIFEST is refused. Parse it (paths that leave the root are refused).
 * 4. Per entry: `checking N/T`; a file whose size and hash already match is skipped; otherwise
 *    `downloading N/T`, fetched, checked (status, HTML, size, hash, kind), and written to a staging
 *    file beside its target (`.<name>.assist-new`), fsynced. Nothing is replaced yet.
 * 5. Commit: a journal (`.assist-update-journal`, atomic) lists the staged files; each is renamed
 *    over its target; the journal is removed; `.last-sync-version` is written last.
 *
 * A sync killed before the journal leaves the old release and staging files, which the next run
 * removes; killed after it, the next run finishes the renames from the journal (every staged file
 * in it is complete and verified). Either way the next launch converges on the origin's release.
 *
 * @module
 */
import { atomicWrite } from "../core/atomic_write.ts";
import { crashPoint } from "./crash.ts";
import { denoFs } from "./swap.ts";
import { type OriginClient, originGetter, perFileLimitMs, UpdateError } from "./fetch.ts";
import { hashFile, sha256Hex } from "./hash.ts";
import { acquireLock } from "./lock.ts";
import { type ManifestEntry, notARelease, parseManifest } from "./manifest.ts";
import type { ProgressEvent } from "./progress.ts";
import { verifyManifest } from "./signature.ts";
import { compareSemver, downgradeMessage, SEMVER } from "./validate.ts";

/** Suffix of a staging file: `<dir>/.<name>` + this. */
export const STAGED_SUFFIX = ".assist-new";
/** The commit journal in the install root. */
export const JOURNAL = ".assist-update-journal";
/** The update lock in the install root (beside the journal): one sync per root, whatever the home. */
export const ROOT_LOCK = ".assist-update.lock";

export interface SyncOptions {
  /** The install root (the folder of main.ts). */
  root: string;
  /** `$ASSIST_HOME`: the lock and `.last-sync-version` live there. */
  home: string;
  client: OriginClient;
  /** Raw Ed25519 public keys (base64) trusted for this origin; empty: an unsigned origin. */
  trustedKeys: readonly string[];
  /** Time limit for `VERSION`. @default 3000 */
  versionTimeoutMs?: number;
  /**
   * One budget shared by `VERSION`, `MANIFEST` and `MANIFEST.sig` (the launch: a few seconds, so a
   * hanging origin never holds the start). Absent: `VERSION` gets `versionTimeoutMs`, the others
   * the per-file limit (`assist update`).
   */
  metadataBudgetMs?: number;
  /** Per-file time limit. @default perFileLimitMs */
  perFileMs?: (size: number | undefined) => number;
  /** Cancels the whole sync (the launch budget). */
  signal?: AbortSignal;
  progress?: (e: ProgressEvent) => void;
  /**
   * Fetch the MANIFEST even when the version is current and the files match, and accept a release
   * older than the installed one (`assist update --force`).
   */
  force?: boolean;
  /** The installed version. @default the root's VERSION file */
  current?: string;
}

export interface SyncResult {
  status: "current" | "updated" | "busy";
  /** The origin's version (absent when busy). */
  version?: string;
  /** Paths replaced. */
  changed: string[];
  /** Whether the MANIFEST was signature-checked (undefined: not fetched). */
  signed?: boolean;
  /** Busy: who holds the lock. */
  holder?: { pid: number; at: number };
}

const sep = Deno.build.os === "windows" ? "\\" : "/";
const join = (root: string, rel: string) => `${root.replace(/[\\/]+$/, "")}${sep}${rel.split("/").join(sep)}`;
const dirOf = (p: string) => p.slice(0, Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")));
const baseOf = (p: string) => p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);

/** The staging file of a target: beside it, so the final rename never crosses file systems. */
export function stagedPath(target: string): string {
  return join(dirOf(target), `.${baseOf(target)}${STAGED_SUFFIX}`);
}

/**
 * Why writing `rel` under `root` could land outside the root, or undefined: an existing component
 * of its path (the target included) is a symbolic link (or junction), or its deepest existing
 * folder resolves outside the root.
 */
export async function escapesRoot(root: string, rel: string): Promise<string | undefined> {
  const base = root.replace(/[\\/]+$/, "");
  let p = base;
  let parent = base;
  const parts = rel.split("/");
  for (let i = 0; i < parts.length; i++) {
    p = `${p}${sep}${parts[i]}`;
    const st = await Deno.lstat(p).catch(() => undefined);
    if (!st) break;
    if (st.isSymlink) return `${rel}: ${p} is a symbolic link inside the install root`;
    if (i < parts.length - 1) parent = p;
  }
  const real = await Deno.realPath(base).catch(() => base);
  const realParent = await Deno.realPath(parent).catch(() => undefined);
  if (realParent === undefined) return `${rel}: ${parent} cannot be resolved`;
  const norm = (x: string) => Deno.build.os === "windows" ? x.toLowerCase() : x;
  if (norm(realParent) !== norm(real) && !norm(realParent).startsWith(norm(real) + sep)) {
    return `${rel}: ${parent} resolves outside the install root (${realParent})`;
  }
  return undefined;
}

/** Throws when any of `rels` could be written outside `root` (nothing is written then). */
async function refuseEscapes(root: string, rels: readonly string[]): Promise<void> {
  for (const rel of rels) {
    const why = await escapesRoot(root, rel);
    if (why) throw new UpdateError(`refused, nothing written: ${why}; remove the link and retry`);
  }
}

/** The home files this module owns. */
export function syncPaths(home: string) {
  return { lock: join(home, ".update.lock"), lastSync: join(home, ".last-sync-version") };
}

/**
 * Runs one sync; throws UpdateError when the origin or what it sent is refused (nothing was
 * replaced then).
 *
 * @example
 * ```ts
 * import { syncSource } from "./sync.ts";
 * const r = await syncSource({
 *   root: "/opt/assist",
 *   home: "/home/op/.assist",
 *   client: { baseUrl: "https://git.example.org/ops/assist" },
 *   trustedKeys: [],
 * });
 * ```
 */
export async function syncSource(o: SyncOptions): Promise<SyncResult> {
  const paths = syncPaths(o.home);
  const homeLock = await acquireLock(paths.lock);
  if (!("release" in homeLock)) return { status: "busy", changed: [], holder: homeLock.heldBy };
  let rootLock;
  try {
    rootLock = await acquireLock(join(o.root, ROOT_LOCK));
  } catch (err) {
    await homeLock.release();
    throw err;
  }
  if (!("release" in rootLock)) {
    await homeLock.release();
    return { status: "busy", changed: [], holder: rootLock.heldBy };
  }
  const lock = {
    async release() {
      await rootLock.release();
      await homeLock.release();
    },
  };
  try {
    await crashPoint("locked");
    await recover(o.root);
    const limit = o.perFileMs ?? perFileLimitMs;
    const get = originGetter(o.client, limit, o.signal);
    // The local check runs while VERSION is on its way (it is needed only when the version is
    // current). Sizes only: hashing every file at every launch cost 50-100 ms on a busy machine; a
    // missing or torn file shows in its size, and `assist --check` / `assist update --force` hash
    // everything.
    const localCheck = localMismatches(o.root, { hash: false });
    localCheck.catch(() => {});
    const metaDeadline = o.metadataBudgetMs === undefined ? undefined : Date.now() + o.metadataBudgetMs;
    /** What is left of the metadata budget (at least 1 ms), or `fallback` without one. */
    const metaMs = (fallback: number) =>
      metaDeadline === undefined ? fallback : Math.max(1, metaDeadline - Date.now());
    const versionBytes = await get("VERSION", {
      timeoutMs: Math.min(o.versionTimeoutMs ?? 3000, metaMs(Infinity)),
    });
    const version = new TextDecoder().decode(versionBytes).trim();
    if (!SEMVER.test(version)) throw new UpdateError(`the origin's VERSION is not a semantic version`);
    const current = o.current ?? (await Deno.readTextFile(join(o.root, "VERSION")).catch(() => "")).trim();
    // An older signed release is a replay (someone serving a vulnerable old release with its valid
    // signature) and is refused. An unsigned origin is mirrored as it is, as the spec's sync does:
    // without a key nothing tells a replay from the origin's own choice, and refusing would only
    // strand the install on a release its origin no longer serves.
    if (!o.force && o.trustedKeys.length > 0 && compareSemver(version, current) < 0) {
      throw new UpdateError(downgradeMessage(version, current));
    }
    const last = (await Deno.readTextFile(paths.lastSync).catch(() => "")).trim();
    if (!o.force && last === version && (await localCheck).length === 0) {
      return { status: "current", version, changed: [] };
    }

    const metaGet: Getter = (path, opts) =>
      get(path, { ...opts, timeoutMs: metaMs(opts.timeoutMs ?? limit(opts.size)) });
    const { manifestBytes, sigBytes, entries: all, signed } = await fetchManifest(
      metaGet,
      o.trustedKeys,
      limit(0),
    );
    let entries = all;
    // A source install syncs the source; the compiled binaries are for binary installs.
    entries = entries.filter((e) => !e.path.startsWith("dist/"));
    await refuseNonRelease(o.root, entries);
    const versionEntry = entries.find((e) => e.path === "VERSION");
    if (versionEntry?.sha256 && versionEntry.sha256 !== sha256Hex(versionBytes)) {
      throw new UpdateError(
        "the origin's VERSION and MANIFEST disagree (a release in progress?); try again later",
      );
    }

    await refuseEscapes(o.root, [...entries.map((e) => e.path), "MANIFEST", "MANIFEST.sig"]);

    const staged: Array<[string, string]> = [];
    const changed: string[] = [];
    try {
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const target = join(o.root, e.path);
        o.progress?.({ phase: "checking", n: i + 1, total: entries.length, path: e.path });
        const local = await hashFile(target);
        if (e.sha256 && local && local.size === e.size && local.sha256 === e.sha256) continue;
        if (!e.sha256 && local) {
          // A path-only line: the file is fetched (checked by kind) and compared byte for byte.
          o.progress?.({ phase: "downloading", n: i + 1, total: entries.length, path: e.path });
          const body = await get(e.path, {});
          if (sha256Hex(body) === local.sha256) continue;
          staged.push([await stage(target, body), target]);
        } else {
          o.progress?.({ phase: "downloading", n: i + 1, total: entries.length, path: e.path });
          const body = await get(e.path, { size: e.size, sha256: e.sha256 });
          staged.push([await stage(target, body), target]);
        }
        changed.push(e.path);
        await crashPoint("staged");
      }
      // The MANIFEST (and its signature) become the local ones, so `assist --check` sees this release.
      for (const [name, bytes] of [["MANIFEST", manifestBytes], ["MANIFEST.sig", sigBytes]] as const) {
        if (!bytes) continue;
        const target = join(o.root, name);
        const local = await hashFile(target);
        if (local?.sha256 !== sha256Hex(bytes)) staged.push([await stage(target, bytes), target]);
      }
    } catch (err) {
      for (const [s] of staged) await Deno.remove(s).catch(() => {});
      throw err;
    }
    if (staged.length) {
      await atomicWrite(join(o.root, JOURNAL), JSON.stringify({ version, moves: staged }) + "\n", {
        mode: 0o644,
      });
      await crashPoint("journal");
      await applyMoves(staged);
      await crashPoint("renamed");
      await Deno.remove(join(o.root, JOURNAL));
      await crashPoint("journal-removed");
    }
    await atomicWrite(paths.lastSync, `${version}\n`, { mode: 0o600 });
    await crashPoint("committed");
    return { status: changed.length ? "updated" : "current", version, changed, signed };
  } finally {
    await lock.release();
  }
}

/**
 * Throws when the origin's MANIFEST is no release of this program (its entry files or VERSION not
 * listed) or would take most of the install away (more than half of the files the local MANIFEST
 * lists are not in it): what an origin answering one text for every path, or the wrong
 * repository, serves. Nothing has been written then.
 */
async function refuseNonRelease(root: string, entries: readonly ManifestEntry[]): Promise<void> {
  const why = notARelease(entries);
  if (why) {
    throw new UpdateError(
      `the origin's MANIFEST ${why}: not a release of assist (is ASSIST_BASE_URL the release origin?); ` +
        "refused, nothing written",
    );
  }
  const offered = new Set(entries.map((e) => e.path.toLowerCase()));
  const installed = (await localManifest(root)).filter((e) => !e.path.startsWith("dist/"));
  const dropped = installed.filter((e) => !offered.has(e.path.toLowerCase())).length;
  if (dropped * 2 > installed.length) {
    throw new UpdateError(
      `the origin's MANIFEST leaves out ${dropped} of the ${installed.length} files installed; ` +
        "refused, nothing written (no release drops most of the program)",
    );
  }
}

type Getter = (
  path: string,
  opts: { size?: number; sha256?: string; timeoutMs?: number; noShape?: boolean },
) => Promise<Uint8Array>;

/**
 * Fetches `MANIFEST` and `MANIFEST.sig` and checks them: with trusted keys the signature must
 * verify (an unsigned or badly signed MANIFEST is refused); then every line must parse.
 */
export async function fetchManifest(get: Getter, trustedKeys: readonly string[], sigTimeoutMs: number) {
  const manifestBytes = await get("MANIFEST", {});
  const signed = trustedKeys.length > 0;
  let sigBytes: Uint8Array | undefined;
  try {
    sigBytes = await get("MANIFEST.sig", { noShape: true, timeoutMs: sigTimeoutMs });
  } catch (err) {
    if (signed) {
      throw new UpdateError(
        `the origin's MANIFEST is not signed (MANIFEST.sig: ${(err as Error).message}); ` +
          "refused: this origin has a trusted key",
      );
    }
  }
  if (signed && !(await verifyManifest(manifestBytes, new TextDecoder().decode(sigBytes), trustedKeys))) {
    throw new UpdateError("the origin's MANIFEST signature does not verify with a trusted key; refused");
  }
  let entries: ManifestEntry[];
  try {
    entries = parseManifest(new TextDecoder("utf-8", { fatal: true }).decode(manifestBytes));
  } catch (err) {
    throw new UpdateError(`the origin's MANIFEST is refused: ${(err as Error).message}`);
  }
  return { manifestBytes, sigBytes: signed ? sigBytes : sigBytes, entries, signed };
}

/** Writes a staging file beside `target` with the target's mode (0644 when new), fsynced. */
async function stage(target: string, body: Uint8Array): Promise<string> {
  const s = stagedPath(target);
  await Deno.mkdir(dirOf(target), { recursive: true });
  const mode = (await Deno.stat(target).then((i) => i.mode, () => null) ?? 0o644) & 0o777;
  await writeStaged(s, body, mode);
  return s;
}

/**
 * Writes `body` to the new file `path` (a leftover of that name is removed first) with `mode`, and
 * flushes it to disk: a staging file must be whole before anything renames it into place.
 */
export async function writeStaged(path: string, body: Uint8Array, mode: number): Promise<void> {
  await Deno.remove(path).catch(() => {});
  const f = await Deno.open(path, { write: true, createNew: true, mode });
  try {
    let off = 0;
    while (off < body.length) off += await f.write(body.subarray(off));
    await f.sync();
  } finally {
    f.close();
  }
  if (Deno.build.os !== "windows") await Deno.chmod(path, mode);
}

/** Renames each staged file over its target, then flushes the folders (where the OS allows). */
async function applyMoves(moves: Array<[string, string]>): Promise<void> {
  const dirs = new Set<string>();
  for (const [s, t] of moves) {
    try {
      await Deno.rename(s, t);
    } catch (err) {
      // Already moved by an earlier, killed run: the target is the staged file.
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    dirs.add(dirOf(t));
    await crashPoint("rename");
  }
  for (const d of dirs) await denoFs.syncDir(d);
}

/**
 * Finishes a commit a killed sync left (its journal), then removes stray staging files next to
 * every file the local MANIFEST lists. Runs under the lock.
 */
export async function recover(root: string): Promise<{ rolledForward: number; swept: number }> {
  let rolledForward = 0;
  const journal = join(root, JOURNAL);
  const text = await Deno.readTextFile(journal).catch(() => undefined);
  if (text !== undefined) {
    let moves: Array<[string, string]> = [];
    try {
      const j = JSON.parse(text);
      if (Array.isArray(j?.moves)) {
        moves = j.moves.filter((m: unknown) =>
          Array.isArray(m) && m.length === 2 && typeof m[0] === "string" && typeof m[1] === "string" &&
          m[0] === stagedPath(m[1]) && m[1].startsWith(root)
        );
      }
    } catch { /* a torn journal cannot exist (atomic write); treat as empty */ }
    const base = root.replace(/[\\/]+$/, "");
    for (const [s, t] of moves) {
      // A target reached through a symbolic link is never renamed onto (nor touched).
      const rel = t.slice(base.length + 1).split(sep).join("/");
      if (!t.startsWith(base + sep) || await escapesRoot(root, rel)) continue;
      if (await Deno.lstat(s).then(() => true, () => false)) {
        await Deno.rename(s, t);
        rolledForward++;
      }
    }
    await Deno.remove(journal).catch(() => {});
  }
  await Deno.remove(`${journal}.new`).catch(() => {});
  let swept = 0;
  const dirs = new Set<string>([root.replace(/[\\/]+$/, "")]);
  const relDirs = new Set<string>();
  for (const e of await localManifest(root)) {
    if (e.path.includes("/")) relDirs.add(e.path.slice(0, e.path.lastIndexOf("/")));
  }
  // Folders reached through a symbolic link are not swept (that would delete outside the root).
  for (const d of relDirs) if (!(await escapesRoot(root, d))) dirs.add(join(root, d));
  for (const d of dirs) {
    let names: Deno.DirEntry[];
    try {
      names = await Array.fromAsync(Deno.readDir(d));
    } catch {
      continue;
    }
    for (const n of names) {
      if (n.isFile && n.name.startsWith(".") && n.name.endsWith(STAGED_SUFFIX)) {
        await Deno.remove(join(d, n.name)).catch(() => {});
        swept++;
      }
    }
  }
  return { rolledForward, swept };
}

/** The install's own MANIFEST; empty when absent or unreadable. */
export async function localManifest(root: string): Promise<ManifestEntry[]> {
  try {
    return parseManifest(await Deno.readTextFile(join(root, "MANIFEST")));
  } catch {
    return [];
  }
}

/**
 * Files of the install that differ from its MANIFEST: `missing`, `size`, `hash`. Path-only lines
 * are checked for presence. (`assist --check` for a source install.)
 */
export async function localMismatches(
  root: string,
  options: { hash?: boolean } = {},
): Promise<Array<{ path: string; problem: "missing" | "size" | "hash" }>> {
  const entries = (await localManifest(root)).filter((e) => !e.path.startsWith("dist/"));
  const out: Array<{ path: string; problem: "missing" | "size" | "hash" }> = [];
  const sizeOnly = async (p: string) => {
    const st = await Deno.stat(p).catch(() => undefined);
    return st?.isFile ? { size: st.size, sha256: undefined } : undefined;
  };
  const results = await Promise.all(
    entries.map((e) => (options.hash === false ? sizeOnly : hashFile)(join(root, e.path))),
  );
  entries.forEach((e, i) => {
    const h = results[i];
    if (!h) out.push({ path: e.path, problem: "missing" });
    else if (e.size !== undefined && h.size !== e.size) out.push({ path: e.path, problem: "size" });
    else if (e.sha256 !== undefined && h.sha256 !== undefined && h.sha256 !== e.sha256) {
      out.push({ path: e.path, problem: "hash" });
    }
  });
  return out;
}
