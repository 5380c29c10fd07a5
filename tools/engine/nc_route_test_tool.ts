/** nc_route_test: the engine's route test over a thread's downstream chains, with recent messages. */
import type { ToolDef } from "../types.ts";
import { aliasParam, countParam, DAYS_BACK_PARAM, HCIROOT_PARAM } from "./common_tool.ts";

export const ncRouteTestTool = {
  name: "nc_route_test",
  summary: "Run the engine's route test on recent messages through a thread's route chains",
  description: "From an inbound thread, find its downstream route chains (as nc_paths), take N recent " +
    "messages from the thread's SMAT archive, and run the engine's route test (hciroutetest) on each " +
    "entry node, passing each step's output for the destination the chain follows across cross-site " +
    "hops to the next site's route test. Outputs land per message, hop and destination in an output " +
    "folder, with a commands.sh per chain that reproduces every step by hand. Runs on this machine or " +
    "on an engine host (--alias) in a scratch folder that is removed afterwards; --dry-run writes the " +
    "plan and commands.sh and runs nothing.",
  params: [
    {
      name: "thread",
      type: "string",
      description: "the start (inbound) thread, <thread>[.<site>]",
      required: true,
      positional: true,
      metavar: "THREAD[.SITE]",
    },
    { name: "site", type: "string", description: "site of the thread (default $HCISITE or the only site)" },
    aliasParam(),
    HCIROOT_PARAM,
    countParam("recent messages to test"),
    DAYS_BACK_PARAM,
    {
      name: "output",
      type: "string",
      description: "output folder (default ./route-test-<site>.<thread>-<time>)",
      metavar: "DIR",
    },
    {
      name: "max_hops",
      type: "integer",
      description: "hop limit of the chains",
      default: 20,
      min: 1,
      max: 100,
    },
    { name: "dry_run", type: "boolean", description: "write the plan and commands.sh only", default: false },
  ],
  examples: ["adt_in.adt --count 5", "adt_in --site adt --alias test --dry-run"],
  exampleInput: { thread: "adt_in", site: "adt", count: 5 },
} as const satisfies ToolDef;
