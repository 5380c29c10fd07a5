/** nc_show: one thread's configuration, whole or at a dotted path (`PROTOCOL.PORT`). */
import type { ToolDef } from "../types.ts";
import { aliasParam, HCIROOT_PARAM, siteParam } from "./common_tool.ts";

export const ncShowTool = {
  name: "nc_show",
  summary: "One thread's NetConfig configuration, or one dotted path of it (PROTOCOL.PORT)",
  description: "Show the configuration of one thread (protocol record) of a site's NetConfig as an " +
    "indented KEY value tree, or only the value at a dotted path such as PROTOCOL.PORT, " +
    "SAVEMSGS.INFILE or DATAXLATE.1.ROUTE_DETAILS.2.DEST (list elements by 1-based number), or as " +
    "nc_diff_interface writes it, routes by TRXID: DATAXLATE[ADT_A01].ROUTE_DETAILS[2].DEST. Names and " +
    "keys are case-insensitive; destination and process records can be shown too. --format tcl gives " +
    "the record as written in the file; json a nested object.",
  params: [
    siteParam(),
    {
      name: "thread",
      type: "string",
      description: "thread, destination or process name, or <name>.<site>",
      positional: true,
    },
    { name: "path", type: "string", description: "dotted key path, e.g. PROTOCOL.PORT", positional: true },
    HCIROOT_PARAM,
    aliasParam(),
    {
      name: "format",
      type: "string",
      description: "output format",
      enum: ["text", "json", "tcl"],
      default: "text",
    },
  ],
  examples: ["adt adt_in", "adt_in.adt PROTOCOL.PORT", "adt_in --format tcl"],
  exampleInput: { site: "adt", thread: "adt_in", path: "PROTOCOL.PORT" },
} as const satisfies ToolDef;
