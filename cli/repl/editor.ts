/**
 * The line editor's state and its operations, with no I/O: the buffer (it may hold newlines), the
 * cursor (UTF-16 offset, always on a grapheme boundary), the kill buffer, history walking with the
 * edited draft kept, Ctrl-R reverse incremental search, and large pastes shown as one summary chip
 * (`[pasted 240 lines, 18.2 KB]`) while the whole text stays in the buffer.
 */
import { CUT_MARKER_RE } from "./history.ts";
import { keyOp } from "../keymap.ts";
import type { KeyEvent } from "./keys.ts";
import { nextBoundary, prevBoundary } from "./width.ts";

/** A paste shown as a chip: the buffer range `[start, end)` holds its full text. */
export interface Chip {
  start: number;
  end: number;
  /** The label, computed once (a chip's text never changes: edits remove it whole). */
  label?: string;
}

/** A paste at least this many lines, or longer than `CHIP_CHARS`, is shown as a chip. */
export const CHIP_LINES = 10;
/** See `CHIP_LINES`. */
export const CHIP_CHARS = 1000;

/** What the caller must do after a key; `edited` means only redraw. */
export type EditAction =
  | "edited"
  | "submit"
  | "eof" // Ctrl-D on an empty buffer
  | "interrupt" // Ctrl-C
  | "clear" // Ctrl-L
  | "complete" // TAB
  | "suspend" // Ctrl-Z
  | "none";

/** What to draw: the text with chips replaced by their labels, and the cursor in that text. */
export interface EditorView {
  /** Replaces the caller's prompt while searching (`(reverse-i-search)'q': `). */
  prompt?: string;
  text: string;
  cursor: number;
}

interface SearchState {
  query: string;
  /** History index of the shown match, or -1 for none yet. */
  match: number;
  failed: boolean;
  saved: { text: string; cursor: number; chips: Chip[]; histPos: number };
}

/** Whether pasted text is big enough to be shown as a chip. */
export function isLargePaste(text: string): boolean {
  if (text.length > CHIP_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (++lines > CHIP_LINES) return true;
  }
  return false;
}

/** Size as the chip shows it: `812 B`, `18.2 KB`, `1.0 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The chip label of a pasted text: `[pasted 240 lines, 18.2 KB]`. */
export function chipLabel(text: string): string {
  let lines = text.length === 0 ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i < text.length - 1) lines++;
  }
  const bytes = new TextEncoder().encode(text).length;
  // A paste recalled from an earlier session's history, cut there: the chip says so.
  const cut = CUT_MARKER_RE.exec(text);
  const of = cut ? ` of ${cut[1]}, cut in history` : "";
  return `[pasted ${lines} line${lines === 1 ? "" : "s"}, ${formatSize(bytes)}${of}]`;
}

/**
 * Start of the line holding offset `at` in `text`. (Not `lastIndexOf("\n", at - 1)` alone: at 0 that
 * is `lastIndexOf("\n", -1)`, which looks at index 0 and finds a leading newline.)
 */
function lineStartIn(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}_]/u.test(ch);
}

/** The editor. `history` is read live (oldest first); the editor never changes it. */
export class Editor {
  text = "";
  cursor = 0;
  kill = "";
  chips: Chip[] = [];
  #history: () => readonly string[];
  /** Index into history of the entry shown; `history.length` means the draft. */
  #histPos = 0;
  #draft: { text: string; cursor: number; chips: Chip[] } | null = null;
  #search: SearchState | null = null;
  #lastKill = false;

  constructor(history: () => readonly string[] = () => []) {
    this.#history = history;
    this.#histPos = history().length;
  }

  /** Whether Ctrl-R search is active. */
  get searching(): boolean {
    return this.#search !== null;
  }

  /** Empties the buffer for a new entry (history position back to the draft). */
  reset(): void {
    this.text = "";
    this.cursor = 0;
    this.chips = [];
    this.#draft = null;
    this.#search = null;
    this.#histPos = this.#history().length;
    this.#lastKill = false;
  }

