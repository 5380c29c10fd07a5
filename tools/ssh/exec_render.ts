/**
 * The text of an `ssh_exec` result: stdout, then `[stderr]` and stderr (login and sudo noise
 * filtered, with a count), at most `max_lines` lines in all (stderr keeps up to a quarter of the
 * budget, as bash_exec does), then notes, then the spec's footer `[ssh_exec: exit rc=<n>]`. Pure.
 *
 * @module
 */
import { filterNoise } from "../../ssh/wrap.ts";
import type { ExecResult } from "../../ssh/remote.ts";

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

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

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
  maxLines: number;
  timeoutSeconds: number;
  /** Whether the command ran through the login profile (the sudo hint only makes sense then). */
  login: boolean;
}

export function renderExec(r: ExecResult, o: RenderOptions): string {
  const dec = new TextDecoder();
  const out = splitLines(dec.decode(r.stdout));
  const filtered = filterNoise(dec.decode(r.stderr), r.banner ?? "");
  const err = splitLines(filtered.text);
  let outQuota = out.length;
  let errQuota = err.length;
  if (out.length + err.length > o.maxLines) {
    errQuota = Math.min(err.length, Math.max(Math.ceil(o.maxLines / 4), o.maxLines - out.length));
    outQuota = Math.min(out.length, o.maxLines - errQuota);
  }
  const lines = out.slice(0, outQuota);
  if (err.length > 0) lines.push("[stderr]", ...err.slice(0, errQuota));
  const total = out.length + err.length;
  const shown = outQuota + Math.min(errQuota, err.length);
  if (shown < total) {
    lines.push(`[ssh_exec: output truncated: ${shown} of ${total} lines shown; raise max_lines]`);
  }
  const dropped = r.droppedStdout + r.droppedStderr;
  if (dropped > 0) lines.push(`[ssh_exec: ${dropped} further bytes of output discarded]`);
  if (filtered.dropped > 0) {
    lines.push(`[ssh_exec: ${filtered.dropped} line(s) of login/sudo noise filtered from stderr]`);
  }
  const rc = exitCodeOf(r);
  if (filtered.sudo && o.login && rc !== 0 && out.length === 0) {
    lines.push(
      `[ssh_exec: the login profile of ${o.alias} seems to need sudo; the operator can pin the engine root ` +
        `with /ssh-set-hciroot ${o.alias} <path> to skip it]`,
    );
  }
  if (r.timedOut) lines.push(`[ssh_exec: timed out after ${o.timeoutSeconds} s; killed]`);
  else if (r.code === null && r.exitSignal) lines.push(`[ssh_exec: killed by signal ${r.exitSignal}]`);
  lines.push(`[ssh_exec: exit rc=${rc}]`);
  return lines.join("\n");
}
