/** nc_paths (spec): deterministic depth-first route-chain enumeration across sites. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM, siteParam, THREAD_PARAM } from "./common_tool.ts";

export const ncPathsTool = {
  name: "nc_paths",
  summary: "Route chains from a thread across sites (columns SITE THREAD TRXID HOPS PATH)",
  description: "Trace where messages entering a thread can go: every route chain, depth-first in " +
    "NetConfig order, one row each with the columns SITE, THREAD (where the chain starts), TRXID (of its " +
    "first route; --trxid keeps only those, * and ? allowed), HOPS and PATH. In PATH `->` is a route, `=>` a cross-site hop, `~>` a disabled route (with " +
    "--include-disabled); nodes of other sites are written site/thread. Cross-site hops: an " +
    "inter-site destination record's PORT to the thread with that ICLSERVERPORT (else a listening " +
    "thread on that port in another site), and a TCP client thread on this host to the thread " +
    "listening on its PORT. A chain ends at a thread with no routes, at (cycle), (hop limit), " +
    "(generate: procs) for destination-based routing decided at run time by procs, (remote HOST:PORT) " +
    "for a destination no site here listens on, or NAME (undefined). Without a thread, chains start " +
    "at the site's entry threads (threads with routes that nothing sends to).",
  params: [
    siteParam(),
    { ...THREAD_PARAM, description: "start thread (default: the site's entry threads)" },
    {
      name: "to",
      type: "string",
      description: "only chains reaching this thread (<thread>[.<site>])",
      metavar: "THREAD",
    },
    {
      name: "trxid",
      type: "string",
      description: "only chains whose first route has this TRXID (ADT_A01, ADT_A0*)",
      metavar: "TRXID",
    },
    {
      name: "max_hops",
      type: "integer",
      description: "longest chain followed",
      default: 20,
      min: 1,
      max: 200,
      metavar: "N",
    },
    {
      name: "include_disabled",
      type: "boolean",
      description: "follow disabled routes and details too",
      default: false,
    },
    {
      name: "all_sites",
      type: "boolean",
      description: "start from the entry threads of every site",
      default: false,
    },
    {
      name: "local_hosts",
      type: "string[]",
      description: "host names that mean this engine host (besides localhost and 127.x)",
      metavar: "HOST",
    },
    {
      name: "limit",
      type: "integer",
      description: "stop after this many chains",
      default: 1000,
      min: 1,
      max: 100000,
      metavar: "N",
    },
    HCIROOT_PARAM,
    aliasParam(),
    formatParam(),
  ],
  examples: ["adt adt_in", "adt --to lab_sys_out.lab", "--all-sites --format tsv"],
  exampleInput: { site: "adt", thread: "adt_in", to: "lab_sys_out.lab" },
} as const satisfies ToolDef;
