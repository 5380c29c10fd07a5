/**
 * A person at a terminal, for the REPL suite: each session runs the program as the pane command of
 * its own tmux server (no shell in between, so no start-up races), keys go in with `send-keys`,
 * pastes with `paste-buffer` (with `-p` the terminal wraps them in bracketed-paste markers when the
 * program asked for them), and the screen comes back with `capture-pane`. Waits poll the screen
 * until a deadline; there are no fixed sleeps. Every raw byte the program writes is also kept
 * (`pipe-pane`), so tests can assert on escape sequences.
 */
import { assistCommandArgs, REPO_ROOT, testDenoDir } from "./run_assist.ts";

export interface TmuxOptions {
  env?: Record<string, string>;
  cwd?: string;
  width?: number;
  height?: number;
  /** The program's arguments (none: the REPL). */
  args?: string[];
  /** Replaces the whole command (for a README-style run). */
  command?: string[];
}

let serial = 0;

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

async function tmux(socket: string, args: string[], input?: string): Promise<string> {
  const child = new Deno.Command("tmux", {
    args: ["-L", socket, "-f", "/dev/null", ...args],
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(input));
    await w.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return new TextDecoder().decode(out.stdout);
}

export class TmuxSession implements AsyncDisposable {
  readonly socket: string;
  readonly rawLog: string;
  #closed = false;

  private constructor(socket: string, rawLog: string) {
    this.socket = socket;
    this.rawLog = rawLog;
  }

  static async start(o: TmuxOptions = {}): Promise<TmuxSession> {
    // Test files run in parallel workers of one process: the pid alone does not tell them apart.
    const socket = `assist-t${Deno.pid}-${++serial}-${crypto.randomUUID().slice(0, 8)}`;
    const rawLog = await Deno.makeTempFile({ prefix: "assist-tmux-raw-" });
    const command = o.command ?? [Deno.execPath(), ...assistCommandArgs(o.args ?? [])];
    // The test run's module cache (as runAssist): with a throwaway HOME the program would fetch
    // every npm package of the lock again at its first npm use, in each test.
    const dir = await testDenoDir();
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      LANG: "C.UTF-8",
      TERM: "xterm-256color",
      ...(dir ? { DENO_DIR: dir } : {}),
      ...o.env,
    };
    // `env -i` gives the program exactly this environment (tmux would add its own otherwise).
    const envArgs = Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`));
    // tmux 3.3 sometimes marks a pane dead (its terminal closed) without the exit status, so a
    // small sh records the status in a file of ours; the program is still its own process.
    const statusFile = `${rawLog}.status`;
    const line = [
      "sh",
      "-c",
      shellQuote(`"$@"; echo $? > ${shellQuote(statusFile)}`),
      "sh",
      "env",
      "-i",
      ...envArgs,
      ...command.map(shellQuote),
    ].join(" ");
    const s = new TmuxSession(socket, rawLog);
    await tmux(socket, [
      "new-session",
      "-d",
      "-s",
      "s",
      "-x",
      String(o.width ?? 120),
      "-y",
      String(o.height ?? 40),
      "-c",
      o.cwd ?? REPO_ROOT,
      line,
    ]);
    await tmux(socket, ["set-option", "-g", "remain-on-exit", "on"]);
    await tmux(socket, ["pipe-pane", "-o", "-t", "s", `cat >> ${shellQuote(rawLog)}`]);
    return s;
  }

  /** Literal text, typed. */
  async type(text: string): Promise<void> {
    await tmux(this.socket, ["send-keys", "-t", "s", "-l", "--", text]);
  }

  /** Named keys: Enter, C-c, C-d, Tab, Up, BSpace, Escape … */
  async keys(...names: string[]): Promise<void> {
    await tmux(this.socket, ["send-keys", "-t", "s", ...names]);
  }

  /** Exact bytes, in hex. */
  async bytes(hex: string[]): Promise<void> {
    await tmux(this.socket, ["send-keys", "-t", "s", "-H", ...hex]);
  }

  /** Pastes text as a terminal would: bracketed (`-p`) when `bracketed`, else raw bytes. */
  async paste(text: string, bracketed = true): Promise<void> {
    await tmux(this.socket, ["load-buffer", "-b", "p", "-"], text);
    await tmux(this.socket, ["paste-buffer", "-d", "-b", "p", "-t", "s", ...(bracketed ? ["-p"] : [])]);
  }

  async resize(width: number, height = 40): Promise<void> {
    await tmux(this.socket, ["resize-window", "-t", "s", "-x", String(width), "-y", String(height)]);
  }

  /** The screen and its scrollback, lines joined (wrapped lines unwrapped). */
  async screen(): Promise<string> {
    return await tmux(this.socket, ["capture-pane", "-p", "-J", "-S", "-", "-t", "s"]);
  }

  /** Everything the program wrote, as raw bytes decoded. */
  async raw(): Promise<string> {
    return await Deno.readTextFile(this.rawLog).catch(() => "");
  }

  /** The program exited; its status, or undefined while it runs. */
  async exitStatus(): Promise<number | undefined> {
    const text = await Deno.readTextFile(`${this.rawLog}.status`).catch(() => "");
    return /^\d+\s*$/.test(text) ? Number(text) : undefined;
  }

  /**
   * Polls the screen until `test` holds, every 50 ms, until the deadline (generous: CI is loaded).
   * On timeout the error holds the screen, so a failure shows what the person would have seen.
   */
  async waitFor(
    test: RegExp | ((screen: string) => boolean),
    what = String(test),
    timeoutMs = 30_000,
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (typeof test === "function" ? test(screen) : test.test(screen)) return screen;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
  }

  /** Waits until the last non-blank line is a prompt `you[...]> ` (optionally counting prompts). */
  async waitForPrompt(count?: number, timeoutMs?: number): Promise<string> {
    return await this.waitFor(
      (s) => {
        const lines = s.split("\n").filter((l) => l.trim() !== "");
        const last = lines[lines.length - 1] ?? "";
        if (!/^you\[[^\]]+\]> ?$/.test(last)) return false;
        if (count === undefined) return true;
        return lines.filter((l) => /^you\[[^\]]+\]> /.test(l)).length >= count;
      },
      `prompt${count ? ` #${count}` : ""}`,
      timeoutMs,
    );
  }

  async waitForExit(timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const s = await this.exitStatus();
      if (s !== undefined) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the program did not exit; screen:\n${await this.screen()}`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await tmux(this.socket, ["kill-server"]).catch(() => {});
    await Deno.remove(this.rawLog).catch(() => {});
    await Deno.remove(`${this.rawLog}.status`).catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
