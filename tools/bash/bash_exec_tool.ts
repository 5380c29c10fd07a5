/** bash_exec: a shell command on this machine, with a timeout, a line cap and an exit-code footer. */
import { EXEC_PARAMS } from "../exec_params.ts";
import type { ToolDef } from "../types.ts";

export const bashExecTool = {
  name: "bash_exec",
  summary: "Run a shell command locally (timeout, line cap, exit-code footer)",
  description: "Run a command with bash on this machine (cmd.exe on Windows) and return its output: " +
    "stdout, then stderr under a [stderr] line, at most max_lines lines, ending in " +
    "[bash_exec: exit rc=<n>]. The command is killed after timeout_seconds. The child gets a minimal " +
    "environment (PATH, HOME, locale, HCIROOT and friends) and never the assistant's secrets.",
  // Shell or remote output: large or HL7-shaped results stop at the review gate.
  review: true,
  params: [
    { name: "command", type: "string", description: "command line to run", required: true, positional: true },
    ...EXEC_PARAMS,
    { name: "cwd", type: "string", description: "working folder (default the current one)" },
  ],
  examples: ["'hcisitectl -s siteA status'", "'ls -la $HCIROOT' --timeout-seconds 10"],
  exampleInput: { command: "hcisitectl -s siteA status", timeout_seconds: 60 },
} as const satisfies ToolDef;
