/**
 * The layer rules of the program's source folders (docs/ARCHITECTURE.md, "Layers"), as a pure
 * function over a module graph, so the rules themselves are tested on synthetic graphs
 * (tests/support/layers.test.ts) and the real graph is checked by tests/integration/layers.test.ts.
 *
 * The rules:
 * - Layers: `main → cli → tools → phi, ssh, update → hl7 → core`. A module may import its own folder
 *   and any folder of a lower layer, never a higher one and never a sibling of its own layer (phi,
 *   ssh and update do not import each other). `prompts/` is data (text imports) any layer may read.
 *   A source module imports nothing outside the source folders (no tests/, no bench/).
 * - Private files: a `_`-prefixed file is imported only from its own folder or folders below it.
 * - No cycle between folders: at every level, sibling folders (tools/engine and tools/ssh, or phi and
 *   ssh) must not depend on each other both ways, directly or around a loop. A folder using its
 *   parent's files (tools/engine → tools/types.ts) is not a sibling edge.
 * - Public faces: a folder with a `mod.ts` is reached from outside through the files its `mod.ts`
 *   re-exports from (or `mod.ts` itself); its other files are its own. (`faces` below: folder → the
 *   files its `mod.ts` re-exports from.)
 * - No cycle between modules, in one folder or across: code imports and core/lazy.ts loads count
 *   (`lazy()` is for start-up cost only; a cycle behind it is still a cycle), type-only imports do
 *   not (they are erased).
 *
 * Tests and benchmarks may import anything; only edges from the source folders are checked.
 *
 * @module
 */

/** One import: repository-relative paths with `/` separators (`tools/engine/engine.ts`). */
export interface Edge {
  from: string;
  to: string;
  /** code (static or literal dynamic import), type (type-only), lazy (core/lazy.ts), url (a Worker). */
  kind: "code" | "type" | "lazy" | "url";
}

/** The layer of each top-level source entry; higher imports lower. */
export const LAYERS: Readonly<Record<string, number>> = {
  prompts: -1,
  core: 0,
  hl7: 1,
  phi: 2,
  ssh: 2,
  update: 2,
  tools: 3,
  cli: 4,
  "main.ts": 5,
};

const CHAIN = "main → cli → tools → phi, ssh, update → hl7 → core";

function top(path: string): string {
  return path.split("/")[0];
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function isSource(path: string): boolean {
  return top(path) in LAYERS;
}

function within(dir: string, ancestor: string): boolean {
  return ancestor === "" || dir === ancestor || dir.startsWith(`${ancestor}/`);
}

/**
 * The sibling-folder edge an import makes, if any: below the deepest folder both paths share, the
 * two different child folders they lie in. undefined when either side is a file of that shared folder.
 */
function siblingEdge(from: string, to: string): [string, string] | undefined {
  const a = from.split("/");
  const b = to.split("/");
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
  // a[i] and b[i] are the first differing components; both must be folders (not the file itself).
  if (i >= a.length - 1 || i >= b.length - 1) return undefined;
  return [a.slice(0, i + 1).join("/"), b.slice(0, i + 1).join("/")];
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * Every rule broken by the graph, one line each, sorted; empty when the layers hold.
 *
 * @example
 * ```ts
 * import { checkLayers } from "./layers.ts";
 * checkLayers([{ from: "phi/engine.ts", to: "ssh/open.ts", kind: "code" }]);
 * // ["layer: phi/engine.ts -> ssh/open.ts (phi must not import ssh: main → cli → ...)"]
 * ```
 */
export function checkLayers(
  edges: readonly Edge[],
  faces: Readonly<Record<string, readonly string[]>> = {},
): string[] {
  const found = new Set<string>();
  const folders = new Map<string, Set<string>>();
  const modules = new Map<string, Set<string>>();
  const witness = new Map<string, Edge>();
  for (const e of edges) {
    if (!isSource(e.from) || e.from === e.to) continue;
    if (e.kind !== "type" && isSource(e.to)) {
      if (!modules.has(e.from)) modules.set(e.from, new Set());
      modules.get(e.from)!.add(e.to);
    }
    const [ta, tb] = [top(e.from), top(e.to)];
    if (!isSource(e.to)) {
      found.add(`layer: ${e.from} -> ${e.to} (source modules import only the source folders)`);
      continue;
    }
    if (ta !== tb && LAYERS[tb] >= LAYERS[ta]) {
      found.add(`layer: ${e.from} -> ${e.to} (${ta} must not import ${tb}: ${CHAIN})`);
    }
    const base = e.to.slice(e.to.lastIndexOf("/") + 1);
    const face = faces[dirOf(e.to)];
    if (face && !within(dirOf(e.from), dirOf(e.to)) && base !== "mod.ts" && !face.includes(e.to)) {
      found.add(
        `face: ${e.from} -> ${e.to} (${dirOf(e.to)}/mod.ts does not re-export it: ` +
          "reach the folder through what its mod.ts names)",
      );
    }
    if (base.startsWith("_") && !within(dirOf(e.from), dirOf(e.to))) {
      found.add(`private: ${e.from} -> ${e.to} (a _ file is private to ${dirOf(e.to) || "the top folder"})`);
    }
    const sib = siblingEdge(e.from, e.to);
    if (sib) {
      const [fa, fb] = sib;
      if (!folders.has(fa)) folders.set(fa, new Set());
      folders.get(fa)!.add(fb);
      const key = `${fa}\0${fb}`;
      if (!witness.has(key)) witness.set(key, e);
    }
  }
  for (const comp of cycles(folders)) {
    const inside = new Set(comp);
    const via = [...witness.entries()]
      .filter(([k]) => {
        const [fa, fb] = k.split("\0");
        return inside.has(fa) && inside.has(fb);
      })
      .map(([, e]) => `${e.from} -> ${e.to}`)
      .sort();
    found.add(`cycle: ${comp.join(" <-> ")} (via ${via.join(", ")})`);
  }
  for (const comp of cycles(modules)) {
    found.add(`module cycle: ${comp.join(" <-> ")} (lazy() hides no cycle: ARCHITECTURE.md, "Rules")`);
  }
  return [...found].sort();
}
