/** nc_threads: a site's threads with protocol, connection, direction, SMAT and route counts. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM, siteParam } from "./common_tool.ts";

export const ncThreadsTool = {
  name: "nc_threads",
  summary: "Threads of a site or of every site (with cross-site port problems): protocol, port, SMAT, routes",
  description: "List the threads (protocol records) of one site's NetConfig, or without a site of every " +
    "site of the engine root (a SITE column first), one row each: process, " +
    "protocol type, host, port, whether it listens (SERVER), its inter-site ICL port, the direction " +
    "inferred from the routes (in: has routes; out: only a destination; in+out: both; in?/out?: only " +
    "the name suggests it), the SMAT file names saved in and out, the number of routes and of " +
    "disabled routes, and AUTOSTART. Problems found in the NetConfig are listed after the table; without a " +
    "site also the cross-site port problems of the box, with both ends: a port two threads listen on (and " +
    "who connects to it), a client or destination on this host whose port nothing listens on (with the " +
    "nearest listener), and listeners no thread or destination of the root reaches; with a site, the " +
    "first two where that site is one end.",
  params: [
    { ...siteParam(), description: "site name (default: every site, with cross-site port problems)" },
    { name: "match", type: "string", description: "only threads whose name matches this pattern (* and ?)" },
    {
      name: "problems",
      type: "boolean",
      description: "only the port problems (shared listener ports, clients nothing listens for, listeners " +
        "nothing reaches), no thread table: 'do two threads listen on one port?' in a few lines",
      default: false,
    },
    HCIROOT_PARAM,
    aliasParam(),
    formatParam(),
  ],
  examples: ["adt", "adt --match '*_out' --format tsv", "--problems"],
  exampleInput: { site: "adt", match: "*_out" },
} as const satisfies ToolDef;