  // ---- the primitive every edit goes through ----

  /**
   * Replaces `[from, to)` with `text`. A range touching the inside of a chip grows to cover the whole
   * chip (a chip is removed whole, never cut); chips after the range move.
   */
  replace(from: number, to: number, text: string): void {
    for (const c of this.chips) {
      if (from < c.end && to > c.start) {
        from = Math.min(from, c.start);
        to = Math.max(to, c.end);
      }
    }
    const delta = text.length - (to - from);
    this.chips = this.chips.filter((c) => !(from < to && c.start >= from && c.end <= to)).map((c) =>
      c.start >= to ? { ...c, start: c.start + delta, end: c.end + delta } : c
    );
    this.text = this.text.slice(0, from) + text + this.text.slice(to);
    if (this.cursor >= to) this.cursor += delta;
    else if (this.cursor > from) this.cursor = from + text.length;
  }

  /** Inserts typed text at the cursor. */
  insert(text: string): void {
    if (text === "") return;
    const at = this.cursor;
    this.replace(at, at, text);
    this.cursor = at + text.length;
  }

  /** Inserts pasted text; a large paste is shown as a chip. The full text is kept either way. */
  insertPaste(text: string): void {
    if (text === "") return;
    const at = this.cursor;
    this.replace(at, at, text);
    this.cursor = at + text.length;
    if (isLargePaste(text)) {
      this.chips.push({ start: at, end: at + text.length });
      this.chips.sort((a, b) => a.start - b.start);
    }
  }

  /** Shows `[start, end)` as one chip (chips inside it are folded in). */
  markChip(start: number, end: number): void {
    if (start >= end || this.chips.some((c) => c.start <= start && c.end >= end)) return;
    this.chips = this.chips.filter((c) => c.end <= start || c.start >= end);
    this.chips.push({ start, end });
    this.chips.sort((a, b) => a.start - b.start);
  }

  // ---- the view ----

