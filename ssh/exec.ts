/**
 * Running one command on an exec channel of an open connection: output captured within the
 * exec-output budget (core/exec_budget.ts), a timeout and cancellation that kill the command's
 * process group, and the exit status or signal. The operation is registered with the connection's
 * state (ssh/conn_state.ts), so a connection lost under the command rejects it at once.
 *
 * @module
 */
import { EXEC_CAPTURE_BYTES, OutputCapture } from "../core/exec_budget.ts";
import type { Ssh2Channel, Ssh2Client } from "./_ssh2.ts";
import type { ChannelGate } from "./channel_gate.ts";
import type { ConnectionState } from "./conn_state.ts";
import { SshError } from "./errors.ts";
import type { ExecOptions, ExecResult } from "./remote.ts";

/** How long a killed command's channel may take to close before we stop waiting for it. */
const KILL_GRACE_MS = 2000;
/** After a channel closes with no exit status: how long the connection gets to report why. */
const LOST_REPORT_MS = 50;

/** What an exec needs of its connection. */
export interface ExecChannelHost {
  client: Ssh2Client;
  state: ConnectionState;
  gate: ChannelGate;
  banner: string;
}

/**
 * Sends a signal to a session's process group (OpenSSH: killpg). ssh2's own `signal()` only sends
 * while the channel is writable, and ours is not: stdin got its EOF at once. So the request goes
 * through the channel's protocol object directly (ssh2 1.17, pinned; Channel.signal does the same
 * call).
 */
function sendSignal(ch: Ssh2Channel, name: string): void {
  const c = ch as unknown as {
    outgoing?: { id: number; state: string };
    _client?: { _protocol?: { signal(id: number, name: string): void } };
  };
  try {
    if (c.outgoing?.state === "open" && c._client?._protocol) c._client._protocol.signal(c.outgoing.id, name);
    else ch.signal(name);
  } catch { /* the channel is gone */ }
}

/** Runs `command` on a channel of `host` once one is free under the session limit. */
export function execOn(
  host: ExecChannelHost,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  try {
    host.state.check();
  } catch (err) {
    return Promise.reject(err);
  }
  return host.gate.acquire().then((release) => execChannel(host, command, options).finally(release));
}

function execChannel(host: ExecChannelHost, command: string, options: ExecOptions): Promise<ExecResult> {
  const { client, state } = host;
  const cap = options.maxBytes ?? EXEC_CAPTURE_BYTES;
  return state.op<ExecResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new SshError("cancelled", "cancelled"));
      return;
    }
    let dispose = () => {};
    client.exec(command, (err, ch) => {
      if (err || !ch) {
        if (state.state !== "ready") reject(state.error());
        else {
          reject(
            new SshError(
              "io_error",
              `${state.alias} refused to run a command: ${err?.message ?? "no channel"}`,
            ),
          );
        }
        return;
      }
      const out = new OutputCapture(cap);
      const errs = new OutputCapture(cap);
      let code: number | null = null;
      let exitSignal: string | undefined;
      let exited = false;
      let timedOut = false;
      let cancelled = false;
      let settled = false;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const kill = () => {
        sendSignal(ch, "KILL");
        try {
          ch.close();
        } catch { /* closed */ }
        // A server that ignores the signal keeps the channel open while the command runs: do not
        // wait for it.
        grace = setTimeout(() => finish(), KILL_GRACE_MS);
      };
      const timer = options.timeoutMs
        ? setTimeout(() => (timedOut = true, kill()), options.timeoutMs)
        : undefined;
      const onAbort = () => {
        cancelled = true;
        kill();
      };
      options.signal?.addEventListener("abort", onAbort);
      // The connection went away under the command: the state has rejected it; stop the timers.
      dispose = () => {
        settled = true;
        clearTimeout(timer);
        clearTimeout(grace);
        options.signal?.removeEventListener("abort", onAbort);
      };
      ch.on("data", (d) => out.add(d));
      ch.stderr.on("data", (d) => errs.add(d));
      ch.on("exit", (c: number | null, sig?: string) => {
        exited = true;
        code = typeof c === "number" ? c : null;
        if (sig) exitSignal = sig;
      });
      ch.on("error", () => {/* reported by close */});
      const finish = () => {
        if (settled) return;
        dispose();
        if (cancelled) {
          reject(new SshError("cancelled", "cancelled"));
          return;
        }
        if (!exited && !timedOut) {
          // No exit status: the connection went down under the command (or the server dropped
          // the channel). Give the connection a moment to report why; a lost connection rejects
          // the operation through the state before this runs.
          setTimeout(() => {
            if (state.state !== "ready") reject(state.error());
            else {
              resolve({
                code: null,
                stdout: out.bytes(),
                stderr: errs.bytes(),
                droppedStdout: out.dropped,
                droppedStderr: errs.dropped,
                timedOut,
              });
            }
          }, LOST_REPORT_MS);
          return;
        }
        resolve({
          code,
          exitSignal,
          stdout: out.bytes(),
          stderr: errs.bytes(),
          droppedStdout: out.dropped,
          droppedStderr: errs.dropped,
          timedOut,
          banner: host.banner,
        });
      };
      ch.on("close", finish);
      // The command reads no input: EOF at once, so nothing on the host waits for a keyboard.
      ch.end();
    });
    return () => dispose();
  });
}
