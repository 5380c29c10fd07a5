/**
 * The self-update of a compiled `assist` (`deno compile`): fetch `VERSION`; when it differs from the
 * running version, fetch and check the MANIFEST (signature with a trusted key), download this
 * platform's `dist/<target>/assist[.exe]` beside the running binary, check its size, hash and magic
 * bytes, fsync it, make sure it prints `assist <version>`, and swap it in (update/swap.ts).
 *
 * The version check: the staged file is run with `--version` first. A compiled binary's permission
 * set names the programs it may start (deno.json, "run"), and a staged file's path is not one of
 * them, so there the check runs after the swap instead, through `assist` on PATH, and a wrong
 * answer puts `<exe>.prev` back (Unix) or the aside file (Windows).
 *
 * @module
 */
import { atomicWrite } from "../core/atomic_write.ts";
import { childEnv } from "../core/child_env.ts";
import { VERSION } from "../core/version.ts";
import { crashPoint } from "./crash.ts";
import { type OriginClient, originGetter, perFileLimitMs, UpdateError } from "./fetch.ts";
import { hashFile } from "./hash.ts";
import { acquireLock } from "./lock.ts";
import { binaryPath, currentTarget } from "./manifest.ts";
import { denoFs, swapBinary, type SwapFs } from "./swap.ts";
import { fetchManifest, stagedPath, syncPaths, writeStaged } from "./sync.ts";
import { compareSemver, downgradeMessage, SEMVER } from "./validate.ts";

/** Runs a binary with `--version`; returns its first stdout line, or throws. */
export type VersionProbe = (program: string) => Promise<string>;

/**
 * The real probe: the program with `--version`, 10 s at most, in an environment built from a named
 * list (core/child_env.ts): the origin token and the API key never reach it.
 */
export const runVersion: VersionProbe = async (program) => {
  const out = await new Deno.Command(program, {
    args: ["--version"],
    clearEnv: true,
    env: childEnv((n) => Deno.env.get(n)),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(10_000),
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n")[0].trim();
};

export interface BinaryUpdateOptions {
  exe: string;
  home: string;
  client: OriginClient;
  trustedKeys: readonly string[];
  /** The running version. @default VERSION */
  current?: string;
  os?: string;
  target?: string;
  fs?: SwapFs;
  probe?: VersionProbe;
  /** Probe through `assist` on PATH after the swap (a compiled binary's permissions). */
  probeAfter?: VersionProbe;
  force?: boolean;
  onDownload?: (path: string, size: number | undefined) => void;
}

/**
 * @example
 * ```ts
 * import { updateBinary } from "./binary.ts";
 * const r = await updateBinary({
 *   exe: Deno.execPath(),
 *   home: "/home/op/.assist",
 *   client: { baseUrl: "https://git.example.org/ops/assist" },
 *   trustedKeys: [],
 * });
 * ```
 */
export async function updateBinary(
  o: BinaryUpdateOptions,
): Promise<{ status: "current" | "updated" | "busy"; version?: string }> {
  const lock = await acquireLock(syncPaths(o.home).lock);
  if (!("release" in lock)) return { status: "busy" };
  const staged = stagedPath(o.exe);
  try {
    const get = originGetter(o.client);
    const version = new TextDecoder().decode(await get("VERSION", { timeoutMs: 3000 })).trim();
    if (!SEMVER.test(version)) throw new UpdateError("the origin's VERSION is not a semantic version");
    const current = o.current ?? VERSION;
    if (!o.force && version === current) return { status: "current", version };
    // Older and signed: a replay, refused (sync.ts says why an unsigned origin is followed).
    if (!o.force && o.trustedKeys.length > 0 && compareSemver(version, current) < 0) {
      throw new UpdateError(downgradeMessage(version, current));
    }
    const { entries } = await fetchManifest(get, o.trustedKeys, perFileLimitMs(0));
    const want = binaryPath(o.target ?? currentTarget());
    const entry = entries.find((e) => e.path === want);
    if (!entry?.sha256) {
      throw new UpdateError(`the origin's MANIFEST has no hashed ${want} (no binary for this platform)`);
    }
    o.onDownload?.(want, entry.size);
    const body = await get(want, { size: entry.size, sha256: entry.sha256 });
    await writeStaged(staged, body, 0o755);
    await crashPoint("binary-staged");
    const expected = `assist ${version}`;
    const probe = o.probe ?? runVersion;
    let checked = false;
    try {
      const said = await probe(staged);
      if (said !== expected) {
        throw new UpdateError(
          `the downloaded binary says "${said.slice(0, 60)}", not "${expected}"; not installed`,
        );
      }
      checked = true;
    } catch (err) {
      if (err instanceof UpdateError) throw err;
      if (!(err instanceof Deno.errors.NotCapable) || !o.probeAfter) {
        throw new UpdateError(
          `the downloaded binary does not run (${(err as Error).message}); not installed`,
        );
      }
    }
    await swapBinary(o.exe, staged, o.os ?? Deno.build.os, o.fs ?? denoFs);
    if (!checked) {
      const said = await o.probeAfter!("assist").catch((e) => `(${(e as Error).message})`);
      if (said !== expected) {
        if ((o.os ?? Deno.build.os) !== "windows") await (o.fs ?? denoFs).rename(`${o.exe}.prev`, o.exe);
        throw new UpdateError(
          `the new binary did not answer "${expected}" (got "${
            said.slice(0, 60)
          }"); the previous one is back`,
        );
      }
    }
    await atomicWrite(syncPaths(o.home).lastSync, `${version}\n`, { mode: 0o600 });
    return { status: "updated", version };
  } finally {
    await Deno.remove(staged).catch(() => {});
    await lock.release();
  }
}

/**
 * `assist --check` for a compiled binary: the running file against this platform's entry in the
 * origin's (verified) MANIFEST. `other-release` when the origin has moved on to another version.
 */
export async function checkBinary(o: {
  exe: string;
  client: OriginClient;
  trustedKeys: readonly string[];
  current?: string;
  target?: string;
}): Promise<{ status: "match" | "mismatch" | "other-release"; version: string; path: string }> {
  const get = originGetter(o.client);
  const version = new TextDecoder().decode(await get("VERSION", { timeoutMs: 3000 })).trim();
  const path = binaryPath(o.target ?? currentTarget());
  if (version !== (o.current ?? VERSION)) return { status: "other-release", version, path };
  const { entries } = await fetchManifest(get, o.trustedKeys, perFileLimitMs(0));
  const entry = entries.find((e) => e.path === path);
  if (!entry?.sha256) throw new UpdateError(`the origin's MANIFEST has no hashed ${path}`);
  const h = await hashFile(o.exe);
  const ok = h?.size === entry.size && h?.sha256 === entry.sha256;
  return { status: ok ? "match" : "mismatch", version, path };
}
