/**
 * `@file` references in a prompt (spec, Input conveniences): `@<path>` and `@{<path with spaces>}`
 * attach a file's content to the prompt, for the REPL and `assist -p` alike.
 *
 * - A reference directly preceded by a word character (an e-mail address) is not one; neither is
 *   an `@` next to another `@` (the PHI markers `@@VALUE`, `@@VALUE@@`).
 * - The prompt text is never changed: each file is appended once (de-duplicated by its real path)
 *   as a fenced block keyed by its extension, the fence longer than any backtick run inside.
 * - Missing files, folders, binary files (a NUL byte in the first 8 KB) and the protected places
 *   of $ASSIST_HOME (tools/files/protect.ts, refused as read_file refuses them) are skipped with a
 *   warning; the reference stays literal.
 * - Over 250 KB the content is cut with read_file's footer (tools/files/read_limited.ts).
 * - Bytes are decoded by hl7/charset.ts: in the set an HL7 message's MSH-18 declares, else UTF-8,
 *   else Windows-1252, with a warning whenever it falls back: no byte is dropped or replaced
 *   silently.
 * - Relative paths resolve against `cwd`; `~` is the operator's home folder.
 *
 * Expansion runs before PHI tokenization: the caller hands the expanded text to the agent turn,
 * whose gate tokenizes everything bound for the model.
 *
 * @module
 */
import { decodeBytes } from "../hl7/charset.ts";
import { expandTilde, userHome } from "../core/tilde.ts";
import { ATTACHED_FENCE_TAG } from "../phi/markers.ts";
import { posix, win32 } from "../core/path.ts";
import { PathGuard } from "../tools/files/protect.ts";
import { READ_LIMIT_BYTES, readLimited, truncationFooter } from "../tools/files/read_limited.ts";

export interface FileRefResult {
  /** The prompt with the referenced files appended (the prompt itself when there were none). */
  text: string;
  /** Files attached, in order: real path, bytes included (at most 250 KB), whether cut. */
  files: { path: string; bytes: number; truncated: boolean }[];
  /** One line each, for the operator (stderr in headless mode). */
  warnings: string[];
  /** The prompt held at least one reference: the REPL prints FILE_REF_TIP the first such time in a session. */
  tip: boolean;
}

/** The one-time tip of the spec, printed by the REPL the first time a prompt holds a reference. */
export const FILE_REF_TIP =
  "tip: @path attaches a file to the prompt (@{path with spaces} when it has spaces); " +
  "folders and binary files are skipped, files over 250 KB are cut";

/** One reference found in a prompt. */
export interface FileRef {
  /** As typed, `@` and braces included. */
  raw: string;
  /** The path inside. */
  path: string;
  braced: boolean;
  /** Offsets of `raw` in the prompt. */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_]/u;
const TRAILING_PUNCT = /[.,;:!?)\]}'"`>]+$/;

/**
 * The references of a prompt, in order (pure).
 *
 * @example
 * ```ts
 * import { findFileRefs } from "./file_refs.ts";
 * findFileRefs("see @a.txt and @{my notes.txt}, not me@host.org").map((r) => r.path); // ["a.txt", "my notes.txt"]
 * ```
 */
export function findFileRefs(prompt: string): FileRef[] {
  const refs: FileRef[] = [];
  for (let i = prompt.indexOf("@"); i !== -1; i = prompt.indexOf("@", i + 1)) {
    const before = i > 0 ? prompt[i - 1] : "";
    const after = prompt[i + 1] ?? "";
    if (before === "@" || after === "@" || (before !== "" && WORD.test(before))) continue;
    if (after === "{") {
      const close = prompt.indexOf("}", i + 2);
      if (close === -1) continue;
      const path = prompt.slice(i + 2, close);
      if (path.trim() === "" || path.includes("\n")) continue;
      refs.push({ raw: prompt.slice(i, close + 1), path, braced: true, start: i, end: close + 1 });
      i = close;
      continue;
    }
    const m = /^[^\s@]+/.exec(prompt.slice(i + 1));
    if (!m) continue;
    refs.push({ raw: `@${m[0]}`, path: m[0], braced: false, start: i, end: i + 1 + m[0].length });
    i += m[0].length;
  }
  return refs;
}

