/**
 * The terminal input core, without I/O: bytes in (`feed`), output out (the injected `write`), and
 * the REPL's read calls (`readLine`, `readSecret`, `readKey`, turns). `Terminal` (terminal.ts) is the
 * thin shell that reads stdin and owns raw mode; this class holds every rule, so tests drive it with
 * byte strings and a virtual screen.
 *
 * The 50 ms rule: an Enter followed by more input that arrived with it (same read, or a read within
 * 50 ms) becomes a newline in the buffer (a paste without brackets does not submit early); an Enter
 * with nothing after it submits once the 50 ms pass (`timeout()`, armed through the injected timer).
 * The rule follows arrival timing, not the queue: typeahead is kept with `gap` marks where 50 ms of
 * quiet passed, so `first⏎` … `second⏎` typed seconds apart during a turn are two entries.
 *
 * Faster than typing is a paste: a key press arrives as a read of its own, so a read that holds more
 * than one character, TAB or Enter was pasted (a terminal without bracketed paste: older PuTTY,
 * conhost, `screen`). Its TABs are text, not completion. A block (a read with two Enters, or an Enter
 * and a TAB) keeps its last newline too: it waits in the editor for the operator's own Enter and a
 * question typed after it. One line ending in Enter or TAB in one read is still sent by that Enter,
 * or completed by that TAB: it is also what keys typed while the program was busy look like.
 *
 * Questions (`readKey`, `readSecret`) are answered only by keys typed after they are shown: typeahead
 * already queued is set aside while they wait, and put back for the next `readLine`.
 */
import { AssistError } from "../../core/errors.ts";
import { Secret } from "../../core/secret.ts";
import { Editor, isLargePaste } from "./editor.ts";
import type { History } from "./history.ts";
import { keyOp } from "../keymap.ts";
import { KeyDecoder, type KeyEvent } from "./keys.ts";
import { feedLine, type MultilineState, START } from "./multiline.ts";
import { clearEditor, render, type RenderGeometry } from "./render.ts";
import { stringWidth } from "./width.ts";

/** Completes the word at the cursor; positions are UTF-16 offsets into `buffer`. */
export type Completer = (buffer: string, cursor: number) => Promise<CompletionResult> | CompletionResult;
/** One completion: the text and an optional one-line description for the list. */
export interface CompletionCandidate {
  value: string;
  description?: string;
}
/** Candidates for `buffer.slice(start, end)` (UTF-16 offsets; `end` is the cursor). */
export interface CompletionResult {
  start: number;
  end: number;
  candidates: CompletionCandidate[];
  /** Add a space after a single completed candidate. */
  appendSpace?: boolean;
}
/** What `readLine` gives back. */
export type ReadResult =
  | { kind: "line"; text: string; record: boolean }
  | { kind: "eof" }
  | { kind: "interrupt" };

/** Options of one `readLine`. */
export interface ReadLineOptions {
  prompt: string;
  /** Prompt of continuation lines (trailing backslash, `<<`). @default "... " */
  continuationPrompt?: string;
  complete?: Completer;
}

/** Candidates listed at most; the rest are counted. */
export const LIST_CAP = 40;
/** The paste poll of the spec. */
export const PASTE_POLL_MS = 50;

/** What the session needs from its shell (Terminal, or a test). */
export interface LineSessionIO {
  write(s: string): void;
  columns(): number;
  /** Arms a one-shot timer; returns its cancel. @default setTimeout */
  timer?(fn: () => void, ms: number): () => void;
  /** Milliseconds, for the gap between reads. @default performance.now */
  now?(): number;
  /** Ctrl-Z: hand the terminal back and stop the process (Unix); `redraw()` follows on resume. */
  suspend?(): void;
}

type Mode =
  | { kind: "idle" }
  | { kind: "turn"; onInterrupt: () => void }
  | {
    kind: "line";
    o: ReadLineOptions;
    ml: MultilineState;
    done: (r: ReadResult) => void;
  }
  | { kind: "secret"; prompt: string; value: string; done: (s: Secret) => void; fail: (e: Error) => void }
  | { kind: "key"; allowed: string[]; fallback: string; done: (k: string) => void; fail: (e: Error) => void };

/**
 * A queued input: a key event; `burstnl`, an Enter that turned out to have more input right after it;
 * `gap`, 50 ms of quiet between two arrivals (an Enter right before it submits); `pastenl` and
 * `pastetab`, an Enter and a TAB that came in a read of several keys (a paste without brackets).
 */
