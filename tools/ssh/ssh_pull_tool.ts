/** ssh_pull: copies a file from an engine host; the byte count is verified. */
import type { ToolDef } from "../types.ts";

export const sshPullTool = {
  name: "ssh_pull",
  summary: "Copy a file from an engine host (byte count verified; pull cache by default)",
  description: "Copy a file from the engine host of an SSH alias to this machine and return the local path " +
    "on the first line. Without local_path the file goes to the pull cache (<temp>/assist-pulls/" +
    "<alias>.<basename>.<hash of the remote path>), so the same remote file always lands in the same " +
    "place. The byte count is verified; a partial transfer or a missing remote file is an error. " +
    "remote_path may start with ~/ or $HCIROOT/. If the result says to open the master, ask the operator " +
    "to run /ssh-setup <alias>.",
  // Shell or remote output: large or HL7-shaped results stop at the review gate.
  review: true,
  params: [
    { name: "alias", type: "string", description: "SSH alias", required: true, positional: true },
    {
      name: "remote_path",
      type: "string",
      description: "file on the engine host",
      required: true,
      positional: true,
    },
    {
      name: "local_path",
      type: "string",
      description: "where to put it here (a file or a folder)",
      positional: true,
    },
  ],
  examples: [
    "eng1 '$HCIROOT/server/server.ini'",
    "eng1 /hci/cis20.1/integrator/adt/NetConfig ./NetConfig.adt",
  ],
  exampleInput: { alias: "eng1", remote_path: "$HCIROOT/server/server.ini" },
} as const satisfies ToolDef;
