/** nc_docs (spec "documentation helper"): interface documentation from the NetConfig. */
import type { ToolDef } from "../types.ts";
import { aliasParam, HCIROOT_PARAM, siteParam, THREAD_PARAM } from "./common_tool.ts";

export const ncDocsTool = {
  name: "nc_docs",
  summary: "Document a site's or thread's interfaces (text, --onenote-table TSV, --raw-tcl)",
  description: "Write interface documentation from a site's NetConfig: for each thread (or one), its " +
    "process, connection, direction, SMAT files, inbound and outbound TPS procs, routes (TRXID, " +
    "type, Xlate, destinations, procs, disabled flags) and who sends to it (across sites). Plain text " +
    "by default; --onenote-table gives tab-separated rows with a header, one per thread, to paste " +
    "into a table; --raw-tcl shows the raw Tcl configuration (the thread's record, or the whole file).",
  params: [
    siteParam(),
    { ...THREAD_PARAM, description: "only this thread (default every thread of the site)" },
    { name: "onenote_table", type: "boolean", description: "tab-separated rows for a table", default: false },
    { name: "raw_tcl", type: "boolean", description: "the raw Tcl configuration", default: false },
    HCIROOT_PARAM,
    aliasParam(),
  ],
  examples: ["adt", "adt adt_in", "lab --onenote-table", "adt adt_in --raw-tcl"],
  exampleInput: { site: "adt", thread: "adt_in" },
} as const satisfies ToolDef;
