/**
 * Replacing the compiled `assist` binary with a verified new one, through a small file-system layer
 * ({@link SwapFs}) so the Windows logic runs (and is tested) on any OS.
 *
 * - Unix: the current binary is hard-linked to `<exe>.prev` (copied when links fail), then the new
 *   one is renamed over `<exe>` (atomic: a new inode, so a running process and macOS's code-sign cache
 *   keep the old one), then the folder is flushed. `<exe>.prev` stays for a manual rollback.
 * - Windows: a running exe cannot be replaced but can be renamed. Leftovers `<exe>.old-*` from
 *   earlier swaps are swept (those still in use stay); the exe is renamed aside to a unique
 *   `<exe>.old-<time>-<random>`, the new one is moved in, each rename retried on a locked file
 *   (EACCES/EBUSY, e.g. an antivirus scan) 5 times at 100 ms doubling to 1.6 s. When the new one
 *   cannot be moved in, the aside file is renamed back; when that fails too, the error says exactly
 *   which two renames recover the install.
 *
 * @module
 */
import { AssistError } from "../core/errors.ts";
import { crashPoint } from "./crash.ts";

/** The file operations a swap uses. */
export interface SwapFs {
  rename(from: string, to: string): Promise<void>;
  link(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  readDir(dir: string): Promise<string[]>;
  /** Flushes a folder's entries (best effort). */
  syncDir(dir: string): Promise<void>;
  sleep(ms: number): Promise<void>;
}

/** The real file system. */
export const denoFs: SwapFs = {
  rename: (a, b) => Deno.rename(a, b),
  link: (a, b) => Deno.link(a, b),
  copyFile: (a, b) => Deno.copyFile(a, b),
  remove: (p) => Deno.remove(p),
  exists: (p) => Deno.lstat(p).then(() => true, () => false),
  readDir: async (d) => (await Array.fromAsync(Deno.readDir(d))).map((e) => e.name),
  // A folder's fsync makes its renames durable; Windows has none, and elsewhere it is best effort.
  syncDir: async (d) => {
    if (Deno.build.os === "windows") return;
    try {
      const f = await Deno.open(d, { read: true });
      try {
        await f.sync();
      } finally {
        f.close();
      }
    } catch { /* best effort */ }
  },
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

const splitPath = (p: string) => {
  const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return { dir: p.slice(0, i), base: p.slice(i + 1), sep: p[i] ?? "/" };
};

/** Whether an error is a transient lock (Windows sharing violation, antivirus): retried. */
function isLocked(err: unknown): boolean {
  return err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.Busy ||
    /EACCES|EBUSY|EPERM|os error 5\b|os error 32\b/.test(String((err as Error)?.message ?? err));
}

async function retrying(fs: SwapFs, op: () => Promise<void>): Promise<void> {
  let delay = 100;
  for (let attempt = 0;; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= 5 || !isLocked(err)) throw err;
      await fs.sleep(delay);
      delay = Math.min(delay * 2, 1600);
    }
  }
}

/** Removes `<exe>.old-*` leftovers of earlier Windows swaps; those still in use stay. */
export async function sweepAside(exe: string, fs: SwapFs = denoFs): Promise<number> {
  const { dir, base, sep } = splitPath(exe);
  let n = 0;
  for (const name of await fs.readDir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(`${base}.old-`)) continue;
    try {
      await fs.remove(`${dir}${sep}${name}`);
      n++;
    } catch { /* still running somewhere: next time */ }
  }
  return n;
}

/**
 * Puts the verified binary `staged` (in the same folder as `exe`) in place of `exe`.
 *
 * @example
 * ```ts
 * import { swapBinary } from "./swap.ts";
 * await swapBinary("/home/op/.local/bin/assist", "/home/op/.local/bin/.assist.assist-new", "linux");
 * ```
 */
export async function swapBinary(
  exe: string,
  staged: string,
  os: string,
  fs: SwapFs = denoFs,
): Promise<void> {
  const { dir } = splitPath(exe);
  if (os !== "windows") {
    const prev = `${exe}.prev`;
    await fs.remove(prev).catch(() => {});
    try {
      await fs.link(exe, prev);
    } catch {
      await fs.copyFile(exe, prev);
    }
    await crashPoint("swap-prev");
    await fs.rename(staged, exe);
    await crashPoint("swap-renamed");
    await fs.syncDir(dir);
    return;
  }
  await sweepAside(exe, fs);
  const aside = `${exe}.old-${Date.now()}-${crypto.getRandomValues(new Uint32Array(1))[0].toString(16)}`;
  await retrying(fs, () => fs.rename(exe, aside));
  await crashPoint("swap-aside");
  try {
    await retrying(fs, () => fs.rename(staged, exe));
  } catch (err) {
    try {
      await retrying(fs, () => fs.rename(aside, exe));
    } catch {
      throw new AssistError(
        `the update could not put the new binary in place and could not restore the old one: ` +
          `rename "${aside}" to "${exe}" by hand (the new one is "${staged}")`,
        { level: "io", cause: err },
      );
    }
    throw new AssistError(
      `the new binary could not replace ${exe} (${(err as Error).message}); the old one is back in place. ` +
        "Close other running assist windows and run `assist update` again",
      { level: "io", cause: err },
    );
  }
  await crashPoint("swap-renamed");
}
