/** ssh_status: the registered aliases, whether each master is open, and whether a password is stored. */
import { lazy } from "../../core/lazy.ts";
import type { ToolDef } from "../types.ts";

export const sshStatusTool: ToolDef = {
  name: "ssh_status",
  summary: "SSH aliases, open masters and stored credentials",
  description: "List the SSH aliases of engine hosts: target, mode (multiplex or direct), whether the " +
    "control master is open, whether a password is stored (never the password itself), and the pinned " +
    "engine root. A closed master is opened by the operator with /ssh-setup <alias>; never ask for a password.",
  params: [
    { name: "alias", type: "string", description: "only this alias", positional: true },
  ],
  examples: ["", "eng1"],
  async run(input, ctx) {
    const { run } = await lazy<typeof import("./run/ssh_status.ts")>(import.meta.url, "./run/ssh_status.ts");
    return run(input, ctx);
  },
};
