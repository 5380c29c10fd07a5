/**
 * Path arithmetic for both platforms' rules, with no imports: the subset of `node:path` the tools
 * use (normalize, join, resolve, dirname, basename, isAbsolute, root). Importing `node:path` starts
 * Deno's Node layer, which alone costs about 6 ms, a third of an empty `deno run`; every tool that
 * reads a file goes through the path guard, so that cost fell on every `assist tools <name>`.
 * Results equal `node:path`'s (tests/core/path.test.ts compares them on generated paths), except for
 * Windows device-namespace paths (`\\?\`, `\\.\`), which node gives rules of their own and which
 * tools/files/protect.ts strips before any path function sees them.
 *
 * @example
 * ```ts
 * import { posix, win32 } from "./path.ts";
 * posix.resolve("/srv/hci", "../x/./y/"); // "/srv/x/y"
 * win32.join("C:\\cl", "..", "site1"); // "C:\\site1"
 * ```
 */

/** The functions each flavor offers (named as in `node:path`). */
export interface PathLib {
  readonly sep: string;
  isAbsolute(path: string): boolean;
  normalize(path: string): string;
  join(...parts: string[]): string;
  /** Absolute form of the last argument against the ones before it (then the process folder). */
  resolve(...parts: string[]): string;
  dirname(path: string): string;
  basename(path: string): string;
  /** The root as written: `/`, `C:\`, `C:`, `\`, `\\server\share\` or "" (node's `parse().root`). */
  root(path: string): string;
}

/** Resolves `.` and `..` in separator-free names; `..` above the start is kept only when allowed. */
function squash(names: string[], aboveRoot: boolean): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (n === "" || n === ".") continue;
    if (n === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (aboveRoot) out.push("..");
    } else out.push(n);
  }
  return out;
}

function processCwd(): string {
  return Deno.cwd();
}

/**
 * The process folder as a POSIX path, as node's `path.posix` takes it: on Windows the separators
 * become `/` and the drive is dropped (`Z:\tmp\repo` reads as `/tmp/repo`), so `posix.resolve`
 * never mixes `Z:\tmp\repo/x`. Elsewhere the folder as it is.
 *
 * @example
 * ```ts
 * import { posixCwd } from "./path.ts";
 * posixCwd("Z:\\tmp\\repo", true); // "/tmp/repo"
 * ```
 */
export function posixCwd(cwd: string = processCwd(), windows: boolean = Deno.build.os === "windows"): string {
  if (!windows) return cwd;
  const slashed = cwd.replaceAll("\\", "/");
  const first = slashed.indexOf("/");
  return first === -1 ? "/" : slashed.slice(first);
}

export const posix: PathLib = {
  sep: "/",
  isAbsolute: (path) => path.startsWith("/"),
  normalize(path) {
    if (path === "") return ".";
    const absolute = path.startsWith("/");
    let tail = squash(path.split("/"), !absolute).join("/");
    if (tail === "" && !absolute) tail = ".";
    if (tail !== "" && path.endsWith("/")) tail += "/";
    return absolute ? `/${tail}` : tail;
  },
  join(...parts) {
    const joined = parts.filter((p) => p !== "").join("/");
    return joined === "" ? "." : posix.normalize(joined);
  },
  resolve(...parts) {
    let acc = "";
    let absolute = false;
    for (let i = parts.length - 1; i >= -1 && !absolute; i--) {
      const p = i >= 0 ? parts[i] : posixCwd();
      if (p === "") continue;
      acc = `${p}/${acc}`;
      absolute = p.startsWith("/");
    }
    const tail = squash(acc.split("/"), !absolute).join("/");
    return absolute ? `/${tail}` : tail || ".";
  },
  dirname(path) {
    if (path === "") return ".";
    const rooted = path.startsWith("/");
    let end = -1;
    let slashSeen = true;
    for (let i = path.length - 1; i >= 1; i--) {
      if (path[i] === "/") {
        if (!slashSeen) {
          end = i;
          break;
        }
      } else slashSeen = false;
    }
    if (end === -1) return rooted ? "/" : ".";
    if (rooted && end === 1) return "//";
    return path.slice(0, end);
  },
  basename(path) {
    let end = path.length;
    while (end > 0 && path[end - 1] === "/") end--;
    if (end === 0) return "";
    return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
  },
  root: (path) => path.startsWith("/") ? "/" : "",
};

const isSep = (ch: string | undefined) => ch === "\\" || ch === "/";
const isLetter = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch);

/** A Windows path's start: the device (drive or UNC share, normalized), where the rest begins. */
interface WinHead {
  device: string;
  absolute: boolean;
  /** Index where the part after the root begins. */
  end: number;
  /** The root as written, ending after its separator (node's `parse().root`). */
  root: string;
  /** The whole path is a bare `\\server\share` (no separator after the share). */
  bareShare: boolean;
}