type Item = KeyEvent | { kind: "burstnl" } | { kind: "gap" } | { kind: "pastenl" } | { kind: "pastetab" };

/**
 * What one read was: `typed` (one key a person types, or none), `paste` (more than one character,
 * TAB or Enter) or `block` (a paste with two Enters, or an Enter and a TAB). CR LF counts as one
 * Enter (some terminals send it for one); escape sequences and Ctrl keys do not count.
 */
export function readKind(events: KeyEvent[]): "typed" | "paste" | "block" {
  let units = 0;
  let enters = 0;
  let tabs = 0;
  let prevEnter = false;
  for (const ev of events) {
    if (ev.kind === "text") units += ev.text.length;
    else if (ev.kind === "key" && !ev.ctrl && !ev.alt) {
      if (ev.name === "tab") {
        units++;
        tabs++;
      } else if (ev.name === "enter" || (ev.name === "linefeed" && !prevEnter)) {
        units++;
        enters++;
      }
    }
    prevEnter = ev.kind === "key" && ev.name === "enter";
  }
  return units < 2 ? "typed" : enters >= 2 || (enters >= 1 && tabs >= 1) ? "block" : "paste";
}

/** Reads of one paste arrive back to back; a read this soon after a block's continues it. */
export const BLOCK_GAP_MS = 10;

/** Whether an item is a newline of a paste run in line mode. */
const isPastedNewline = (ev: Item) => ev.kind === "burstnl" || ev.kind === "pastenl";

const isKey = (ev: Item, name: string, ctrl = false) =>
  ev.kind === "key" && ev.name === name && ev.ctrl === ctrl && !ev.alt;

/** Items inserted together as one run of text in line mode. */
const isRunItem = (ev: Item) =>
  ev.kind === "text" || ev.kind === "burstnl" || ev.kind === "pastenl" || ev.kind === "pastetab" ||
  isKey(ev, "enter") || isKey(ev, "linefeed");

function cancelled(): AssistError {
  return new AssistError("cancelled", { level: "refused", exitCode: 130 });
}

/** Longest common prefix of some strings. */
export function commonPrefix(values: string[]): string {
  if (values.length === 0) return "";
  let p = values[0];
  for (const v of values) {
    let i = 0;
    while (i < p.length && i < v.length && p[i] === v[i]) i++;
    p = p.slice(0, i);
  }
  return p;
}

/**
 * The candidate list: `  value  description`, aligned, at most `LIST_CAP` then `… N more`. One
 * candidate over the cap is shown rather than hidden behind a `… 1 more` line of the same height
 * (`/` then TAB lists every command).
 */
export function formatCandidates(candidates: CompletionCandidate[]): string[] {
  const shown = candidates.length === LIST_CAP + 1 ? candidates : candidates.slice(0, LIST_CAP);
  const width = Math.max(...shown.map((c) => stringWidth(c.value)));
  const lines = shown.map((c) =>
    c.description
      ? `  ${c.value}${" ".repeat(width - stringWidth(c.value))}  ${c.description}`
      : `  ${c.value}`
  );
  if (candidates.length > shown.length) lines.push(`  … ${candidates.length - shown.length} more`);
  return lines;
}

/** The input core. One per terminal. */
export class LineSession {
  readonly editor: Editor;
  #io: LineSessionIO;
  #history: History;
  #decoder = new KeyDecoder();
  #queue: Item[] = [];
  #head = 0;
  #mode: Mode = { kind: "idle" };
  #geometry: RenderGeometry | undefined;
  #pendingEnter = false;
  /** The 50 ms after the last arrival have passed (nothing arrived yet counts as quiet). */
  #quiet = true;
  /** Typeahead set aside while a question (`readKey`, `readSecret`) waits for its answer. */
  #aside: Item[] | undefined;
  /** When the last read arrived (`now()`). */
  #lastRead = -Infinity;
  /** An unbracketed paste is arriving: its buffer range so far (closed by 50 ms of quiet). */
  #burst: { start: number; end: number } | undefined;
  #cancelTimer: (() => void) | undefined;
  #pumping = false;
  #idle: Promise<void> = Promise.resolve();
  #ended = false;

