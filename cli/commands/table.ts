/**
 * The one command table. Every operator command is defined once (name, arguments, one-line
 * summary, group, arity, body) and serves both fronts: the REPL's slash commands (`/ssh-setup eng1`,
 * dispatched by {@link runSlash}) and the command line (`assist ssh setup eng1`, `assist auth ...`,
 * `assist phi-sidecar ...`, dispatched by {@link runCli}). `/help`, `assist --help`, the usage lines
 * and completion are generated from it. Bodies load their modules on demand (core/lazy.ts), so the
 * table itself is cheap to import, and write through the injected {@link CommandIO}, so commands run
 * in-process in tests.
 *
 * @example
 * ```ts
 * import { type CommandContext, hint, runSlash } from "./table.ts";
 * declare const ctx: CommandContext;
 * await runSlash("/ssh-status eng1 ", ctx); // trailing whitespace is trimmed
 * hint("cli", "ssh-setup", ["eng1"]); // "assist ssh setup eng1"
 * hint("repl", "ssh-setup", ["eng1"]); // "/ssh-setup eng1"
 * ```
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError, describeError, EXIT, exitCodeOf } from "../../core/errors.ts";
import { closestNames } from "../../core/suggest.ts";
import { keyHelpRows } from "../keymap.ts";
import type { Command, CommandContext, CommandGroup, CommandIO, Front } from "./types.ts";
import { GENERAL_COMMANDS } from "./general.ts";
import { MISC_COMMANDS } from "./misc.ts";
import { AUTH_COMMANDS } from "./auth.ts";
import { PHI_COMMANDS } from "./phi.ts";
import { SSH_COMMANDS } from "./ssh.ts";
import { ENGINE_COMMANDS } from "./engine.ts";
import { HL7_COMMANDS } from "./hl7.ts";
import { MCP_COMMANDS } from "./mcp.ts";

export type { Command, CommandContext, CommandGroup, CommandIO, Front, ReplHost } from "./types.ts";

/** Every command, in /help order within each group. */
export const COMMANDS: readonly Command[] = [
  ...GENERAL_COMMANDS,
  ...MISC_COMMANDS,
  ...MCP_COMMANDS,
  ...AUTH_COMMANDS,
  ...PHI_COMMANDS,
  ...SSH_COMMANDS,
  ...ENGINE_COMMANDS,
  ...HL7_COMMANDS,
];

/** Group headings of /help, in order. */
export const GROUPS: ReadonlyArray<readonly [CommandGroup, string]> = [
  ["general", "General"],
  ["model", "Model"],
  ["auth", "Authentication"],
  ["phi", "PHI"],
  ["ssh", "SSH"],
  ["engine", "Engine"],
  ["hl7", "HL7"],
];

/** The command of that REPL name (without the slash), or undefined. */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/**
 * Whether a typed REPL entry is a slash command rather than a prompt for the model. It starts with
 * one "/" (a leading space or `//` makes it a prompt), and its first word is a command or holds no
 * other "/": `/hci/cis20.1/integrator/adt/NetConfig has adt_in twice` is a question about a path,
 * `/nosuch` an unknown command.
 *
 * @example
 * ```ts
 * import { isCommandEntry } from "./table.ts";
 * isCommandEntry("/ssh-status eng1"); // true
 * isCommandEntry("/nosuch"); // true (an unknown command, said so)
 * isCommandEntry("/hci/site1/NetConfig has adt_in twice, why?"); // false
 * isCommandEntry("//load is a command?"); // false
 * isCommandEntry(" /quit"); // false
 * ```
 */
export function isCommandEntry(entry: string): boolean {
  const m = /^\/(\S*)/.exec(entry);
  if (!m || m[1].startsWith("/")) return false;
  return findCommand(m[1]) !== undefined || !m[1].includes("/");
}

