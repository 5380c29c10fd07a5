/**
 * Parameters the engine tools share, so each reads the same way everywhere. Small on purpose: the
 * tool modules import this and nothing heavy.
 *
 * @module
 */
import type { ParamSpec } from "../types.ts";

export const HCIROOT_PARAM: ParamSpec = {
  name: "hciroot",
  type: "string",
  description: "engine root folder (default $HCIROOT)",
  metavar: "PATH",
};

/**
 * An SSH alias: the tool reads that engine host's root over SSH (ssh_status lists the aliases).
 * Positional only for tools without other positionals (list_sites).
 */
export function aliasParam(positional = false): ParamSpec {
  return {
    name: "alias",
    type: "string",
    description:
      "SSH alias of a remote engine host: work on its engine root over SSH (default: this machine)",
    positional,
  };
}

/** The site as the first positional (for tools that take one site). */
export function siteParam(positional = true): ParamSpec {
  return {
    name: "site",
    type: "string",
    description: "site name (default $HCISITE, or the only site); a thread alone is found in the one site " +
      "that has it",
    positional,
  };
}

export const THREAD_PARAM: ParamSpec = {
  name: "thread",
  type: "string",
  description: "thread (protocol) name, or <thread>.<site>; case-insensitive",
  positional: true,
};

export function formatParam(values: readonly string[] = ["text", "tsv", "json"]): ParamSpec {
  return {
    name: "format",
    type: "string",
    description: "output format",
    enum: values,
    default: values[0],
  };
}

/** How many recent messages a route test takes from each inbound's SMAT archive (nc_route_test, nc_regression). */
export function countParam(description: string): ParamSpec {
  return { name: "count", type: "integer", description, default: 10, min: 1, max: 1000 };
}

/** Only SMAT messages of the last N days (nc_route_test, nc_regression). */
export const DAYS_BACK_PARAM: ParamSpec = {
  name: "days_back",
  type: "integer",
  description: "only messages of the last N days",
  min: 1,
  max: 3650,
};

/** The zone bare dates and times mean (nc_msgs, nc_revisions); default the site's (tools/engine/site_zone.ts). */
export const TZ_PARAM: ParamSpec = {
  name: "tz",
  type: "string",
  description: "time zone of bare dates and times and of the times shown (America/Chicago, UTC, -06:00); " +
    "default the site's: its siteInfo timezone, else the engine host's TZ or clock",
  metavar: "ZONE",
};
