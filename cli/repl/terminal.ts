/**
 * The REPL's terminal I/O shell: raw mode, bracketed paste, mouse reporting, ONE long-lived reader
 * on `Deno.stdin.read()` (never cancelled, never recreated: cancelling a stdin read leaves an orphan
 * that eats the next input, denoland/deno#35601), window-size tracking, Ctrl-Z. Every editing rule
 * lives in `LineSession` (line_session.ts); `PipeInput` is the non-terminal counterpart for scripts.
 *
 * A pending `Deno.stdin.read()` keeps the process alive: the REPL ends with `Deno.exit()` after
 * `close()`.
 */
import { AssistError } from "../../core/errors.ts";
import { Secret } from "../../core/secret.ts";
import { History, type SecretEntry } from "./history.ts";
import { feedLine, type MultilineState, START } from "./multiline.ts";
import { type Completer, LineSession, type ReadResult } from "./line_session.ts";

/** The completion and result types, defined with the session core. */
export type { Completer, CompletionCandidate, CompletionResult, ReadResult } from "./line_session.ts";

/** Options of `Terminal.open`. */
export interface TerminalOptions {
  /** Where the editor draws (the REPL passes a stderr writer). */
  write(s: string): void;
  /** Mouse reporting on at start (ASSIST_MOUSE=1). */
  mouse?: boolean;
  /** `$ASSIST_HOME/.history`; without it history lives in memory only. */
  historyFile?: string;
  /** Entries never recorded (the command table's `noHistory`: cli/commands/table.ts isSecretEntry). */
  secretEntry: SecretEntry;
  /** Column count; defaults to `Deno.consoleSize()` (re-measured on SIGWINCH, on Windows before each draw). */
  columns?: () => number;
}

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1000l\x1b[?1006l";
/**
 * Input the first read gets this soon after raw mode began was typed before it (while the program
 * started): the terminal was still cooked, so its Enter arrived as LF (ICRNL), not CR.
 */
const TYPEAHEAD_MS = 100;
/** After SIGTSTP, raw mode is re-entered this late if no stop happened (or once resumed). */
const SUSPEND_CHECK_MS = 100;

function measure(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/** The interactive terminal: one per process, open while the REPL runs. */
export class Terminal {
  #o: TerminalOptions;
  #session: LineSession;
  #history: History;
  #columns: number;
  #mouse: boolean;
  #closed = false;
  #raw = false;
  /** Terminal modes are on (`#enter` ran, `#leave` did not since). */
  #entered = false;
  #signals: [Deno.Signal, () => void][] = [];
  #windows = Deno.build.os === "windows";

  private constructor(o: TerminalOptions, history: History) {
    this.#o = o;
    this.#history = history;
    this.#mouse = o.mouse ?? false;
    this.#columns = o.columns ? o.columns() : measure();
    this.#session = new LineSession({
      write: (s) => o.write(s),
      columns: () => this.columns,
      suspend: this.#windows ? undefined : () => this.#suspend(),
    }, history);
  }

  /** Raw mode, bracketed paste (and mouse reporting if asked) on; history loaded; reading starts. */
  static async open(o: TerminalOptions): Promise<Terminal> {
    const history = await History.load(o.historyFile, o.secretEntry);
    const t = new Terminal(o, history);
    t.#enter();
    if (!t.#windows) {
      t.#listen("SIGWINCH", () => {
        t.#columns = t.#o.columns ? t.#o.columns() : measure();
        t.#session.redraw();
      });
      t.#listen("SIGCONT", () => {
        if (t.#closed) return;
        if (t.#enter()) t.#session.redraw();
      });
    }
    t.#readLoop();
    return t;
  }

  #listen(sig: Deno.Signal, fn: () => void): void {
    try {
      Deno.addSignalListener(sig, fn);
      this.#signals.push([sig, fn]);
    } catch { /* not supported here */ }
  }

  /** Terminal modes on; idempotent. Returns whether they were off (a redraw is then due). */
  #enter(): boolean {
    if (this.#entered) return false;
    this.#entered = true;
    try {
      Deno.stdin.setRaw(true);
      this.#raw = true;
    } catch { /* not a terminal after all: keys still arrive, line-buffered */ }
    this.#o.write(PASTE_ON + (this.#mouse ? MOUSE_ON : ""));
    return true;
  }

  /** Terminal modes off (also before a Ctrl-Z stop); mouse off is always sent, it costs nothing. */
  #leave(): void {
    this.#entered = false;
    this.#o.write(PASTE_OFF + MOUSE_OFF);
    if (this.#raw) {
      try {
        Deno.stdin.setRaw(false);
      } catch { /* already gone */ }
      this.#raw = false;
    }
  }

  /**
   * Ctrl-Z: modes off, then SIGTSTP. The kernel discards SIGTSTP for an orphaned process group (assist
   * started directly by tmux or a terminal emulator), so no stop and no SIGCONT follow: a short timer
   * then re-enters raw mode, or the terminal would stay cooked (and Ctrl-C would kill the REPL). After
   * a real stop the timer fires on resume, next to the SIGCONT handler; `#enter` is idempotent.
   */
  #suspend(): void {
    this.#leave();
    try {
      Deno.kill(Deno.pid, "SIGTSTP");
    } catch {
      if (this.#enter()) this.#session.redraw();
      return;
    }
    setTimeout(() => {
      if (!this.#closed && this.#enter()) this.#session.redraw();
    }, SUSPEND_CHECK_MS);
  }

  /** The one reader: never cancelled, never recreated. */
  async #readLoop(): Promise<void> {
    const buf = new Uint8Array(64 * 1024);
    const started = performance.now();
    let first = this.#raw;
    for (;;) {
      let n: number | null;
      try {
        n = await Deno.stdin.read(buf);
      } catch {
        n = null;
      }
      if (n === null) {
        this.#session.end();
        return;
      }
      const bytes: Uint8Array = buf.slice(0, n);
      if (first) {
        first = false;
        // Typed before raw mode (a question typed while assist was starting): each Enter came
        // through the cooked terminal as LF, which the editor takes as Ctrl-J (a new line). It is
        // the Enter the person pressed: it submits.
        if (performance.now() - started < TYPEAHEAD_MS) {
          // Typed, though it arrives as one read: not a paste.
          this.#session.feed(typedBeforeRaw(bytes), { typed: true });
          continue;
        }
      }
      this.#session.feed(bytes);
    }
  }

  /** Current width in columns (Windows: measured on every call, as it has no SIGWINCH). */
  get columns(): number {
    if (this.#windows) this.#columns = this.#o.columns ? this.#o.columns() : measure();
    return this.#columns;
  }

  /** Reads one complete entry; see `ReadResult`. */
  readLine(o: { prompt: string; continuationPrompt?: string; complete?: Completer }): Promise<ReadResult> {
    return this.#session.readLine(o);
  }

  /** Reads a secret with no echo; never recorded. Ctrl-C rejects with AssistError "cancelled" (refused). */
  readSecret(prompt: string): Promise<Secret> {
    return this.#session.readSecret(prompt);
  }

  /** One key answer among `allowed` (no case); Enter gives `fallback`; Ctrl-C rejects ("cancelled"). */
  readKey(prompt: string, allowed: string[], fallback: string): Promise<string> {
    return this.#session.readKey(prompt, allowed, fallback);
  }

  /** A turn runs: Ctrl-C and Esc call `onInterrupt`; Ctrl-Z/Ctrl-D are dropped; other keys wait for `readLine`. */
  beginTurn(onInterrupt: () => void): void {
    this.#session.beginTurn(onInterrupt);
  }

  endTurn(): void {
    this.#session.endTurn();
  }

  /** Prints a line above the active editor, or just prints it. */
  notice(line: string): void {
    this.#session.notice(line);
  }

  /** Mouse reporting on or off. */
  setMouse(on: boolean): void {
    if (on === this.#mouse) return;
    this.#mouse = on;
    if (!this.#closed) this.#o.write(on ? MOUSE_ON : MOUSE_OFF);
  }

  /** Records an entry (secret commands are filtered again here). */
  addHistory(entry: string): void {
    this.#session.addHistory(entry);
  }

  /** Waits for history writes to reach the disk (call before exiting). */
  flushHistory(): Promise<void> {
    return this.#history.flush();
  }

  /** Restores the terminal; idempotent, safe from signal handlers and finally blocks. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [sig, fn] of this.#signals) {
      try {
        Deno.removeSignalListener(sig, fn);
      } catch { /* gone */ }
    }
    this.#signals = [];
    try {
      this.#leave();
    } catch { /* the terminal is gone */ }
  }
}

