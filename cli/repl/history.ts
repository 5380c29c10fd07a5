/**
 * The REPL's input history: in memory, and in `$ASSIST_HOME/.history` (mode 0600, replaced
 * atomically on every change). At most 1000 entries. Dedup rule (erasedups): an entry equal to an
 * older one moves to the end; so a consecutive duplicate changes nothing. Lines of `/login`,
 * `/ssh-pass`, `/ssh-add` and `/set-api-key` are never recorded, nor anything the caller marks
 * `record: false` (hidden prompts). One entry per line; an entry holding a newline or CR, or starting
 * with `"`, is stored as a JSON string, and lines starting with `"` are parsed back (plain lines are
 * read as they are, so an older plain file stays readable).
 */
import { atomicWrite } from "../../core/atomic_write.ts";

/** History size limit (spec, "Limits"). */
export const HISTORY_MAX = 1000;

const SECRET_COMMAND = /^\s*\/(login|ssh-pass|ssh-add|set-api-key)(\s|$)/;

/** Whether an entry may be recorded: not blank and not a secret-bearing command. */
export function mayRecord(entry: string): boolean {
  return entry.trim() !== "" && !SECRET_COMMAND.test(entry);
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

/** The history of one REPL session. */
export class History {
  #entries: string[] = [];
  #file: string | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** The last write's error, if any (history is best effort: the REPL goes on without it). */
  lastError: unknown = undefined;

  private constructor(file: string | undefined) {
    this.#file = file;
  }

  /** Loads the file (missing means empty); without a file the history lives in memory only. */
  static async load(file?: string): Promise<History> {
    const h = new History(file);
    if (file) {
      let text = "";
      try {
        text = await Deno.readTextFile(file);
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) h.lastError = err;
      }
      let list: string[] = [];
      for (const e of parseHistory(text)) if (mayRecord(e)) list = addEntry(list, e, Infinity);
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
    if (!record || !mayRecord(entry)) return false;
    const last = this.#entries[this.#entries.length - 1];
    if (last === entry) return true;
    this.#entries = addEntry(this.#entries, entry);
    this.#save();
    return true;
  }

  #save(): void {
    const file = this.#file;
    if (!file) return;
    const text = this.#entries.map(encodeEntry).join("\n") + "\n";
    this.#writing = this.#writing.then(() => atomicWrite(file, text, { mode: 0o600 })).catch((err) => {
      this.lastError = err;
    });
  }

  /** Waits for pending writes. */
  flush(): Promise<void> {
    return this.#writing;
  }
}