function winHead(path: string): WinHead {
  const none = { device: "", absolute: false, end: 0, root: "", bareShare: false };
  if (path === "") return none;
  if (isSep(path[0])) {
    const head = { device: "", absolute: true, end: 1, root: path[0], bareShare: false };
    if (!isSep(path[1])) return head;
    let j = 2;
    while (j < path.length && !isSep(path[j])) j++;
    if (j === 2 || j >= path.length) return head;
    const server = path.slice(2, j);
    while (j < path.length && isSep(path[j])) j++;
    if (j >= path.length) return head;
    const shareStart = j;
    while (j < path.length && !isSep(path[j])) j++;
    const device = `\\\\${server}\\${path.slice(shareStart, j)}`;
    if (j === path.length) return { device, absolute: true, end: j, root: path, bareShare: true };
    return { device, absolute: true, end: j, root: path.slice(0, j + 1), bareShare: false };
  }
  if (isLetter(path[0]) && path[1] === ":") {
    const absolute = isSep(path[2]);
    return {
      device: path.slice(0, 2),
      absolute,
      end: absolute ? 3 : 2,
      root: path.slice(0, absolute ? 3 : 2),
      bareShare: false,
    };
  }
  return none;
}

/**
 * A relative path that, once normalized, Windows could read as a drive path (`c:` left first, or a
 * name ending in `:` as in `a\\c:`) keeps a leading `.\\`, as node does since CVE-2024-36139.
 */
function mightReadAsDrive(path: string, tail: string): boolean {
  if (!path.includes(":")) return false;
  if (isLetter(tail[0]) && tail[1] === ":") return true;
  for (let i = path.indexOf(":"); i !== -1; i = path.indexOf(":", i + 1)) {
    if (i === path.length - 1 || isSep(path[i + 1])) return true;
  }
  return false;
}

export const win32: PathLib = {
  sep: "\\",
  isAbsolute(path) {
    return isSep(path[0]) || (isLetter(path[0]) && path[1] === ":" && isSep(path[2]));
  },
  normalize(path) {
    if (path === "") return ".";
    const h = winHead(path);
    if (h.bareShare) return `${h.device}\\`;
    let tail = squash(path.slice(h.end).split(/[\\/]/), !h.absolute).join("\\");
    if (tail === "" && !h.absolute) tail = ".";
    if (tail !== "" && isSep(path[path.length - 1])) tail += "\\";
    if (!h.absolute && h.device === "" && mightReadAsDrive(path, tail)) return `.\\${tail}`;
    return h.absolute ? `${h.device}\\${tail}` : `${h.device}${tail}`;
  },
  join(...parts) {
    const kept = parts.filter((p) => p !== "");
    if (kept.length === 0) return ".";
    let joined = kept.join("\\");
    // Leading separators mean a UNC path only when the first part itself starts with exactly two
    // followed by a name; otherwise they collapse to one (as node does).
    const first = kept[0];
    let leading = 0;
    let collapse = true;
    if (isSep(first[0])) {
      leading++;
      if (first.length > 1 && isSep(first[1])) {
        leading++;
        if (first.length > 2) {
          if (isSep(first[2])) leading++;
          else collapse = false;
        }
      }
    }
    if (collapse) {
      while (leading < joined.length && isSep(joined[leading])) leading++;
      if (leading >= 2) joined = `\\${joined.slice(leading)}`;
    }
    return win32.normalize(joined);
  },
  resolve(...parts) {
    let device = "";
    let tail = "";
    let absolute = false;
    for (let i = parts.length - 1; i >= -1; i--) {
      let p: string;
      if (i >= 0) p = parts[i];
      else if (device === "") p = processCwd();
      else p = `${device}\\`; // the drive's own folder is unknown here: its root
      if (p === "") continue;
      const h = winHead(p);
      if (h.device !== "" && device !== "" && h.device.toLowerCase() !== device.toLowerCase()) continue;
      if (device === "") device = h.device;
      if (!absolute) {
        tail = `${p.slice(h.end)}\\${tail}`;
        absolute = h.absolute;
      }
      if (absolute && device !== "") break;
    }
    const rest = squash(tail.split(/[\\/]/), !absolute).join("\\");
    return absolute ? `${device}\\${rest}` : `${device}${rest}` || ".";
  },
  dirname(path) {
    if (path === "") return ".";
    const h = winHead(path);
    if (h.bareShare) return path;
    const rootEnd = h.root.length;
    let end = -1;
    let slashSeen = true;
    for (let i = path.length - 1; i >= rootEnd; i--) {
      if (isSep(path[i])) {
        if (!slashSeen) {
          end = i;
          break;
        }
      } else slashSeen = false;
    }
    if (end === -1) return rootEnd === 0 ? "." : h.root;
    return path.slice(0, end);
  },
  basename(path) {
    let start = isLetter(path[0]) && path[1] === ":" ? 2 : 0;
    let end = path.length;
    while (end > start && isSep(path[end - 1])) end--;
    if (end === start) return "";
    for (let i = end - 1; i >= start; i--) {
      if (isSep(path[i])) {
        start = i + 1;
        break;
      }
    }
    return path.slice(start, end);
  },
  root: (path) => winHead(path).root,
};
