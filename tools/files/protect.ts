/**
 * File protection (spec, Authentication item 7). The model's file tools refuse anything under
 * `$ASSIST_HOME/log`, `/sanitize`, `/sessions` and the files `.oauth.json` and `.env`; we add the
 * places that hold other secrets (`.ssh-creds/`, the stored API key, the `.new` temporaries written
 * while a secret file is replaced). A path is refused when either its literal form or its real
 * (symlink-resolved) form lies inside a protected place of either the literal or the real form of
 * the home, or at or under the real path of a protected entry that is a symbolic link (issue #29
 * item 5: `sanitize` linked to a folder on another disk is refused by that folder's path too). `..` chains, trailing separators, nonexistent paths, Windows separators, trailing dots
 * and alternate data streams, and case variants on case-insensitive file systems are all covered.
 *
 * The comparison itself (`protectedPlace`) is pure, so every platform's rules are tested here.
 */
import { expandTilde, userHome } from "../../core/tilde.ts";
import { posix, win32 } from "../../core/path.ts";

/** Folders under the home whose whole content is protected. */
export const PROTECTED_DIRS = ["log", "sanitize", "sessions", ".ssh-creds"] as const;
/** Files directly under the home that are protected (with their atomic-write `.new` sidecars). */
export const PROTECTED_FILES = [".oauth.json", ".env", ".api-key"] as const;

export interface Flavor {
  /** Windows path rules: `\` and `/` separators, drive letters, trailing dots, streams. */
  windows: boolean;
  /** Compare case-insensitively (Windows, default macOS volumes, probed elsewhere). */
  caseInsensitive: boolean;
}

/**
 * Brings an absolute path to the comparable form of its flavor: normalized, separators unified to
 * `/`, no trailing separator, Windows component quirks removed, case folded when insensitive.
 */
export function comparable(path: string, flavor: Flavor): string {
  let p: string;
  if (flavor.windows) {
    p = path.replace(/^\\\\\?\\UNC\\/i, "\\\\").replace(/^\\\\[?.]\\/, "");
    p = win32.normalize(p).replace(/\\/g, "/");
    // Windows ignores trailing dots and spaces of a component, and `name:stream` or `name::$DATA`
    // opens the same file's data: compare the name alone.
    p = p.split("/").map((part, i) => {
      if (i === 0 && /^[A-Za-z]:$/.test(part)) return part;
      const colon = part.indexOf(":");
      const name = colon === -1 ? part : part.slice(0, colon);
      return name === "." || name === ".." ? name : name.replace(/[. ]+$/, "");
    }).join("/");
  } else {
    p = posix.normalize(path);
  }
  if (p.length > 1 && p.endsWith("/") && !/^[A-Za-z]:\/$/.test(p)) p = p.replace(/\/+$/, "");
  if (flavor.caseInsensitive) p = p.normalize("NFC").toLowerCase();
  return p;
}

/**
 * Which protected place `candidate` falls in, for any of the home forms or at or under the real path
 * of a protected entry that is a link (`entries`, from {@link linkedEntries}), or undefined. All are
 * absolute; every form should be given (literal and real). Pure.
 *
 * @example
 * ```ts
 * protectedPlace(["/h/.assist/log/x"], ["/h/.assist"], { windows: false, caseInsensitive: false }); // "log/"
 * ```
 */
export function protectedPlace(
  candidates: string[],
  homes: string[],
  flavor: Flavor,
  entries: readonly ProtectedEntry[] = [],
): string | undefined {
  const homeForms = [...new Set(homes.map((h) => comparable(h, flavor)))];
  for (const raw of candidates) {
    const c = comparable(raw, flavor);
    for (const h of homeForms) {
      const prefix = h.endsWith("/") ? h : `${h}/`;
      if (!c.startsWith(prefix)) continue;
      const rest = c.slice(prefix.length);
      const first = rest.split("/")[0];
      for (const dir of PROTECTED_DIRS) {
        if (first === (flavor.caseInsensitive ? dir.toLowerCase() : dir)) return `${dir}/`;
      }
      if (rest.includes("/")) continue;
      for (const file of PROTECTED_FILES) {
        const f = flavor.caseInsensitive ? file.toLowerCase() : file;
        if (rest === f || (rest.startsWith(`${f}.`) && rest.endsWith(".new"))) return file;
      }
    }
  }
  for (const e of entries) {
    const real = comparable(e.real, flavor);
    for (const raw of candidates) {
      const c = comparable(raw, flavor);
      if (c === real || (e.dir && c.startsWith(real.endsWith("/") ? real : `${real}/`))) return e.place;
    }
  }
  return undefined;
}

