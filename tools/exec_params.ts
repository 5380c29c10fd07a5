/**
 * The output budget's parameters, shared by `bash_exec` and `ssh_exec` (the budget itself is
 * core/exec_budget.ts): one definition, so the two tools cannot drift apart in what they accept.
 * A definition module: light, loaded by `tools list`.
 *
 * @module
 */
import type { ParamSpec } from "./types.ts";

/** `timeout_seconds` and `max_lines` (spec, Limits: tool output lines default 500). */
export const EXEC_PARAMS = [
  {
    name: "timeout_seconds",
    type: "integer",
    description: "kill the command after this long",
    default: 120,
    min: 1,
    max: 3600,
  },
  {
    name: "max_lines",
    type: "integer",
    description: "output lines to keep",
    default: 500,
    min: 1,
    max: 100000,
  },
] as const satisfies readonly ParamSpec[];
