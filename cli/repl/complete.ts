/**
 * TAB completion candidates for the REPL's line editor (spec, Input conveniences). Given the
 * buffer and the cursor, which span to replace and with what:
 *
 * - `/cmd` at the start of the line: slash commands. An exact name wins over its prefix siblings
 *   (`/ssh` stays `/ssh` although `/ssh-add` exists); otherwise the prefix matches; when there are
 *   none, subsequence matches, those along word starts first (`/shl` → `/show-last-tool`, not also
 *   `/ssh-close`). Candidates carry the command's one-line summary.
 * - `@path` and `@{path with spaces}` anywhere: files and folders relative to the working folder
 *   (`~` is the home folder). Folders end in `/`; a name with a space switches to the `@{...}`
 *   form; hidden entries only when the typed name starts with `.`; the protected places of
 *   $ASSIST_HOME are never listed, nor listed into.
 * - The arguments of a command whose `completeArgs` is `"path"` (`/load`, `/phi-reveal`): files and
 *   folders as for `@path`, written bare (`/load notes/adt.hl7`); `/load`'s one argument is the rest
 *   of the line, spaces and all, and elsewhere a name with a space is quoted.
 * - Any other word: an HL7 `SEG`, `SEG.N` or `SEG.N.C` from the built-in schema (hl7/complete.ts),
 *   descriptions being the field names; a Z-segment gets the site-specific hint.
 *
 * @module
 */
import { readEnv as env } from "../../core/env.ts";
import { posix, win32 } from "../../core/path.ts";
import { completeHl7 } from "../../hl7/complete.ts";
import { PathGuard } from "../../tools/files/protect.ts";
import { expandTilde } from "../file_refs.ts";
import type { CompletionCandidate, CompletionResult } from "./line_session.ts";

// The editor (line_session.ts) defines what a completion is; this module only finds candidates.
export type { CompletionCandidate, CompletionResult } from "./line_session.ts";

export interface CompleterOptions {
  commands: () => readonly { name: string; summary: string; completeArgs?: "path"; rawTail?: boolean }[];
  cwd: string;
  /** $ASSIST_HOME, whose protected places are never listed. @default ASSIST_HOME, else ~/.assist */
  home?: string;
  /** What `~` stands for. @default HOME, else USERPROFILE */
  userHome?: string;
}

/** More entries than this in one folder are not all offered (the editor lists a page at most). */
const MAX_PATH_CANDIDATES = 500;

/**
 * Slash-command candidates for `typed` (without the slash), pure.
 *
 * @example
 * ```ts
 * import { matchCommands } from "./complete.ts";
 * matchCommands("shl", [{ name: "show-last-tool", summary: "" }, { name: "ssh-close", summary: "" }]); // show-last-tool only
 * ```
 */
export function matchCommands<T extends { name: string }>(typed: string, commands: readonly T[]): T[] {
  const t = typed.toLowerCase();
  const byName = [...commands].sort((a, b) => a.name.localeCompare(b.name));
  const exact = byName.filter((c) => c.name.toLowerCase() === t);
  if (exact.length) return exact;
  const prefix = byName.filter((c) => c.name.toLowerCase().startsWith(t));
  if (prefix.length || t === "") return prefix;
  const alongWords = byName.filter((c) => subsequenceAlongWords(t, c.name.toLowerCase()));
  if (alongWords.length) return alongWords;
  return byName.filter((c) => isSubsequence(t, c.name.toLowerCase()));
}

function isSubsequence(t: string, name: string): boolean {
  let j = 0;
  for (let i = 0; i < name.length && j < t.length; i++) if (name[i] === t[j]) j++;
  return j === t.length;
}

/**
 * `t` is a subsequence of `name` where every typed character either follows the previous matched
 * one directly or starts a word (after `-` or `_`): `shl` in `show-last-tool`, `sst` in `ssh-status`.
 */
export function subsequenceAlongWords(t: string, name: string): boolean {
  const go = (ti: number, ni: number, prev: number): boolean => {
    if (ti === t.length) return true;
    for (let i = ni; i < name.length; i++) {
      if (name[i] !== t[ti]) continue;
      const ok = i === prev + 1 || i === 0 || name[i - 1] === "-" || name[i - 1] === "_";
      if (ok && go(ti + 1, i + 1, i)) return true;
    }
    return false;
  };
  return go(0, 0, -1);
}

/** Where an `@{` reference that is still open at the cursor begins, or -1. */
function openBrace(before: string): number {
  const at = before.lastIndexOf("@{");
  if (at === -1 || before.indexOf("}", at) !== -1) return -1;
  const prev = at > 0 ? before[at - 1] : "";
  if (prev === "@" || (prev !== "" && /[\p{L}\p{N}_]/u.test(prev))) return -1;
  return at;
}

