/**
 * The headers-sync settings as `.env` keys (core/dotenv.ts owns the file): whether the sync runs at
 * exit, the target alias, the remote folder, and the push mark (which local file was pushed up to
 * which byte, and a fingerprint of its first bytes for rotation detection).
 *
 * | key | meaning |
 * |---|---|
 * | `HEADERS_SYNC` | `on` or `off` (default off) |
 * | `HEADERS_SYNC_TARGET` | the alias pushed to |
 * | `HEADERS_SYNC_REMOTE_DIR` | remote folder (default `~/.assist-headers`) |
 * | `HEADERS_SYNC_FILE_ID` | identity of the local `log/headers.log` last pushed (device, inode, birth time) |
 * | `HEADERS_SYNC_OFFSET` | bytes of that file pushed |
 * | `HEADERS_SYNC_HEAD` | `<length>:<sha-256 hex>` of the file's first bytes when pushed |
 *
 * @module
 */
import { readDotenv, updateDotenv } from "../../core/dotenv.ts";
import { homePaths } from "../../core/home.ts";
import type { Mark } from "./logic.ts";

export const DEFAULT_REMOTE_DIR = "~/.assist-headers";

export interface HeadersSyncSettings {
  enabled: boolean;
  target?: string;
  remoteDir: string;
  /** Absent until the first push. */
  mark?: Mark;
}

const K = {
  enabled: "HEADERS_SYNC",
  target: "HEADERS_SYNC_TARGET",
  remoteDir: "HEADERS_SYNC_REMOTE_DIR",
  fileId: "HEADERS_SYNC_FILE_ID",
  offset: "HEADERS_SYNC_OFFSET",
  head: "HEADERS_SYNC_HEAD",
} as const;

/** The settings a parsed `.env` holds (missing or malformed values take their defaults). Pure. */
export function settingsFrom(env: Record<string, string>): HeadersSyncSettings {
  const offset = Number(env[K.offset]);
  const mark = env[K.fileId] && Number.isSafeInteger(offset) && offset >= 0 && env[K.head] !== undefined
    ? { id: env[K.fileId], offset, head: env[K.head] }
    : undefined;
  return {
    enabled: env[K.enabled]?.trim().toLowerCase() === "on",
    target: env[K.target]?.trim() || undefined,
    remoteDir: env[K.remoteDir]?.trim() || DEFAULT_REMOTE_DIR,
    ...(mark ? { mark } : {}),
  };
}

export async function readSettings(home: string): Promise<HeadersSyncSettings> {
  return settingsFrom(await readDotenv(homePaths(home).env));
}

/** Persists the given fields (others are left as they are in `.env`). */
export async function writeSettings(
  home: string,
  s: { enabled?: boolean; target?: string; remoteDir?: string; mark?: Mark | null },
): Promise<void> {
  const changes: Record<string, string | undefined> = {};
  if (s.enabled !== undefined) changes[K.enabled] = s.enabled ? "on" : "off";
  if (s.target !== undefined) changes[K.target] = s.target;
  if (s.remoteDir !== undefined) changes[K.remoteDir] = s.remoteDir;
  if (s.mark === null) {
    changes[K.fileId] = changes[K.offset] = changes[K.head] = undefined;
  } else if (s.mark) {
    changes[K.fileId] = s.mark.id;
    changes[K.offset] = String(s.mark.offset);
    changes[K.head] = s.mark.head;
  }
  await updateDotenv(homePaths(home).env, changes);
}
