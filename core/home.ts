/**
 * $ASSIST_HOME: where it is, what lives in it, and its creation with the spec's modes. Each file in
 * it is owned by one module; this one only names them.
 */
import { AssistError } from "./errors.ts";

/** Subfolders created with mode 0700 (they hold PHI, secrets or sockets). */
export const PRIVATE_DIRS = ["log", "sanitize", "sessions", ".ssh-creds", ".ssh-sockets"] as const;

/**
 * The default home: `~/.assist`, or `%USERPROFILE%\.assist` on Windows.
 *
 * @example
 * ```ts
 * defaultHome((n) => ({ HOME: "/home/op" } as Record<string, string>)[n], "linux"); // "/home/op/.assist"
 * ```
 */
export function defaultHome(env: (name: string) => string | undefined, os: string): string {
  if (os === "windows") {
    const profile = env("USERPROFILE") ?? env("HOME");
    if (!profile) {
      throw new AssistError("cannot find the home folder: set ASSIST_HOME or USERPROFILE", {
        level: "config",
      });
    }
    return `${profile.replace(/[\\/]+$/, "")}\\.assist`;
  }
  const home = env("HOME");
  if (!home) {
    throw new AssistError("cannot find the home folder: set ASSIST_HOME or HOME", { level: "config" });
  }
  return `${home.replace(/\/+$/, "")}/.assist`;
}

/** Paths of the files the spec names under $ASSIST_HOME. */
export function homePaths(home: string) {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  const at = (...parts: string[]) => [home.replace(/[\\/]+$/, ""), ...parts].join(sep);
  return {
    home,
    history: at(".history"),
    env: at(".env"),
    oauth: at(".oauth.json"),
    apiKey: at(".api-key"),
    origin: at(".origin"),
    sshHosts: at(".ssh-hosts.tsv"),
    sshCreds: at(".ssh-creds"),
    sshSockets: at(".ssh-sockets"),
    lookup: at("sanitize", "lookup.tsv"),
    autoPhiLog: at("log", "auto-phi.log"),
    headersLog: at("log", "headers.log"),
    sessions: at("sessions"),
    phiNoticeShown: at(".phi-notice-shown"),
    lastSyncVersion: at(".last-sync-version"),
  };
}

/**
 * Creates $ASSIST_HOME (0700) and its private folders (0700). Existing folders are tightened to
 * 0700 if they are looser; nothing else is touched. Every `assist tools <name>` passes here, so it
 * uses the synchronous calls (a dozen small system calls; the first asynchronous file call of a
 * process costs more than all of them) and creates only what is missing.
 */
export function ensureHome(home: string): Promise<void> {
  try {
    ensureHomeSync(home);
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err);
  }
}

function ensureHomeSync(home: string): void {
  const posix = Deno.build.os !== "windows";
  const sep = posix ? "/" : "\\";
  const dirs = [home, ...PRIVATE_DIRS.map((d) => `${home.replace(/[\\/]+$/, "")}${sep}${d}`)];
  for (const dir of dirs) {
    try {
      let info: Deno.FileInfo | undefined;
      try {
        info = Deno.statSync(dir);
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
      if (!info?.isDirectory) {
        Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (posix) info = Deno.statSync(dir);
      }
      if (posix && info?.mode != null && (info.mode & 0o077) !== 0) Deno.chmodSync(dir, 0o700);
    } catch (err) {
      throw new AssistError(
        `cannot create ${dir}: ${(err as Error).message} (set ASSIST_HOME to a writable folder)`,
        {
          level: "io",
          cause: err,
        },
      );
    }
  }
}