  constructor(io: LineSessionIO, history: History) {
    this.#io = io;
    this.#history = history;
    this.editor = new Editor(() => history.entries);
  }

  // ---- input ----

  /**
   * Bytes of one read from the terminal. `typed`: keys typed before the terminal was raw, which
   * arrive together although a person typed them (not a paste).
   */
  feed(bytes: Uint8Array, o: { typed?: boolean } = {}): void {
    this.#disarm();
    // The next piece of a block still arriving (back to back with the last read) is part of it.
    const now = this.#io.now?.() ?? performance.now();
    const inBlock = this.#burst !== undefined && !this.#quiet && now - this.#lastRead <= BLOCK_GAP_MS;
    this.#lastRead = now;
    if (bytes.length > 0) {
      if (this.#pendingEnter) {
        this.#pendingEnter = false;
        this.#queue.push({ kind: "burstnl" });
      } else if (this.#quiet && this.#head < this.#queue.length) {
        // Queued input, then quiet, then this: they did not arrive together.
        this.#queue.push({ kind: "gap" });
      }
      this.#quiet = false;
    }
    const events = this.#decoder.feed(bytes);
    const kind = o.typed ? "typed" : readKind(events);
    this.#accept(events, kind === "paste" && inBlock ? "block" : kind);
  }

  /** The terminal's input ended (hang-up): an active or later `readLine` gives `eof`. */
  end(): void {
    this.#ended = true;
    this.#disarm();
    this.timeout(); // an Enter waiting for the poll submits; a lone ESC is Escape
    this.#kick();
  }