  #label(c: Chip): string {
    return c.label ??= chipLabel(this.text.slice(c.start, c.end));
  }

  /** The chip at `pos` (strictly inside), if any. */
  #chipAt(pos: number): Chip | undefined {
    return this.chips.find((c) => pos > c.start && pos < c.end);
  }

  /** The text to draw and the cursor in it (chips as labels). */
  view(): EditorView {
    if (this.#search) {
      const s = this.#search;
      const prompt = `(${s.failed ? "failed " : ""}reverse-i-search)'${s.query}': `;
      return { prompt, text: this.#displayText(), cursor: this.toDisplay(this.cursor) };
    }
    return { text: this.#displayText(), cursor: this.toDisplay(this.cursor) };
  }

  #displayText(): string {
    if (this.chips.length === 0) return this.text;
    let out = "";
    let at = 0;
    for (const c of this.chips) {
      out += this.text.slice(at, c.start) + this.#label(c);
      at = c.end;
    }
    return out + this.text.slice(at);
  }

  /** Buffer offset to display offset. */
  toDisplay(pos: number): number {
    let shift = 0;
    for (const c of this.chips) {
      if (pos >= c.end) shift += this.#label(c).length - (c.end - c.start);
      else if (pos > c.start) return c.start + shift;
    }
    return pos + shift;
  }

  /** Display offset to buffer offset (inside a chip label: the chip's nearer edge). */
  /** Puts the cursor at a position of the shown text (a chip's label counts as its chip). */
  moveToDisplay(dpos: number): void {
    this.#lastKill = false;
    this.cursor = this.#snap(this.toBuffer(dpos));
  }

  toBuffer(dpos: number): number {
    let shift = 0;
    for (const c of this.chips) {
      const ds = c.start + shift;
      const label = this.#label(c).length;
      if (dpos < ds) break;
      if (dpos < ds + label) return dpos - ds < label / 2 ? c.start : c.end;
      shift += label - (c.end - c.start);
    }
    return dpos - shift;
  }

  // ---- movement ----

  #right(pos: number): number {
    const c = this.chips.find((c) => c.start === pos);
    if (c) return c.end;
    return nextBoundary(this.text, pos);
  }

  #left(pos: number): number {
    const c = this.chips.find((c) => c.end === pos);
    if (c) return c.start;
    return prevBoundary(this.text, pos);
  }

  /** Word start before `pos` (letters, digits and _ are word characters). */
  #wordLeft(pos: number, word = isWordChar): number {
    let p = pos;
    while (p > 0) {
      const q = this.#left(p);
      if (word(this.text.slice(q, p))) break;
      p = q;
    }
    while (p > 0) {
      const q = this.#left(p);
      if (!word(this.text.slice(q, p))) break;
      p = q;
    }
    return p;
  }

  #wordRight(pos: number, word = isWordChar): number {
    let p = pos;
    const n = this.text.length;
    while (p < n) {
      const q = this.#right(p);
      if (word(this.text.slice(p, q))) break;
      p = q;
    }
    while (p < n) {
      const q = this.#right(p);
      if (!word(this.text.slice(p, q))) break;
      p = q;
    }
    return p;
  }

  /** Start of the logical line holding the cursor (display-wise, so a chip is one unit). */
  #lineStart(pos: number): number {
    const v = this.#displayText();
    const d = this.toDisplay(pos);
    return this.toBuffer(lineStartIn(v, d));
  }

  #lineEnd(pos: number): number {
    const v = this.#displayText();
    const d = this.toDisplay(pos);
    const e = v.indexOf("\n", d);
    return this.toBuffer(e === -1 ? v.length : e);
  }

  /** Moves to the row above (-1) or below (+1); false when there is no such row. */
  #moveRow(dir: -1 | 1): boolean {
    const v = this.#displayText();
    const d = this.toDisplay(this.cursor);
    const start = lineStartIn(v, d);
    const col = d - start;
    if (dir < 0) {
      if (start === 0) return false;
      const prevStart = lineStartIn(v, start - 1);
      this.cursor = this.#snap(this.toBuffer(Math.min(prevStart + col, start - 1)));
    } else {
      const end = v.indexOf("\n", d);
      if (end === -1) return false;
      const nextEnd = v.indexOf("\n", end + 1);
      this.cursor = this.#snap(this.toBuffer(Math.min(end + 1 + col, nextEnd === -1 ? v.length : nextEnd)));
    }
    return true;
  }

  /** A position moved back onto a grapheme boundary (and out of any chip). */
  #snap(pos: number): number {
    const c = this.#chipAt(pos);
    if (c) return c.start;
    if (pos <= 0 || pos >= this.text.length) return Math.max(0, Math.min(pos, this.text.length));
    const b = nextBoundary(this.text, prevBoundary(this.text, pos));
    return b === pos ? pos : prevBoundary(this.text, pos);
  }

  // ---- kills ----

  #killRange(from: number, to: number, prepend: boolean): void {
    if (from >= to) return;
    const killed = this.text.slice(from, to);
    this.kill = this.#lastKill ? (prepend ? killed + this.kill : this.kill + killed) : killed;
    this.replace(from, to, "");
    this.cursor = from;
  }

  // ---- history ----

  #loadEntry(text: string): void {
    this.text = text;
    this.cursor = text.length;
    this.chips = isLargePaste(text) ? [{ start: 0, end: text.length }] : [];
  }

  /** The buffer as it is, kept as the draft that walking down past the newest entry brings back. */
  #saveDraft(text = this.text, cursor = this.cursor, chips = this.chips): void {
    this.#draft = { text, cursor, chips: chips.map((c) => ({ ...c })) };
  }

  /**
   * Shows the previous (-1) or next (+1) history entry; the draft is kept while walking. Every way
   * into walking (this, or taking a Ctrl-R match) saves the draft first; past the newest entry the
   * draft comes back (an empty buffer if there is none).
   */
  historyStep(dir: -1 | 1): boolean {
    const hist = this.#history();
    const from = Math.min(this.#histPos, hist.length);
    const to = from + dir;
    if (to < 0 || to > hist.length) return false;
    if (from === hist.length) this.#saveDraft();
    this.#histPos = to;
    if (to === hist.length) {
      const d = this.#draft ?? { text: "", cursor: 0, chips: [] };
      this.text = d.text;
      this.cursor = Math.min(d.cursor, d.text.length);
      this.chips = d.chips.map((c) => ({ ...c }));
    } else this.#loadEntry(hist[to]);
    return true;
  }

  // ---- search ----

  #searchFrom(from: number): void {
    const s = this.#search!;
    const hist = this.#history();
    for (let i = Math.min(from, hist.length - 1); i >= 0; i--) {
      const at = s.query === "" ? -1 : hist[i].lastIndexOf(s.query);
      if (at !== -1) {
        s.match = i;
        s.failed = false;
        this.#loadEntry(hist[i]);
        this.cursor = this.#snap(at);
        return;
      }
    }
    s.failed = s.query !== "";
  }

  #searchKey(ev: KeyEvent): EditAction {
    const s = this.#search!;
    if (ev.kind === "text" || ev.kind === "paste") {
      s.query += ev.text.replace(/\n/g, " ");
      this.#searchFrom(s.match === -1 ? this.#history().length - 1 : s.match);
      return "edited";
    }
    const op = keyOp(ev);
    if (op === "search") {
      if (s.query === "") return "none";
      this.#searchFrom(s.match === -1 ? this.#history().length - 1 : s.match - 1);
      return "edited";
    }
    if (op === "backspace") {
      s.query = Array.from(s.query).slice(0, -1).join("");
      s.match = -1;
      this.#searchFrom(this.#history().length - 1);
      if (s.query === "") this.#restoreSearch();
      return "edited";
    }
    if (op === "leaveSearch" || op === "cancel" || op === "interrupt") {
      this.#restoreSearch();
      this.#search = null;
      return "edited";
    }
    // Anything else accepts the match, then acts (Enter only accepts: the operator submits next).
    this.#search = null;
    if (s.match !== -1) {
      // Taking a match starts history walking: the buffer from before the search becomes the draft
      // (unless the search began while already walking, whose draft stays).
      if (s.saved.histPos >= this.#history().length) {
        this.#saveDraft(s.saved.text, s.saved.cursor, s.saved.chips);
      }
      this.#histPos = s.match;
    }
    if (op === "submit" || op === "newline") return "edited";
    return this.handle(ev);
  }

  #restoreSearch(): void {
    const s = this.#search!;
    this.text = s.saved.text;
    this.cursor = s.saved.cursor;
    this.chips = s.saved.chips.map((c) => ({ ...c }));
    this.#histPos = s.saved.histPos;
    s.match = -1;
    s.failed = false;
  }

  // ---- keys ----

  /** Applies one key event; returns what the caller must do next. */
  handle(ev: KeyEvent): EditAction {
    if (this.#search) return this.#searchKey(ev);
    if (ev.kind === "text") {
      this.#lastKill = false;
      this.insert(ev.text);
      return "edited";
    }
    if (ev.kind === "paste") {
      this.#lastKill = false;
      this.insertPaste(ev.text);
      return "edited";
    }
    const wasKill = this.#lastKill;
    this.#lastKill = false;
    const n = this.text.length;
    // The key's operation comes from the one keymap (cli/keymap.ts), which /help and README show.
    const kill = (from: number, to: number, prepend: boolean): EditAction => {
      this.#lastKill = wasKill;
      this.#killRange(from, to, prepend);
      this.#lastKill = true;
      return "edited";
    };
    switch (keyOp(ev)) {
      case "submit":
        return "submit";
      case "newline":
        this.insert("\n");
        return "edited";
      case "complete":
        return "complete";
      case "charLeft":
        this.cursor = this.#left(this.cursor);
        return "edited";
      case "charRight":
        this.cursor = this.#right(this.cursor);
        return "edited";
      case "wordLeft":
        this.cursor = this.#wordLeft(this.cursor);
        return "edited";
      case "wordRight":
        this.cursor = this.#wordRight(this.cursor);
        return "edited";
      case "lineStart":
        this.cursor = this.#lineStart(this.cursor);
        return "edited";
      case "lineEnd":
        this.cursor = this.#lineEnd(this.cursor);
        return "edited";
      case "bufferStart":
        this.cursor = 0;
        return "edited";
      case "bufferEnd":
        this.cursor = n;
        return "edited";
      case "up":
        return this.#up();
      case "down":
        return this.#down();
      case "historyPrev":
        return this.historyStep(-1) ? "edited" : "none";
      case "historyNext":
        return this.historyStep(1) ? "edited" : "none";
      case "search":
        this.#search = {
          query: "",
          match: -1,
          failed: false,
          saved: {
            text: this.text,
            cursor: this.cursor,
            chips: this.chips.map((c) => ({ ...c })),
            histPos: this.#histPos,
          },
        };
        return "edited";
      case "backspace":
        if (this.cursor > 0) this.replace(this.#left(this.cursor), this.cursor, "");
        return "edited";
      case "deleteChar":
        if (this.cursor < n) this.replace(this.cursor, this.#right(this.cursor), "");
        return "edited";
      case "deleteOrEof":
        if (n === 0) return "eof";
        if (this.cursor < n) this.replace(this.cursor, this.#right(this.cursor), "");
        return "edited";
      case "killLineEnd": {
        let end = this.#lineEnd(this.cursor);
        if (end === this.cursor && end < n) end = this.#right(end); // at a line end: join the next
        return kill(this.cursor, end, false);
      }
      case "killLineStart": {
        let start = this.#lineStart(this.cursor);
        // At a row start: join the row above (as Ctrl-K at a row end joins the next), so Ctrl-U
        // pressed again and again empties a pasted multi-line buffer instead of doing nothing.
        if (start === this.cursor && start > 0) start = this.#left(start);
        return kill(start, this.cursor, true);
      }
      case "killWordBack":
        return kill(this.#wordLeft(this.cursor), this.cursor, true);
      case "killSpaceWordBack": {
        const notSpace = (ch: string) => !/^\s$/u.test(ch);
        return kill(this.#wordLeft(this.cursor, notSpace), this.cursor, true);
      }
      case "killWordForward":
        return kill(this.cursor, this.#wordRight(this.cursor), false);
      case "yank":
        this.insert(this.kill);
        return "edited";
      case "transpose": {
        if (n === 0 || this.cursor === 0) return "none";
        let at = this.cursor;
        if (at === n) at = this.#left(at);
        const a = this.#left(at);
        if (a === at) return "none";
        const b = this.#right(at);
        if (this.#chipAt(a + 1) || this.#chipAt(at + 1)) return "none";
        const first = this.text.slice(a, at);
        const second = this.text.slice(at, b);
        if (this.chips.some((c) => c.start < b && c.end > a)) return "none";
        this.text = this.text.slice(0, a) + second + first + this.text.slice(b);
        this.cursor = b;
        return "edited";
      }
      case "interrupt":
        return "interrupt";
      case "clear":
        return "clear";
      case "suspend":
        return "suspend";
      default:
        return "none"; // unbound, or Esc (a turn's or a question's key, not the editor's)
    }
  }

  #up(): EditAction {
    if (this.#moveRow(-1)) return "edited";
    return this.historyStep(-1) ? "edited" : "none";
  }

  #down(): EditAction {
    if (this.#moveRow(1)) return "edited";
    return this.historyStep(1) ? "edited" : "none";
  }
}
