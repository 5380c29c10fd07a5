/**
 * The MANIFEST: the files a release holds, one per line as `<path> <sha256> <size>` (UTF-8, LF,
 * single spaces, sorted by path in byte order; `#` lines are comments). A line with the path only
 * is the spec's older form and stays readable: such a file is checked by kind only. The release
 * task signs the exact bytes (update/signature.ts).
 *
 * Paths are relative and stay inside the install root: no `..` segment, no leading `/`, no `\`, no
 * NUL or control character, no drive letter, no whitespace, no `:` (drive letters and NTFS
 * streams), no Windows device name (`CON`, `nul.txt`, `COM1`...), no component ending in a dot or
 * space, no `.git` component, and no two paths that differ only in case (one file on Windows and
 * macOS).
 *
 * @module
 */

export interface ManifestEntry {
  path: string;
  /** Lower-case hex SHA-256; absent on a path-only line. */
  sha256?: string;
  size?: number;
}

/**
 * Why `path` cannot be a MANIFEST path, or undefined when it can.
 *
 * @example
 * ```ts
 * import { unsafePath } from "./manifest.ts";
 * unsafePath("../etc/passwd"); // "leaves the install root"
 * unsafePath("cli/repl/repl.ts"); // undefined
 * ```
 */
export function unsafePath(path: string): string | undefined {
  if (path === "") return "is empty";
  // deno-lint-ignore no-control-regex -- control characters are exactly what is refused here
  if (/[\x00-\x1f\x7f\s\\]/.test(path)) return "holds a backslash, whitespace or a control character";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is absolute";
  if (path.includes(":")) return "holds a colon (a drive or an NTFS stream on Windows)";
  const parts = path.split("/");
  if (parts.some((p) => p === ".." || p === "." || p === "")) return "leaves the install root";
  if (parts.some((p) => /[. ]$/.test(p))) return "has a name ending in a dot or space (altered on Windows)";
  if (parts.some((p) => /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i.test(p))) {
    return "names a Windows device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)";
  }
  if (parts.some((p) => p.toLowerCase() === ".git")) return "is inside a .git folder";
  return undefined;
}

/**
 * Parses MANIFEST text. Throws an Error naming the line for anything else than the two line forms,
 * an unsafe path, or a path listed twice.
 *
 * @example
 * ```ts
 * import { parseManifest } from "./manifest.ts";
 * parseManifest("VERSION 2c624232cdd221771294dfbb310aca000a0df6ac8b66b696d90ef06fdefb64a3 6\n");
 * // [{ path: "VERSION", sha256: "2c62...", size: 6 }]
 * ```
 */
export function parseManifest(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  // Keys in lower case: two paths differing only in case are one file on Windows and macOS.
  const seen = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(" ");
    const where = `MANIFEST line ${i + 1}`;
    let entry: ManifestEntry;
    if (fields.length === 1) entry = { path: fields[0] };
    else if (
      fields.length === 3 && /^[0-9a-f]{64}$/.test(fields[1]) && /^(0|[1-9]\d{0,14})$/.test(fields[2])
    ) {
      entry = { path: fields[0], sha256: fields[1], size: Number(fields[2]) };
    } else throw new Error(`${where} is not "<path> <sha256> <size>" or a path`);
    const bad = unsafePath(entry.path);
    if (bad) throw new Error(`${where}: the path ${JSON.stringify(entry.path.slice(0, 80))} ${bad}`);
    const key = entry.path.toLowerCase();
    if (seen.has(key)) {
      throw new Error(`${where}: ${entry.path} is listed twice (paths are compared ignoring case)`);
    }
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/**
 * MANIFEST text for entries (sorted by path in byte order, one line each, a final LF).
 *
 * @example
 * ```ts
 * import { formatManifest } from "./manifest.ts";
 * formatManifest([{ path: "VERSION", sha256: "0".repeat(64), size: 6 }]);
 * ```
 */
export function formatManifest(entries: ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.map((e) => e.sha256 === undefined ? e.path : `${e.path} ${e.sha256} ${e.size}`).join("\n") +
    "\n";
}

/** The files a source install ships besides its folders (install scripts included). */
export const SHIPPED_TOP_FILES = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "VERSION",
  "README.md",
  "CHANGELOG.md",
  "docs/ARCHITECTURE.md",
  "install.sh",
  "install.ps1",
] as const;

/**
 * What every source release's MANIFEST lists: its version and the files that start the program.
 * An origin answering one text for every path (a catch-all page, a misrouted proxy) serves a
 * MANIFEST of one line, which parses; this list is what tells it from a release.
 */
export const ENTRY_FILES = ["VERSION", "main.ts", "deno.json"] as const;

/**
 * Why `entries` cannot be a source release's MANIFEST, or undefined: one of ENTRY_FILES is missing.
 *
 * @example
 * ```ts
 * import { notARelease } from "./manifest.ts";
 * notARelease([{ path: "0.12.9" }]); // "lists none of VERSION, main.ts, deno.json"
 * ```
 */
export function notARelease(entries: readonly ManifestEntry[]): string | undefined {
  const listed = new Set(entries.map((e) => e.path));
  const missing = ENTRY_FILES.filter((p) => !listed.has(p));
  if (missing.length === ENTRY_FILES.length) return `lists none of ${ENTRY_FILES.join(", ")}`;
  if (missing.length > 0) return `does not list ${missing.join(", ")}`;
  return undefined;
}

/** Folders whose every file ships. */
export const SHIPPED_DIRS = ["cli", "core", "tools", "hl7", "phi", "ssh", "update", "prompts"] as const;

/** The binary a compiled install of `target` (`x86_64-linux`, `x86_64-windows`, ...) runs. */
export function binaryPath(target: string): string {
  return `dist/${target}/assist${target.endsWith("-windows") ? ".exe" : ""}`;
}

/** This machine's release target name, as the compile tasks write `dist/<target>/`. */
export function currentTarget(os: string = Deno.build.os, arch: string = Deno.build.arch): string {
  const o = os === "darwin" ? "macos" : os;
  return `${arch}-${o}`;
}
