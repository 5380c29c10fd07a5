/**
 * The interactive assistant. `assist` on a terminal opens it: start-up lines (version, `MODE=`, auth
 * rail, the tier-5 line), then the prompt `you[<model_short>]> `. Each entry is a slash command (one
 * command table, cli/commands/) or a prompt: `@file` references expanded, any `/load`ed attachment
 * added, then one agent turn, whose every byte bound for the model passes the PHI gate in the agent
 * loop. With standard input not a terminal, entries are read as prompts one after another (scripted
 * use): no redraw, no status line, no review gate. Model text goes to stderr as it streams, as on a
 * terminal (the spec's stream rule); `assist -p` is the form that answers on stdout.
 *
 * Exit paths (`/quit`, Ctrl-D, a second Ctrl-C within 2 s, SIGTERM, SIGHUP, an uncaught error) all
 * leave through `#finish`, run once: it restores the terminal (`#shutdown`) and uploads the session
 * artifacts under a total deadline (cli/sessions/). Each turn is committed to the artifacts as it
 * ends; sessions older than the retention age are pruned at start.
 */
import { readEnv as env } from "../../core/env.ts";
import { type Config, loadConfig } from "../../core/config.ts";
import { ensureHome, homePaths } from "../../core/home.ts";
import { AssistError, describeError } from "../../core/errors.ts";
import { lazy } from "../../core/lazy.ts";
import type { Secret } from "../../core/secret.ts";
import { colorAllowed, writeText } from "../../core/term.ts";
import { VERSION } from "../../core/version.ts";
import type { AutoPhiMode } from "../../core/config.ts";
import type { AgentIO, ToolCallRecord } from "../agent/loop.ts";
import { Conversation } from "../agent/conversation.ts";
import type { SessionPhiGate } from "../agent/phi_adapter.ts";
import type { RateLimitReading } from "../model/ratelimit.ts";
import { type MessageParam, promptText, type Usage } from "../model/types.ts";
import { turnCount } from "../sessions/turns.ts";
import { authLine, modeLine, promptFor, tier5Line } from "./startup.ts";
import { printable, printableStyled, TurnOutput } from "./turn_output.ts";
import type { Completer, LineInput } from "./terminal.ts";
import type { CommandContext, CommandIO, ReplHost } from "../commands/table.ts";

/** A line that is only an API key (Anthropic's `sk-ant-` form). */
const LOOKS_LIKE_KEY = /^\s*sk-ant-[A-Za-z0-9_-]{8,}\s*$/;

/** Second Ctrl-C within this many ms at an empty prompt exits. */
const DOUBLE_INTERRUPT_MS = 2000;

/** Lines of the last answer shown on resuming. */
const RESUME_ANSWER_LINES = 8;