/** Fence info string by extension; anything else gets a plain fence. */
const FENCE_LANG: Record<string, string> = {
  hl7: "hl7",
  tcl: "tcl",
  tbl: "tcl",
  json: "json",
  xml: "xml",
  xsd: "xml",
  html: "html",
  sh: "bash",
  bash: "bash",
  ksh: "bash",
  ps1: "powershell",
  bat: "bat",
  cmd: "bat",
  py: "python",
  js: "javascript",
  ts: "typescript",
  java: "java",
  sql: "sql",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  ini: "ini",
  csv: "csv",
  tsv: "tsv",
  md: "markdown",
  diff: "diff",
  patch: "diff",
};

/** The fence language of a file name (lower-cased extension), or "" for a plain fence. */
export function fenceLanguage(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return "";
  return FENCE_LANG[base.slice(dot + 1).toLowerCase()] ?? "";
}

/** A backtick fence longer than any backtick run in `content` (at least three). */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * File content as the prompt carries it (`@file`, `/load`): a fenced block tagged
 * `assist-attached-file`, the fence longer than any backtick run inside. The tag tells the PHI gate
 * that this is file content, not code the operator typed: nothing in it (fenced code included) is
 * exempt from tokenization.
 *
 * @example
 * ```ts
 * import { attachedBlock } from "./file_refs.ts";
 * attachedBlock("a\n", "tcl"); // "```tcl assist-attached-file\na\n```\n"
 * ```
 */
export function attachedBlock(content: string, lang = ""): string {
  const body = content.endsWith("\n") ? content : `${content}\n`;
  const fence = fenceFor(body);
  return `${fence}${lang} ${ATTACHED_FENCE_TAG}\n${body}${fence}\n`;
}

/**
 * The file's text as hl7/charset.ts reads it (MSH-18, else UTF-8, else Windows-1252: every byte maps
 * to a character, nothing is lost), a leading byte-order mark left out; `notes` says when a
 * fallback was taken.
 */
export function decodeText(bytes: Uint8Array): { text: string; notes: readonly string[] } {
  const d = decodeBytes(bytes);
  return { text: d.text.charCodeAt(0) === 0xfeff ? d.text.slice(1) : d.text, notes: d.notes };
}

const userHomeFromEnv = userHome;
export { expandTilde };

type Outcome =
  | {
    kind: "file";
    real: string;
    content: string;
    bytes: number;
    truncated: boolean;
    legacy: boolean;
    notes: readonly string[];
  }
  | { kind: "skip"; warning: string }
  | { kind: "missing" };

async function load(path: string, shown: string, cwd: string, guard: PathGuard): Promise<Outcome> {
  if (path.includes("\0")) return { kind: "skip", warning: `${shown}: the path holds a NUL byte; skipped` };
  const c = await guard.check(path, cwd);
  if (c.place) return { kind: "skip", warning: `${shown}: ${guard.refusal(path, c.place)}` };
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(c.real);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return { kind: "missing" };
    }
    return {
      kind: "skip",
      warning: `${shown}: cannot read ${path} (${(err as Error).message}); left as typed`,
    };
  }
  if (info.isDirectory) {
    return { kind: "skip", warning: `${shown}: ${path} is a folder; skipped (name a file inside it)` };
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(c.real, { read: true });
  } catch (err) {
    return {
      kind: "skip",
      warning: `${shown}: cannot read ${path} (${(err as Error).message}); left as typed`,
    };
  }
  try {
    const r = await readLimited(file);
    if (r.binary) {
      return { kind: "skip", warning: `${shown}: ${path} is a binary file (${r.total} bytes); skipped` };
    }
    const { text, notes } = decodeText(r.bytes);
    const content = r.truncated ? text + truncationFooter(r, "@file", "read_file start_line") : text;
    return {
      kind: "file",
      real: c.real,
      content,
      bytes: r.bytes.length,
      truncated: r.truncated,
      legacy: notes.length > 0,
      notes,
    };
  } catch (err) {
    return {
      kind: "skip",
      warning: `${shown}: cannot read ${path} (${(err as Error).message}); left as typed`,
    };
  } finally {
    file.close();
  }
}

/** One file read as `@file` reads it, for `/load`: the same guard, cap, binary test and decoding. */
export type Attachment =
  | { ok: true; real: string; content: string; bytes: number; truncated: boolean; legacy: boolean }
  | { ok: false; message: string };

