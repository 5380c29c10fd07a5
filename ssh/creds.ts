/**
 * Stored SSH passwords (spec, Authentication item 6): `$ASSIST_HOME/.ssh-creds/<alias>`, mode 0600 in
 * a 0700 folder, written atomically. The password is only ever read by the process that
 * authenticates (the master once at setup, or a direct-mode command) and is held as a {@link Secret}:
 * it never goes into an argv, an environment, a tool result, a log or an error message.
 *
 * @module
 */
import { atomicWrite } from "../core/atomic_write.ts";
import { temporarySuffix } from "../core/state_file.ts";
import { homePaths } from "../core/home.ts";
import { Secret } from "../core/secret.ts";
import { SshError } from "./errors.ts";

export function credPath(home: string, alias: string): string {
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return `${homePaths(home).sshCreds}${sep}${alias}`;
}

/**
 * The stored password's text form: one line; a trailing newline (and CR) is not part of it.
 *
 * @example
 * ```ts
 * normalizePassword("s3cret\r\n"); // "s3cret"
 * ```
 */
export function normalizePassword(raw: string): string {
  return raw.replace(/\r?\n$/, "").replace(/\r$/, "");
}

export async function hasCredential(home: string, alias: string): Promise<boolean> {
  try {
    return (await Deno.stat(credPath(home, alias))).isFile;
  } catch {
    return false;
  }
}

/** Stores the password (0600). An empty password is refused. */
export async function writeCredential(home: string, alias: string, password: Secret): Promise<void> {
  const value = normalizePassword(password.reveal());
  if (value === "") throw new SshError("no_credential", "empty password: nothing stored");
  if (value.includes("\n")) throw new SshError("no_credential", "the password must be one line");
  // Its own temporary: two `assist ssh pass` at once must not trip over one shared `.new`.
  await atomicWrite(credPath(home, alias), value + "\n", { mode: 0o600, tmpSuffix: temporarySuffix() });
}

/**
 * Reads the stored password. A missing file names `/ssh-pass`; a file readable by others (POSIX)
 * is refused, as OpenSSH refuses a private key with loose permissions.
 */
export async function readCredential(home: string, alias: string): Promise<Secret> {
  const path = credPath(home, alias);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    throw new SshError(
      "no_credential",
      `no stored password for ${alias} (set it with /ssh-pass ${alias})`,
      { alias },
    );
  }
  if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o077) !== 0) {
    throw new SshError(
      "no_credential",
      `the password file of ${alias} is readable by others (mode ${(info.mode & 0o777).toString(8)}); ` +
        `set it again with /ssh-pass ${alias}`,
      { alias },
    );
  }
  const value = normalizePassword(await Deno.readTextFile(path));
  if (value === "") {
    throw new SshError(
      "no_credential",
      `the stored password of ${alias} is empty (set it with /ssh-pass ${alias})`,
      {
        alias,
      },
    );
  }
  return new Secret(value);
}

export async function removeCredential(home: string, alias: string): Promise<boolean> {
  try {
    await Deno.remove(credPath(home, alias));
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
