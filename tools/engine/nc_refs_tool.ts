/** nc_refs: the threads that use an Xlate, a Tcl proc or a table. */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM } from "./common_tool.ts";

export const ncRefsTool = {
  name: "nc_refs",
  summary: "Which threads use an Xlate, a Tcl proc or a table",
  description: "Find the threads (and processes) whose NetConfig configuration uses a name: an Xlate " +
    "in a route detail (with or without .xlt), a Tcl proc in any TPS list (inbound/outbound, route " +
    "procs, pre/post procs, UPoC read/write, start procs, ...), or a table named in a proc's ARGS or " +
    "mentioned by the Xlate file a route uses. One row per use: SITE, THREAD, KIND and WHERE (the " +
    "key path, routes by TRXID, then the proc's ARGS, or the proc and ARGS that name the table). Every " +
    "site unless --site.",
  params: [
    {
      name: "name",
      type: "string",
      description: "Xlate, proc or table name",
      required: true,
      positional: true,
    },
    {
      name: "kind",
      type: "string",
      description: "what the name is",
      enum: ["any", "xlate", "proc", "table"],
      default: "any",
    },
    { name: "site", type: "string", description: "only this site" },
    HCIROOT_PARAM,
    aliasParam(),
    formatParam(),
  ],
  examples: ["adt_a01_to_lab.xlt", "tps_add_zpi --kind proc", "sex_codes --kind table --site adt"],
  exampleInput: { name: "sex_codes", kind: "table", site: "adt" },
} as const satisfies ToolDef;