/**
 * Input typed while the terminal was still cooked: each LF (Unix, an Enter after ICRNL) or CRLF
 * (a Windows console in line mode) becomes the CR that Enter sends in raw mode.
 *
 * @example
 * ```ts
 * import { typedBeforeRaw } from "./terminal.ts";
 * typedBeforeRaw(new TextEncoder().encode("status?\n")); // the bytes of "status?\r"
 * ```
 */
export function typedBeforeRaw(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(0x0a)) return bytes;
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) {
      if (i === 0 || bytes[i - 1] !== 0x0d) out[n++] = 0x0d; // CRLF: its CR is the Enter
    } else out[n++] = b;
  }
  return out.subarray(0, n);
}

/** Something that reads bytes like `Deno.stdin`. */
export interface ByteSource {
  read(p: Uint8Array): Promise<number | null>;
}

/**
 * Lines from a non-terminal stdin (scripted use): the same `readLine` contract (multi-line rules
 * apply), with no redraw, no completion and no prompt echo.
 */
export class PipeInput {
  #source: ByteSource;
  #decoder = new TextDecoder();
  #buffer = "";
  #eof = false;
  #reading: Promise<void> | undefined;

  private constructor(source: ByteSource) {
    this.#source = source;
  }

  /** Reads `Deno.stdin` (or `source`, for tests). */
  static open(source: ByteSource = Deno.stdin): PipeInput {
    return new PipeInput(source);
  }

