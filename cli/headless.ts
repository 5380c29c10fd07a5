/**
 * Headless mode for scripts: `assist -p "<prompt>"` runs one agent turn to completion and prints the
 * answer (detokenized) to stdout; notices and tool-call lines go to stderr; `--json` prints one JSON
 * transcript instead. Exit codes: 0 answered, 1 the model call or a refusal failed, 2 usage, 130
 * interrupted. There is no review gate here (no terminal to ask on), as the spec says. `@file`
 * references in the prompt are attached (warnings on stderr; the REPL's one-time tip is not printed
 * to scripts). The run is a session of its own: its turn is committed to `sessions/<id>.log.md` and
 * `.messages.json` (cli/sessions/artifacts.ts); the upload at exit belongs to the REPL.
 */
import { AssistError, EXIT } from "../core/errors.ts";
import { writeText } from "../core/term.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";
import { ModelError } from "./model/errors.ts";
import { createAgent } from "./session.ts";
import { formatToolCall } from "./repl/turn_view.ts";
import { createPhiGate } from "./agent/phi_adapter.ts";
import { namesCoverage } from "../phi/mod.ts";
import { expandFileRefs } from "./file_refs.ts";
import { newSessionId, SessionRecorder } from "./sessions/artifacts.ts";
import { VERSION } from "../core/version.ts";

export interface HeadlessArgs {
  prompt: string;
  json: boolean;
  model?: string;
}

/**
 * Parses `-p <prompt> [--json] [--model <id>]` in any order (`--json -p <prompt>`, `-p --json
 * <prompt>`); the prompt may also be `-` for stdin.
 */
export function parseHeadlessArgs(args: string[]): HeadlessArgs {
  let prompt: string | undefined;
  let json = false;
  let model: string | undefined;
  let print = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-p" || a === "--print") {
      if (print) throw new AssistError("-p given twice", { level: "usage" });
      print = true;
      // The prompt follows -p, unless one of -p's own options comes first (`-p --json <prompt>`).
      const next = args[i + 1];
      if (next !== undefined && next !== "--json" && next !== "--model") {
        prompt = next;
        i++;
      }
    } else if (a === "--json") json = true;
    else if (a === "--model") {
      model = args[++i];
      if (!model) throw new AssistError("--model needs a model id", { level: "usage" });
    } else if (print && prompt === undefined && (a === "-" || !a.startsWith("-"))) prompt = a;
    else throw new AssistError(`unknown option for -p: ${a} (see \`assist -p --help\`)`, { level: "usage" });
  }
  if (prompt === undefined) {
    throw new AssistError("-p needs a prompt (or - for standard input)", { level: "usage" });
  }
  return { prompt, json, model };
}

const out = (s: string) => writeText("stdout", s);
const err = (s: string) => writeText("stderr", s);

export async function runHeadless(argv: string[]): Promise<number> {
  const args = parseHeadlessArgs(argv);
  let prompt = args.prompt;
  if (prompt === "-") prompt = await new Response(Deno.stdin.readable).text();
  if (prompt.trim() === "") throw new AssistError("the prompt is empty", { level: "usage" });
  const config = loadConfig();
  await ensureHome(config.home);
  const cwd = Deno.cwd();
  // `@file` references are expanded before the turn, whose PHI gate then tokenizes the whole text.
  const refs = await expandFileRefs(prompt, { cwd, home: config.home });
  for (const w of refs.warnings) err(`assist: ${w}\n`);
  prompt = refs.text;
  const sessionId = newSessionId();
  const gate = await createPhiGate(config, { sessionId });
  const notices: string[] = [];
  // Said before the turn: names in free text go uncovered when the sidecar is down and the
  // built-in recognizer is off.
  const coverage = await namesCoverage(config);
  if (coverage) {
    notices.push(coverage);
    err(coverage + "\n");
  }
  const agent = await createAgent({
    config,
    gate,
    cwd,
    model: args.model,
    io: {
      text: (t) => args.json || out(t),
      toolCall: (name, input) => err(formatToolCall(name, input) + "\n"),
      notice: (line) => {
        notices.push(line);
        err(line + "\n");
      },
    },
  });
  /** The turn goes to the session artifacts whatever its outcome; a failure to write is one line. */
  const record = async (outcome: { cancelled?: boolean; error?: string }) => {
    if (agent.messages.length === 0 && !outcome.error) return;
    try {
      const rec = await SessionRecorder.create(config.home, sessionId, VERSION);
      const streams = agent.meter.streams;
      await rec.turn(agent.messages, 0, {
        costUsd: agent.meter.total.total,
        inputTokens: streams.reduce((a, s) => a + s.usage.input_tokens, 0),
        outputTokens: streams.reduce((a, s) => a + s.usage.output_tokens, 0),
        notices,
        ...outcome,
      });
    } catch (e) {
      err(`assist: session artifacts not written: ${(e as Error).message}\n`);
    }
  };
  const abort = new AbortController();
  const onInt = () => abort.abort();
  try {
    Deno.addSignalListener("SIGINT", onInt);
  } catch { /* no signals here */ }
  try {
    let r;
    try {
      r = await agent.turn(prompt, abort.signal);
    } catch (e) {
      await record({ error: (e as Error).message.split("\n")[0] });
      throw e;
    }
    await record({ cancelled: r.cancelled });
    if (r.cancelled) {
      err("assist: cancelled\n");
      return EXIT.interrupted;
    }
    const total = agent.meter.total;
    if (args.json) {
      out(
        JSON.stringify({
          model: agent.model,
          answer: r.answer,
          rounds: r.rounds,
          tool_calls: r.toolCalls.map((c) => ({
            name: c.name,
            input: gate.toolInput(c.input),
            is_error: c.isError,
            result_bytes: c.result.length,
          })),
          usage: total.tokens,
          cost_usd: Number(total.total.toFixed(6)),
        }) + "\n",
      );
    } else if (!r.answer.endsWith("\n")) {
      out("\n");
    }
    return EXIT.ok;
  } catch (e) {
    if (e instanceof ModelError) {
      err(`assist: ${e.message}\n`);
      return EXIT.failure;
    }
    throw e;
  } finally {
    try {
      Deno.removeSignalListener("SIGINT", onInt);
    } catch { /* ignore */ }
  }
}
