/**
 * The shapes of the one command table (cli/commands/table.ts): a command, the IO it writes to, and
 * the REPL it may act on. Types only, so the group files (ssh.ts, auth.ts, ...) and the table share
 * them without importing each other.
 *
 * @module
 */
import type { AutoPhiMode, Config } from "../../core/config.ts";
import type { Secret } from "../../core/secret.ts";
import type { HintFn } from "../../core/hint.ts";

/** Which front runs a command: the command line (`assist ssh setup eng1`) or the REPL (`/ssh-setup eng1`). */
export type Front = "cli" | "repl";

/** Where a command's output goes. Commands never print to the console themselves. */
export interface CommandIO {
  front: Front;
  /** Normal output; the caller adds a trailing newline if missing. */
  out(text: string): void;
  /** One-line warnings and errors. */
  warn(text: string): void;
  /** A hidden prompt (core/secret_input.ts on a terminal). */
  readSecret(prompt: string): Promise<Secret>;
  /** A one-key answer (menus): one of `allowed`, or `fallback` on Enter. */
  readKey?(prompt: string, allowed: string[], fallback: string): Promise<string>;
  /**
   * How to tell the operator to run a command, in this front's language (`/ssh-setup eng1` or
   * `assist ssh setup eng1`). The table sets it when it runs a command, as ToolContext carries its
   * own: a group file never imports the table.
   */
  hint?: HintFn;
}

/** The REPL's side, present only there. */
export interface ReplHost {
  readonly config: Config;
  model: string;
  /** The prompt updates at once. */
  setModel(id: string): void;
  /** Clears the conversation. */
  reset(): void;
  clearScreen(): void;
  /** Leaves through the /quit path. */
  quit(): void;
  /** Runs one model turn with this prompt (templates). */
  submit(prompt: string): Promise<void>;
  /** `/load`: the content goes with the next prompt. */
  attach(label: string, text: string): void;
  lastAnswer(): string | undefined;
  /** `withheld`: the result the operator kept from the model at the review gate (`result` is the refusal). */
  lastTool():
    | { name: string; input: Record<string, unknown>; result: string; isError: boolean; withheld?: string }
    | undefined;
  /** The body of `/cost`. */
  costText(): string;
  /** The status line, always rendered (`/status`). */
  statusLine(): string;
  setMouse(on: boolean): void;
  /** The session's auto-PHI mode (`/phi-auto`). */
  phiMode: AutoPhiMode;
  /** `/resume [<id>]`: continue an earlier session; its one-line summary. Throws (one line) on refusal. */
  resume(id?: string): Promise<string>;
  /** The body of `/sessions`. */
  sessions(): Promise<string>;
  /** The stored API key or OAuth token changed: the next prompt authenticates with it. */
  credentialsChanged?(): void;
}

export interface CommandContext {
  config: Config;
  io: CommandIO;
  repl?: ReplHost;
  /** The body of `/help` (set by the table when it runs a command). */
  helpText?: () => string;
}

export type CommandGroup = "general" | "model" | "auth" | "phi" | "ssh" | "engine" | "hl7";

export interface Command {
  /** REPL name without the slash: "ssh-setup". */
  name: string;
  /** Command-line form: ["ssh", "setup"]; absent = REPL only. */
  cli?: readonly string[];
  /** Usage arguments: "<alias>". */
  args: string;
  /** One line for /help, completion and --help. */
  summary: string;
  group: CommandGroup;
  minArgs: number;
  /** Infinity for "the rest". */
  maxArgs: number;
  /**
   * In the REPL the last argument is the rest of the line as typed (quotes and spacing kept), for
   * `/ssh <alias> <command...>` and `/load <file with spaces>`.
   */
  rawTail?: boolean;
  /** TAB in the arguments completes file paths (`/load`, `/phi-reveal`). */
  completeArgs?: "path";
  /** Lines never written to history (/login, /ssh-pass, /ssh-add, /set-api-key). */
  noHistory?: boolean;
  /** Returns the exit code for the command line (void = 0); throws AssistError for a one-line failure. */
  run(args: string[], ctx: CommandContext): Promise<number | void>;
}
