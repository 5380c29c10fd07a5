/**
 * The conversation, owned by neither front: the session id, the messages, the cost meter, the last
 * tool call, the session recorder (cli/sessions/artifacts.ts), the PHI gate, and the files `/load`ed
 * for the next prompt. The REPL (cli/repl/repl.ts) and `-p` (cli/headless.ts) each drive one with
 * `turn(prompt, signal, io)`, which commits itself to the session artifacts as it ends; a third front
 * has the same one object to drive.
 *
 * The client and loop (`Agent`, cli/agent/loop.ts) is built at the first turn and borrows this
 * conversation's state, so new credentials (`credentialsChanged`) mean a new client under the same
 * messages, cost and last tool; `resume(id)` and `reset()` change the state in place.
 */
import type { Config } from "../../core/config.ts";
import { lazy } from "../../core/lazy.ts";
import { VERSION } from "../../core/version.ts";
import { CostMeter } from "../model/pricing.ts";
import type { MessageParam } from "../model/types.ts";
import type { RateLimitReading } from "../model/ratelimit.ts";
import type { PhiPrompter } from "../../phi/prompter.ts";
import { newSessionId, type SessionRecorder } from "../sessions/artifacts.ts";
import type { Agent, AgentIO, ConversationState, ToolCallRecord, TurnResult } from "./loop.ts";
import type { SessionPhiGate } from "./phi_adapter.ts";

export interface ConversationOptions {
  config: Config;
  cwd: string;
  /** Which front drives it (how errors name commands). */
  front: "cli" | "repl";
  /** The model of the first turn (`--model`). @default config.model */
  model?: string;
  /** The terminal's prompter (confirm questions, review gate); absent without a terminal. */
  prompter?: PhiPrompter;
  /** Rate-limit readings of every response (the REPL's status line). */
  onRateLimit?: (reading: RateLimitReading) => void;
  /** Where a failure to write the session artifacts is said (one line). */
  warn: (line: string) => void;
}

/** The outcome of a turn, for the session log. */
interface TurnOutcome {
  cancelled?: boolean;
  error?: string;
}

/** What `resume` read. */
export interface Resumed {
  id: string;
  messages: MessageParam[];
  /** An unfinished last turn was dropped from the file. */
  repaired: boolean;
  /** Turns of the session so far. */
  turns: number;
}

export class Conversation implements ConversationState {
  readonly messages: MessageParam[] = [];
  readonly meter = new CostMeter();
  lastTool?: ToolCallRecord;
  model: string;
  readonly #o: ConversationOptions;
  #sessionId = newSessionId();
  #recorder?: SessionRecorder;
  #gate?: Promise<SessionPhiGate>;
  #agent?: Agent;
  #agentPending?: Promise<Agent>;
  /** The io of the turn running now: the client's notices and text go there. */
  #io?: AgentIO;
  #notices: string[] = [];
  #attachments: Array<{ label: string; text: string }> = [];

  constructor(o: ConversationOptions) {
    this.#o = o;
    this.model = o.model ?? o.config.model;
  }

  get sessionId(): string {
    return this.#sessionId;
  }

