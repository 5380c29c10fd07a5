/** nc_show: one thread's (or destination's, or process's) configuration, or one dotted path of it. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncShowTool as def } from "../nc_show_tool.ts";
import type { ncShowTool } from "../nc_show_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { KeyedList, valueToJSON } from "../netconfig/mod.ts";
import { operationsOf, operationsText } from "../netconfig/mod.ts";
import { renderTree, toTcl } from "../netconfig/render.ts";
import { namesSite, resolveShifted, resolveThread } from "../thread_ref.ts";
import { dottedPath } from "../diff.ts";

export async function run(input: InputOf<typeof ncShowTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    let siteArg = input.site;
    let threadArg = input.thread;
    let pathArg = input.path;
    // By hand `nc_show adt_in.adt PROTOCOL.PORT` (or `adt_in PROTOCOL.PORT`): the positionals shift.
    let shifted = false;
    if (siteArg && threadArg && pathArg === undefined && !(await namesSite(engine, siteArg))) {
      [siteArg, threadArg, pathArg, shifted] = [undefined, siteArg, threadArg, true];
    }
    // `nc_show nosuchsite adt_in`: a mistyped site, said as such (thread_ref.ts).
    const ref = shifted
      ? await resolveShifted(engine, threadArg!, pathArg!, "entry")
      : await resolveThread(engine, siteArg, threadArg, "entry");
    const { site, nc } = ref;
    if (!ref.entry) {
      throw new EngineInputError(
        "usage",
        `name a thread of site ${site.name} (nc_show ${site.name} <thread>)`,
      );
    }
    const entry = ref.entry;
    const path = pathArg?.trim();
    const format = input.format;
    const where = `${entry.type} ${entry.name} (site ${site.name}, NetConfig line ${entry.line})`;
    if (!path) {
      if (format === "json") {
        return {
          text: JSON.stringify(
            {
              site: site.name,
              type: entry.type,
              name: entry.name,
              line: entry.line,
              ...(entry.type === "protocol"
                ? { operations: Object.fromEntries(operationsOf(entry, site.dir)) }
                : {}),
              config: entry.config.toJSON(),
            },
            null,
            2,
          ),
        };
      }
      if (format === "tcl") return { text: nc.raw(entry) };
      // A thread's operational settings in words first (connection, TLS, replies, retries, SMAT):
      // what most questions need, without reading the tree.
      const ops = entry.type === "protocol" ? operationsText(operationsOf(entry, site.dir)) : "";
      return { text: `${where}\n${ops ? `${ops}\nconfiguration:\n` : ""}${renderTree(entry.config)}` };
    }
    // A key as nc_diff_interface writes it (`DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST`) reads too.
    const { dotted, near } = dottedPath(entry.config, path);
    const value = dotted === undefined ? undefined : entry.config.at(dotted);
    if (value === undefined) {
      throw new EngineInputError(
        "no_such_key",
        `${entry.name} has no ${path} (${near ?? keysNear(entry.config, dotted ?? path)})`,
        {
          thread: entry.name,
          path,
        },
      );
    }
    if (format === "json") {
      return {
        text: JSON.stringify({ site: site.name, name: entry.name, path, value: valueToJSON(value) }, null, 2),
      };
    }
    if (format === "tcl") return { text: toTcl(value) };
    if (typeof value === "string") return { text: value.trim() === "" ? "{}" : value };
    // The block's settings in words too (relative folders resolved under the process folder).
    const top = (dotted ?? path).split(".")[0].toUpperCase();
    const said = entry.type === "protocol" ? OPERATIONS_OF[top] : undefined;
    const ops = said ? operationsOf(entry, site.dir).filter(([k]) => said.includes(k)) : [];
    return {
      text: `${path} of ${where}\n${ops.length ? `${operationsText(ops)}\nconfiguration:\n` : ""}${
        renderTree(value)
      }`,
    };
  } catch (err) {
    return failure(err);
  }
}

/** The operations (operationsOf's names) a block of the thread's configuration is about. */
const OPERATIONS_OF: Record<string, readonly string[]> = {
  PROTOCOL: ["connection", "tls"],
  REPLYCONTROL: ["replies"],
  REPLYXLATE: ["replies"],
  SENDDATACTRL: ["delivery"],
  SAVEMSGS: ["smat"],
  SMS: ["data procs", "replies"],
};

/** What there is at the deepest part of `path` that exists: its keys, or its element count. */
function keysNear(config: KeyedList, path: string): string {
  const parts = path.split(".");
  for (let n = parts.length - 1; n >= 1; n--) {
    const prefix = parts.slice(0, n).join(".");
    const v = config.at(prefix);
    if (v === undefined) continue;
    if (v instanceof KeyedList) return `keys of ${prefix}: ${v.fields.map((f) => f.key).join(" ")}`;
    if (Array.isArray(v)) {
      return `${prefix} has ${v.length} element${v.length === 1 ? "" : "s"}, 1 to ${v.length}`;
    }
    return `${prefix} is a value, ${JSON.stringify(v.trim())}, with no keys below it`;
  }
  return `its keys: ${config.fields.map((f) => f.key).join(" ")}`;
}
