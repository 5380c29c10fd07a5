/**
 * Parameters the engine tools share, so each reads the same way everywhere. Small on purpose: the
 * tool modules import this and nothing heavy. Each keeps its literal types (`as const`), so a body's
 * `InputOf<typeof def>` (tools/types.ts) knows these names too.
 *
 * @module
 */
import type { ParamSpec } from "../types.ts";

export const HCIROOT_PARAM = {
  name: "hciroot",
  type: "string",
  description: "engine root folder (default $HCIROOT)",
  metavar: "PATH",
} as const satisfies ParamSpec;

/**
 * An SSH alias: the tool reads that engine host's root over SSH (ssh_status lists the aliases).
 * Positional only for tools without other positionals (list_sites).
 */
export function aliasParam(positional = false) {
  return {
    name: "alias",
    type: "string",
    description:
      "SSH alias of a remote engine host: work on its engine root over SSH (default: this machine)",
    positional,
  } as const satisfies ParamSpec;
}

/** The site as the first positional (for tools that take one site). */
export function siteParam(positional = true) {
  return {
    name: "site",
    type: "string",
    description: "site name (default $HCISITE, or the only site); a thread alone is found in the one site " +
      "that has it",
    positional,
  } as const satisfies ParamSpec;
}

export const THREAD_PARAM = {
  name: "thread",
  type: "string",
  description: "thread (protocol) name, or <thread>.<site>; case-insensitive",
  positional: true,
} as const satisfies ParamSpec;

/** `format`, its words typed as given (the first is the default): `formatParam(["text", "json"])`. */
export function formatParam(): FormatParam<readonly ["text", "tsv", "json"]>;
export function formatParam<const V extends readonly [string, ...string[]]>(values: V): FormatParam<V>;
export function formatParam(values: readonly [string, ...string[]] = ["text", "tsv", "json"]) {
  return { name: "format", type: "string", description: "output format", enum: values, default: values[0] };
}

interface FormatParam<V extends readonly string[]> {
  readonly name: "format";
  readonly type: "string";
  readonly description: string;
  readonly enum: V;
  readonly default: string;
}

/** How many recent messages a route test takes from each inbound's SMAT archive (nc_route_test, nc_regression). */
export function countParam(description: string) {
  return {
    name: "count",
    type: "integer",
    description,
    default: 10,
    min: 1,
    max: 1000,
  } as const satisfies ParamSpec;
}

/** Only SMAT messages of the last N days (nc_route_test, nc_regression). */
export const DAYS_BACK_PARAM = {
  name: "days_back",
  type: "integer",
  description: "only messages of the last N days",
  min: 1,
  max: 3650,
} as const satisfies ParamSpec;

/** The zone bare dates and times mean (nc_msgs, nc_revisions); default the site's (tools/engine/site_zone.ts). */
export const TZ_PARAM = {
  name: "tz",
  type: "string",
  description: "time zone of bare dates and times and of the times shown (America/Chicago, UTC, -06:00); " +
    "default the site's: its siteInfo timezone, else the engine host's TZ or clock",
  metavar: "ZONE",
} as const satisfies ParamSpec;