/**
 * True for an entry the REPL must never write to its history: a slash command marked `noHistory`
 * (it takes or leads to a secret: /login, /set-api-key, /ssh-add, /ssh-pass). The one rule, read
 * from the table; cli/repl/history.ts gets it handed in.
 *
 * @example
 * ```ts
 * import { isSecretEntry } from "./table.ts";
 * isSecretEntry("/set-api-key"); // true
 * isSecretEntry("/ssh-status eng1"); // false
 * isSecretEntry("tell me about /login"); // false
 * ```
 */
export function isSecretEntry(entry: string): boolean {
  const m = /^\s*\/([^\s/]+)(?:\s|$)/.exec(entry);
  return m !== null && findCommand(m[1])?.noHistory === true;
}

/**
 * How to tell the operator to run a command, in the caller's language. A REPL-only command keeps
 * its slash form on the command line too.
 *
 * @example
 * ```ts
 * import { hint } from "./table.ts";
 * hint("cli", "ssh-setup", ["eng1"]); // "assist ssh setup eng1"
 * hint("repl", "ssh-setup", ["eng1"]); // "/ssh-setup eng1"
 * ```
 */
export function hint(front: Front, name: string, args: string[] = []): string {
  const cmd = findCommand(name);
  if (front === "cli" && cmd?.cli) return ["assist", ...cmd.cli, ...args].join(" ");
  return [`/${name}`, ...args].join(" ");
}

/**
 * A message worded for the REPL (and the model), in the command line's form: each `/name` of a
 * command that has a command-line form becomes `assist <words>`, its arguments stay. The modules
 * below the fronts (ssh/creds.ts, the master's handshake, the spec's "open the master with
 * /ssh-setup <alias> first") word their hints for the REPL; the command line passes every failure
 * it shows through here, so the operator at a shell is told what to type there.
 *
 * @example
 * ```ts
 * import { cliForms } from "./table.ts";
 * cliForms("set it again with /ssh-pass h1 and retry"); // "set it again with assist ssh pass h1 and retry"
 * cliForms("see /tmp/x or /help"); // unchanged: no such command, and /help has no command-line form
 * ```
 */
