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
    "  assist tools list             list the helper tools",
    "  assist tools <name> [args]    run a helper tool by hand, with no model API",
    "  assist tools <name> --help    a tool's arguments and examples",
    "  assist -p <prompt> [--json] [--model <id>]",
    "                                headless: one agent turn, the answer on stdout (- reads stdin)",
    "",
    "engine hosts, authentication, the PHI sidecar and token reveal, as the REPL's /ssh-*, /set-api-key,",
    "/phi-sidecar, /phi-reveal (phi-reveal is the operator's alone: never a tool of the model)",
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
    "  1    a tool failed or refused (its one-line reason is on stderr), or an unexpected error",
    "  2    usage: unknown command or tool, bad arguments, a bad ASSIST_* value",
    "  130  interrupted (Ctrl-C)",
    "",
    "Files live under $ASSIST_HOME (default ~/.assist): log/, sanitize/, sessions/ and the secret files",
    "are never readable by the model's file tools.",
  ].join("\n");
}