  /** The next raw line (CR removed), or undefined at the end of input. */
  async #line(): Promise<string | undefined> {
    const buf = new Uint8Array(64 * 1024);
    for (;;) {
      const nl = this.#buffer.indexOf("\n");
      if (nl !== -1) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        return line.replace(/\r$/, "");
      }
      if (this.#eof) {
        if (this.#buffer === "") return undefined;
        const line = this.#buffer;
        this.#buffer = "";
        return line.replace(/\r$/, "");
      }
      // One read at a time, never abandoned.
      this.#reading ??= this.#source.read(buf).then((n) => {
        if (n === null) {
          this.#eof = true;
          this.#buffer += this.#decoder.decode();
        } else this.#buffer += this.#decoder.decode(buf.subarray(0, n), { stream: true });
      }, () => {
        this.#eof = true;
      }).finally(() => {
        this.#reading = undefined;
      });
      await this.#reading;
    }
  }

  /** One complete entry; `eof` at the end of input (an unfinished multi-line entry is given whole). */
  async readLine(_o: { prompt: string }): Promise<ReadResult> {
    let state: MultilineState = START;
    for (;;) {
      const line = await this.#line();
      if (line === undefined) {
        if (state.mode === "none") return { kind: "eof" };
        const step = feedLine(state, state.mode === "heredoc" ? "EOF" : "");
        return { kind: "line", text: step.complete ? step.text : "", record: true };
      }
      const step = feedLine(state, line);
      if (step.complete) return { kind: "line", text: step.text, record: true };
      state = step.state;
    }
  }

  /** The next line as a secret (for scripts). */
  async readSecret(_prompt: string): Promise<Secret> {
    const line = await this.#line();
    if (line === undefined || line === "") {
      throw new AssistError("no secret on standard input", { level: "input" });
    }
    return new Secret(line);
  }

  /** Scripted use has no screen: the width the REPL lays results out in. */
  get columns(): number {
    return 80;
  }

  /** No keys to read from a script: the question's default answer. */
  readKey(_prompt: string, _allowed: string[], fallback: string): Promise<string> {
    return Promise.resolve(fallback);
  }

  /** No keys arrive during a turn (a script's next line waits for the next `readLine`). */
  beginTurn(_onInterrupt: () => void): void {}

  endTurn(): void {}

  /** No mouse without a terminal. */
  setMouse(_on: boolean): void {}

  /** Scripted entries are not kept in history. */
  addHistory(_entry: string): void {}

  flushHistory(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to restore; reads simply stop being asked for. */
  close(): void {}
}

/**
 * What the REPL reads from: a terminal, or a script's standard input (`PipeInput`, whose terminal
 * parts do nothing), so the REPL calls either without asking which it has.
 */
export type LineInput = Pick<
  Terminal,
  | "columns"
  | "readLine"
  | "readSecret"
  | "readKey"
  | "beginTurn"
  | "endTurn"
  | "setMouse"
  | "addHistory"
  | "flushHistory"
  | "close"
>;
