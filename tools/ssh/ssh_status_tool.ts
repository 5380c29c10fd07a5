/** ssh_status: the registered aliases, whether each master is open, and whether a password is stored. */
import type { ToolDef } from "../types.ts";

export const sshStatusTool = {
  name: "ssh_status",
  summary: "SSH aliases, open masters and stored credentials",
  description: "List the SSH aliases of engine hosts: target, mode (multiplex or direct), whether the " +
    "control master is open, whether a password is stored (never the password itself), and the pinned " +
    "engine root. A closed master is opened by the operator with /ssh-setup <alias>; never ask for a password.",
  params: [
    { name: "alias", type: "string", description: "only this alias", positional: true },
  ],
  examples: ["", "eng1"],
  exampleInput: { alias: "eng1" },
} as const satisfies ToolDef;
