/** ssh_exec: a command on an engine host, in its login shell, with a line cap, a timeout and an exit footer. */
import { EXEC_PARAMS } from "../exec_params.ts";
import type { ToolDef } from "../types.ts";

export const sshExecTool = {
  name: "ssh_exec",
  summary: "Run a command on an engine host over SSH (login shell, line cap, exit footer)",
  description: "Run a shell command on the engine host of an SSH alias and return its output: stdout, then " +
    "stderr under a [stderr] line, at most max_lines lines, ending in [ssh_exec: exit rc=<n>]. The command " +
    "runs in a login shell so the engine environment (HCIROOT, HCISITE, PATH) is set; prefix it with " +
    "NOLOGIN to run it without the login profile. An alias with a pinned engine root skips the profile and " +
    "exports that HCIROOT. The command is killed after timeout_seconds. If the result says to open the " +
    "master, ask the operator to run /ssh-setup <alias>; never ask for a password.",
  // Shell or remote output: large or HL7-shaped results stop at the review gate.
  review: true,
  params: [
    {
      name: "alias",
      type: "string",
      description: "SSH alias (see ssh_status)",
      required: true,
      positional: true,
    },
    { name: "command", type: "string", description: "command line to run", required: true, positional: true },
    ...EXEC_PARAMS,
  ],
  examples: ["eng1 'hcisitectl'", "eng1 'ls $HCIROOT' --max-lines 50", "eng1 'NOLOGIN uptime'"],
  exampleInput: { alias: "eng1", command: "ls $HCIROOT" },
} as const satisfies ToolDef;
