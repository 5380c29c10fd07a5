/**
 * Session artifacts under `$ASSIST_HOME/sessions/` (0600 files in the 0700 folder), written as the
 * session goes, one commit per turn:
 *
 * - `<id>.log.md`: a readable transcript (prompt, tool calls with their inputs, result sizes and
 *   refusals, answers, notices, cost per turn), appended per turn.
 * - `<id>.messages.json`: exactly the messages array sent to the model (the agent's `messages`).
 *
 * Both are built from the agent's messages, which hold post-tokenization content only: the prompt
 * as the PHI gate passed it, tool inputs as the model sent them, the model's text as it came back
 * (tokens and all). Nothing detokenized for the screen is written here.
 *
 * Encoding of messages.json, chosen so a turn costs O(turn) however long the session is: one message
 * per line, `[` + (`\n<msg>` joined by `,`) + `\n]\n`, so the file always ends in the 3 bytes
 * `\n]\n`. A turn overwrites those 3 bytes with `,\n<msg>…\n]\n` in one positioned write, then
 * fsyncs. A crash inside that write can leave a torn tail: {@link readMessagesFile} (resume.ts)
 * keeps the complete turns before it and drops the unfinished one. A `/reset` (the array restarts)
 * rewrites the file atomically (core/atomic_write.ts).
 *
 * @module
 */
import { atomicWrite } from "../../core/atomic_write.ts";
import { homePaths } from "../../core/home.ts";
import type { ContentBlock, MessageParam } from "../model/types.ts";
import { turnCount } from "./turns.ts";

/** A new session id: UTC start time and 8 hex digits, e.g. `20260311T083012-9f3a01bc`. */
export function newSessionId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  const r = crypto.getRandomValues(new Uint8Array(4));
  return `${t}-${[...r].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A session id as {@link newSessionId} makes them (anything else is not a session of ours). */
export const SESSION_ID_RE = /^\d{8}T\d{6}-[0-9a-f]{8}$/;

/** The two artifact paths of a session. */
export function sessionFiles(home: string, id: string): { log: string; messages: string } {
  const dir = homePaths(home).sessions;
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  return { log: `${dir}${sep}${id}.log.md`, messages: `${dir}${sep}${id}.messages.json` };
}

const TAIL = "\n]\n";
const enc = new TextEncoder();

/** The messages file of these messages, whole. */
export function encodeMessages(messages: readonly MessageParam[]): string {
  return "[" + messages.map((m) => "\n" + JSON.stringify(m)).join(",") + TAIL;
}

/** What a turn adds to the log besides its messages. */
export interface TurnFacts {
  /** Cost of this turn's model requests in USD. */
  costUsd: number;
  /** Input and output tokens of this turn. */
  inputTokens: number;
  outputTokens: number;
  /** One-line notices of the turn (`phi>`, `model>`: never hold a value). */
  notices: readonly string[];
  cancelled?: boolean;
  /** The turn failed with this one-line reason (no answer). */
  error?: string;
}

/** Writes all of `text` to a file opened with `open` (0600), synced before it is closed. */
async function writeSynced(path: string, open: Deno.OpenOptions, text: string): Promise<void> {
  const f = await Deno.open(path, { ...open, mode: 0o600 });
  try {
    const bytes = enc.encode(text);
    let off = 0;
    while (off < bytes.length) off += await f.write(bytes.subarray(off));
    await f.sync();
  } finally {
    f.close();
  }
}

function appendFile(path: string, text: string): Promise<void> {
  return writeSynced(path, { append: true, create: true }, text);
}

function blocks(m: MessageParam): ContentBlock[] {
  return typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content as ContentBlock[];
}

function quoted(text: string): string {
  return text.split("\n").map((l) => `> ${l}`).join("\n");
}

/** The log entry of one turn, from its messages (post-tokenization) and facts. */
export function formatTurn(n: number, turn: readonly MessageParam[], facts: TurnFacts, at: Date): string {
  const out: string[] = [`## Turn ${n} · ${at.toISOString()}`, ""];
  for (const [i, m] of turn.entries()) {
    for (const b of blocks(m)) {
      const block = b as ContentBlock & Record<string, unknown>;
      if (block.type === "text" && m.role === "user" && i === 0) {
        out.push("**you**", "", quoted(String(block.text)), "");
      } else if (block.type === "text") {
        out.push(`**${m.role === "user" ? "you" : "assistant"}**`, "", quoted(String(block.text)), "");
      } else if (block.type === "tool_use") {
        out.push(`- tool \`${block.name}\` ${JSON.stringify(block.input)}`);
      } else if (block.type === "tool_result") {
        const c = block.content;
        const text = typeof c === "string"
          ? c
          : Array.isArray(c)
          ? c.map((x) => (x as { text?: string }).text ?? "").join("")
          : "";
        let refused = "";
        if (block.is_error) {
          try {
            const e = JSON.parse(text) as { error?: string };
            refused = ` · refused/failed: ${e.error ?? "error"}`;
          } catch {
            refused = " · refused/failed";
          }
        }
        out.push(`- result: ${enc.encode(text).length} bytes${refused}`);
      }
    }
    if (m.role === "user" && i > 0) out.push("");
  }
  for (const n of facts.notices) out.push(`- notice: ${n}`);
  if (facts.cancelled) out.push("- cancelled by the operator");
  if (facts.error) out.push(`- failed: ${facts.error}`);
  out.push(
    `- cost: $${facts.costUsd.toFixed(6)} (in ${facts.inputTokens}, out ${facts.outputTokens})`,
    "",
    "",
  );
  return out.join("\n");
}

