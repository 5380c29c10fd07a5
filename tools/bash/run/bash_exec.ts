/** bash_exec: a shell command on this machine, with a timeout, a line cap and an exit-code footer. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { bashExecTool as def } from "../bash_exec_tool.ts";
import type { bashExecTool } from "../bash_exec_tool.ts";
import { type InputOf, type ToolContext, toolError, type ToolResult } from "../../types.ts";
import { childEnv } from "../../../core/child_env.ts";
import { ARGV_COMMAND_LIMIT, shellFor, shellForScript } from "../shell.ts";
import { readEnv } from "../../../core/env.ts";
import { budgetLines, OutputCapture } from "../../../core/exec_budget.ts";

/** How long output is still read after the command itself has ended. */
const PIPE_GRACE_MS = 500;

export async function run(input: InputOf<typeof bashExecTool>, ctx: ToolContext): Promise<ToolResult> {
  const command = input.command;
  // A long command (a heredoc with a message in it) goes through a 0600 script file, not argv.
  let script: string | undefined;
  if (Deno.build.os !== "windows" && new TextEncoder().encode(command).length > ARGV_COMMAND_LIMIT) {
    try {
      script = await Deno.makeTempFile({ prefix: "assist-bash-", suffix: ".sh" });
      await Deno.chmod(script, 0o600);
      await Deno.writeTextFile(script, command.endsWith("\n") ? command : `${command}\n`);
    } catch (err) {
      if (script) await Deno.remove(script).catch(() => {});
      return toolError("spawn_failed", `cannot write the command's script file: ${(err as Error).message}`);
    }
  }
  try {
    return await runShell(input, ctx, script ? shellForScript(script) : shellFor(Deno.build.os, command));
  } finally {
    if (script) await Deno.remove(script).catch(() => {});
  }
}

async function runShell(
  input: InputOf<typeof bashExecTool>,
  ctx: ToolContext,
  { program, args, raw }: { program: string; args: string[]; raw: boolean },
): Promise<ToolResult> {
  const timeoutMs = input.timeout_seconds * 1000;
  const maxLines = input.max_lines;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: input.cwd ?? ctx.cwd,
      clearEnv: true,
      // For the model's commands, a marker that makes `assist phi-reveal` refuse to run there
      // (cli/commands/_reveal.ts); stdin is closed too, so nothing can answer for the operator.
      env: ctx.caller === "model" ? { ...childEnv(readEnv), ASSISTED_BY_MODEL: "1" } : childEnv(readEnv),
      stdin: "null",
      windowsRawArguments: raw,
      stdout: "piped",
      stderr: "piped",
      // Its own process group, so a timeout or cancel kills the command and everything it started.
      detached: Deno.build.os !== "windows",
    }).spawn();
  } catch (err) {
    return toolError("spawn_failed", `cannot run ${program}: ${(err as Error).message}`);
  }
  let killedBy: "timeout" | "cancel" | undefined;
  const kill = (why: "timeout" | "cancel") => {
    if (killedBy) return;
    killedBy = why;
    killTree(child);
  };
  const timer = setTimeout(() => kill("timeout"), timeoutMs);
  const onAbort = () => kill("cancel");
  ctx.signal?.addEventListener("abort", onAbort);
  try {
    const out = capture(child.stdout);
    const err = capture(child.stderr);
    const status = await child.status;
    // A background process that left the group (setsid, a daemonizing start script) can hold the
    // pipes open long after the command ended: give the output a moment, then stop reading.
    let late = false;
    const grace = setTimeout(() => {
      late = true;
      out.stop();
      err.stop();
    }, PIPE_GRACE_MS);
    const [stdout, stderr] = await Promise.all([out.done, err.done]);
    clearTimeout(grace);
    const text = render(stdout, stderr, status.code, maxLines, killedBy, input.timeout_seconds);
    const note = "[bash_exec: a background process still holds the output open; not waited for]";
    return {
      text: late
        ? text.replace(/\n?(\[bash_exec: exit rc=\d+\])$/, (_m, footer) => `\n${note}\n${footer}`)
        : text,
    };
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Reads a stream into memory within the exec-output budget (core/exec_budget.ts): the rest is
 * drained and counted. `stop()` ends the reading early and keeps what came.
 */
function capture(
  stream: ReadableStream<Uint8Array>,
): { done: Promise<{ text: string; dropped: number }>; stop(): void } {
  const reader = stream.getReader();
  const kept = new OutputCapture();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        kept.add(value);
      }
    } catch { /* cancelled: keep what came */ }
    return { text: new TextDecoder().decode(kept.bytes()), dropped: kept.dropped };
  })();
  return { done, stop: () => void reader.cancel().catch(() => {}) };
}

/** Output text: the budgeted lines (core/exec_budget.ts), then the timeout/cancel notes and the footer. */
export function render(
  stdout: { text: string; dropped: number },
  stderr: { text: string; dropped: number },
  code: number,
  maxLines: number,
  killedBy: "timeout" | "cancel" | undefined,
  timeoutSeconds: number,
): string {
  const lines = budgetLines({
    tool: "bash_exec",
    stdout: stdout.text,
    stderr: stderr.text,
    maxLines,
    droppedBytes: stdout.dropped + stderr.dropped,
  });
  if (killedBy === "timeout") lines.push(`[bash_exec: timed out after ${timeoutSeconds} s; killed]`);
  if (killedBy === "cancel") lines.push(`[bash_exec: cancelled; killed]`);
  lines.push(`[bash_exec: exit rc=${killedBy === "timeout" ? 124 : code}]`);
  return lines.join("\n");
}

/**
 * Kills the command and everything it started. On Unix the command leads its own process group;
 * `Deno.kill(-pid)` needs unrestricted run permission, which the shipped permission set does not
 * grant (it names its programs), so the group is killed by `sh -c 'kill -s KILL -- -<pid>'` (sh is a
 * named program). On Windows `taskkill /T /F` (through cmd.exe) ends the tree while its root is
 * still alive. The child itself is killed directly afterwards (no permission needed), so it ends
 * even when the killer cannot run.
 */
function killTree(child: Deno.ChildProcess): void {
  const pid = child.pid;
  const direct = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  /** Runs a killer; the direct kill follows once it has finished (or could not start). */
  const viaShell = (program: string, args: string[]) => {
    try {
      new Deno.Command(program, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn().status
        .catch(() => {}).finally(direct);
    } catch {
      direct(); // not allowed or not there: the direct kill still ends the child
    }
  };
  if (Deno.build.os === "windows") {
    // taskkill /T walks the tree from the root: the root must still be alive when it looks.
    viaShell("cmd.exe", ["/d", "/c", `taskkill /T /F /PID ${pid}`]);
    return;
  }
  try {
    Deno.kill(-pid, "SIGKILL");
    direct();
  } catch {
    viaShell("sh", ["-c", `kill -s KILL -- -${pid} 2>/dev/null`]);
  }
}
