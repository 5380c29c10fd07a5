/**
 * The engine library behind the engine tools, for the code that builds on it (the route-test and
 * regression helpers, the SSH layer's remote file access). Heavy: import it dynamically from tool
 * modules.
 *
 * - The file seam: {@link EngineFs} (every engine file is read through one), {@link localEngineFs}.
 * - The engine root and its sites: {@link Engine}, {@link openEngine}, {@link engineFor},
 *   {@link listSites}, siteInfo.
 * - The NetConfig model: ./netconfig/mod.ts.
 * - Route chains ({@link RouteGraph}), key-by-key diffs, revision snapshots, references,
 *   documentation, SMAT archives (./smat/mod.ts).
 *
 * @example
 * const { engineFor, RouteGraph, chainText } = await import("./tools/engine/mod.ts");
 * const engine = engineFor({ hciroot: "/hci/cis20.1/integrator" }, ctx);
 * const graph = new RouteGraph((await engine.loadAll()).loaded);
 * graph.trace({ site: "adt", name: "adt_in", kind: "thread" }).chains.map(chainText);
 *
 * @module
 */
export {
  type EngineDirEntry,
  type EngineFs,
  EngineFsError,
  type EngineFsErrorKind,
  type EngineStat,
  localEngineFs,
} from "./engine_fs.ts";
export {
  clearNetConfigCache,
  Engine,
  engineFor,
  EngineInputError,
  engineRoot,
  type EnvReader,
  failure,
  type LoadedSite,
  loadNetConfig,
  openEngine,
} from "./engine.ts";
export {
  isUnder,
  listSites,
  parseEnvirons,
  parseSiteInfo,
  readSiteInfo,
  type Site,
  type SiteList,
} from "./sites.ts";
export * from "./netconfig/mod.ts";
export {
  type Chain,
  chainText,
  type PathNode,
  type PathStep,
  RouteGraph,
  type TraceOptions,
} from "./paths.ts";
export { type Change, changeLine, diffConfig, type DiffOptions } from "./diff.ts";
export { folderTimeKey, listSnapshots, sinceKey, type Snapshot } from "./revisions.ts";
export { findRefs, type Ref, type RefKind } from "./refs.ts";
export * from "./smat/mod.ts";
