/**
 * The update check at launch, and the facts `assist update`, `assist --check` and `/origin` share.
 *
 * Launch policy (bounded, in the foreground, before the REPL's modules load): `VERSION` gets 3 s
 * and `VERSION`, `MANIFEST` and `MANIFEST.sig` together {@link LAUNCH_METADATA_MS};
 * when the origin has something new, the changed files are synced with progress shown, each file
 * within its own limit and the whole sync within {@link LAUNCH_BUDGET_MS}. Why not in the background:
 * a source install loads its modules lazily while it runs, so files replaced under a running
 * session would mix two releases in one process; syncing before the REPL's modules load means the
 * session runs one release (the new one for everything loaded after the sync; a restart runs all of
 * it). When nothing is new the check costs one small GET. An unreachable or refusing origin prints
 * "auto-update skipped this launch" with the reason, and the program goes on.
 *
 * A development checkout (a `.git` beside main.ts) is never synced: git owns those files. A
 * compiled binary only reports a newer release at launch (`assist update` installs it).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Secret } from "../core/secret.ts";
import { describeError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import { fetchOriginFile } from "./fetch.ts";
import { type SwapFs, sweepAside } from "./swap.ts";
import { type Origin, readPinFile, resolveOrigin } from "./origin.ts";
import { DEFAULT_BASE_URL } from "./origin.ts";
import { EMBEDDED_KEYS, parsePublicKey } from "./signature.ts";
import { type SyncResult, syncSource } from "./sync.ts";
import type { ProgressEvent } from "./progress.ts";
import { compareSemver } from "./validate.ts";

/**
 * The longest a launch sync may hold up the prompt; past it the sync stops (staged files removed,
 * nothing replaced) and the next launch converges.
 */
export const LAUNCH_BUDGET_MS = 30_000;
/** One budget for `VERSION`, `MANIFEST` and `MANIFEST.sig` at launch. */
export const LAUNCH_METADATA_MS = 5_000;

/** The folder of main.ts: the root of a source install. */
export function sourceRoot(): string {
  return fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]+$/, "");
}

/** Whether this process is a compiled binary. */
export function isCompiled(): boolean {
  return (Deno.build as { standalone?: boolean }).standalone === true;
}

/** Whether `root` is a git checkout (never synced). */
export async function isCheckout(root: string): Promise<boolean> {
  return await Deno.lstat(`${root}/.git`).then(() => true, () => false);
}

const sep = Deno.build.os === "windows" ? "\\" : "/";
/** `$ASSIST_HOME/.origin` and `$ASSIST_HOME/.origin-key`. */
export function originFiles(home: string) {
  const h = home.replace(/[\\/]+$/, "");
  return { pin: `${h}${sep}.origin`, key: `${h}${sep}.origin-key` };
}

/** The effective origin (ASSIST_BASE_URL, the pin, the default). */
export async function effectiveOrigin(home: string, envBaseUrl: string | undefined): Promise<Origin> {
  return resolveOrigin(envBaseUrl, await readPinFile(originFiles(home).pin));
}

/**
 * The keys trusted for an origin: the embedded release keys for the default origin, plus a key the
 * operator pinned in `$ASSIST_HOME/.origin-key` (for any origin).
 */
export async function trustedKeys(home: string, origin: Origin): Promise<string[]> {
  const keys = origin.baseUrl === DEFAULT_BASE_URL ? [...EMBEDDED_KEYS] : [];
  const pinned = await Deno.readTextFile(originFiles(home).key).then(parsePublicKey, () => undefined);
  if (pinned) keys.push(pinned);
  return keys;
}

export interface LaunchOptions {
  home: string;
  baseUrl?: string;
  token?: Secret;
  /** One finished line to show (stderr). */
  line: (text: string) => void;
  progress?: (e: ProgressEvent) => void;
  /** Ends an in-place progress line. */
  progressDone?: () => void;
  /** For tests. @default sourceRoot() */
  root?: string;
  /** @default 3000 */
  versionTimeoutMs?: number;
  /** @default LAUNCH_BUDGET_MS */
  budgetMs?: number;
  /** @default LAUNCH_METADATA_MS */
  metadataBudgetMs?: number;
  /** For tests. @default isCompiled() */
  compiled?: boolean;
  /** The running version. @default VERSION */
  current?: string;
  /** For tests: the binary, its OS and file system (the Windows sweep). */
  exe?: string;
  os?: string;
  fs?: SwapFs;
}

/**
 * The launch check of a source install. Never throws: every outcome is at most a few lines.
 *
 * @example
 * ```ts
 * import { launchSync } from "./launch.ts";
 * await launchSync({ home: "/home/op/.assist", line: (s) => console.error(s) });
 * ```
 */
export async function launchSync(o: LaunchOptions): Promise<SyncResult | undefined> {
  try {
    const origin = await effectiveOrigin(o.home, o.baseUrl);
    if (origin.warning) o.line(`assist: ${origin.warning}`);
    if (o.compiled ?? isCompiled()) {
      // Windows: aside files of earlier swaps (`assist.exe.old-*`) go once nothing runs them.
      if ((o.os ?? Deno.build.os) === "windows") {
        await sweepAside(o.exe ?? Deno.execPath(), o.fs).catch(() => 0);
      }
      // A compiled binary only says when a new release is out: replacing a 100 MB binary is
      // `assist update`'s job, never a surprise before the prompt.
      const v = new TextDecoder().decode(
        await fetchOriginFile({ baseUrl: origin.baseUrl, token: o.token }, "VERSION", {
          timeoutMs: o.versionTimeoutMs ?? 3000,
        }),
      ).trim();
      // Only a newer release is announced: an older one is never offered (a replayed release).
      if (compareSemver(v, o.current ?? VERSION) > 0) {
        o.line(`assist ${v} is available (this is ${o.current ?? VERSION}): run assist update`);
      }
      return undefined;
    }
    const root = o.root ?? sourceRoot();
    if (await isCheckout(root)) return undefined;
    const keys = await trustedKeys(o.home, origin);
    if (keys.length === 0) {
      o.line(`update: origin ${origin.baseUrl} is unsigned (no trusted key); files are checked by hash only`);
    }
    const r = await syncSource({
      root,
      home: o.home,
      client: { baseUrl: origin.baseUrl, token: o.token },
      trustedKeys: keys,
      versionTimeoutMs: o.versionTimeoutMs ?? 3000,
      metadataBudgetMs: o.metadataBudgetMs ?? LAUNCH_METADATA_MS,
      current: o.current,
      signal: AbortSignal.timeout(o.budgetMs ?? LAUNCH_BUDGET_MS),
      progress: o.progress,
    }).finally(() => o.progressDone?.());
    if (r.status === "busy") {
      o.line(`auto-update skipped this launch: another assist (pid ${r.holder?.pid}) is updating`);
    } else if (r.status === "updated") {
      o.line(`updated to ${r.version} (${r.changed.length} file(s)); restart assist to use it`);
    }
    return r;
  } catch (err) {
    o.line(`auto-update skipped this launch: ${describeError(err)}`);
    return undefined;
  }
}
