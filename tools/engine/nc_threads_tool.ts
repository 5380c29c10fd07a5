/** nc_threads: a site's threads with protocol, connection, direction, SMAT and route counts. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM, siteParam } from "./common_tool.ts";

export const ncThreadsTool = {
  name: "nc_threads",
  summary: "A site's threads: process, protocol, host/port, direction, SMAT, routes",
  description: "List the threads (protocol records) of one site's NetConfig, one row each: process, " +
    "protocol type, host, port, whether it listens (SERVER), its inter-site ICL port, the direction " +
    "inferred from the routes (in: has routes; out: only a destination; in+out: both; in?/out?: only " +
    "the name suggests it), the SMAT file names saved in and out, the number of routes and of " +
    "disabled routes, and AUTOSTART. Problems found in the NetConfig are listed after the table.",
  params: [
    siteParam(),
    { name: "match", type: "string", description: "only threads whose name matches this pattern (* and ?)" },
    HCIROOT_PARAM,
    aliasParam(),
    formatParam(),
  ],
  examples: ["adt", "adt --match '*_out' --format tsv"],
  exampleInput: { site: "adt", match: "*_out" },
} as const satisfies ToolDef;