/**
 * Reads one file for the prompt exactly as an `@file` reference is read: protected places under
 * $ASSIST_HOME refused, `~` expanded, folders and binary files skipped, 250 KB with a footer,
 * invalid UTF-8 read as Windows-1252 (with a warning for the caller to print).
 *
 * @example
 * ```ts
 * import { readAttachment } from "./file_refs.ts";
 * const a = await readAttachment("notes.txt", { cwd: "/work", home: "/home/op/.assist" });
 * if (!a.ok) console.error(a.message);
 * ```
 */
export async function readAttachment(
  path: string,
  o: { cwd: string; home: string; userHome?: string },
): Promise<Attachment> {
  const windows = Deno.build.os === "windows";
  const guard = await PathGuard.create(o.home, o.cwd);
  const r = await load(expandTilde(path, o.userHome ?? userHomeFromEnv(), windows), path, o.cwd, guard);
  if (r.kind === "missing") return { ok: false, message: `${path}: no such file` };
  if (r.kind === "skip") return { ok: false, message: r.warning };
  return {
    ok: true,
    real: r.real,
    content: r.content,
    bytes: r.bytes,
    truncated: r.truncated,
    legacy: r.legacy,
  };
}

/**
 * Expands the `@file` references of `prompt`. `home` is $ASSIST_HOME (its protected places are
 * refused); `userHome` is what `~` stands for (default HOME, else USERPROFILE).
 *
 * @example
 * ```ts
 * import { expandFileRefs } from "./file_refs.ts";
 * const r = await expandFileRefs("summarize @notes.txt", { cwd: "/work", home: "/home/op/.assist" });
 * r.text; // "summarize @notes.txt\n\nFile @notes.txt (/work/notes.txt, 42 bytes):\n```\n...\n```\n"
 * ```
 */
export async function expandFileRefs(
  prompt: string,
  o: { cwd: string; home: string; userHome?: string },
): Promise<FileRefResult> {
  const refs = findFileRefs(prompt);
  const result: FileRefResult = { text: prompt, files: [], warnings: [], tip: refs.length > 0 };
  if (refs.length === 0) return result;
  const windows = Deno.build.os === "windows";
  const userHome = o.userHome ?? userHomeFromEnv();
  const guard = await PathGuard.create(o.home, o.cwd);
  const seen = new Set<string>();
  const blocks: string[] = [];
  const keyOf = (p: string) => (windows ? win32 : posix).resolve(o.cwd, expandTilde(p, userHome, windows));
  for (const ref of refs) {
    // `@notes.txt.` at the end of a sentence: the path without trailing punctuation, if that exists.
    const tries = [ref.path];
    if (!ref.braced && TRAILING_PUNCT.test(ref.path)) {
      const bare = ref.path.replace(TRAILING_PUNCT, "");
      if (bare !== "") tries.push(bare);
    }
    let outcome: Outcome = { kind: "missing" };
    let path = ref.path;
    for (const t of tries) {
      path = t;
      if (seen.has(keyOf(t))) {
        outcome = { kind: "skip", warning: "" }; // said or attached already
        break;
      }
      outcome = await load(expandTilde(t, userHome, windows), ref.braced ? ref.raw : `@${t}`, o.cwd, guard);
      if (outcome.kind !== "missing") break;
    }
    seen.add(keyOf(path));
    const shown = ref.braced ? ref.raw : `@${path}`;
    if (outcome.kind === "missing") {
      result.warnings.push(`${ref.raw}: no such file; left as typed`);
      continue;
    }
    if (outcome.kind === "skip") {
      if (outcome.warning) result.warnings.push(outcome.warning);
      continue;
    }
    // Two spellings of one file (a link, `./x` and `x`) attach it once.
    if (seen.has(`real:${outcome.real}`)) continue;
    seen.add(`real:${outcome.real}`);
    for (const n of outcome.notes) result.warnings.push(`${shown}: ${n}`);
    if (outcome.truncated) {
      result.warnings.push(`${shown}: larger than ${READ_LIMIT_BYTES / 1024} KB; cut with a footer note`);
    }
    const lang = fenceLanguage(path) || fenceLanguage(outcome.real);
    blocks.push(
      `File ${shown} (${outcome.real}, ${outcome.bytes} bytes${outcome.truncated ? ", truncated" : ""}):\n` +
        attachedBlock(outcome.content, lang),
    );
    result.files.push({ path: outcome.real, bytes: outcome.bytes, truncated: outcome.truncated });
  }
  if (blocks.length) result.text = `${prompt.replace(/\s+$/, "")}\n\n${blocks.join("\n")}`;
  return result;
}
