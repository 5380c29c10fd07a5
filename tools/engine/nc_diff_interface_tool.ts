/** nc_diff_interface: one interface (thread) compared between two NetConfigs, sites or engine roots. */
import type { ToolDef } from "../types.ts";
import { aliasParam, HCIROOT_PARAM } from "./common_tool.ts";

export const ncDiffInterfaceTool = {
  name: "nc_diff_interface",
  summary: "Compare one thread's configuration between NetConfigs, sites or engine roots",
  description: "Compare one thread's configuration key by key between two places: another thread of " +
    "the same site, the same thread in another site (--to-site), another engine root (--to-hciroot, " +
    "e.g. a test and a production copy), another engine host over SSH (--alias, --to-alias: test " +
    "against production) or any NetConfig file (--netconfig, --to-netconfig). Lines: " +
    "`~ KEY: old -> new`, `+ KEY: value` (only on the second side), `- KEY: value` (only on the " +
    "first). Routes are matched by TRXID (DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST). Cosmetic keys " +
    "(COORDS, BITMAP) are ignored unless --cosmetic; SYMNAME when the thread names differ. A site " +
    "without a thread, with --to-hciroot, --to-alias or --to-site, compares every thread, inter-site " +
    "destination and process of the site in one call (prod against test).",
  params: [
    {
      name: "site",
      type: "string",
      description: "site of the first thread (default $HCISITE, or the one site that has the thread); " +
        "by hand a first word that names no site is the thread",
      positional: true,
      metavar: "SITE",
    },
    {
      name: "thread",
      type: "string",
      description:
        "the thread, <thread>[.<site>] (leave it out to compare a whole site with --to-hciroot, --to-alias or --to-site)",
      positional: true,
      metavar: "THREAD[.SITE]",
    },
    {
      name: "other",
      type: "string",
      description: "the thread to compare with, <thread>[.<site>] (default the same name)",
      positional: true,
      metavar: "THREAD[.SITE]",
    },
    { name: "to_site", type: "string", description: "site of the second thread (default the first's)" },
    aliasParam(),
    {
      name: "to_alias",
      type: "string",
      description: "SSH alias of the second thread's engine host (default the first's): compare environments",
    },
    HCIROOT_PARAM,
    {
      name: "to_hciroot",
      type: "string",
      description: "engine root of the second thread (default the first's)",
      metavar: "PATH",
    },
    {
      name: "netconfig",
      type: "string",
      description: "read the first thread from this NetConfig file",
      metavar: "FILE",
    },
    {
      name: "to_netconfig",
      type: "string",
      description: "read the second thread from this NetConfig file",
      metavar: "FILE",
    },
    { name: "cosmetic", type: "boolean", description: "include COORDS, BITMAP", default: false },
    { name: "format", type: "string", description: "output format", enum: ["text", "json"], default: "text" },
    {
      name: "exit_code",
      type: "boolean",
      description:
        "by hand: exit 1 when the sides differ, 0 when not, 2 on an error, as git diff --exit-code",
      default: false,
    },
  ],
  examples: [
    "adt_in.adt --to-hciroot /hci/test/integrator",
    "lab_in lab_from_hub --site lab",
    "lab lab_in lab_from_hub",
    "adt_in --site adt --to-netconfig /tmp/NetConfig.bak",
    "adt_in.adt --alias test --to-alias prod",
    "adt_in.adt --to-hciroot /hci/test/integrator --exit-code",
    "--site lab --to-hciroot /hci/test/integrator",
  ],
  exampleInput: { site: "adt", thread: "adt_in", to_hciroot: "/hci/test/integrator" },
} as const satisfies ToolDef;
