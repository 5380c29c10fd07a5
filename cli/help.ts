/**
 * The text of `assist --help`: every command-line form, every variable, the exit codes. The forms of
 * `assist ssh|auth|phi-sidecar|phi-reveal` come from the command table, so they cannot drift from it.
 */
import { ENV_DOC } from "../core/config.ts";
import { VERSION } from "../core/version.ts";
import { cliHelpLines } from "./commands/table.ts";

export function helpText(): string {
  const width = Math.max(...ENV_DOC.map(([n]) => n.length)) + 2;
  return [
    `assist ${VERSION}: operator assistant for the Cloverleaf integration engine and HL7 v2 traffic`,
    "",
    "usage:",
    "  assist                        start the interactive assistant",
    "  assist --resume [<id>]        continue an earlier session (no id: the latest; /sessions lists them)",
    "  assist --version | -V         print the version",
    "  assist --help | -h            print this help",
    "  assist update [--force]       update from the origin now (a source install syncs its files;",
    "                                a compiled binary replaces itself); --force re-checks every file",
    "  assist --check                check the installed files against MANIFEST; lists mismatches",
    "  assist tools list             list the helper tools",
    "  assist tools <name> [args]    run a helper tool by hand, with no model API",
    "  assist tools <name> --help    a tool's arguments and examples",
    "  assist -p <prompt> [--json] [--model <id>]",
    "                                headless: one agent turn, the answer on stdout (- reads stdin)",
    "",
    "engine hosts, authentication, the PHI sidecar, token reveal and the update origin, as the REPL's",
    "/ssh-*, /set-api-key, /phi-sidecar, /phi-reveal (the operator's alone: never a tool of the model)",
    "and /origin",
    "(`assist ssh --help` lists the operations; `assist ssh add --help` shows one):",
    ...cliHelpLines(),
    "",
    "Tool arguments: --name value (or --name=value), positionals in order, --flag / --no-flag for",
    "switches, or --json '<object>' for the whole input as the model sends it.",
    "",
    "environment:",
    ...ENV_DOC.map(([name, doc]) => `  ${name.padEnd(width)}${doc}`),
    "",
    "exit codes:",
    "  0    success",
    "  1    a tool failed or refused (its one-line reason is on stderr), an unexpected error, or",
    "       with --exit-code, hl7_diff or nc_diff_interface found differences",
    "  2    usage: unknown command or tool, bad arguments, a bad ASSIST_* value, or a tool input that",
    "       names nothing (an unknown site, thread, SSH alias or field path, a line range past the end)",
    "  130  interrupted (Ctrl-C)",
    "",
    "Files live under $ASSIST_HOME (default ~/.assist): log/, sanitize/, sessions/ and the secret files",
    "are never readable by the model's file tools.",
  ].join("\n");
}

/** The text of `assist -p --help`: the headless form and its options. */
export function headlessHelpText(): string {
  return [
    "usage: assist -p <prompt> [--json] [--model <id>]",
    "",
    "Headless: one agent turn, the answer on stdout; notices and tool-call lines on stderr. The",
    "options come in any order (`assist --json -p <prompt>` is the same run). An answer is printed",
    "once its stream has ended (an attempt that broke off is a notice on stderr). The turn may take",
    "ASSIST_TURN_TIMEOUT seconds in all (default 1800; 0: no bound); past it, one line and exit 1.",
    "",
    "  -p, --print <prompt>  the prompt; - reads it from standard input; @file attaches a file",
    "  --json                print one JSON transcript instead of the answer",
    "  --model <id>          the model for this run (default $ASSIST_MODEL)",
    "",
    "exit codes: 0 answered, 1 the model call or a refusal failed, 2 usage, 130 interrupted",
  ].join("\n");
}
