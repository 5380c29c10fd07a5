/**
 * Where SSH things live on this machine, as pure functions where possible: the master's control
 * address (and the one seam that picks its transport per platform), the OS temp folder, and the
 * pull cache of the spec (`<temp>/assist-pulls/<alias>.<basename>.<hash of remote path>`).
 *
 * @module
 */
import { homePaths } from "../core/home.ts";
import { SshError } from "./errors.ts";

/**
 * How a master is reached. `unix`: a Unix socket at `.ssh-sockets/<alias>.sock` (mode 0600 in a 0700
 * folder; the file system is the access control, as with OpenSSH's ControlPath). `tcp`: where Unix
 * sockets are not available (Windows), the master listens on 127.0.0.1 on a free port, and
 * `.ssh-sockets/<alias>.sock` is a 0600 file naming the port and a random 256-bit token that every
 * request must carry.
 */
export type Transport = "unix" | "tcp";

/**
 * The transport for a platform: the one place that decides.
 *
 * @example
 * ```ts
 * chooseTransport("linux"); // "unix"
 * chooseTransport("windows"); // "tcp"
 * ```
 */
export function chooseTransport(os: string): Transport {
  return os === "windows" ? "tcp" : "unix";
}

/** The control path of an alias: `$ASSIST_HOME/.ssh-sockets/<alias>.sock`. */
export function socketPath(home: string, alias: string): string {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return `${homePaths(home).sshSockets}${sep}${alias}.sock`;
}

/** Longest Unix socket path we bind: macOS allows 104 bytes with the NUL, Linux 108. */
export const UNIX_PATH_MAX = 103;

/** Throws a clear error when a Unix socket path is too long to bind. */
export function checkUnixPath(path: string): void {
  const n = new TextEncoder().encode(path).length;
  if (n > UNIX_PATH_MAX) {
    throw new SshError(
      "io_error",
      `the control socket path is too long for a Unix socket (${n} bytes, at most ${UNIX_PATH_MAX}): ` +
        `set ASSIST_HOME to a shorter folder`,
      { path },
    );
  }
}

/**
 * The OS temp folder from the environment: TMPDIR (POSIX), TEMP/TMP (Windows), else the platform
 * default.
 *
 * @example
 * ```ts
 * osTempDir((n) => (n === "TMPDIR" ? "/var/tmp/" : undefined), "linux"); // "/var/tmp"
 * ```
 */
export function osTempDir(env: (name: string) => string | undefined, os: string): string {
  const get = (n: string) => {
    try {
      const v = env(n);
      return v === undefined || v.trim() === "" ? undefined : v.trim();
    } catch {
      return undefined;
    }
  };
  if (os === "windows") {
    const t = get("TEMP") ?? get("TMP");
    if (t) return t.replace(/[\\/]+$/, "");
    const local = get("LOCALAPPDATA");
    return local ? `${local.replace(/[\\/]+$/, "")}\\Temp` : "C:\\Windows\\Temp";
  }
  const t = get("TMPDIR");
  return t ? (t.replace(/\/+$/, "") || "/") : "/tmp";
}

export function pullCacheDir(tempDir: string, os: string = Deno.build.os): string {
  return `${tempDir}${os === "windows" ? "\\" : "/"}assist-pulls`;
}

/**
 * The last component of a remote path, made safe as part of a local file name.
 *
 * @example
 * ```ts
 * safeBasename("/hci/root/site1/exec/processes/p1/adt in.smatdb"); // "adt_in.smatdb"
 * ```
 */
export function safeBasename(remotePath: string): string {
  const base = remotePath.replace(/\/+$/, "").split("/").pop() ?? "";
  const clean = base.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_").slice(0, 100);
  return clean === "" ? "file" : clean;
}

/** First 16 hex digits of SHA-256 of the text. */
export async function shortHash(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...d.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The spec's pull-cache file of a remote file: the same remote path always maps to the same file.
 *
 * @example
 * ```ts
 * await pullCachePath("/tmp/assist-pulls", "eng1", "/hci/server/server.ini");
 * // "/tmp/assist-pulls/eng1.server.ini.<16 hex digits>"
 * ```
 */
export async function pullCachePath(
  dir: string,
  alias: string,
  remotePath: string,
  os: string = Deno.build.os,
): Promise<string> {
  // The extension stays last (`e1.adt_in.<hash>.smatdb`), so what reads the copy knows its kind.
  const base = safeBasename(remotePath);
  const dot = base.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ""];
  return `${dir}${os === "windows" ? "\\" : "/"}${alias}.${stem}.${await shortHash(remotePath)}${ext}`;
}

/**
 * Creates (or checks) a private folder: mode 0700, a real folder (not a link), owned by this user.
 * The pull cache sits in a shared temp folder and pulled files may hold PHI, so a folder someone
 * else made (or a planted symlink) is refused rather than used.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const posix = Deno.build.os !== "windows";
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new SshError("io_error", `cannot create ${dir}: ${(err as Error).message}`, { path: dir }, err);
  }
  const info = await Deno.lstat(dir);
  if (!info.isDirectory || info.isSymlink) {
    throw new SshError("io_error", `${dir} is not a plain folder; remove it or pass local_path`, {
      path: dir,
    });
  }
  if (!posix) return;
  let uid: number | null = null;
  try {
    uid = Deno.uid();
  } catch { /* not allowed: skip the owner check */ }
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    throw new SshError("io_error", `${dir} belongs to another user; remove it or pass local_path`, {
      path: dir,
    });
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) await Deno.chmod(dir, 0o700);
}
