/**
 * A site as the engine tools hold it once loaded (`LoadedSite`), built in memory from thread specs:
 * for tests of the route graph and the port problems, which need NetConfigs but no files.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseNetConfig } from "../../tools/engine/netconfig/mod.ts";
import type { LoadedSite } from "../../tools/engine/engine.ts";
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  type ThreadSpec,
  writeNetConfig,
} from "./nc_writer.ts";

/** Site `name` (folder `/r/<name>`) with `threads` in process `p` and inter-site `dests` (name, host, port). */
export function loadedSite(
  name: string,
  threads: Array<Omit<ThreadSpec, "process">>,
  dests: Array<[string, string, number]> = [],
): LoadedSite {
  const nc = parseNetConfig(writeNetConfig({ who: "t", date: "May 2, 2021 5:30:00 PM CDT" }, [
    processRecord("p"),
    ...threads.map((t) => protocolRecord({ process: "p", ...t })),
    ...dests.map(([n, h, p]) => destinationRecord(n, h, p)),
  ]));
  assertEquals(nc.issues, []);
  return { site: { name, dir: `/r/${name}`, hasNetConfig: true }, nc };
}
