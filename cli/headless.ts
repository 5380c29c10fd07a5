/**
 * Headless mode for scripts: `assist -p "<prompt>"` runs one agent turn to completion and prints the
 * answer (detokenized) to stdout; notices and tool-call lines go to stderr; `--json` prints one JSON
 * transcript instead. stdout holds finished answers only: an answer's text is held until its
 * stream ends, so an attempt that broke off (a mid-stream error, a reset) and is sent again leaves
 * nothing there, only its notice on stderr. The turn has an overall bound
 * (`ASSIST_TURN_TIMEOUT`, default 30 min; the idle limit of each request is apart from it): past
 * it the turn stops with one line and exit 1, whatever the API sends meanwhile (pings, say). Exit codes: 0 answered, 1 the model call or a refusal failed, 2 usage, 130
 * interrupted. There is no review gate here (no terminal to ask on), as the spec says. `@file`
 * references in the prompt are attached (warnings on stderr; the REPL's one-time tip is not printed
 * to scripts). The run is a session of its own: its turn is committed to `sessions/<id>.log.md` and
 * `.messages.json` (cli/sessions/artifacts.ts); the upload at exit belongs to the REPL.
 */
import { AssistError, EXIT, exitCodeOf } from "../core/errors.ts";
import { writeText } from "../core/term.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";
import { ModelError } from "./model/errors.ts";
import { formatToolCall } from "./repl/turn_view.ts";
import { Conversation } from "./agent/conversation.ts";
import { namesCoverage } from "../phi/mod.ts";
import { expandFileRefs } from "./file_refs.ts";

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
  const conv = new Conversation({
    config,
    cwd,
    front: "cli",
    model: args.model,
    warn: (line) => err(line + "\n"),
  });
  // Said before the turn: names in free text go uncovered when the sidecar is down and the
  // built-in recognizer is off.
  const coverage = await namesCoverage(config);
  if (coverage) {
    conv.notice(coverage);
    err(coverage + "\n");
  }
  let held = "";
  const io = {
    text: (t: string) => {
      if (!args.json) held += t;
    },
    attemptDone: () => {
      if (held) out(held);
      held = "";
    },
    attemptBroken: () => held = "",
    toolCall: (name: string, input: Record<string, unknown>) => err(formatToolCall(name, input) + "\n"),
    notice: (line: string) => err(line + "\n"),
  };
  const abort = new AbortController();
  const onInt = () => abort.abort();
  try {
    Deno.addSignalListener("SIGINT", onInt);
  } catch { /* no signals here */ }
  const bound = config.turnTimeoutSeconds;
  let overdue = false;
  const deadline = bound > 0
    ? setTimeout(() => {
      overdue = true;
      abort.abort();
    }, bound * 1000)
    : undefined;
  try {
    // One turn, committed to the session artifacts by the conversation whatever its outcome.
    const r = await conv.turn(prompt, abort.signal, io);
    if (overdue) {
      err(
        `assist: the turn took longer than ${bound} s and was stopped (ASSIST_TURN_TIMEOUT sets the bound; ` +
          `0: none)\n`,
      );
      return EXIT.failure;
    }
    if (r.cancelled) {
      err("assist: cancelled\n");
      return EXIT.interrupted;
    }
    const total = conv.meter.total;
    if (args.json) {
      const gate = await conv.gate();
      out(
        JSON.stringify({
          model: conv.model,
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
      return exitCodeOf(e);
    }
    throw e;
  } finally {
    clearTimeout(deadline);
    try {
      Deno.removeSignalListener("SIGINT", onInt);
    } catch { /* ignore */ }
  }
}
