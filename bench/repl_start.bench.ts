/**
 * Start to prompt of the interactive assistant on a terminal, against an empty `deno run` under the
 * same flags (target: at most 1.5×). Both run under script(1), which gives them a pseudo-terminal;
 * `/quit` is typed ahead, so the REPL leaves as soon as its prompt reads it. The difference to the
 * baseline is what the operator waits for: start-up lines, history, raw mode, the prompt.
 *
 *     deno bench -q -P=test bench/repl_start.bench.ts      (needs script(1), from util-linux)
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";

const home = await Deno.makeTempDir({ prefix: "assist-bench-start-" });
globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));

function q(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

async function underPty(args: string[]): Promise<void> {
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", [Deno.execPath(), ...args].map(q).join(" "), "/dev/null"],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    env: { NO_COLOR: "1", HOME: home, ASSIST_HOME: `${home}/.assist`, TERM: "xterm-256color" },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode("/quit\r"));
  await w.close();
  const s = await child.status;
  if (!s.success) throw new Error(`exit ${s.code}: ${args.join(" ")}`);
}

const empty = ["run", "-q", "-P=assist", "--config", CONFIG, `${REPO_ROOT}bench/_empty.ts`];

Deno.bench("empty deno run script (pty)", { group: "repl-start", baseline: true }, async () => {
  await underPty(empty);
});

Deno.bench("assist: start to prompt, then /quit (pty)", { group: "repl-start" }, async () => {
  await underPty(assistCommandArgs([]));
});
