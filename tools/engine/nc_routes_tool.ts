/** nc_routes: a thread's (or site's) routes, one row per route detail. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM, siteParam, THREAD_PARAM } from "./common_tool.ts";

export const ncRoutesTool = {
  name: "nc_routes",
  summary: "Routes of a thread or site: TRXID, route and detail state, type, destinations, xlate, procs",
  description: "List the routes (DATAXLATE) of one thread, of every thread of a site, or with neither of " +
    "every site of the engine root (a SITE column first), one row per " +
    "route detail: the TRXID (wildcard marked), ROUTE_STATE (on/off: the route as a whole), the detail's number, " +
    "DETAIL_STATE (its own switch; `on (route off)` when the route is off, so it carries nothing), its " +
    "type (raw, xlate, xslt, generate), its destinations (an inter-site destination shown as " +
    "name@HOST:PORT, a generate detail's as the names its procs' ARGS give, (ARGS: name); a name defined nowhere as name(undefined)), the Xlate file, the TPS procs with their ARGS (pre:, " +
    "post:, disabled ones marked). --replies adds REPLYXLATE routes.",
  params: [
    { ...siteParam(), description: "site name (default: every site; a thread alone is found in its site)" },
    { ...THREAD_PARAM, description: "only this thread's routes" },
    { name: "replies", type: "boolean", description: "include reply routes (REPLYXLATE)", default: false },
    HCIROOT_PARAM,
    aliasParam(),
    formatParam(),
  ],
  examples: ["adt adt_in", "hub --replies --format tsv"],
  exampleInput: { site: "adt", thread: "adt_in" },
} as const satisfies ToolDef;
