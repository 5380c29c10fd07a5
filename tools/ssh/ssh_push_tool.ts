/** ssh_push: copies a local file to an engine host; the byte count is verified. */
import type { ToolDef } from "../types.ts";

export const sshPushTool = {
  name: "ssh_push",
  summary: "Copy a local file to an engine host (byte count verified)",
  description:
    "Copy a file from this machine to the engine host of an SSH alias. The file is written under " +
    "a temporary name, its size checked, then renamed over remote_path, so a failed push never leaves a " +
    "torn file. remote_path may start with ~/ or $HCIROOT/. If the result says to open the master, ask " +
    "the operator to run /ssh-setup <alias>.",
  params: [
    { name: "alias", type: "string", description: "SSH alias", required: true, positional: true },
    {
      name: "local_path",
      type: "string",
      description: "file on this machine",
      required: true,
      positional: true,
    },
    {
      name: "remote_path",
      type: "string",
      description: "destination file on the engine host",
      required: true,
      positional: true,
    },
  ],
  examples: ["eng1 ./test_msgs.nl /tmp/test_msgs.nl"],
  exampleInput: { alias: "eng1", local_path: "./test_msgs.nl", remote_path: "/tmp/test_msgs.nl" },
} as const satisfies ToolDef;
