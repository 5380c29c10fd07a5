/**
 * The NetConfig model: Tcl lists, keyed lists with the NetConfig schema, the prologue, the records
 * (`process`, `protocol`, `destination`), routes and thread summaries.
 *
 * @example
 * ```ts
 * declare const text: string;
 * import { parseNetConfig, routesOf } from "./mod.ts";
 * const nc = parseNetConfig(text, { source: "adt/NetConfig" });
 * for (const r of routesOf(nc.protocol("adt_in")!)) console.log(r.trxid);
 * ```
 *
 * @module
 */
export { type NcEntry, type NcIssue, NetConfig, NetConfigError, parseNetConfig } from "./parse.ts";
export {
  asKeyedList,
  KeyedList,
  type KlField,
  type KlValue,
  structuredScalar,
  valueToJSON,
} from "./keyed_list.ts";
export { parseDate, type Prologue, type SortableDate } from "./prologue.ts";
export {
  argWords,
  isOn,
  procText,
  type Route,
  type RouteDetail,
  routesOf,
  STATIC_ROUTE,
  type TpsProc,
  tpsProcs,
  words,
} from "./routes.ts";
export { type Direction, routeTargets, type ThreadInfo, threadInfo } from "./thread_info.ts";
export { COSMETIC_KEYS } from "./schema.ts";
export { joinList, quoteElement, splitList, TclListError } from "./tcl_list.ts";
export { renderTree, toTcl } from "./render.ts";
export { type Operation, operationsOf, operationsText } from "./operations.ts";
