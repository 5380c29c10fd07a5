/**
 * The REPL's input history: in memory, and in `$ASSIST_HOME/.history` (mode 0600, replaced
 * atomically on every change). At most 1000 entries. Dedup rule (erasedups): an entry equal to an
 * older one moves to the end; so a consecutive duplicate changes nothing. Lines of `/login`,
 * `/ssh-pass`, `/ssh-add` and `/set-api-key` are never recorded, nor anything the caller marks
 * `record: false` (hidden prompts). One entry per line; an entry holding a newline or CR, or starting
 * with `"`, is stored as a JSON string, and lines starting with `"` are parsed back (plain lines are
 * read as they are, so an older plain file stays readable).
 *
 * Several REPLs may share the file: each write takes the history's lock (`.history.lock`), re-reads
 * the file and adds this session's entries not yet written, so one REPL never drops what another
 * recorded. Each write goes through its own temporary file (`.history.<pid>.<random>.new`), renamed
 * over the history (core/state_file.ts).
 *
 * An entry whose stored line would be over 64 KiB (a large paste) is kept whole in memory for this
 * session, and written to the file cut to fit, ending in a marker line that says so
 * (`[assist: history kept the first 63.8 KB of 1.2 MB]`): a later session finds it under Up-arrow
 * and Ctrl-R and sees at once that it is not the whole text, and the file stays small enough to be
 * read at every start.
 */
import { updateStateFile } from "../../core/state_file.ts";

/** History size limit (spec, "Limits"). */
export const HISTORY_MAX = 1000;
/** Longest stored line (UTF-8 bytes) written to the file; longer entries are cut (see `forFile`). */
export const HISTORY_LINE_MAX = 64 * 1024;

/**
 * True for an entry that must never be recorded: a command that takes or leads to a secret. The
 * command table decides (`Command.noHistory`, cli/commands/table.ts `isSecretEntry`); the REPL hands
 * that predicate in, so this module knows no command.
 */
export type SecretEntry = (entry: string) => boolean;

/** Whether an entry may be recorded: not blank and not a secret-bearing command. */
export function mayRecord(entry: string, secret: SecretEntry): boolean {
  return entry.trim() !== "" && !secret(entry);
}

/** One stored line for an entry. */
export function encodeEntry(entry: string): string {
  return /[\n\r]/.test(entry) || entry.startsWith('"') ? JSON.stringify(entry) : entry;
}

/** The entries of a history file's text (CRs, blank and unreadable lines tolerated). */
export function parseHistory(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    let entry = line;
    if (line.startsWith('"')) {
      try {
        const v = JSON.parse(line);
        if (typeof v === "string") entry = v;
      } catch { /* a plain line that starts with a quote */ }
    }
    out.push(entry);
  }
  return out;
}

/** Adds `entry` under the erasedups rule and the size cap; returns the new list. */
export function addEntry(list: string[], entry: string, max = HISTORY_MAX): string[] {
  const next = list.filter((e) => e !== entry);
  next.push(entry);
  return next.length > max ? next.slice(next.length - max) : next;
}

/** Whether a stored line is small enough for the file (see `HISTORY_LINE_MAX`). */
function fitsFile(line: string): boolean {
  if (line.length * 3 <= HISTORY_LINE_MAX) return true; // at most 3 UTF-8 bytes per UTF-16 unit
  return utf8Length(line) <= HISTORY_LINE_MAX;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The marker line that ends an entry cut for the file; group 1 is the original size. */
export const CUT_MARKER_RE = /\n\[assist: history kept the first [\d.]+ [KM]B of ([\d.]+ [KM]B)\]$/;

/**
 * The entry as the file keeps it: itself when its stored line fits in `HISTORY_LINE_MAX`, else its
 * longest start (whole code points) that fits together with a marker line naming what was kept.
 */
export function forFile(entry: string): string {
  if (fitsFile(encodeEntry(entry))) return entry;
  const total = utf8Length(entry);
  const cut = (n: number) => {
    let head = entry.slice(0, n);
    if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1); // not half a surrogate pair
    return `${head}\n[assist: history kept the first ${size(utf8Length(head))} of ${size(total)}]`;
  };
  // The longest start that fits: a binary search on its length (only for entries this large).
  let lo = 0;
  let hi = Math.min(entry.length, HISTORY_LINE_MAX);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitsFile(encodeEntry(cut(mid)))) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