/** The text of the last assistant message (its text blocks), or undefined. */
function lastAnswerText(messages: MessageParam[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const text = typeof m.content === "string"
      ? m.content
      : m.content.map((b) => (b.type === "text" ? (b as { text: string }).text : "")).join("");
    if (text.trim()) return text;
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

export class Repl {
  readonly config: Config;
  readonly interactive: boolean;
  readonly cwd: string;
  /** `--resume [<id>]`: the session to continue before the first prompt ("" = the latest). */
  resumeAtStart?: string;
  /** The conversation: messages, cost, session artifacts, PHI gate, attachments. */
  readonly #conv: Conversation;
  #finishing?: Promise<void>;
  #input!: LineInput;
  #quitting = false;
  #exitCode = 0;
  #lastInterrupt = 0;
  #lastAnswer?: string;
  #lastUsage?: Usage;
  #rateLimits?: RateLimitReading;
  #fileTipShown = false;
  #abort?: AbortController;
  #shutdownDone = false;
  /** A slash command or a prompt (the command table decides; loaded before the first prompt). */
  #isCommand: (entry: string) => boolean = () => false;
  #out: (s: string) => void;
  #color: boolean;
  #mouse: boolean;

  constructor(config: Config, interactive: boolean, cwd: string) {
    this.config = config;
    this.interactive = interactive;
    this.cwd = cwd;
    // The terminal may be gone (SIGHUP): a failed write must not end the way out.
    this.#out = (s) => {
      try {
        writeText("stderr", s);
      } catch { /* nowhere to write to */ }
    };
    this.#color = interactive && colorAllowed("stderr", config.noColor ? "1" : undefined);
    this.#mouse = config.mouse && !config.noMouse;
    this.#conv = new Conversation({
      config,
      cwd,
      front: "repl",
      prompter: interactive ? this.#prompter() : undefined,
      onRateLimit: (r) => this.#rateLimits = r,
      warn: (line) => this.#out(line + "\n"),
    });
  }

  get model(): string {
    return this.#conv.model;
  }

  get sessionId(): string {
    return this.#conv.sessionId;
  }

  // ---- start -------------------------------------------------------------------------------

  async run(): Promise<number> {
    await ensureHome(this.config.home);
    const signals = this.#installSignals();
    try {
      // The editor's modules, the start-up facts and the retention pass run side by side.
      const [{ Terminal, PipeInput }, { isSecretEntry, isCommandEntry }, lines, pruned] = await Promise.all([
        lazy<typeof import("./terminal.ts")>(import.meta.url, "./terminal.ts"),
        lazy<typeof import("../commands/table.ts")>(import.meta.url, "../commands/table.ts"),
        this.interactive ? this.startupLines() : Promise.resolve([]),
        this.#prune(),
      ]);
      if (pruned) lines.push(pruned);
      this.#isCommand = isCommandEntry;
      if (this.interactive) {
        this.#input = await Terminal.open({
          write: this.#out,
          mouse: this.#mouse,
          historyFile: homePaths(this.config.home).history,
          secretEntry: isSecretEntry,
        });
        this.#out(lines.join("\n") + "\n");
      } else {
        this.#input = PipeInput.open();
        if (pruned) this.#out(pruned + "\n");
      }
      if (this.resumeAtStart !== undefined) {
        try {
          this.#out((await this.resume(this.resumeAtStart || undefined)) + "\n");
        } catch (err) {
          this.#out(`assist: ${describeError(err, this.config.debug)}\n`);
          this.#exitCode = 1;
          return this.#exitCode;
        }
      }
      await this.#loop();
    } catch (err) {
      this.#shutdown();
      this.#out(`assist: ${describeError(err, this.config.debug)}\n`);
      this.#exitCode = 1;
    } finally {
      if (this.interactive && this.#input) {
        await this.#input.flushHistory().catch((err) => {
          this.#out(`assist: history not saved: ${describeError(err)}\n`);
        });
      }
      await this.#finish();
      signals();
    }
    return this.#exitCode;
  }

  /** Retention at start: the one line saying how many old sessions went, or undefined. */
  async #prune(): Promise<string | undefined> {
    try {
      const { pruneSessions } = await lazy<typeof import("../sessions/retention.ts")>(
        import.meta.url,
        "../sessions/retention.ts",
      );
      const days = this.config.sessionRetentionDays;
      const n = await pruneSessions(this.config.home, days);
      return n ? `pruned ${n} session(s) older than ${days} day(s) from sessions/` : undefined;
    } catch (err) {
      return `assist: old sessions not pruned: ${describeError(err)}`;
    }
  }

  /** Start-up lines: from local files only, so the prompt never waits on the network. */
  async startupLines(): Promise<string[]> {
    const paths = homePaths(this.config.home);
    const hciroot = env("HCIROOT");
    const aliases = async () => {
      try {
        const { readHosts } = await lazy<typeof import("../../ssh/registry.ts")>(
          import.meta.url,
          "../../ssh/registry.ts",
        );
        return (await readHosts(this.config.home)).map((h) => h.alias);
      } catch {
        return []; // an unreadable registry is reported by /ssh-hosts
      }
    };
    const sidecar = async () => {
      const { sidecarFiles, sidecarPidAlive } = await lazy<typeof import("../../phi/sidecar/files.ts")>(
        import.meta.url,
        "../../phi/sidecar/files.ts",
      );
      return await sidecarPidAlive(sidecarFiles(this.config.phiVenv).pidFile);
    };
    const [hcirootIsEngine, sshAliases, sidecarRunning, keyFile, oauthFile] = await Promise.all([
      hciroot ? exists(`${hciroot}/server`) : Promise.resolve(false),
      aliases(),
      sidecar(),
      exists(paths.apiKey),
      exists(paths.oauth),
    ]);
    const lines = [
      `assist ${VERSION} · model ${this.#conv.model} · /help for commands, Ctrl-D or /quit to leave`,
      modeLine({ hciroot, hcirootIsEngine, sshAliases }).line,
      authLine({ rail: this.config.authMode, envKey: !!this.config.apiKey, keyFile, oauthFile }),
    ];
    const t5 = tier5Line(sidecarRunning, this.config.phiNames);
    if (t5) lines.push(t5);
    return lines.map((l, i) => (i > 0 && this.#color ? `\x1b[2m${l}\x1b[22m` : l));
  }

  // ---- the loop ----------------------------------------------------------------------------

  async #loop(): Promise<void> {
    const complete = this.interactive ? this.#completer() : undefined;
    while (!this.#quitting) {
      const reading = this.#input.readLine({
        prompt: promptFor(this.#conv.model),
        continuationPrompt: "... ",
        complete,
      });
      if (this.interactive) {
        void this.loadStatus().catch(() => {}); // while the operator types
        this.#warmPhi();
      }
      const r = await reading;
      if (this.#quitting) break; // a signal is finishing the session
      if (r.kind === "eof") {
        this.quit();
        break;
      }
      if (r.kind === "interrupt") {
        const now = Date.now();
        if (now - this.#lastInterrupt <= DOUBLE_INTERRUPT_MS) {
          this.quit();
          break;
        }
        this.#lastInterrupt = now;
        this.#out("(^C again or /quit to exit)\n");
        continue;
      }
      this.#lastInterrupt = 0;
      const text = r.text;
      if (text.trim() === "") continue;
      if (LOOKS_LIKE_KEY.test(text)) {
        // A key pasted at the prompt (a menu answered too fast, a wrong window) is neither sent to
        // the model nor kept in history.
        this.#out("that looks like an API key: not sent and not kept (store one with /set-api-key)\n");
        continue;
      }
      // The history leaves out the table's noHistory commands (Terminal's secretEntry).
      if (this.interactive && r.record) {
        this.#input.addHistory(text);
      }
      try {
        if (this.#isCommand(text)) await this.#command(text.trim());
        else await this.#turn(text);
      } catch (err) {
        this.#out(`assist: ${describeError(err, this.config.debug)}\n`);
      }
    }
  }

  /** The completer, loaded at the first TAB (the prompt does not wait for the command table). */
  #completer(): Completer {
    let loaded: Promise<Completer> | undefined;
    const load = async () => {
      const [{ createCompleter }, { COMMANDS }] = await Promise.all([
        lazy<typeof import("./complete.ts")>(import.meta.url, "./complete.ts"),
        lazy<typeof import("../commands/table.ts")>(import.meta.url, "../commands/table.ts"),
      ]);
      return createCompleter({ commands: () => COMMANDS, cwd: this.cwd, home: this.config.home });
    };
    return async (buffer, cursor) => await (await (loaded ??= load()))(buffer, cursor);
  }

  async #command(line: string): Promise<void> {
    if (this.interactive) await this.loadStatus();
    const { runSlash } = await lazy<typeof import("../commands/table.ts")>(
      import.meta.url,
      "../commands/table.ts",
    );
    // While a command runs, keys wait for the next prompt and Ctrl-C is not typeahead (two of them
    // would leave the REPL at the next prompt): commands run to their end, so it only says so.
    const term = this.interactive ? this.#input : undefined;
    term?.beginTurn(() => this.#out("(a command runs to its end; Ctrl-C cancels model turns)\n"));
    try {
      await runSlash(line, this.#commandContext());
    } finally {
      term?.endTurn();
    }
  }

  #commandContext(): CommandContext {
    const input = this.#input;
    // Command output carries outside text (a tool's result, a remote command's output, the last
    // answer): made printable, so an HL7 segment's CR does not draw the next segment over it and no
    // escape sequence other than colour (the status line's dim) reaches the terminal.
    const shown = (t: string) => this.interactive ? printableStyled(t) : t;
    const io: CommandIO = {
      front: "repl",
      out: (t) => this.#out(shown(t.endsWith("\n") ? t : t + "\n")),
      warn: (t) => this.#out(`${this.#color ? "\x1b[33m" : ""}${shown(t)}${this.#color ? "\x1b[39m" : ""}\n`),
      readSecret: (p: string): Promise<Secret> => this.#outsideTurn(() => input.readSecret(p)),
      readKey: this.interactive
        ? (p, allowed, fallback) => this.#outsideTurn(() => input.readKey(p, allowed, fallback))
        : undefined,
    };
    return { config: this.config, io, repl: this.#host() };
  }

  /** A question asked while a command runs: the editor answers it, then the command goes on. */
  async #outsideTurn<T>(ask: () => Promise<T>): Promise<T> {
    if (!this.interactive) return await ask();
    const term = this.#input;
    term.endTurn();
    try {
      return await ask();
    } finally {
      term.beginTurn(() => this.#out("(a command runs to its end; Ctrl-C cancels model turns)\n"));
    }
  }

  #host(): ReplHost {
    // deno-lint-ignore no-this-alias
    const self = this;
    return {
      config: this.config,
      get model() {
        return self.#conv.model;
      },
      set model(id: string) {
        self.setModel(id);
      },
      setModel: (id) => this.setModel(id),
      reset: () => {
        this.#conv.reset();
        this.#lastUsage = undefined; // the status line's context use starts over with the talk
      },
      resume: (id) => this.resume(id),
      sessions: () => this.sessionsText(),
      // The screen only: the scrollback stays (spec: "clear the terminal screen only").
      clearScreen: () => this.#out("\x1b[H\x1b[2J"),
      quit: () => this.quit(),
      submit: (prompt) => this.#outsideTurn(() => this.#turn(prompt)),
      attach: (label, text) => this.#conv.attach(label, text),
      lastAnswer: () => this.#lastAnswer,
      lastTool: () => this.#lastToolShown(),
      costText: () => this.#costText(),
      statusLine: () => this.#statusLine(true) ?? "",
      credentialsChanged: () => this.credentialsChanged(),
      setMouse: (on) => {
        this.#mouse = on;
        if (this.interactive) this.#input.setMouse(on);
      },
      get phiMode(): AutoPhiMode {
        return self.#gateNow?.getMode() ?? self.config.autoPhi;
      },
      set phiMode(m: AutoPhiMode) {
        self.config.autoPhi = m;
        self.#gateNow?.setMode(m);
      },
    };
  }

  #phiWarmed = false;

  /**
   * Once the first prompt is on the screen: the PHI gate and the built-in name recognizer are built
   * in the background (its lexicons take about 130 ms in a fresh process), so the first prompt or
   * paste does not wait for them. A failure is left for the first turn to report.
   */
  #warmPhi(): void {
    if (this.#phiWarmed) return;
    this.#phiWarmed = true;
    // A task later: the prompt has been written (synchronously) before any of this runs.
    setTimeout(() => {
      void (async () => {
        await this.#gate();
        if (this.config.phiNames === "off") return;
        const { nameFinder } = await lazy<typeof import("../../phi/names/mod.ts")>(
          import.meta.url,
          "../../phi/names/mod.ts",
        );
        await nameFinder();
      })().catch(() => {});
    }, 0);
  }

  /** The session's PHI gate once built (the mode is set on it; before, the config holds it). */
  #gateNow?: SessionPhiGate;

  async #gate(): Promise<SessionPhiGate> {
    return this.#gateNow ??= await this.#conv.gate();
  }

  /** The last tool call as the operator should see it: input and result detokenized. */
  #lastToolShown(): ToolCallRecord | undefined {
    const rec = this.#conv.lastTool;
    const gate = this.#gateNow;
    if (!rec || !gate) return rec;
    return {
      ...rec,
      input: gate.toolInput(rec.input),
      result: gate.detokenize(rec.result),
    };
  }

  /** The stored key or token changed: the next prompt builds its client anew, keeping the talk. */
  credentialsChanged(): void {
    this.#conv.credentialsChanged();
  }

  setModel(id: string): void {
    this.#conv.model = id;
  }

  quit(): void {
    this.#quitting = true;
  }

  // ---- a turn ------------------------------------------------------------------------------

  /** What the operator sees of a turn: the turn's view, or plain lines between turns. */
  #agentIO(): AgentIO {
    return {
      text: (t) => this.#view?.text(t),
      toolCall: (name, input) => this.#view?.line(this.#formatToolCall(name, input)),
      toolResult: (rec) => this.#view?.line(this.#formatResult(rec)),
      notice: (line) => this.#view ? this.#view.notice(line) : this.#out(line + "\n"),
      activity: (limit) => this.#view?.activity(limit),
    };
  }

  // ---- sessions ----------------------------------------------------------------------------

  /**
   * Continues an earlier session (no id: the latest other than this one) from its messages file,
   * which is checked whole first: a damaged or foreign file is refused and nothing changes.
   */
  async resume(id?: string): Promise<string> {
    const { messages, repaired, turns } = await this.#conv.resume(id);
    id = this.#conv.sessionId;
    const gate = await this.#gate();
    const first = messages.map(promptText).find((p) => p !== undefined) ?? "";
    const shown = gate.detokenize(first).replace(/\s+/g, " ").trim();
    const head = `resumed ${id}: ${turns} turn(s)${
      repaired ? " (an unfinished last turn was dropped)" : ""
    }; first prompt: ${shown.length > 60 ? shown.slice(0, 59) + "…" : shown}`;
    // Where the talk stopped: the start of the last answer (and /copy has it again).
    const last = lastAnswerText(messages);
    if (!last) return head;
    this.#lastAnswer = gate.detokenize(last);
    const lines = printable(this.#lastAnswer).trimEnd().split("\n");
    const more = lines.length - RESUME_ANSWER_LINES;
    return [
      head,
      "last answer:",
      ...lines.slice(0, RESUME_ANSWER_LINES).map((l) => `  ${l}`),
      ...(more > 0 ? [`  … ${more} more line(s) (/copy copies the whole answer)`] : []),
    ].join("\n");
  }

  /** The body of `/sessions`: recent sessions, first prompts detokenized for this screen. */
  async sessionsText(): Promise<string> {
    const { listSessions, formatSessions } = await lazy<typeof import("../sessions/resume.ts")>(
      import.meta.url,
      "../sessions/resume.ts",
    );
    const list = await listSessions(this.config.home);
    const gate = list.length ? await this.#gate() : undefined;
    return formatSessions(list, (t) => gate ? gate.detokenize(t) : t);
  }

  #view?: TurnOutput;
  #formatToolCall!: (name: string, input: Record<string, unknown>) => string;
  #formatResult!: (rec: ToolCallRecord) => string;

  #prompter() {
    const term = () => this.#input;
    const ask = async (question: string, allowed: string[], fallback: string) => {
      this.#view?.stop();
      const t = term();
      t.endTurn();
      try {
        return await t.readKey(question, allowed, fallback);
      } catch (err) {
        // Ctrl-C at the question cancels the turn it belongs to.
        if (err instanceof AssistError && err.exitCode === 130) this.#abort?.abort();
        throw err;
      } finally {
        t.beginTurn(() => this.#abort?.abort());
        this.#view?.start();
      }
    };
    return {
      confirmValue: async (r: { value: string; category: string; context: string }) => {
        const k = await ask(
          `phi> tokenize ${r.category} "${r.value}" (${r.context})? [Y/n] `,
          ["y", "n"],
          "y",
        );
        return k !== "n";
      },
      reviewToolResult: async (
        r: { toolName: string; bytes: number; hl7Shaped: boolean; tokenized: number },
      ) => {
        const size = r.bytes >= 1024 ? `${(r.bytes / 1024).toFixed(1)} KB` : `${r.bytes} B`;
        const why = r.hl7Shaped ? ", HL7-shaped" : "";
        const k = await ask(
          `review> ${r.toolName} result: ${size}${why}, ${r.tokenized} value(s) tokenized; send to the model? [Y/n/i] `,
          ["y", "n", "i"],
          "y",
        );
        return k as "y" | "n" | "i";
      },
      showToolResult: (text: string) => {
        // Exactly what the model would get (tokens and all), made safe for the terminal.
        this.#view?.line(`--- what the model would get ---\n${printable(text)}\n--- end ---`);
      },
    };
  }

  async #turn(typed: string): Promise<void> {
    // Ctrl-C cancels from the moment the entry is taken: reading @files and building the client
    // count as the turn too (a slow file or keychain must not turn Ctrl-C into typeahead).
    const abort = new AbortController();
    this.#abort = abort;
    const term = this.interactive ? this.#input : undefined;
    term?.beginTurn(() => abort.abort());
    const conv = this.#conv;
    let view: TurnOutput | undefined;
    let sent = false;
    const before = conv.meter.streams.length;
    try {
      const { attachedBlock, expandFileRefs, FILE_REF_TIP } = await lazy<typeof import("../file_refs.ts")>(
        import.meta.url,
        "../file_refs.ts",
      );
      const expanded = await expandFileRefs(typed, { cwd: this.cwd, home: this.config.home });
      for (const w of expanded.warnings) this.#out(`${w}\n`);
      if (expanded.tip && !this.#fileTipShown && this.interactive) {
        this.#fileTipShown = true;
        this.#out(`${FILE_REF_TIP}\n`);
      }
      try {
        await conv.prepare();
        this.#gateNow ??= await conv.gate();
      } catch (err) {
        this.#out(`assist: ${describeError(err, this.config.debug)}\n`);
        return;
      }
      if (abort.signal.aborted) {
        this.#out("(cancelled before anything was sent)\n");
        return;
      }
      const { formatToolCall, formatToolResult } = await lazy<typeof import("./turn_view.ts")>(
        import.meta.url,
        "./turn_view.ts",
      );
      this.#formatToolCall = formatToolCall;
      this.#formatResult = (rec) =>
        formatToolResult({ text: rec.result, isError: rec.isError }, this.#columns());
      // Model text is printed at once to stderr (SPEC, "Consumed from the model API"), scripted use too.
      view = new TurnOutput({
        write: this.#out,
        writeLine: this.interactive ? undefined : this.#out,
        live: this.interactive,
        color: this.#color,
        markdown: this.#color, // a terminal with colour (this.#color is false in scripted use)
        columns: this.interactive ? () => this.#columns() : undefined,
      });
      this.#view = view;
      view.start();
      sent = true;
      const r = await conv.turn(expanded.text, abort.signal, this.#agentIO(), attachedBlock);
      view.finish();
      if (r.unsent) {
        this.#out("(cancelled before anything was sent)\n");
      } else if (r.cancelled) {
        // Kept, with its interruption marker: a turn of the session like any other (turnCount).
        this.#out("(cancelled; the conversation is kept)\n");
      } else {
        this.#lastAnswer = r.answer;
      }
    } catch (err) {
      view?.finish();
      if (err instanceof AssistError && err.exitCode === 130 && abort.signal.aborted) {
        // Ctrl-C at a question of the turn (a review or confirm prompt): the turn is cancelled,
        // said as Ctrl-C during the answer says it.
        this.#out("(cancelled; the conversation is kept)\n");
      } else if (err instanceof AssistError) { // the model API's errors (ModelError) among them
        this.#out(`assist: ${err.message}\n`);
      } else throw err;
    } finally {
      view?.stop();
      this.#view = undefined;
      this.#abort = undefined;
      term?.endTurn();
      const streams = conv.meter.streams;
      if (streams.length > before) this.#lastUsage = streams[streams.length - 1].usage;
    }
    if (this.interactive && !this.config.noStatus && sent) {
      await this.loadStatus();
      const line = this.#statusLine(false);
      if (line) this.#out(line + "\n");
    }
  }

  // ---- status and cost ---------------------------------------------------------------------

  #statusRenderer?: typeof import("./status.ts").renderStatus;

  #statusLine(force: boolean): string | undefined {
    if (!this.#statusRenderer) return undefined;
    return this.#statusRenderer({
      rail: this.config.authMode,
      lastUsage: this.#lastUsage,
      model: this.#conv.model,
      sessionCostUsd: this.#conv.meter.total.total,
      // Counted from the messages as /sessions counts them, so /reset and --resume agree.
      turns: turnCount(this.#conv.messages),
      rateLimits: this.#rateLimits,
      columns: this.#columns(),
      now: Date.now(),
      color: this.#color,
      force,
    });
  }

  #statusLoading?: Promise<void>;

  /** Loads the status renderer once; started after the first prompt is shown, awaited before use. */
  loadStatus(): Promise<void> {
    return this.#statusLoading ??= (async () => {
      const { renderStatus } = await lazy<typeof import("./status.ts")>(import.meta.url, "./status.ts");
      this.#statusRenderer = renderStatus;
    })();
  }

  #columns(): number {
    if (this.interactive) return this.#input.columns;
    return 80;
  }

  #costText(): string {
    const meter = this.#conv.meter;
    if (meter.streams.length === 0) return "no model requests yet";
    const usd = (n: number) => `$${n.toFixed(4)}`;
    const lines = meter.streams.map((s, i) =>
      `  #${i + 1} ${s.model}: in ${s.usage.input_tokens}, out ${s.usage.output_tokens}, ` +
      `cache read ${s.usage.cache_read_input_tokens}, cache write ${s.usage.cache_creation_input_tokens} ` +
      `= ${usd(s.cost.total)}`
    );
    const t = meter.total;
    lines.push(
      `session: in ${t.tokens.input_tokens}, out ${t.tokens.output_tokens}, cache read ` +
        `${t.tokens.cache_read_input_tokens}, cache write ${t.tokens.cache_creation_input_tokens}; ` +
        `input ${usd(t.input)}, output ${usd(t.output)}, cache read ${usd(t.cacheRead)}, ` +
        `cache write ${usd(t.cacheWrite)}; total ${usd(t.total)}`,
    );
    return lines.join("\n");
  }

  // ---- exit paths --------------------------------------------------------------------------

  #installSignals(): () => void {
    const listeners: Array<[Deno.Signal, () => void]> = [];
    const on = (sig: Deno.Signal, fn: () => void) => {
      try {
        Deno.addSignalListener(sig, fn);
        listeners.push([sig, fn]);
      } catch { /* not on this platform */ }
    };
    // A signal leaves through #finish too (once, whatever else is leaving): the bounded upload
    // runs before the process ends.
    const leave = (code: number) => () => {
      void this.#finish().finally(() => Deno.exit(code));
    };
    // An error nothing caught: one line, then the same way out.
    const crash = (e: Event) => {
      e.preventDefault();
      const err = (e as PromiseRejectionEvent).reason ?? (e as ErrorEvent).error;
      this.#out(`assist: ${describeError(err, this.config.debug)}\n`);
      leave(1)();
    };
    globalThis.addEventListener("unhandledrejection", crash);
    globalThis.addEventListener("error", crash);
    if (Deno.build.os !== "windows") {
      on("SIGTERM", leave(143));
      on("SIGHUP", leave(129));
    } else {
      on("SIGBREAK", leave(130)); // Ctrl-Break: the console is restored on the way out
    }
    // Outside raw mode (scripted use) Ctrl-C is a real SIGINT: cancel the turn, else leave.
    on("SIGINT", () => {
      if (this.#abort) this.#abort.abort();
      else leave(130)();
    });
    return () => {
      globalThis.removeEventListener("unhandledrejection", crash);
      globalThis.removeEventListener("error", crash);
      for (const [sig, fn] of listeners) {
        try {
          Deno.removeSignalListener(sig, fn);
        } catch { /* ignore */ }
      }
    };
  }

  /**
   * The one way out, run once whatever the exit path (a second caller awaits the same run): cancel
   * a turn in flight, restore the terminal, then upload the session artifacts (bounded).
   */
  #finish(): Promise<void> {
    return this.#finishing ??= (async () => {
      this.#quitting = true; // no new turn starts while the session is being finished
      this.#abort?.abort();
      this.#shutdown();
      // Both bounded (a few seconds each), side by side, each one warning line at most; one
      // failing (a terminal gone after SIGHUP) never cuts the other short.
      await Promise.allSettled([this.#uploadAtExit(), this.#syncHeadersAtExit()]);
    })();
  }

  /** Headers sync at exit (issue 13 item 3): only when on; never throws. */
  async #syncHeadersAtExit(): Promise<void> {
    try {
      const { syncHeadersAtExit } = await lazy<typeof import("../headers_sync/sync.ts")>(
        import.meta.url,
        "../headers_sync/sync.ts",
      );
      await syncHeadersAtExit(this.config, (line) => this.#out(`assist: ${line}\n`));
    } catch (err) {
      this.#out(`assist: headers sync failed: ${describeError(err)}\n`);
    }
  }

  /** The session upload (three artifacts), once the last turn is on disk. */
  async #uploadAtExit(): Promise<void> {
    {
      try {
        const url = this.config.uploadUrl;
        // A session with no turn still has its (empty) artifacts: /quit always sends all three.
        const rec = url ? await this.#conv.ensureRecorder() : this.#conv.recorder;
        if (!rec) {
          if (!url) await this.#warnUploadUnset();
          return;
        }
        await rec.flushed();
        const { uploadArtifacts, UPLOAD_UNSET_WARNING } = await lazy<typeof import("../sessions/upload.ts")>(
          import.meta.url,
          "../sessions/upload.ts",
        );
        if (!url) {
          this.#out(UPLOAD_UNSET_WARNING + "\n");
          return;
        }
        const warning = await uploadArtifacts({
          url,
          version: VERSION,
          sessionId: rec.id,
          headersLog: homePaths(this.config.home).headersLog,
          sessionLog: rec.files.log,
          messages: rec.files.messages,
        });
        if (warning) this.#out(warning + "\n");
      } catch (err) {
        this.#out(`assist: session upload failed: ${describeError(err)}\n`);
      }
    }
  }

  async #warnUploadUnset(): Promise<void> {
    const { UPLOAD_UNSET_WARNING } = await lazy<typeof import("../sessions/upload.ts")>(
      import.meta.url,
      "../sessions/upload.ts",
    );
    this.#out(UPLOAD_UNSET_WARNING + "\n");
  }

  /** Restores the terminal; runs once whatever the exit path. */
  #shutdown(): void {
    if (this.#shutdownDone) return;
    this.#shutdownDone = true;
    try {
      this.#input?.close();
    } catch { /* the terminal is gone */ }
  }
}

/** `assist` with no arguments, or `assist --resume [<id>]` (`resume` "" = the latest session). */
export async function runRepl(resume?: string): Promise<number> {
  const config = loadConfig();
  let interactive = false;
  try {
    interactive = Deno.stdin.isTerminal();
  } catch { /* no stdin */ }
  const repl = new Repl(config, interactive, Deno.cwd());
  repl.resumeAtStart = resume;
  return await repl.run();
}
