/**
 * The update lock, `$ASSIST_HOME/.update.lock`: an exclusive OS file lock (flock / LockFileEx via
 * `FsFile.tryLock`) held while one process syncs, with the holder's pid, version and start time
 * written inside for messages. Two launches never sync at once: the second finds the lock taken
 * and skips. The OS drops the lock when its process ends, however it ends (SIGKILL included), so a
 * killed updater can never leave a stale lock behind (Claude Code's stale-lock bug trail).
 *
 * @module
 */
import { VERSION } from "../core/version.ts";

export interface LockHolder {
  pid: number;
  version: string;
  at: number;
}

export interface Lock {
  path: string;
  release(): Promise<void>;
}

/**
 * Takes the lock, or returns who holds it.
 *
 * @example
 * ```ts
 * import { acquireLock } from "./lock.ts";
 * const got = await acquireLock("/home/op/.assist/.update.lock");
 * if ("release" in got) await got.release();
 * ```
 */
export async function acquireLock(path: string): Promise<Lock | { heldBy: LockHolder }> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  let locked = false;
  try {
    locked = await file.tryLock(true);
  } catch {
    locked = false;
  }
  if (!locked) {
    file.close();
    return { heldBy: (await readHolder(path)) ?? { pid: 0, version: "?", at: 0 } };
  }
  const holder: LockHolder = { pid: Deno.pid, version: VERSION, at: Date.now() };
  await file.truncate(0);
  await file.write(new TextEncoder().encode(JSON.stringify(holder) + "\n"));
  return {
    path,
    async release() {
      try {
        await file.truncate(0);
        await file.unlock();
      } catch { /* closing drops the lock anyway */ }
      file.close();
    },
  };
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const v = JSON.parse(await Deno.readTextFile(path));
    if (typeof v?.pid === "number" && typeof v?.at === "number") {
      return { pid: v.pid, at: v.at, version: String(v.version ?? "?") };
    }
  } catch { /* being written: no details */ }
  return undefined;
}
