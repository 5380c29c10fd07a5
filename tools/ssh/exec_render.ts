/**
 * The text of an `ssh_exec` result: stdout, then `[stderr]` and stderr (login and sudo noise
 * filtered, with a count), within the exec-output budget shared with bash_exec (core/exec_budget.ts),
 * then notes, then the spec's footer `[ssh_exec: exit rc=<n>]`. Pure.
 *
 * @module
 */
import { type ExecResult } from "../../ssh/remote.ts";
import { filterNoise } from "../../ssh/wrap.ts";
import { budgetLines } from "../../core/exec_budget.ts";
import { type HintFn, slashHint } from "../../core/hint.ts";

const SIGNALS: Record<string, number> = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  ABRT: 6,
  KILL: 9,
  SEGV: 11,
  PIPE: 13,
  TERM: 15,
};

/**
 * The exit code the footer shows: the command's own; 124 after our timeout (as timeout(1) does);
 * 128+n for a command killed by signal n; 255 when the server reported none (as ssh(1) does).
 */
export function exitCodeOf(r: Pick<ExecResult, "code" | "exitSignal" | "timedOut">): number {
  if (r.timedOut) return 124;
  if (r.code !== null) return r.code;
  if (r.exitSignal) return 128 + (SIGNALS[r.exitSignal.replace(/^SIG/, "")] ?? 0);
  return 255;
}

export interface RenderOptions {
  alias: string;
  /** How the note names a command (`assist ssh ...` by hand, `/ssh-...` for the model). @default slashHint */
  hint?: HintFn;
  maxLines: number;
  timeoutSeconds: number;
  /** Whether the command ran through the login profile (the sudo hint only makes sense then). */
  login: boolean;
}

export function renderExec(r: ExecResult, o: RenderOptions): string {
  const dec = new TextDecoder();
  const stdout = dec.decode(r.stdout);
  const filtered = filterNoise(dec.decode(r.stderr), r.banner ?? "");
  const lines = budgetLines({
    tool: "ssh_exec",
    stdout,
    stderr: filtered.text,
    maxLines: o.maxLines,
    droppedBytes: r.droppedStdout + r.droppedStderr,
  });
  if (filtered.dropped > 0) {
    lines.push(`[ssh_exec: ${filtered.dropped} line(s) of login/sudo noise filtered from stderr]`);
  }
  const rc = exitCodeOf(r);
  if (filtered.sudo && o.login && rc !== 0 && stdout === "") {
    lines.push(
      `[ssh_exec: the login profile of ${o.alias} seems to need sudo; the operator can pin the engine root ` +
        `with ${(o.hint ?? slashHint)("ssh-set-hciroot", [o.alias, "<path>"])} to skip it]`,
    );
  }
  if (r.timedOut) lines.push(`[ssh_exec: timed out after ${o.timeoutSeconds} s; killed]`);
  else if (r.code === null && r.exitSignal) lines.push(`[ssh_exec: killed by signal ${r.exitSignal}]`);
  lines.push(`[ssh_exec: exit rc=${rc}]`);
  return lines.join("\n");
}
