/** list_sites: the engine root's sites (server.ini environs, else folders holding a NetConfig). */
import type { ToolDef } from "../types.ts";
import { aliasParam, formatParam, HCIROOT_PARAM } from "./common_tool.ts";

export const listSitesTool = {
  name: "list_sites",
  summary: "List the engine's sites (server.ini environs, else folders with a NetConfig)",
  description: "List the sites of a Cloverleaf engine root: the `environs=` line of " +
    "$HCIROOT/server/server.ini, or, without one, every $HCIROOT/<site> folder that holds a NetConfig. " +
    "Shows each site's release and description (siteInfo) and its folder. A listed folder that does " +
    "not exist on this host is looked for under the root by its name, with a note.",
  params: [aliasParam(true), HCIROOT_PARAM, formatParam()],
  examples: ["", "--hciroot /hci/cis20.1/integrator --format tsv", "eng1"],
  exampleInput: { hciroot: "/hci/cis20.1/integrator", format: "tsv" },
} as const satisfies ToolDef;