/**
 * The writer of one session's artifacts. Created at the first turn (an idle session leaves no
 * files); {@link SessionRecorder.resume} continues an earlier session's files.
 *
 * @example
 * ```ts
 * import { SessionRecorder } from "./artifacts.ts";
 * import type { MessageParam } from "../model/types.ts";
 * declare const home: string;
 * declare const messages: MessageParam[];
 * const rec = await SessionRecorder.create(home, "20260311T083012-9f3a01bc", "0.10.0");
 * await rec.turn(messages, 0, { costUsd: 0.01, inputTokens: 900, outputTokens: 40, notices: [] });
 * ```
 */
export class SessionRecorder {
  readonly id: string;
  readonly files: { log: string; messages: string };
  /** Messages already in messages.json. */
  #written: number;
  /** Size of messages.json in bytes. */
  #size: number;
  #turns: number;
  #chain: Promise<void> = Promise.resolve();

  private constructor(
    id: string,
    files: { log: string; messages: string },
    written: number,
    size: number,
    turns: number,
  ) {
    this.id = id;
    this.files = files;
    this.#written = written;
    this.#size = size;
    this.#turns = turns;
  }

  /** Turns recorded so far (a resumed session counts its earlier turns). */
  get turns(): number {
    return this.#turns;
  }

  /** New artifacts for a new session (both files created 0600, refused if they exist). */
  static async create(home: string, id: string, version: string, now = new Date()): Promise<SessionRecorder> {
    const files = sessionFiles(home, id);
    const head = `# assist session ${id}\n\n- started: ${now.toISOString()}\n- version: ${version}\n\n`;
    await writeNew(files.log, head);
    await writeNew(files.messages, encodeMessages([]));
    return new SessionRecorder(id, files, 0, enc.encode(encodeMessages([])).length, 0);
  }

  /**
   * Continues an earlier session: messages.json is rewritten whole (atomically) from the messages
   * read back, which also drops a torn tail a crash may have left; the log gets a line saying so.
   */
  static async resume(
    home: string,
    id: string,
    messages: readonly MessageParam[],
    now = new Date(),
  ): Promise<SessionRecorder> {
    const files = sessionFiles(home, id);
    const text = encodeMessages(messages);
    await atomicWrite(files.messages, text, { mode: 0o600 });
    await appendFile(files.log, `_resumed ${now.toISOString()} with ${messages.length} message(s)_\n\n`);
    const turns = turnCount(messages);
    return new SessionRecorder(id, files, messages.length, enc.encode(text).length, turns);
  }

  /**
   * Commits one turn: the messages from `written` on go to messages.json, the transcript of
   * `messages.slice(turnStart)` to the log. Turns are committed one after another (never interleaved).
   */
  turn(messages: readonly MessageParam[], turnStart: number, facts: TurnFacts): Promise<void> {
    // A snapshot of what this turn needs only (not the whole history): O(turn), not O(session).
    const len = messages.length;
    const base = len < this.#written ? 0 : Math.min(this.#written, turnStart, len);
    const tail = messages.slice(base);
    const run = this.#chain.then(() => this.#commit(len, base, tail, turnStart, facts));
    this.#chain = run.catch(() => {});
    return run;
  }

  /** `/reset`: the messages array starts over, so messages.json does too (atomically). */
  cleared(): Promise<void> {
    const run = this.#chain.then(async () => {
      const text = encodeMessages([]);
      await atomicWrite(this.files.messages, text, { mode: 0o600 });
      this.#written = 0;
      this.#size = enc.encode(text).length;
      await appendFile(this.files.log, `_conversation cleared ${new Date().toISOString()}_\n\n`);
    });
    this.#chain = run.catch(() => {});
    return run;
  }

  /** A line in the log outside a turn (`/reset`, `/model`). */
  note(line: string): Promise<void> {
    const run = this.#chain.then(() => appendFile(this.files.log, `_${line}_\n\n`));
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Everything committed so far is on disk. */
  async flushed(): Promise<void> {
    await this.#chain;
  }

  async #commit(
    len: number,
    base: number,
    tail: MessageParam[],
    turnStart: number,
    facts: TurnFacts,
  ): Promise<void> {
    if (len < this.#written) {
      // The conversation was cleared (/reset): the array restarts, so the file does too.
      const text = encodeMessages(tail);
      await atomicWrite(this.files.messages, text, { mode: 0o600 });
      this.#written = len;
      this.#size = enc.encode(text).length;
    } else if (len > this.#written) {
      const add = tail.slice(this.#written - base);
      const text = (this.#written > 0 ? "," : "") + add.map((m) => "\n" + JSON.stringify(m)).join(",") + TAIL;
      const bytes = enc.encode(text);
      const f = await Deno.open(this.files.messages, { write: true });
      try {
        // Over the old `\n]\n`, in one positioned write; the file grows by the new part only.
        await f.seek(this.#size - TAIL.length, Deno.SeekMode.Start);
        let off = 0;
        while (off < bytes.length) off += await f.write(bytes.subarray(off));
        await f.sync();
      } finally {
        f.close();
      }
      this.#size += bytes.length - TAIL.length;
      this.#written = len;
    }
    const turn = tail.slice(Math.max(0, Math.min(turnStart, len) - base));
    if (turn.length === 0 && !facts.error && !facts.cancelled && facts.notices.length === 0) return;
    this.#turns++;
    await appendFile(this.files.log, formatTurn(this.#turns, turn, facts, new Date()));
  }
}

async function writeNew(path: string, text: string): Promise<void> {
  await writeSynced(path, { write: true, createNew: true }, text);
  if (Deno.build.os !== "windows") await Deno.chmod(path, 0o600);
}