/** The history of one REPL session. */
export class History {
  #entries: string[] = [];
  #file: string | undefined;
  /** Entries recorded in this session and not yet written to the file, oldest first. */
  #unsaved: string[] = [];
  /** The write chain; it never rejects (the outcome is in `#writeError`). */
  #writing: Promise<void> = Promise.resolve();
  /** The last write's error; undefined once a later write succeeded. `flush()` rejects with it. */
  #writeError: unknown = undefined;
  /** The last load or write error, if any (history is best effort: the REPL goes on without it). */
  lastError: unknown = undefined;

  readonly #secret: SecretEntry;

  private constructor(file: string | undefined, secret: SecretEntry) {
    this.#file = file;
    this.#secret = secret;
  }

  /** Loads the file (missing means empty); without a file the history lives in memory only. */
  static async load(file: string | undefined, secret: SecretEntry): Promise<History> {
    const h = new History(file, secret);
    if (file) {
      let text = "";
      try {
        text = await Deno.readTextFile(file);
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) h.lastError = err;
      }
      let list: string[] = [];
      for (const e of parseHistory(text)) if (mayRecord(e, secret)) list = addEntry(list, e, Infinity);
      h.#entries = list.slice(Math.max(0, list.length - HISTORY_MAX));
    }
    return h;
  }

  /** The entries, oldest first. */
  get entries(): readonly string[] {
    return this.#entries;
  }

  /**
   * Records an entry (unless `record` is false or the entry is a secret command) and schedules the
   * file write. Returns whether it was recorded.
   */
  add(entry: string, record = true): boolean {
    if (!record || !mayRecord(entry, this.#secret)) return false;
    const last = this.#entries[this.#entries.length - 1];
    if (last === entry) return true;
    this.#entries = addEntry(this.#entries, entry);
    if (this.#file) {
      this.#unsaved.push(entry);
      this.#save(this.#file);
    }
    return true;
  }

  #save(file: string): void {
    this.#writing = this.#writing.then(() => this.#write(file)).then(() => {
      this.#writeError = undefined;
    }, (err) => {
      this.#writeError = err;
      this.lastError = err;
    });
  }

  /**
   * Merges and writes, under the history's lock (core/state_file.ts): the file's entries as they are
   * now (other REPLs may have added some), then this session's unsaved ones in order, erasedups, at
   * most `HISTORY_MAX`. A file that cannot be read is not replaced (its entries would be lost).
   */
  async #write(file: string): Promise<void> {
    const unsaved = this.#unsaved.slice();
    if (unsaved.length === 0) return; // an earlier write of this chain already took them
    await updateStateFile(file, (old) => {
      const text = old ? new TextDecoder().decode(old) : "";
      let list: string[] = [];
      for (const e of parseHistory(text)) if (mayRecord(e, this.#secret)) list = addEntry(list, e, Infinity);
      for (const e of unsaved.slice(-HISTORY_MAX)) list = addEntry(list, e, Infinity);
      // Over 64 KiB: cut to fit, with a marker (see forFile); two entries cut to the same text are one.
      let fitted: string[] = [];
      for (const e of list) fitted = addEntry(fitted, forFile(e), Infinity);
      const lines = fitted.map(encodeEntry);
      const kept = lines.slice(Math.max(0, lines.length - HISTORY_MAX));
      return kept.join("\n") + (kept.length > 0 ? "\n" : "");
    });
    this.#unsaved = this.#unsaved.slice(unsaved.length);
  }

  /** Waits for pending writes; rejects with the error of the last one if it failed. */
  async flush(): Promise<void> {
    await this.#writing;
    if (this.#writeError !== undefined) throw this.#writeError;
  }
}