  /** 50 ms passed with no new bytes: a pending Enter submits, a lone ESC is Escape. */
  timeout(): void {
    this.#cancelTimer = undefined;
    const enter = this.#pendingEnter;
    this.#pendingEnter = false;
    this.#burst = undefined;
    this.#quiet = true;
    if (enter && this.#mode.kind === "line") this.#submit();
    this.#accept(this.#decoder.timeout());
  }

  /** Whether a 50 ms timeout is awaited. */
  get wantsTimer(): boolean {
    return this.#pendingEnter || this.#burst !== undefined || !this.#quiet || this.#decoder.wantsTimeout;
  }

  /** Resolves when every queued event that can be handled now has been. */
  async settled(): Promise<void> {
    while (this.#pumping) await this.#idle;
  }

  #accept(events: KeyEvent[], read: "typed" | "paste" | "block" = "typed"): void {
    const mode = this.#mode;
    let prevEnter = false;
    // In a one-line paste, TABs at its end are keys (typed ones that arrived together: `/ss` TAB).
    const lastText = read === "paste" ? events.findLastIndex((e) => e.kind === "text") : events.length;
    for (const [i, ev] of events.entries()) {
      if (read !== "typed" && ev.kind === "key" && !ev.ctrl && !ev.alt) {
        const after = prevEnter;
        prevEnter = ev.name === "enter";
        if (ev.name === "tab" && i < lastText) {
          this.#queue.push({ kind: "pastetab" });
          continue;
        }
        if (read === "block" && (ev.name === "enter" || ev.name === "linefeed")) {
          // CR LF is one newline, as in a bracketed paste.
          if (!(after && ev.name === "linefeed")) this.#queue.push({ kind: "pastenl" });
          continue;
        }
      } else prevEnter = false;
      if (mode.kind === "turn" && ev.kind === "key") {
        const op = keyOp(ev);
        // Esc stops a streaming answer too (as in the assistants operators come from); kept as
        // typeahead it would do nothing at the prompt, or eat the first key typed there.
        if (op === "interrupt" || op === "cancel") {
          mode.onInterrupt();
          continue;
        }
        // Ctrl-Z and Ctrl-D typed while a turn runs must not suspend or end the REPL at the next
        // prompt, long after they were pressed: they are dropped.
        if (op === "suspend" || op === "deleteOrEof") continue;
        // Ctrl-L clears the screen now (the answer goes on at the top), not at the next prompt.
        if (op === "clear") {
          this.#io.write("\x1b[H\x1b[2J");
          continue;
        }
      }
      this.#queue.push(ev);
    }
    this.#kick();
    this.#arm();
  }

  #arm(): void {
    if (!this.wantsTimer || this.#cancelTimer) return;
    const timer = this.#io.timer ?? ((fn, ms) => {
      const id = setTimeout(fn, ms);
      return () => clearTimeout(id);
    });
    this.#cancelTimer = timer(() => this.timeout(), PASTE_POLL_MS);
  }

  #disarm(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  /**
   * Handles queued events now, synchronously, until one needs to wait (a completer's Promise); the
   * rest resumes when it settles.
   */
  #kick(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    let dirty = false;
    try {
      for (;;) {
        const mode = this.#mode;
        if (mode.kind === "idle" || mode.kind === "turn") break;
        if (this.#pendingEnter) break;
        const ev = this.#next();
        if (!ev) {
          if (this.#ended) {
            if (mode.kind === "line") this.#finish({ kind: "eof" });
            else if (mode.kind === "secret" || mode.kind === "key") this.#fail(cancelled());
            continue;
          }
          break;
        }
        if (this.#swallowEnter && ev.kind !== "gap") {
          // The Enter people press after a one-key answer ("1⏎", "n⏎") belongs to that answer:
          // it must not end the next (hidden) prompt empty or answer the next question.
          this.#swallowEnter = false;
          if (isPastedNewline(ev) || isKey(ev, "enter") || isKey(ev, "linefeed")) continue;
        }
        if (mode.kind === "secret") this.#secretKey(mode, ev);
        else if (mode.kind === "key") this.#keyAnswer(mode, ev);
        else {
          let r: boolean | Promise<void>;
          try {
            r = this.#lineKey(mode, ev);
          } catch (err) {
            // A key the editor cannot handle must never end the REPL or lose the line.
            this.#keyFailed(err);
            continue;
          }
          if (r instanceof Promise) {
            if (dirty) this.#draw();
            dirty = false;
            this.#idle = r.catch((err) => this.#keyFailed(err)).then(() => {
              this.#pumping = false;
              this.#kick();
            });
            return; // still "pumping" until the completion settles
          }
          if (r) dirty = true;
        }
      }
      if (dirty && this.#mode.kind === "line") this.#draw();
      this.#pumping = false;
      this.#arm();
    } catch (err) {
      this.#pumping = false;
      throw err;
    }
  }

  /** One line above the editor: the key was not handled, the line stays as it was. */
  #keyFailed(err: unknown): void {
    const why = err instanceof Error ? err.message : String(err);
    try {
      this.notice(`assist: that key could not be handled (${why}); the line is kept`);
    } catch { /* the notice itself failed: stay quiet rather than end the REPL */ }
  }

  /** A one-key answer was typed: an Enter that comes next is part of it (see #kick). */
  #swallowEnter = false;

  #next(): Item | undefined {
    if (this.#head >= this.#queue.length) return undefined;
    const ev = this.#queue[this.#head++];
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return ev;
  }

  #peek(): Item | undefined {
    return this.#queue[this.#head];
  }

  #unshift(ev: Item): void {
    if (this.#head > 0) this.#queue[--this.#head] = ev;
    else this.#queue.unshift(ev);
  }

  // ---- readLine ----

  /** Reads one complete entry (multi-line rules applied). */
  readLine(o: ReadLineOptions): Promise<ReadResult> {
    if (this.#mode.kind === "line" || this.#mode.kind === "secret" || this.#mode.kind === "key") {
      return Promise.reject(new AssistError("a read is already active", { level: "internal" }));
    }
    return new Promise((resolve) => {
      this.editor.reset();
      this.#geometry = undefined;
      this.#mode = { kind: "line", o, ml: START, done: resolve };
      this.#draw();
      this.#kick();
    });
  }

  #prompt(mode: Extract<Mode, { kind: "line" }>): string {
    return mode.ml.mode === "none" ? mode.o.prompt : (mode.o.continuationPrompt ?? "... ");
  }

  #draw(): void {
    const mode = this.#mode;
    if (mode.kind !== "line") return;
    const v = this.editor.view();
    const r = render({
      prompt: v.prompt ?? this.#prompt(mode),
      text: v.text,
      cursor: v.cursor,
      columns: this.#io.columns(),
      previous: this.#geometry,
    });
    this.#io.write(r.output);
    this.#geometry = r.geometry;
  }

  /** Redraws the active editor from scratch (after a resize, a resume, or output by others). */
  redraw(): void {
    if (this.#mode.kind === "line") this.#draw();
  }

  #finish(r: ReadResult): void {
    const mode = this.#mode;
    if (mode.kind !== "line") return;
    this.editor.cursor = this.editor.text.length;
    if (this.editor.searching) {
      this.editor.handle({ kind: "key", name: "end", ctrl: false, alt: false, shift: false });
    }
    this.#draw();
    this.#io.write("\r\n");
    this.#geometry = undefined;
    this.#burst = undefined;
    this.#mode = { kind: "idle" };
    mode.done(r);
  }

  #submit(): void {
    const mode = this.#mode;
    if (mode.kind !== "line") return;
    const step = feedLine(mode.ml, this.editor.text);
    if (step.complete) {
      this.#finish({ kind: "line", text: step.text, record: true });
      return;
    }
    this.editor.cursor = this.editor.text.length;
    this.#draw();
    this.#io.write("\r\n");
    this.#geometry = undefined;
    mode.ml = step.state;
    this.editor.reset();
    this.#draw();
  }

  /** Handles one event in line mode; true when a redraw is due, a Promise while completing. */
  #lineKey(mode: Extract<Mode, { kind: "line" }>, ev: Item): boolean | Promise<void> {
    const ed = this.editor;
    if (!ed.searching && isRunItem(ev)) {
      // A run of text and newlines is inserted at once (fast, and a burst becomes one chip).
      let run = "";
      let burst = false;
      let item: Item | undefined = ev;
      while (item) {
        if (item.kind === "text") run += item.text;
        else if (isPastedNewline(item) || item.kind === "pastetab") {
          run += item.kind === "pastetab" ? "\t" : "\n";
          burst = true;
        } else if (isKey(item, "linefeed")) run += "\n";
        else if (isKey(item, "enter")) {
          const after = this.#peek();
          if (after === undefined || after.kind === "gap") {
            this.#insertRun(run, burst);
            if (after === undefined && !this.#quiet) {
              // Nothing after this Enter yet: it submits unless more arrives within 50 ms.
              this.#pendingEnter = true;
              return true;
            }
            // The 50 ms after this Enter already passed in quiet (typeahead): it submits now.
            if (after) this.#next();
            this.#burst = undefined;
            this.#submit();
            return false;
          }
          run += "\n";
          burst = true;
        } else {
          this.#unshift(item);
          break;
        }
        const p = this.#peek();
        item = p && isRunItem(p) ? this.#next() : undefined;
      }
      this.#insertRun(run, burst);
      return true;
    }
    if (ev.kind === "gap") {
      this.#burst = undefined; // 50 ms of quiet ended any unbracketed paste
      return false;
    }
    if (isPastedNewline(ev) || ev.kind === "pastetab") return false; // while searching
    this.#burst = undefined;
    const op = ev.kind === "key" ? keyOp(ev) : undefined;
    const vertical = op === "up" ? "up" : op === "down" ? "down" : undefined;
    if (vertical && !ed.searching && this.#moveVisually(mode, vertical)) return true;
    const action = ed.handle(ev);
    switch (action) {
      case "submit":
        this.#submit();
        return false;
      case "eof":
        if (mode.ml.mode !== "none") {
          // Ctrl-D in a continuation ends it and gives what was collected (as the end of piped
          // input does): the `<<` marker line, or the blank line of a backslash continuation.
          const step = feedLine(mode.ml, mode.ml.mode === "heredoc" ? "EOF" : "");
          const text = step.complete ? step.text : "";
          this.#finish({ kind: "line", text, record: true });
        } else this.#finish({ kind: "eof" });
        return false;
      case "interrupt":
        if (ed.text === "" && mode.ml.mode === "none") {
          this.#finish({ kind: "interrupt" });
          return false;
        }
        // The line goes to the kill ring: Ctrl-Y brings back what Ctrl-C cleared.
        if (ed.text !== "") ed.kill = ed.text;
        ed.reset();
        mode.ml = START;
        return true;
      case "clear":
        this.#io.write("\x1b[H\x1b[2J");
        this.#geometry = undefined;
        return true;
      case "suspend":
        if (this.#io.suspend) {
          this.#io.write(clearEditor(this.#geometry, this.#io.columns()));
          this.#geometry = undefined;
          this.#io.suspend();
        }
        return false;
      case "complete":
        return mode.o.complete ? this.#complete(mode.o.complete) : false;
      case "edited":
        return true;
      default:
        return false;
    }
  }

  /**
   * Up/Down inside a text that takes several screen rows: the cursor goes to the row above or below
   * at the same screen column, as it is drawn (a long wrapped line included). On the first row Up,
   * and on the last row Down, are the editor's (history). False when the editor is to handle it.
   */
  #moveVisually(mode: Extract<Mode, { kind: "line" }>, key: "up" | "down"): boolean {
    const v = this.editor.view();
    const base = {
      prompt: v.prompt ?? this.#prompt(mode),
      text: v.text,
      cursor: v.cursor,
      columns: this.#io.columns(),
    };
    const at = render(base).geometry;
    const row = at.cursorRow + (key === "up" ? -1 : 1);
    if (row < 0 || row >= at.rows) return false;
    const { located } = render({ ...base, locate: { row, col: at.cursorCol ?? 0 } });
    if (located === undefined) return false; // a row of the prompt only
    this.editor.moveToDisplay(located);
    return true;
  }

  /**
   * Inserts a run of text. Part of an unbracketed paste (it holds a burst newline, is long, or
   * continues a paste still arriving) it joins that paste, shown as one chip once large.
   */
  #insertRun(run: string, burst: boolean): void {
    if (run === "") return;
    const ed = this.editor;
    const open = this.#burst !== undefined && this.#burst.end === ed.cursor;
    if (!burst && !open && run.length <= 1000) {
      this.#burst = undefined;
      ed.insert(run);
      return;
    }
    const start = open ? this.#burst!.start : ed.cursor;
    ed.insert(run);
    this.#burst = { start, end: ed.cursor };
    if (isLargePaste(ed.text.slice(start, ed.cursor))) ed.markChip(start, ed.cursor);
  }

  async #complete(completer: Completer): Promise<void> {
    const ed = this.editor;
    const text = ed.text;
    const cursor = ed.cursor;
    let result: CompletionResult;
    try {
      result = await completer(text, cursor);
    } catch {
      return; // a failing completer completes nothing
    }
    if (this.#mode.kind !== "line" || ed.text !== text || ed.cursor !== cursor) return;
    const { start, end, candidates } = result;
    if (candidates.length === 0 || start < 0 || end > text.length || start > end) return;
    const current = text.slice(start, end);
    if (candidates.length === 1) {
      const value = candidates[0].value + (result.appendSpace ? " " : "");
      if (value !== current) {
        ed.replace(start, end, value);
        ed.cursor = start + value.length;
        this.#draw();
        return;
      }
      // It adds nothing (`ZPI`, whose one candidate is itself): show it, description and all.
      this.#above(formatCandidates(candidates).join("\n"));
      return;
    }
    const prefix = commonPrefix(candidates.map((c) => c.value));
    if (prefix.length > current.length) {
      // Extended to the common prefix with several candidates left: list them on this same TAB
      // (`/ss` becomes `/ssh` and shows `/ssh`, `/ssh-add`, …). The list is printed above the
      // editor, which is drawn again with the extended word.
      ed.replace(start, end, prefix);
      ed.cursor = start + prefix.length;
    }
    this.#above(formatCandidates(candidates).join("\n"));
  }

  /** Prints lines above the editor: erase it, print, draw it again below. */
  #above(text: string): void {
    this.#io.write(clearEditor(this.#geometry, this.#io.columns()) + text.replace(/\r?\n/g, "\r\n") + "\r\n");
    this.#geometry = undefined;
    this.#draw();
  }

  // ---- secrets and one-key answers ----

  /** Reads a value with no echo, never recorded. Ctrl-C rejects with AssistError "cancelled". */
  readSecret(prompt: string): Promise<Secret> {
    if (this.#mode.kind === "line" || this.#mode.kind === "secret" || this.#mode.kind === "key") {
      return Promise.reject(new AssistError("a read is already active", { level: "internal" }));
    }
    return new Promise((done, fail) => {
      this.#setAside();
      this.#io.write("\r\x1b[J" + prompt);
      this.#mode = { kind: "secret", prompt, value: "", done, fail };
      this.#kick();
    });
  }

  /**
   * A question starts: typeahead already queued (typed before it was shown) is set aside, neither
   * answering it nor lost.
   */
  #setAside(): void {
    this.#aside = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    this.#burst = undefined;
  }

  /** The question is answered: back to idle, the set-aside typeahead first in the queue again. */
  #answered(): void {
    this.#mode = { kind: "idle" };
    const aside = this.#aside;
    this.#aside = undefined;
    if (!aside || aside.length === 0) return;
    // The typeahead ended before the question was shown: whatever follows did not arrive with it.
    this.#queue = [...aside, { kind: "gap" }, ...this.#queue.slice(this.#head)];
    this.#head = 0;
  }

  #fail(err: Error): void {
    const mode = this.#mode;
    if (mode.kind !== "secret" && mode.kind !== "key") return;
    this.#io.write("\r\n");
    this.#answered();
    mode.fail(err);
  }

  #secretKey(mode: Extract<Mode, { kind: "secret" }>, ev: Item): void {
    if (ev.kind === "text") mode.value += ev.text;
    else if (ev.kind === "paste") mode.value += ev.text.replace(/\n/g, "");
    else if (ev.kind === "burstnl" || ev.kind === "gap" || ev.kind === "pastetab") return;
    else if (ev.kind === "pastenl" || isKey(ev, "enter") || isKey(ev, "linefeed")) {
      this.#io.write("\r\n");
      this.#answered();
      if (mode.value === "") mode.fail(new AssistError("nothing entered", { level: "input" }));
      else mode.done(new Secret(mode.value));
    } else if (ev.kind !== "key") return;
    else if (keyOp(ev) === "interrupt" || (keyOp(ev) === "deleteOrEof" && mode.value === "")) {
      this.#fail(cancelled());
    } else if (keyOp(ev) === "backspace") {
      mode.value = Array.from(mode.value).slice(0, -1).join("");
    } else if (keyOp(ev) === "killLineStart") mode.value = "";
  }

  /**
   * One key answer (`allowed` compared without case); Enter gives `fallback`. Ctrl-C and Esc reject
   * with AssistError "cancelled".
   */
  readKey(prompt: string, allowed: string[], fallback: string): Promise<string> {
    if (this.#mode.kind === "line" || this.#mode.kind === "secret" || this.#mode.kind === "key") {
      return Promise.reject(new AssistError("a read is already active", { level: "internal" }));
    }
    return new Promise((done, fail) => {
      this.#setAside();
      this.#io.write("\r\x1b[J" + prompt);
      this.#mode = { kind: "key", allowed, fallback, done, fail };
      this.#kick();
    });
  }

  #keyAnswer(mode: Extract<Mode, { kind: "key" }>, ev: Item): void {
    let answer: string | undefined;
    if (ev.kind === "text") {
      const [first, ...rest] = Array.from(ev.text);
      if (rest.length > 0) this.#unshift({ kind: "text", text: rest.join("") });
      answer = mode.allowed.find((a) => a.toLowerCase() === first.toLowerCase());
    } else if (ev.kind === "pastenl" || isKey(ev, "enter") || isKey(ev, "linefeed")) answer = mode.fallback;
    else if (ev.kind === "key" && (keyOp(ev) === "interrupt" || keyOp(ev) === "cancel")) {
      return this.#fail(cancelled()); // Esc leaves a menu
    }
    if (answer === undefined) return;
    this.#io.write(answer + "\r\n");
    if (ev.kind === "text") this.#swallowEnter = true;
    this.#answered();
    mode.done(answer);
  }

  // ---- turns and notices ----

  /**
   * A turn runs: the editor is hidden, Ctrl-C and Esc call `onInterrupt`, Ctrl-L clears the screen
   * at once, Ctrl-Z and Ctrl-D are dropped, other keys wait as typeahead.
   */
  beginTurn(onInterrupt: () => void): void {
    if (this.#mode.kind !== "idle") return;
    this.#mode = { kind: "turn", onInterrupt };
    // Ctrl-C typed before the turn began belongs to nothing yet: it stays for the next prompt.
  }

  /** The turn ended; typeahead waits for the next `readLine`. */
  endTurn(): void {
    if (this.#mode.kind === "turn") this.#mode = { kind: "idle" };
  }

  /** Prints a line above an active editor (erase, print, redraw), or just prints it. */
  notice(line: string): void {
    if (this.#mode.kind === "line") this.#above(line);
    else this.#io.write(line.replace(/\r?\n/g, "\r\n") + "\r\n");
  }

  /** Records an entry in the history (filtered there). */
  addHistory(entry: string, record = true): boolean {
    return this.#history.add(entry, record);
  }
}
