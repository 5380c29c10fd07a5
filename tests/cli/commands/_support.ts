/** A recording CommandIO and a fake ReplHost for in-process command tests. */
import { type Config, loadConfig } from "../../../core/config.ts";
import { Secret } from "../../../core/secret.ts";
import type { CommandContext, CommandIO, Front, ReplHost } from "../../../cli/commands/table.ts";

export interface RecordingIO extends CommandIO {
  outs: string[];
  warns: string[];
  prompts: string[];
  /** Everything written, in order, one entry per call. */
  readonly all: string;
}

export function recordingIO(front: Front, answers: { secret?: string; key?: string } = {}): RecordingIO {
  const outs: string[] = [];
  const warns: string[] = [];
  const prompts: string[] = [];
  const log: string[] = [];
  return {
    front,
    outs,
    warns,
    prompts,
    get all() {
      return log.join("\n");
    },
    out(text) {
      outs.push(text);
      log.push(text);
    },
    warn(text) {
      warns.push(text);
      log.push(text);
    },
    readSecret(prompt) {
      prompts.push(prompt);
      return Promise.resolve(new Secret(answers.secret ?? "secret-value-123"));
    },
    readKey(prompt, allowed, fallback) {
      prompts.push(prompt);
      const k = answers.key ?? fallback;
      return Promise.resolve(allowed.includes(k) ? k : fallback);
    },
  };
}

export function testConfig(home: string, env: Record<string, string> = {}): Config {
  const all: Record<string, string> = { ASSIST_HOME: home, ...env };
  return loadConfig((n) => all[n]);
}

export interface FakeRepl extends ReplHost {
  calls: string[];
  attached: Array<{ label: string; text: string }>;
  submitted: string[];
  answer?: string;
  tool?: ReturnType<ReplHost["lastTool"]>;
}

export function fakeRepl(config: Config): FakeRepl {
  const calls: string[] = [];
  const r: FakeRepl = {
    config,
    model: config.model,
    phiMode: config.autoPhi,
    calls,
    attached: [],
    submitted: [],
    setModel(id) {
      calls.push(`setModel ${id}`);
      r.model = id;
    },
    reset: () => void calls.push("reset"),
    clearScreen: () => void calls.push("clearScreen"),
    quit: () => void calls.push("quit"),
    submit(prompt) {
      calls.push("submit");
      r.submitted.push(prompt);
      return Promise.resolve();
    },
    attach(label, text) {
      calls.push(`attach ${label}`);
      r.attached.push({ label, text });
    },
    lastAnswer: () => r.answer,
    lastTool: () => r.tool,
    costText: () => "cost: $0.00",
    statusLine: () => "status: sonnet-4.6 | ctx —",
    setMouse: (on) => void calls.push(`setMouse ${on}`),
    resume(id) {
      calls.push(`resume ${id ?? ""}`.trim());
      return Promise.resolve(`resumed ${id ?? "latest"}`);
    },
    sessions: () => Promise.resolve("no sessions yet"),
  };
  return r;
}

export function replContext(home: string, env: Record<string, string> = {}, answers = {}) {
  const config = testConfig(home, env);
  const io = recordingIO("repl", answers);
  const repl = fakeRepl(config);
  const ctx: CommandContext = { config, io, repl };
  return { config, io, repl, ctx };
}