  /** The session's PHI gate (one per session: confirm decisions and one-time warnings live in it). */
  gate(): Promise<SessionPhiGate> {
    return this.#gate ??= (async () => {
      const { createPhiGate } = await lazy<typeof import("./phi_adapter.ts")>(
        import.meta.url,
        "./phi_adapter.ts",
      );
      return await createPhiGate(this.#o.config, { prompter: this.#o.prompter, sessionId: this.#sessionId });
    })();
  }

  /** A file `/load`ed for the next prompt. */
  attach(label: string, text: string): void {
    this.#attachments.push({ label, text });
  }

  /** Files `/load`ed and not yet sent. */
  get attachments(): readonly { label: string; text: string }[] {
    return this.#attachments;
  }

  /**
   * One agent turn: the attachments go with the prompt (and are used up once the client is there),
   * then the loop runs with `io` for what the operator sees; the turn is committed to the session
   * artifacts as it ends, whatever its outcome. Throws what the loop throws (after recording it).
   */
  async turn(
    prompt: string,
    signal: AbortSignal,
    io: AgentIO,
    attached: (text: string) => string = (t) => t,
  ): Promise<TurnResult> {
    this.#io = io;
    try {
      if (this.#attachments.length) {
        prompt += this.#attachments.map((a) => `\n\n[loaded ${a.label}]\n${attached(a.text)}`).join("");
      }
      const agent = await this.#client();
      if (signal.aborted) return { answer: "", toolCalls: [], rounds: 0, cancelled: true, unsent: true };
      this.#attachments = [];
      agent.model = this.model;
      const start = this.messages.length;
      const before = this.meter.streams.length;
      let outcome: TurnOutcome = {};
      try {
        const r = await agent.turn(prompt, signal);
        outcome = { cancelled: r.cancelled };
        return r;
      } catch (err) {
        // Ctrl-C at a question of the turn (review, confirm) cancels it, as Ctrl-C during the answer.
        outcome = signal.aborted && (err as { exitCode?: number })?.exitCode === 130
          ? { cancelled: true }
          : { error: (err as Error)?.message?.split("\n")[0] ?? String(err) };
        throw err;
      } finally {
        await this.#record(start, before, outcome);
      }
    } finally {
      this.#io = undefined;
    }
  }

  /**
   * Builds the client now (a front that reports a failure to build it, a missing key say, apart from
   * a failed turn); `turn` does it too.
   */
  async prepare(): Promise<void> {
    await this.#client();
  }

  /**
   * A line for this turn's session log that the front said itself (before the turn: names in free
   * text not covered, say); the client's notices are collected by themselves.
   */
  notice(line: string): void {
    this.#notices.push(line);
  }

  /** The client, built once (and again after `credentialsChanged`), on this conversation's state. */
  #client(): Promise<Agent> {
    if (this.#agent) return Promise.resolve(this.#agent);
    return this.#agentPending ??= (async () => {
      try {
        const [{ createAgent }, gate] = await Promise.all([
          lazy<typeof import("../build_agent.ts")>(import.meta.url, "../build_agent.ts"),
          this.gate(),
        ]);
        this.#agent = await createAgent({
          config: this.#o.config,
          gate,
          cwd: this.#o.cwd,
          model: this.model,
          front: this.#o.front,
          onRateLimit: this.#o.onRateLimit,
          state: this,
          io: {
            text: (t) => this.#io?.text(t),
            toolCall: (name, input) => this.#io?.toolCall(name, input),
            toolResult: (rec) => this.#io?.toolResult?.(rec),
            notice: (line) => {
              this.#notices.push(line);
              if (this.#io) this.#io.notice(line);
              else this.#o.warn(line);
            },
            activity: (limit) => this.#io?.activity?.(limit),
            attemptBroken: () => this.#io?.attemptBroken?.(),
            attemptDone: () => this.#io?.attemptDone?.(),
          },
        });
        return this.#agent;
      } finally {
        this.#agentPending = undefined;
      }
    })();
  }

  /** The stored key or token changed: the next turn builds its client anew, on the same talk. */
  credentialsChanged(): void {
    this.#agent = undefined;
  }

  /** `/clear`: the talk starts over (the session log says so); cost and session id stay. */
  reset(): void {
    this.messages.length = 0;
    this.#attachments = [];
    this.#recorder?.cleared().catch((err) => this.#o.warn(`assist: session log: ${(err as Error).message}`));
  }

  /**
   * Continues an earlier session (no id: the latest other than this one) from its messages file,
   * which is checked whole first: a damaged or foreign file is refused and nothing changes.
   */
  async resume(id?: string): Promise<Resumed> {
    const [
      { readMessagesFile, sessionIds },
      { SessionRecorder, sessionFiles, SESSION_ID_RE },
      { AssistError },
    ] = await Promise.all([
      lazy<typeof import("../sessions/resume.ts")>(import.meta.url, "../sessions/resume.ts"),
      lazy<typeof import("../sessions/artifacts.ts")>(import.meta.url, "../sessions/artifacts.ts"),
      lazy<typeof import("../../core/errors.ts")>(import.meta.url, "../../core/errors.ts"),
    ]);
    const home = this.#o.config.home;
    if (id === undefined) {
      id = (await sessionIds(home)).find((s) => s.id !== this.#sessionId)?.id;
      if (!id) {
        throw new AssistError("no earlier session to resume (/sessions lists them)", { level: "input" });
      }
    }
    if (!SESSION_ID_RE.test(id)) {
      throw new AssistError(`not a session id: ${id.slice(0, 40)} (/sessions lists them)`, {
        level: "input",
      });
    }
    if (id === this.#sessionId) throw new AssistError("that is this session", { level: "input" });
    const { messages, repaired } = await readMessagesFile(sessionFiles(home, id).messages);
    await this.#recorder?.flushed();
    await this.gate();
    this.#recorder = await SessionRecorder.resume(home, id, messages);
    this.#sessionId = id;
    this.messages.length = 0;
    this.messages.push(...messages);
    this.#attachments = [];
    return { id, messages, repaired, turns: this.#recorder.turns };
  }

  /** The session's artifact files, once something was recorded (the REPL uploads them at exit). */
  get recorder(): SessionRecorder | undefined {
    return this.#recorder;
  }

  /** The session's artifact files, made (empty) now when no turn made them: an upload sends all three. */
  async ensureRecorder(): Promise<SessionRecorder> {
    if (this.#recorder) return this.#recorder;
    const { SessionRecorder } = await lazy<typeof import("../sessions/artifacts.ts")>(
      import.meta.url,
      "../sessions/artifacts.ts",
    );
    return this.#recorder ??= await SessionRecorder.create(this.#o.config.home, this.#sessionId, VERSION);
  }

  /** Waits for the last write of the session artifacts. */
  async flushed(): Promise<void> {
    await this.#recorder?.flushed();
  }

  /** Commits the turn just ended to the session artifacts; a failure is one line, never fatal. */
  async #record(turnStart: number, streamsBefore: number, outcome: TurnOutcome): Promise<void> {
    const notices = this.#notices;
    this.#notices = [];
    try {
      if (!this.#recorder) {
        if (this.messages.length === turnStart && !outcome.error) return; // nothing happened
        const { SessionRecorder } = await lazy<typeof import("../sessions/artifacts.ts")>(
          import.meta.url,
          "../sessions/artifacts.ts",
        );
        this.#recorder = await SessionRecorder.create(this.#o.config.home, this.#sessionId, VERSION);
      }
      const streams = this.meter.streams.slice(streamsBefore);
      await this.#recorder.turn(this.messages, turnStart, {
        costUsd: streams.reduce((a, s) => a + s.cost.total, 0),
        inputTokens: streams.reduce((a, s) => a + s.usage.input_tokens, 0),
        outputTokens: streams.reduce((a, s) => a + s.usage.output_tokens, 0),
        notices,
        ...outcome,
      });
    } catch (err) {
      this.#o.warn(`assist: session artifacts not written: ${(err as Error)?.message ?? err}`);
    }
  }
}
