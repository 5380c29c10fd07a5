/** ssh_pull_smat: a SMAT archive from an engine host, whole or as a sample of recent messages. */
import type { ToolDef } from "../types.ts";

export const sshPullSmatTool = {
  name: "ssh_pull_smat",
  summary: "Copy a SMAT archive (.smatdb) from an engine host, or sample its recent messages",
  description: "Find a SMAT message archive (.smatdb) on the engine host of an SSH alias and either copy " +
    "the whole file here (no days_back), or with days_back N sample at most 1000 of the most recent " +
    "messages of the last N days on the host itself into a local TSV (columns mid, time_in, time_iso, " +
    "content_base64: the message content is base64). smatdb is an absolute path, a file name, or a " +
    "SAVEMSGS name looked for under $HCIROOT/<site>/exec/processes/*/; without it the newest archive " +
    "is taken. The output names the archive on a SMATDB_PATH: line and the program that sampled it. If " +
    "the result says to open the master, ask the operator to run /ssh-setup <alias>.",
  // Shell or remote output: large or HL7-shaped results stop at the review gate.
  review: true,
  params: [
    { name: "alias", type: "string", description: "SSH alias", required: true, positional: true },
    {
      name: "smatdb",
      type: "string",
      description: "archive path or name (default: the newest)",
      positional: true,
    },
    { name: "site", type: "string", description: "site to look in" },
    {
      name: "days_back",
      type: "integer",
      description: "sample the messages of the last N days (at most 1000) instead of copying the file",
      min: 1,
      max: 36500,
    },
    {
      name: "local_path",
      type: "string",
      description: "where to put the copy or TSV (default: the pull cache)",
    },
  ],
  examples: ["eng1 adt_in --days-back 7", "eng1 /hci/cis20.1/integrator/adt/exec/processes/p1/adt_in.smatdb"],
  exampleInput: { alias: "eng1", smatdb: "adt_in", site: "adt", days_back: 7 },
} as const satisfies ToolDef;
