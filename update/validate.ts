/**
 * Checks on what the origin sent, made before anything is written (spec, "Update and install
 * errors"): an HTML sign-in page served with status 200, a Git LFS pointer instead of the file, and
 * content of the wrong shape for its kind.
 *
 * @module
 */

const LFS_POINTER = "version https://git-lfs.github.com/spec/v1";

/**
 * Whether a body looks like an HTML page: within its first 1 KB (a BOM and leading whitespace
 * skipped, any case) it starts with `<!doctype html` or `<html`, or starts with other markup and
 * holds an `<html` tag, or holds a `<title>` that mentions signing in or logging in.
 *
 * @example
 * ```ts
 * import { looksLikeHtml } from "./validate.ts";
 * looksLikeHtml(new TextEncoder().encode("\uFEFF  <!DOCTYPE html><title>Sign In</title>")); // true
 * ```
 */
export function looksLikeHtml(body: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, 1024))
    .replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return true;
  // A page that opens with other markup (an XML declaration, a comment, `<head>`) and has an
  // `<html` tag further in is a page too; source text that merely quotes `<html>` does not open
  // with markup.
  if (head.startsWith("<") && /<html[\s>]/.test(head)) return true;
  const title = /<title[^>]*>([^<]*)/.exec(head);
  return !!title && /\b(sign[\s-]?in|log[\s-]?in)\b/.test(title[1]);
}

/** Whether a body is a Git LFS pointer (the raw blob of an LFS-tracked file). */
export function isLfsPointer(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, LFS_POINTER.length));
  return head === LFS_POINTER;
}

/** A semantic version: `MAJOR.MINOR.PATCH` with an optional pre-release and build. */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Semantic-version order: negative when `a` is older than `b`, 0 when equal (build metadata
 * ignored), positive when newer. A pre-release is older than its release. Either side not a
 * semantic version: 0 (no order claimed).
 *
 * @example
 * ```ts
 * import { compareSemver } from "./validate.ts";
 * compareSemver("0.10.0", "0.9.1"); // > 0
 * compareSemver("1.0.0-rc.1", "1.0.0"); // < 0
 * ```
 */
export function compareSemver(a: string, b: string): number {
  const ma = SEMVER.exec(a.trim());
  const mb = SEMVER.exec(b.trim());
  if (!ma || !mb) return 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) return Math.sign(d);
  }
  const pa = ma[4]?.slice(1);
  const pb = mb[4]?.slice(1);
  if (pa === pb) return 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  const xa = pa.split(".");
  const xb = pb.split(".");
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    if (xa[i] === undefined) return -1;
    if (xb[i] === undefined) return 1;
    if (xa[i] === xb[i]) continue;
    const na = /^\d+$/.test(xa[i]);
    const nb = /^\d+$/.test(xb[i]);
    if (na && nb) return Math.sign(Number(xa[i]) - Number(xb[i]));
    if (na !== nb) return na ? -1 : 1;
    return xa[i] < xb[i] ? -1 : 1;
  }
  return 0;
}

/** The refusal of an older release (a replay of a signed old one must not downgrade). */
export function downgradeMessage(offered: string, running: string): string {
  return `the origin offers ${offered}, older than the running ${running} (a replayed old release?); ` +
    "refused: run assist update --force to install it anyway";
}

/** The kind of a file the origin serves, from its path. */
export type FileKind = "version" | "manifest" | "main" | "shell" | "binary" | "text";

/**
 * @example
 * ```ts
 * import { kindOf } from "./validate.ts";
 * kindOf("dist/x86_64-linux/assist"); // "binary"
 * kindOf("install.sh"); // "shell"
 * ```
 */
export function kindOf(path: string): FileKind {
  if (path === "VERSION") return "version";
  if (path === "MANIFEST") return "manifest";
  if (path === "main.ts") return "main";
  if (path.endsWith(".sh")) return "shell";
  if (path.startsWith("dist/") || path.endsWith(".exe")) return "binary";
  return "text";
}

/** Executable formats by their first bytes: ELF, PE (`MZ`), Mach-O 64-bit and fat. */
export function hasBinaryMagic(body: Uint8Array): boolean {
  const b = body;
  if (b.length < 4) return false;
  const elf = b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
  const pe = b[0] === 0x4d && b[1] === 0x5a;
  const macho = (b[0] === 0xcf && b[1] === 0xfa && b[2] === 0xed && b[3] === 0xfe) ||
    (b[0] === 0xca && b[1] === 0xfe && b[2] === 0xba && b[3] === 0xbe);
  return elf || pe || macho;
}

/**
 * Why a body is not an acceptable `path`, or undefined when it is. Every kind: not an LFS pointer;
 * not an HTML page, unless `hashed` (its SHA-256 already matched the MANIFEST, which proves it is
 * the published file: a source file may well quote a sign-in page, as this one does). `VERSION` is a semantic version; `main.ts` is the TypeScript entry (a shebang
 * or a comment or import first); `.sh` files start with a shebang; binaries carry an executable's
 * magic bytes; text is valid UTF-8.
 *
 * @example
 * ```ts
 * import { checkShape } from "./validate.ts";
 * checkShape("VERSION", new TextEncoder().encode("0.10.1\n")); // undefined
 * checkShape("VERSION", new TextEncoder().encode("<html>")); // "an HTML page ..."
 * ```
 */
export function checkShape(path: string, body: Uint8Array, hashed = false): string | undefined {
  const kind = kindOf(path);
  if (isLfsPointer(body)) {
    return "a Git LFS pointer, not the file (the origin must serve LFS content, e.g. from /media/)";
  }
  if (kind === "binary") return hasBinaryMagic(body) ? undefined : "not an executable (wrong magic bytes)";
  if (!hashed && looksLikeHtml(body)) {
    return "an HTML page (a sign-in page?), not the file: set ASSIST_ORIGIN_TOKEN if the origin needs sign-in";
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return "not valid UTF-8 text";
  }
  if (kind === "version") return SEMVER.test(text.trim()) ? undefined : "not a semantic version";
  if (kind === "main") {
    return /^(#!|\/\*\*|\/\/|import\s)/.test(text.replace(/^\uFEFF/, ""))
      ? undefined
      : "not the TypeScript main script";
  }
  if (kind === "shell") return text.startsWith("#!") ? undefined : "a shell script without a shebang line";
  return undefined;
}
