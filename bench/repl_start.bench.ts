/**
 * Start to prompt of the interactive assistant on a terminal, against an empty `deno run` under the
 * same flags (target: at most 1.5×). Both run under script(1), which gives them a pseudo-terminal.
 * The assist row ends when the prompt `you[…]> ` reaches the terminal (then the process is
 * stopped); the baseline ends when the empty script exits. The difference is what the operator
 * waits for: start-up lines, history, raw mode, the prompt.
 *
 *     deno bench -q -P=test bench/repl_start.bench.ts      (needs script(1), from util-linux)
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";

const home = await Deno.makeTempDir({ prefix: "assist-bench-start-" });
globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));

function q(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Runs `args` on a pseudo-terminal until `until` appears in its output, or until it exits. */
async function underPty(args: string[], until?: string): Promise<void> {
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", [Deno.execPath(), ...args].map(q).join(" "), "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1", HOME: home, ASSIST_HOME: `${home}/.assist`, TERM: "xterm-256color" },
  }).spawn();
  const dec = new TextDecoder();
  let seen = "";
  for await (const chunk of child.stdout) {
    seen += dec.decode(chunk, { stream: true });
    if (until && seen.includes(until)) break;
  }
  if (until) {
    if (!seen.includes(until)) throw new Error(`no ${until} in: ${seen}`);
    child.kill("SIGKILL");
  }
  await child.stdin.close().catch(() => {});
  await child.status;
}

const empty = ["run", "-q", "-P=assist", "--config", CONFIG, `${REPO_ROOT}bench/_empty.ts`];

Deno.bench("empty deno run script (pty)", { group: "repl-start", baseline: true }, async () => {
  await underPty(empty);
});

Deno.bench("assist: start to prompt (pty)", { group: "repl-start" }, async () => {
  await underPty(assistCommandArgs([]), "]> ");
});
