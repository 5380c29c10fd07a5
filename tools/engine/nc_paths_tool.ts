/** nc_paths (spec): deterministic depth-first route-chain enumeration across sites. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM, siteParam, THREAD_PARAM } from "./common_tool.ts";

export const ncPathsTool = {
  name: "nc_paths",
  summary: "Route chains from a thread across sites (columns SITE THREAD TRXID HOPS PATH)",
  description: "Trace where messages entering a thread can go: every route chain, depth-first in " +
    "NetConfig order, one row each with SITE, THREAD (where it starts), TRXID (what the whole chain " +
    "carries: the TRXIDs every route on it lets through, hop by hop; a wildcard route's expression as " +
    "written; `(off)` when only a disabled route or detail lets it through), HOPS and PATH. In PATH `->` " +
    "is a route, `=>` a cross-site hop, `~>` a disabled route (with --include-disabled; without it a " +
    "chain that needs one is not listed); nodes of other sites are site/thread. The TPS procs that can " +
    "filter a message are written where they run: thread[outbound TPS, or inbound TPS after a " +
    "cross-site hop], -[route detail procs]->; the start thread's inbound TPS and every proc's ARGS are " +
    "listed once after the table (in TSV the start's TPS is written on each row). Cross-site hops: an inter-site " +
    "destination's PORT to the thread with that ICLSERVERPORT (else a listening thread on that port in " +
    "another site), and a TCP client on this host to the thread listening on its PORT. A chain ends at " +
    "a thread with no routes, (cycle), (hop limit), (no route for TRXID) where a thread reached across " +
    "sites routes none of what arrives (or: its TRXID route is disabled, or there with every detail disabled), -[generate:proc]-> to the destinations a generate route's ARGS " +
    "name, (generate: procs) when they name none, (remote HOST:PORT), or NAME (undefined). Without a " +
    "thread, chains start at the site's entry threads (threads with routes that nothing sends to).",
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
      description: "only what carries this TRXID on every hop (ADT_A08, ADT_A0*; case matters)",
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
