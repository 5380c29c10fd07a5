/**
 * Walking a tree for grep_files and glob_files without ever entering a protected place: every entry
 * is checked by its literal and its real form before it is yielded or descended into. Entries are
 * visited in sorted order (deterministic output); symlinked folders are not descended into (no
 * cycles), symlinked files are followed after their target is checked.
 */
import { posix, win32 } from "../../core/path.ts";
import type { PathGuard } from "./protect.ts";

export interface WalkEntry {
  /** Path as the caller named it (root joined with the relative part). */
  literal: string;
  /** Symlink-resolved path; the one to open. */
  real: string;
  /** Relative to the root, `/`-separated. */
  rel: string;
  depth: number;
  isDirectory: boolean;
}

export interface WalkOptions {
  /** Folder names never descended into (e.g. `.git`). */
  skipDirs?: ReadonlySet<string>;
  /** Deepest level to visit (root's children are depth 1). */
  maxDepth?: number;
  signal?: AbortSignal;
}

export interface WalkStats {
  protectedSkipped: number;
  unreadable: number;
}

export async function* walk(
  rootLiteral: string,
  rootReal: string,
  guard: PathGuard,
  options: WalkOptions = {},
  stats: WalkStats = { protectedSkipped: 0, unreadable: 0 },
): AsyncGenerator<WalkEntry> {
  const lib = guard.flavor.windows ? win32 : posix;
  const stack: Array<{ literal: string; real: string; rel: string; depth: number }> = [
    { literal: rootLiteral, real: rootReal, rel: "", depth: 0 },
  ];
  while (stack.length > 0) {
    if (options.signal?.aborted) return;
    const dir = stack.pop()!;
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const e of Deno.readDir(dir.real)) entries.push(e);
    } catch {
      stats.unreadable++;
      continue;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const subdirs: typeof stack = [];
    for (const e of entries) {
      const literal = lib.join(dir.literal, e.name);
      let real = lib.join(dir.real, e.name);
      let isDirectory = e.isDirectory;
      let isFile = e.isFile;
      if (e.isSymlink) {
        try {
          real = await Deno.realPath(real);
          const info = await Deno.stat(real);
          isDirectory = false; // never descend through a link
          isFile = info.isFile;
          if (info.isDirectory) isFile = false;
        } catch {
          continue; // dangling link
        }
      }
      if (guard.placeOf(literal, real)) {
        stats.protectedSkipped++;
        continue;
      }
      const rel = dir.rel === "" ? e.name : `${dir.rel}/${e.name}`;
      const depth = dir.depth + 1;
      if (isDirectory) {
        if (options.skipDirs?.has(e.name)) continue;
        yield { literal, real, rel, depth, isDirectory: true };
        if (options.maxDepth === undefined || depth < options.maxDepth) {
          subdirs.push({ literal, real, rel, depth });
        }
      } else if (isFile) {
        yield { literal, real, rel, depth, isDirectory: false };
      }
    }
    // Depth-first in sorted order: push in reverse so the first folder is visited first.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
