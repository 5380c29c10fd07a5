/**
 * How a command runs on the engine host (spec, Authentication item 6): inside a login shell, so the
 * engine environment of the login profile (HCIROOT, HCISITE, PATH) is there. Escape hatches: a
 * `NOLOGIN ` prefix on the command, or ASSIST_SSH_NO_LOGIN=1. An alias with a pinned engine root
 * skips the login profile (which may be gated behind sudo) and exports the pinned HCIROOT instead.
 * Also here: the filter that drops login and sudo noise from stderr. All pure.
 *
 * @module
 */

/**
 * Quotes a string for a POSIX shell (single quotes; an embedded `'` becomes `'\''`).
 *
 * @example
 * ```ts
 * shQuote("it's"); // "'it'\\''s'"
 * ```
 */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface WrapOptions {
  /** ASSIST_SSH_NO_LOGIN=1. */
  noLogin: boolean;
  /** The alias's pinned engine root. */
  hciroot?: string;
}

export type WrapHow = "login" | "nologin-prefix" | "no-login-env" | "pinned";

export interface Wrapped {
  /** The string sent in the SSH exec request (the remote user's shell runs it with `-c`). */
  command: string;
  how: WrapHow;
}

const NOLOGIN_RE = /^\s*NOLOGIN(?:\s+|$)/;

/**
 * Wraps a command for the engine host. Order: the `NOLOGIN` prefix (the command as typed), then a
 * pinned engine root (HCIROOT exported, its bin and sbin put first on PATH, no login profile), then
 * ASSIST_SSH_NO_LOGIN=1 (as typed), else a login shell of the user's own shell
 * (`exec "${SHELL:-/bin/sh}" -l -c '<command>'`: sh, bash, ksh and zsh read their profile with -l).
 *
 * @example
 * ```ts
 * wrapCommand("hcisitectl", { noLogin: false }).command; // `exec "${SHELL:-/bin/sh}" -l -c 'hcisitectl'`
 * wrapCommand("NOLOGIN uptime", { noLogin: false }).command; // "uptime"
 * ```
 */
export function wrapCommand(command: string, options: WrapOptions): Wrapped {
  if (NOLOGIN_RE.test(command)) return { command: command.replace(NOLOGIN_RE, ""), how: "nologin-prefix" };
  if (options.hciroot) return { command: pinnedPrefix(options.hciroot) + command, how: "pinned" };
  if (options.noLogin) return { command, how: "no-login-env" };
  return { command: `exec "\${SHELL:-/bin/sh}" -l -c ${shQuote(command)}`, how: "login" };
}

/** The lines that set up the pinned engine environment before a command. */
export function pinnedPrefix(hciroot: string): string {
  return `HCIROOT=${shQuote(hciroot)}; export HCIROOT; ` +
    `PATH="$HCIROOT/bin:$HCIROOT/sbin:$PATH"; export PATH\n`;
}

/** stderr lines that are login or sudo noise, not the command's own words. */
const NOISE: RegExp[] = [
  /^sudo: (a terminal is required to read the password|a password is required|no tty present and no askpass program specified|sorry, you must have a tty to run sudo|\d+ incorrect password attempts?)/,
  /^We trust you have received the usual lecture from the local System$/,
  /^Administrator\. It usually boils down to these three things:$/,
  /^\s*#[123]\) (Respect the privacy of others|Think before you type|With great power comes great responsibility)\.\s*$/,
  /^stdin: is not a tty$/,
  /^mesg: ttyname failed: /,
  /^tput: No value for \$TERM and no -T specified$/,
  /^TERM environment variable not set\.$/,
];
const SUDO_PROMPT = /^\[sudo\] password for [^:]*:\s?/;

export interface Filtered {
  text: string;
  /** Lines dropped. */
  dropped: number;
  /** Some dropped line came from sudo (the login profile may be sudo-gated). */
  sudo: boolean;
}

/**
 * Drops login and sudo noise from stderr text: sudo's password prompts, its no-terminal complaints
 * and lecture, tty warnings of login profiles, and the lines of the server's banner when a profile
 * echoes it. The caller reports how many lines went, so nothing disappears silently.
 *
 * @example
 * ```ts
 * filterNoise("[sudo] password for hci: sudo: a password is required\nreal error\n").text; // "real error\n"
 * ```
 */
export function filterNoise(stderr: string, banner = ""): Filtered {
  if (stderr === "") return { text: "", dropped: 0, sudo: false };
  const bannerLines = new Set(banner.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ""));
  const lines = stderr.split("\n");
  const trailing = lines[lines.length - 1] === "";
  if (trailing) lines.pop();
  const kept: string[] = [];
  let dropped = 0;
  let sudo = false;
  for (const raw of lines) {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    let hadPrompt = false;
    while (SUDO_PROMPT.test(line)) {
      line = line.replace(SUDO_PROMPT, "");
      hadPrompt = true;
    }
    if (hadPrompt) sudo = true;
    if (hadPrompt && line.trim() === "") {
      dropped++;
      continue;
    }
    if (NOISE.some((re) => re.test(line)) || (bannerLines.size > 0 && bannerLines.has(line.trim()))) {
      if (line.startsWith("sudo:") || /lecture|#[123]\)|boils down/.test(line)) sudo = true;
      dropped++;
      continue;
    }
    kept.push(line);
  }
  return { text: kept.length ? kept.join("\n") + (trailing ? "\n" : "") : "", dropped, sudo };
}
