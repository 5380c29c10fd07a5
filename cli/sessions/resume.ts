/**
 * Reading sessions back: a messages file checked whole before anything is loaded (`--resume`,
 * `/resume`), and the list of recent sessions (`/sessions`).
 *
 * A messages file is accepted when it is a JSON array of `{role, content}` messages that starts with
 * a user prompt, alternates user/assistant, answers every tool call and ends with an assistant
 * message (a finished turn). The one repair: a torn tail a crash left inside the last append
 * (artifacts.ts writes one message per line) is dropped back to the last finished turn, and only
 * when at least one finished turn remains and every line before the tear is a whole message.
 * Anything else (not JSON, not an array, a foreign shape, cut inside the first turn) is refused with
 * one line, and nothing of it is loaded.
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import { homePaths } from "../../core/home.ts";
import type { MessageParam } from "../model/types.ts";
import { SESSION_ID_RE, sessionFiles } from "./artifacts.ts";
import { prompts } from "./turns.ts";

function bad(path: string, why: string): AssistError {
  return new AssistError(`cannot resume from ${path}: ${why}`, { level: "refused" });
}

/** Why these messages are not a finished conversation, or undefined when they are. */
export function conversationProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "not a messages array";
  if (value.length === 0) return "no turns in it";
  let open = new Set<string>();
  for (const [i, m] of value.entries()) {
    if (typeof m !== "object" || m === null || Array.isArray(m)) return `message ${i + 1} is not an object`;
    const { role, content } = m as Record<string, unknown>;
    const want = i % 2 === 0 ? "user" : "assistant";
    if (role !== want) return `message ${i + 1} should be from the ${want}`;
    if (typeof content === "string") {
      if (role === "user" && open.size) return `message ${i + 1} leaves tool calls unanswered`;
      continue;
    }
    if (!Array.isArray(content) || content.length === 0) return `message ${i + 1} has no content`;
    const next = new Set<string>();
    for (const b of content) {
      if (typeof b !== "object" || b === null || typeof (b as { type?: unknown }).type !== "string") {
        return `message ${i + 1} has a malformed block`;
      }
      const blk = b as { type: string; id?: unknown; tool_use_id?: unknown };
      if (blk.type === "tool_use") {
        if (role !== "assistant" || typeof blk.id !== "string") return `message ${i + 1} has a bad tool call`;
        next.add(blk.id);
      } else if (blk.type === "tool_result") {
        if (role !== "user" || !open.has(String(blk.tool_use_id))) {
          return `message ${i + 1} answers a tool call that was not made`;
        }
        open.delete(String(blk.tool_use_id));
      }
    }
    if (role === "user" && open.size) return `message ${i + 1} leaves tool calls unanswered`;
    open = next;
  }
  if (value.length % 2 !== 0) return "it ends inside a turn";
  if (open.size) return "it ends with unanswered tool calls";
  return undefined;
}

/** The messages of the torn file's whole lines, cut back to the last finished turn; or undefined. */
function repairTornTail(text: string): MessageParam[] | undefined {
  const lines = text.split("\n");
  if (lines[0] !== "[") return undefined;
  const msgs: MessageParam[] = [];
  // Every line but the last (the torn one) must be a whole message, followed by its comma.
  for (const line of lines.slice(1, -1)) {
    try {
      msgs.push(JSON.parse(line.endsWith(",") ? line.slice(0, -1) : line));
    } catch {
      return undefined;
    }
  }
  for (let n = msgs.length; n >= 2; n--) {
    if (conversationProblem(msgs.slice(0, n)) === undefined) return msgs.slice(0, n);
  }
  return undefined;
}

export interface LoadedMessages {
  messages: MessageParam[];
  /** A torn tail was dropped (the turn in flight when the program died). */
  repaired: boolean;
}

/**
 * Reads and checks a messages file whole; throws a one-line AssistError when it is refused.
 *
 * @example
 * ```ts
 * import { readMessagesFile } from "./resume.ts";
 * const { messages } = await readMessagesFile("/home/op/.assist/sessions/x.messages.json");
 * ```
 */
export async function readMessagesFile(path: string): Promise<LoadedMessages> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw bad(path, err instanceof Deno.errors.NotFound ? "no such session" : (err as Error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const repaired = repairTornTail(text);
    if (repaired) return { messages: repaired, repaired: true };
    throw bad(path, "damaged or truncated (not a whole JSON array of messages)");
  }
  const problem = conversationProblem(value);
  if (problem) throw bad(path, problem);
  return { messages: value as MessageParam[], repaired: false };
}

export interface SessionSummary {
  id: string;
  /** Start time (from the id). */
  start: Date;
  /** The first prompt as the model got it (tokenized); detokenize it to show it. */
  firstPrompt: string;
  turns: number;
  costUsd: number;
  mtime: number;
}

function startOf(id: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(id)!;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
}

/** Ids of the sessions in the folder that have a messages file, newest first. */
export async function sessionIds(home: string): Promise<Array<{ id: string; mtime: number }>> {
  const out: Array<{ id: string; mtime: number }> = [];
  const dir = homePaths(home).sessions;
  try {
    for await (const e of Deno.readDir(dir)) {
      const m = /^(.+)\.messages\.json$/.exec(e.name);
      if (!e.isFile || !m || !SESSION_ID_RE.test(m[1])) continue;
      const info = await Deno.stat(sessionFiles(home, m[1]).messages).catch(() => undefined);
      out.push({ id: m[1], mtime: info?.mtime?.getTime() ?? 0 });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort((a, b) => (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
}

/** The most recent sessions (up to `limit`), with what `/sessions` shows. */
export async function listSessions(home: string, limit = 10): Promise<SessionSummary[]> {
  const out: SessionSummary[] = [];
  for (const { id, mtime } of (await sessionIds(home)).slice(0, limit)) {
    const files = sessionFiles(home, id);
    let firstPrompt = "";
    let turns = 0;
    try {
      const { messages } = await readMessagesFile(files.messages);
      const asked = prompts(messages);
      firstPrompt = String(asked[0]?.content ?? "");
      turns = asked.length;
    } catch {
      firstPrompt = "(damaged: cannot be resumed)";
    }
    const log = await Deno.readTextFile(files.log).catch(() => "");
    let costUsd = 0;
    for (const m of log.matchAll(/^- cost: \$([0-9.]+)/gm)) costUsd += Number(m[1]);
    out.push({ id, start: startOf(id), firstPrompt, turns, costUsd, mtime });
  }
  return out;
}

/** `/sessions` lines; `show` detokenizes the first prompt for the operator's screen. */
export function formatSessions(list: readonly SessionSummary[], show: (tokenized: string) => string): string {
  if (list.length === 0) return "no sessions yet";
  return list.map((s) => {
    const first = show(s.firstPrompt).replace(/\s+/g, " ").trim();
    const cut = first.length > 60 ? `${first.slice(0, 59)}…` : first;
    const start = s.start.toISOString().slice(0, 16).replace("T", " ");
    return `${s.id}  ${start}Z  ${s.turns} turn(s)  $${s.costUsd.toFixed(4)}  ${cut}`;
  }).join("\n");
}
