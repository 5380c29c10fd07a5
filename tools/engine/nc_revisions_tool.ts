/** nc_revisions (spec): NetConfig revision timeline or diff, for a thread or the whole file. */
import type { ToolDef } from "../types.ts";
import { aliasParam, HCIROOT_PARAM, siteParam, TZ_PARAM } from "./common_tool.ts";

export const ncRevisionsTool = {
  name: "nc_revisions",
  summary: "Revision timeline or diff of a thread's (or a site's whole) NetConfig",
  description: "Show how a thread's configuration changed across the saved NetConfigs of its site: " +
    "the revisions/NetConfig<TS> folders, the engine's version history (version/NetConfig/1.N with " +
    "version/version.db) and the live file. Snapshots are ordered by the date in their own prologue, " +
    "and each is annotated with who saved it and when (and the check-in comment). --format timeline " +
    "(default) gives one line per change, newest first; --format diff the key-by-key changes " +
    "(PROTOCOL.PORT, routes by TRXID). --system follows the whole NetConfig (threads added, removed, " +
    "changed) of --site (default $HCISITE), or of every site with --site '*' or when HCISITE is unset.",
  params: [
    {
      ...siteParam(),
      description:
        "site (default $HCISITE; a thread alone is found in the site that has it; '*' with --system: every site)",
    },
    {
      name: "thread",
      type: "string",
      description: "thread name, or <thread>.<site>",
      positional: true,
    },
    {
      name: "system",
      type: "boolean",
      description: "the whole NetConfig rather than one thread",
      default: false,
    },
    {
      name: "format",
      type: "string",
      description: "output format",
      enum: ["timeline", "diff"],
      default: "timeline",
    },
    {
      name: "limit",
      type: "integer",
      description: "newest changes shown",
      default: 20,
      min: 1,
      max: 10000,
      metavar: "N",
    },
    {
      name: "since",
      type: "string",
      description: "only snapshots saved at or after this time: 2024-10-01, 2024-10-01T08:00 (the site's " +
        "zone unless one is given), or an age such as 90m, 36h, 7d",
      metavar: "TIME",
    },
    {
      name: "until",
      type: "string",
      description:
        "only snapshots saved at or before this time (as --since; a bare date means the end of that day)",
      metavar: "TIME",
    },
    {
      name: "utc",
      type: "boolean",
      description: "show times in UTC rather than the site's zone",
      default: false,
    },
    TZ_PARAM,
    HCIROOT_PARAM,
    aliasParam(),
  ],
  examples: ["lab_in.lab", "lab_in --format diff --limit 2", "--system --site adt --since 2024-10-01"],
  exampleInput: { site: "lab", thread: "lab_in", format: "diff", limit: 2 },
} as const satisfies ToolDef;