/**
 * A protected entry of the home by its real path: a folder (`sanitize/`) or a file (`.env`) that is
 * a symbolic link to somewhere else, or a link inside a protected folder. Whatever lies at or under
 * `real` is that place.
 */
export interface ProtectedEntry {
  /** The place as refusals name it: `sanitize/`, `.env`. */
  place: string;
  /** The entry's symlink-resolved path. */
  real: string;
  /** A folder: everything under `real` is protected too. */
  dir: boolean;
}

/**
 * The protected entries of `home` (its real path) that resolve to somewhere other than where they
 * are: each protected folder and file that is a symbolic link, and each link directly inside a
 * protected folder (`sanitize/lookup.tsv` kept on another disk). Synchronous: a few quick system
 * calls on every check, so a link made while the program runs counts at once.
 */
export function linkedEntries(home: string, flavor: Flavor): ProtectedEntry[] {
  const lib = flavor.windows ? win32 : posix;
  const out: ProtectedEntry[] = [];
  const resolve = (path: string, place: string, dir: boolean) => {
    try {
      const real = Deno.realPathSync(path);
      if (comparable(real, flavor) !== comparable(path, flavor)) out.push({ place, real, dir });
    } catch { /* missing or dangling: nothing to read there */ }
  };
  for (const dir of PROTECTED_DIRS) {
    const path = lib.join(home, dir);
    resolve(path, `${dir}/`, true);
    try {
      for (const e of Deno.readDirSync(path)) {
        if (e.isSymlink) resolve(lib.join(path, e.name), `${dir}/`, true);
      }
    } catch { /* missing or unreadable */ }
  }
  for (const file of PROTECTED_FILES) resolve(lib.join(home, file), file, false);
  return out;
}

/** The current platform's flavor; `caseInsensitive` is probed on the home when not Windows/macOS. */
export function hostFlavor(): Flavor {
  const os = Deno.build.os;
  return { windows: os === "windows", caseInsensitive: os === "windows" || os === "darwin" };
}

/** Absolute literal form of `path` against `cwd`, lexically normalized. */
export function literalPath(path: string, cwd: string, flavor: Flavor): string {
  return flavor.windows ? win32.resolve(cwd, path) : posix.resolve(cwd, path);
}

/**
 * The physical (symlink-resolved) form of an absolute path that may not exist: existing components
 * are resolved as the file system sees them (so `link/..` is the parent of the link's target), the
 * missing tail is appended as written.
 */
export async function physicalPath(absolute: string, flavor: Flavor): Promise<string> {
  const lib = flavor.windows ? win32 : posix;
  if (!flavor.windows) {
    // A POSIX realpath resolves each component as it goes (`link/..` is the link target's parent),
    // so a path that exists takes one call; only a missing tail needs the walk below. (Windows
    // removes `..` before it opens a path, so there the walk is always needed.) Synchronous: one
    // quick system call, where the first asynchronous file call of a process costs ~0.5 ms.
    try {
      return Deno.realPathSync(absolute);
    } catch { /* a missing component: walk */ }
  }
  const root = lib.root(absolute);
  const parts = absolute.slice(root.length).split(/[\\/]+/).filter((p) => p !== "");
  let current = root;
  let exists = true;
  for (const part of parts) {
    if (part === ".") continue;
    if (part === "..") {
      current = lib.dirname(current);
      continue;
    }
    const next = lib.join(current, part);
    if (exists) {
      try {
        current = await Deno.realPath(next);
        continue;
      } catch {
        exists = false; // from here on nothing exists: append literally
      }
    }
    current = next;
  }
  return current;
}

/** Decides, for one home, whether a path may be read by the model's file tools. */
export class PathGuard {
  readonly flavor: Flavor;
  readonly homes: string[];
  /** The protected entries that are links, as of the last check (see {@link linkedEntries}). */
  entries: ProtectedEntry[] = [];
  private constructor(flavor: Flavor, homes: string[]) {
    this.flavor = flavor;
    this.homes = homes;
    this.refresh();
  }

