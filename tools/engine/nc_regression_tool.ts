/** nc_regression: cross-environment regression of route tests between two engine hosts. */
import type { ToolDef } from "../types.ts";
import { countParam, DAYS_BACK_PARAM } from "./common_tool.ts";

export const ncRegressionTool = {
  name: "nc_regression",
  summary: "Cross-environment regression: the same messages through two hosts' route tests, compared",
  description: "Prove that two engine hosts (say test and production) route the same messages to the " +
    "same places with the same translations. Six phases, each writing its result into the run folder: " +
    "1 discovery (sites, inbound threads, route chains and configuration differences on both sides), " +
    "2 sampling (recent messages from the source's SMAT per inbound), 3 route-test push (the messages " +
    "and a commands.sh per chain to both hosts), 4 route-test pull (run hciroutetest, pull the outputs), " +
    "5 diff (outputs per message and destination compared field by field; MSH-7 and MSH-10 and --ignore " +
    "paths ignored), 6 summary (regression-summary.md: Configuration section, verdicts per thread and " +
    "destination, counts, differing fields with examples, commands to reproduce). Phases 1-4 use SSH, " +
    "5-6 run locally; --from-phase re-runs a failed run from a phase using the run folder. Hosts are " +
    "named by alias.",
  params: [
    {
      name: "source_ssh_alias",
      type: "string",
      description: "SSH alias of the source engine host (the reference, e.g. production)",
      positional: true,
      metavar: "SOURCE",
    },
    {
      name: "target_ssh_alias",
      type: "string",
      description: "SSH alias of the target engine host (the one checked, e.g. test)",
      positional: true,
      metavar: "TARGET",
    },
    {
      name: "thread",
      type: "string",
      description: "only this inbound thread, <thread>[.<site>] (default every inbound in scope)",
      metavar: "THREAD[.SITE]",
    },
    { name: "site", type: "string", description: "only this site (default every site)" },
    countParam("recent messages per inbound"),
    DAYS_BACK_PARAM,
    {
      name: "ignore",
      type: "string[]",
      description: "HL7 paths that always differ, besides MSH.7 and MSH.10 (e.g. PV1.19)",
      metavar: "PATH",
    },
    {
      name: "source_hciroot",
      type: "string",
      description: "engine root on the source (default its login $HCIROOT)",
      metavar: "PATH",
    },
    {
      name: "target_hciroot",
      type: "string",
      description: "engine root on the target (default its login $HCIROOT)",
      metavar: "PATH",
    },
    {
      name: "output",
      type: "string",
      description: "run folder (default ./regression-<source>-<target>-<time>; required with --from-phase)",
      metavar: "DIR",
    },
    {
      name: "from_phase",
      type: "integer",
      description: "re-run from this phase (1-6)",
      default: 1,
      min: 1,
      max: 6,
    },
    {
      name: "max_hops",
      type: "integer",
      description: "hop limit of the chains",
      default: 20,
      min: 1,
      max: 100,
    },
    {
      name: "dry_run",
      type: "boolean",
      description: "plan only: phases 1-3 without pushing or running anything",
      default: false,
    },
  ],
  examples: [
    "prod test --thread adt_in.adt --count 20",
    "prod test --site adt --ignore PV1.19 --ignore EVN.2",
    "prod test --output regression-prod-test-20261124-0200 --from-phase 5",
  ],
  exampleInput: { source_ssh_alias: "prod", target_ssh_alias: "test", thread: "adt_in.adt", count: 20 },
} as const satisfies ToolDef;
