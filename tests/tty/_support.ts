/**
 * Shared set-up of the REPL suites: a temporary home and working folder, the fake model API, and the
 * program started in tmux as an operator would start it.
 */
import { FakeModelApi } from "../support/fake_model_api.ts";
import { tempDir } from "../support/run_assist.ts";
import { replEnv } from "../support/repl_env.ts";
import { type TmuxOptions, TmuxSession } from "../support/tmux.ts";

export const TOKEN_RE = /\[\[[^\[\]\s]{1,80}\]\]/g;
/** The prompt of the default model. */
export const PROMPT = "you[sonnet.4.6]> ";

export interface ReplRig extends AsyncDisposable {
  home: string;
  cwd: string;
  fake: FakeModelApi;
  term: TmuxSession;
  /** Every body sent to the model so far. */
  sent(): string;
}

export async function startRepl(
  o: { env?: Record<string, string>; tmux?: TmuxOptions; fake?: FakeModelApi; home?: string } = {},
): Promise<ReplRig> {
  const dir = o.home ? undefined : await tempDir("assist-repl-");
  const home = o.home ?? dir!.path;
  const cwd = `${home}/work`;
  await Deno.mkdir(cwd, { recursive: true });
  const fake = o.fake ?? new FakeModelApi();
  const term = await TmuxSession.start({
    cwd,
    ...o.tmux,
    env: { ...replEnv(home, fake, o.env), ...o.tmux?.env },
  });
  return {
    home,
    cwd,
    fake,
    term,
    sent: () => fake.messageRequests.map((r) => r.body).join("\n"),
    async [Symbol.asyncDispose]() {
      await term.close();
      if (!o.fake) await fake.close();
      await dir?.[Symbol.asyncDispose]();
    },
  };
}

/** Lines of the screen that are prompts (`you[...]> ...`). */
export function promptLines(screen: string): string[] {
  return screen.split("\n").filter((l) => /^you\[[^\]]+\]> /.test(l));
}

/**
 * Starts a turn whose answer streams its first words and then hangs (the fake sends the stream's
 * opening events and the text deltas, then nothing): at return the prompt's Enter was sent and
 * "Streaming a long" is on the screen, so a key can be pressed mid-stream.
 */
export async function hangingTurn(rig: ReplRig, prompt = "first"): Promise<void> {
  // message_start, a comment, ping, content_block_start, then the text deltas: and nothing more.
  rig.fake.faults.push({ kind: "hang", afterEvents: 8 });
  rig.fake.replies.push({ text: "Streaming a long answer" });
  await rig.term.waitForPrompt();
  await rig.term.type(prompt);
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Streaming a long/, "the streamed start");
}