  /** Re-reads where the protected entries lead (called by every `check`). */
  refresh(): void {
    this.entries = linkedEntries(this.homes[this.homes.length - 1], this.flavor);
  }

  /** Builds the guard for `home` (literal and real forms), probing case sensitivity. */
  static async create(home: string, cwd: string, flavor: Flavor = hostFlavor()): Promise<PathGuard> {
    const literal = literalPath(home, cwd, flavor);
    const real = await physicalPath(joinUnnormalized(cwd, home, flavor), flavor);
    let f = flavor;
    if (!f.caseInsensitive) f = { ...f, caseInsensitive: probeCaseInsensitive(real) };
    return new PathGuard(f, [literal, real]);
  }

  /**
   * The protected place `path` touches (by literal or real form), or undefined when it may be read.
   * Returns also the two forms, so callers can report and reuse them.
   */
  async check(path: string, cwd: string): Promise<{ place?: string; literal: string; real: string }> {
    path = expandTilde(path, userHome(), this.flavor.windows);
    const literal = literalPath(path, cwd, this.flavor);
    // The physical form starts from the path as written: `link/..` must go to the parent of the
    // link's target, which lexical normalization (in `literal`) would already have undone.
    const real = await physicalPath(joinUnnormalized(cwd, path, this.flavor), this.flavor);
    this.refresh();
    const place = protectedPlace([literal, real], this.homes, this.flavor, this.entries) ??
      await this.hardLinkPlace(real);
    return { place, literal, real };
  }

  /**
   * A hard link has no link to resolve: a file with more than one name is compared by identity
   * (device and inode) with the files in the protected places.
   */
  async hardLinkPlace(real: string): Promise<string | undefined> {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(real); // one quick call on every check (see physicalPath)
    } catch {
      return undefined;
    }
    if (!info.isFile || info.nlink === null || info.nlink < 2 || info.ino === null) return undefined;
    const lib = this.flavor.windows ? win32 : posix;
    const home = this.homes[this.homes.length - 1];
    const same = async (p: string) => {
      try {
        const s = await Deno.stat(p);
        return s.ino === info.ino && s.dev === info.dev;
      } catch {
        return false;
      }
    };
    for (const file of PROTECTED_FILES) {
      for (const name of [file, `${file}.new`]) if (await same(lib.join(home, name))) return file;
    }
    for (const dir of PROTECTED_DIRS) {
      const stack = [lib.join(home, dir)];
      while (stack.length) {
        const d = stack.pop()!;
        try {
          for await (const e of Deno.readDir(d)) {
            const p = lib.join(d, e.name);
            if (e.isDirectory) stack.push(p);
            else if (e.isFile && await same(p)) return `${dir}/`;
          }
        } catch { /* missing or unreadable */ }
      }
    }
    return undefined;
  }

  /** Pure check of already-computed forms (used by the tree walkers, which track real paths). */
  placeOf(...forms: string[]): string | undefined {
    return protectedPlace(forms, this.homes, this.flavor, this.entries);
  }

  /** The one-line refusal an operator (and the model) reads. */
  refusal(path: string, place: string): string {
    return `refused: ${path} is inside the protected ${place} of $ASSIST_HOME; ` +
      `model file tools never read logs, the PHI table, sessions or secrets`;
  }
}

/** `cwd` joined with `path` (if relative), keeping `.` and `..` for physical resolution. */
export function joinUnnormalized(cwd: string, path: string, flavor: Flavor): string {
  const lib = flavor.windows ? win32 : posix;
  if (lib.isAbsolute(path)) {
    // A Windows path like `\x` is rooted but driveless: take the drive of cwd.
    return flavor.windows && !/^([A-Za-z]:|\\\\|\/\/)/.test(path)
      ? `${lib.root(cwd).slice(0, 2)}${path}`
      : path;
  }
  return `${cwd}${flavor.windows ? "\\" : "/"}${path}`;
}

/** A case-insensitive file system answers for the home under a case-swapped name too. */
function probeCaseInsensitive(path: string): boolean {
  const swapped = path.replace(
    /[A-Za-z]/g,
    (ch) => ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase(),
  );
  if (swapped === path) return false;
  try {
    const [a, b] = [Deno.statSync(path), Deno.statSync(swapped)];
    return a.ino !== null && a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}