export function createCompleter(
  o: CompleterOptions,
): (buffer: string, cursor: number) => Promise<CompletionResult> {
  const windows = Deno.build.os === "windows";
  let guard: Promise<PathGuard> | undefined;
  const guardOf = () => {
    if (!guard) {
      const home = o.home ?? env("ASSIST_HOME") ??
        `${o.userHome ?? env("HOME") ?? env("USERPROFILE") ?? "."}/.assist`;
      guard = PathGuard.create(home, o.cwd);
    }
    return guard;
  };
  const userHome = () => o.userHome ?? env("HOME") ?? env("USERPROFILE");

  /** Entries of the folder `partial` names, whose names start as its last part does. */
  async function entries(partial: string): Promise<Array<{ path: string; isDir: boolean }>> {
    const sep = windows ? /[\\/]/ : /\//;
    let cut = -1;
    for (let i = partial.length - 1; i >= 0; i--) {
      if (sep.test(partial[i])) {
        cut = i;
        break;
      }
    }
    const dirPart = partial.slice(0, cut + 1);
    const namePrefix = partial.slice(cut + 1);
    if (partial === "~") return [{ path: "~/", isDir: true }];
    const lib = windows ? win32 : posix;
    const dir = lib.resolve(o.cwd, expandTilde(dirPart === "" ? "." : dirPart, userHome(), windows));
    const g = await guardOf();
    if ((await g.check(dir, o.cwd)).place) return [];
    const fold = (s: string) => (windows ? s.toLowerCase() : s);
    const out: Array<{ name: string; isDir: boolean }> = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        if (!fold(e.name).startsWith(fold(namePrefix))) continue;
        if (e.name.startsWith(".") && !namePrefix.startsWith(".")) continue;
        const full = lib.join(dir, e.name);
        let isDir = e.isDirectory;
        if (e.isSymlink) {
          try {
            isDir = (await Deno.stat(full)).isDirectory;
          } catch { /* a dangling link is offered as a file */ }
        }
        if ((await g.check(full, o.cwd)).place) continue;
        out.push({ name: e.name, isDir });
        if (out.length >= MAX_PATH_CANDIDATES) break;
      }
    } catch {
      return [];
    }
    out.sort((a, b) => a.name.localeCompare(b.name));
    return out.map(({ name, isDir }) => ({ path: dirPart + name + (isDir ? "/" : ""), isDir }));
  }

  /** `@path` candidates: `@{...}` when braced or the path has a space. */
  async function paths(partial: string, braced: boolean): Promise<CompletionCandidate[]> {
    return (await entries(partial)).map(({ path, isDir }) => {
      const value = braced || /\s/.test(path) ? `@{${path}${isDir ? "" : "}"}` : `@${path}`;
      return isDir ? { value, description: "folder" } : { value };
    });
  }

  /** A command's path argument: bare, quoted when it has a space unless it is the rest of the line. */
  async function argPaths(partial: string, rest: boolean): Promise<CompletionCandidate[]> {
    const open = !rest && partial.startsWith('"');
    return (await entries(open ? partial.slice(1) : partial)).map(({ path, isDir }) => {
      const quote = !rest && (open || /\s/.test(path));
      const value = quote ? `"${path}${isDir ? "" : '"'}` : path;
      return isDir ? { value, description: "folder" } : { value };
    });
  }

  return async (buffer: string, cursor: number): Promise<CompletionResult> => {
    const at = Math.max(0, Math.min(cursor, buffer.length));
    const before = buffer.slice(0, at);
    const none: CompletionResult = { start: at, end: at, candidates: [] };

    const brace = openBrace(before);
    if (brace !== -1) {
      const candidates = await paths(before.slice(brace + 2), true);
      return {
        start: brace,
        end: at,
        candidates,
        appendSpace: candidates.length === 1 && candidates[0].description !== "folder",
      };
    }
    const cmd = /^\/(\S+)\s+/.exec(before);
    const takesPath = cmd && o.commands().find((c) => c.name === cmd[1] && c.completeArgs === "path");
    if (takesPath) {
      // The rest of the line is one argument (`/load`), else the word at the cursor ("my notes" quoted).
      const quoted = takesPath.rawTail ? -1 : before.lastIndexOf('"');
      const from = takesPath.rawTail ? cmd![0].length : quoted >= cmd![0].length &&
          (before.slice(cmd![0].length, quoted).match(/"/g)?.length ?? 0) % 2 === 0
        ? quoted
        : before.search(/\S*$/);
      const partial = before.slice(from);
      if (partial.startsWith("-")) return none; // an option, not a path
      const candidates = await argPaths(partial, takesPath.rawTail === true);
      return {
        start: from,
        end: at,
        candidates,
        appendSpace: !takesPath.rawTail && candidates.length === 1 && candidates[0].description !== "folder",
      };
    }
    const start = before.search(/\S*$/);
    const word = before.slice(start);
    if (word === "") return none;

    if (word.startsWith("/") && before.slice(0, start).trim() === "") {
      const found = matchCommands(word.slice(1), o.commands());
      return {
        start,
        end: at,
        candidates: found.map((c) => ({ value: `/${c.name}`, description: c.summary })),
        appendSpace: found.length === 1,
      };
    }
    if (word.startsWith("@")) {
      if (word.startsWith("@@")) return none; // a PHI marker, not a path
      const candidates = await paths(word.slice(1), false);
      return {
        start,
        end: at,
        candidates,
        appendSpace: candidates.length === 1 && candidates[0].description !== "folder",
      };
    }
    // HL7 words may follow an opening parenthesis or quote: `(PID.5`.
    const lead = /^[("'`[]*/.exec(word)![0].length;
    const hl7 = completeHl7(word.slice(lead));
    if (hl7.length === 0) return none;
    return {
      start: start + lead,
      end: at,
      candidates: hl7.map((c) => ({ value: c.value, description: c.description })),
    };
  };
}