export function cliForms(text: string): string {
  return text.replace(
    /(^|[\s(`'"])\/([a-z][a-z0-9-]*)(?=$|[\s)`'",.;:])/g,
    (whole, lead: string, name: string) => {
      const cmd = findCommand(name);
      return cmd?.cli ? `${lead}assist ${cmd.cli.join(" ")}` : whole;
    },
  );
}

/** The usage line of a command on a front: `usage: /ssh-add <alias> ...` or `usage: assist ssh add ...`. */
export function usageLine(cmd: Command, front: Front): string {
  const head = front === "cli" && cmd.cli ? `assist ${cmd.cli.join(" ")}` : `/${cmd.name}`;
  return `usage: ${cmd.args ? `${head} ${cmd.args}` : head}`;
}

const isHelp = (a: string) => a === "--help" || a === "-h";

// ---- the REPL side ----------------------------------------------------------------------------------

/**
 * Splits typed arguments on whitespace; '...' and "..." group words (the quotes are removed, so
 * `""` is an empty argument). With `limit`, stops after that many arguments and returns the rest
 * of the line as typed.
 */
export function splitArgs(text: string, limit = Infinity): { args: string[]; rest: string } {
  const args: string[] = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    while (i < n && /\s/.test(text[i])) i++;
    if (i >= n || args.length >= limit) break;
    let arg = "";
    while (i < n && !/\s/.test(text[i])) {
      const q = text[i];
      if (q === '"' || q === "'") {
        const end = text.indexOf(q, i + 1);
        if (end !== -1) {
          arg += text.slice(i + 1, end);
          i = end + 1;
          continue;
        }
      }
      arg += q;
      i++;
    }
    args.push(arg);
  }
  return { args, rest: text.slice(i) };
}

/** The arguments of a typed line for `cmd`: a raw tail keeps the rest of the line as typed. */
function replArgs(cmd: Command, text: string): string[] {
  if (!cmd.rawTail) return splitArgs(text).args;
  const { args, rest } = splitArgs(text, cmd.maxArgs - 1);
  return rest.trim() === "" ? args : [...args, rest.trim()];
}

/**
 * Dispatches one typed REPL line that starts with "/": trailing whitespace is trimmed, an unknown
 * name gets "unknown command" with the closest names, missing or extra arguments the usage line.
 * Failures are one line on `io.warn`; nothing throws out of here.
 */
export async function runSlash(line: string, ctx: CommandContext): Promise<void> {
  const trimmed = line.replace(/\s+$/, "");
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(trimmed);
  if (!m) {
    ctx.io.warn(`not a command: ${trimmed.slice(0, 40)} (commands start with /; /help lists them)`);
    return;
  }
  const [, name, tail] = m;
  const cmd = findCommand(name);
  if (!cmd) {
    const near = closestNames(name, COMMANDS.map((c) => c.name)).map((n) => `/${n}`);
    ctx.io.warn(
      `unknown command: /${name}${
        near.length ? `; did you mean ${near.join(", ")}?` : ""
      } (/help lists them)`,
    );
    return;
  }
  const args = replArgs(cmd, tail);
  // A raw tail is the operator's own text (`/ssh eng1 hcicmd --help`): only a leading --help is ours.
  if (cmd.rawTail ? isHelp(args[0] ?? "") : args.some(isHelp)) {
    ctx.io.out(`${usageLine(cmd, "repl")}\n  ${cmd.summary}`);
    return;
  }
  if (args.length < cmd.minArgs || args.length > cmd.maxArgs) {
    ctx.io.warn(usageLine(cmd, "repl"));
    return;
  }
  try {
    await cmd.run(args, withTable(ctx));
  } catch (err) {
    ctx.io.warn(describeError(err, ctx.config.debug));
  }
}

/** The context a command runs with: the front's hint and the help text, from the table itself. */
function withTable(ctx: CommandContext): CommandContext {
  const front = ctx.io.front;
  return {
    ...ctx,
    io: { ...ctx.io, hint: (name, args) => hint(front, name, args ? [...args] : undefined) },
    helpText,
  };
}

/** The text of /help: commands by group, then the keys. */
export function helpText(): string {
  const lines: string[] = [];
  const forms = COMMANDS.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ""}`);
  const width = Math.min(34, Math.max(...forms.map((f) => f.length))) + 2;
  for (const [group, heading] of GROUPS) {
    lines.push(`${heading}:`);
    COMMANDS.forEach((c, i) => {
      if (c.group !== group) return;
      const f = forms[i];
      if (f.length < width) lines.push(`  ${f.padEnd(width)}${c.summary}`);
      else lines.push(`  ${f}`, `  ${"".padEnd(width)}${c.summary}`);
    });
    lines.push("");
  }
  const table = (heading: string, rows: Array<[string, string]>) => {
    const w = Math.max(...rows.map(([k]) => k.length)) + 2;
    lines.push(`${heading}:`, ...rows.map(([k, v]) => `  ${k.padEnd(w)}${v}`));
  };
  table("Keys", keyHelpRows()); // the editor's own keymap
  lines.push("");
  table("In a prompt", [
    ["@file, @{path with spaces}", "attach a file's content"],
    ["@@VALUE, @@VALUE@@, {{phi:VALUE}}", "mark a value as PHI (it is tokenized before the model sees it)"],
    ["!nophi <prompt>", "skip automatic PHI detection for this turn (markers still apply)"],
  ]);
  return lines.join("\n");
}

// ---- the command-line side ------------------------------------------------------------------------

/** The first words of the command-line groups (`ssh`, `auth`, `phi-sidecar`). */
export const CLI_GROUPS: readonly string[] = [...new Set(COMMANDS.flatMap((c) => c.cli ? [c.cli[0]] : []))]
  .sort((a, b) => (a === "ssh" ? 0 : 1) - (b === "ssh" ? 0 : 1));

function cliCommands(group: string): Command[] {
  return COMMANDS.filter((c) => c.cli?.[0] === group);
}

/** `assist <group> --help`: one line per operation. */
export function cliGroupUsage(group: string): string {
  const cmds = cliCommands(group);
  if (cmds.length === 1 && cmds[0].cli!.length === 1) {
    return `${usageLine(cmds[0], "cli")}\n  ${cmds[0].summary}`;
  }
  const forms = cmds.map((c) => `${c.cli!.slice(1).join(" ")}${c.args ? ` ${c.args}` : ""}`);
  const width = Math.max(...forms.map((f) => f.length)) + 2;
  return [
    `usage: assist ${group} <op> [args]`,
    ...cmds.map((c, i) => `  ${forms[i].padEnd(width)}${c.summary}`),
  ].join("\n");
}

/** The command-line lines of `assist --help`, generated from the table. */
export function cliHelpLines(): string[] {
  const lines: string[] = [];
  for (const group of CLI_GROUPS) {
    for (const c of cliCommands(group)) {
      const form = `assist ${c.cli!.join(" ")}${c.args ? ` ${c.args}` : ""}`;
      if (form.length < 30) lines.push(`  ${form.padEnd(30)}${c.summary}`);
      else lines.push(`  ${form}`, `  ${"".padEnd(30)}${c.summary}`);
    }
  }
  return lines;
}

/**
 * The command line: `assist ssh ...`, `assist auth ...`, `assist phi-sidecar ...` (argv starts with
 * the group word). Output on `io.out`; a failure is one line on `io.warn`. Exit codes: 0 ok, 1 the
 * operation failed, 2 usage. `--help` after a group or an operation prints its usage (exit 0).
 */
export async function runCli(argv: string[], io: CommandIO): Promise<number> {
  const [group, ...rest] = argv;
  const cmds = cliCommands(group ?? "");
  if (cmds.length === 0) {
    io.warn(`unknown command: ${group ?? ""} (see \`assist --help\`)`);
    return EXIT.usage;
  }
  let cmd: Command | undefined;
  let args: string[];
  if (cmds.length === 1 && cmds[0].cli!.length === 1) {
    cmd = cmds[0];
    args = rest;
  } else {
    const [op, ...more] = rest;
    if (op === undefined || isHelp(op) || op === "help") {
      io.out(cliGroupUsage(group));
      return op === undefined ? EXIT.usage : EXIT.ok;
    }
    cmd = cmds.find((c) => c.cli![1] === op);
    if (!cmd) {
      const near = closestNames(op, cmds.map((c) => c.cli![1]));
      io.warn(
        `unknown ${group} operation: ${op}${near.length ? `; did you mean ${near.join(", ")}?` : ""} ` +
          `(see \`assist ${group} --help\`)`,
      );
      return EXIT.usage;
    }
    args = more;
  }
  if (args.some(isHelp)) {
    io.out(`${usageLine(cmd, "cli")}\n  ${cmd.summary}`);
    return EXIT.ok;
  }
  const label = cmd.cli!.join(" ");
  if (args.length < cmd.minArgs) {
    io.warn(`${label}: missing argument (${usageLine(cmd, "cli")})`);
    return EXIT.usage;
  }
  if (args.length > cmd.maxArgs) {
    io.warn(`${label}: unexpected argument "${args[cmd.maxArgs]}" (${usageLine(cmd, "cli")})`);
    return EXIT.usage;
  }
  try {
    const { loadConfig } = await lazy<typeof import("../../core/config.ts")>(
      import.meta.url,
      "../../core/config.ts",
    );
    const config = loadConfig();
    return (await cmd.run(args, withTable({ config, io }))) ?? EXIT.ok;
  } catch (err) {
    if (!(err instanceof AssistError)) throw err;
    io.warn(cliForms(err.message));
    return exitCodeOf(err);
  }
}
