/**
 * The layers hold on the real module graph (rules: tests/support/layers.ts). The graph is Deno's own
 * (`deno info --json` over every source module, the way tests/integration/lazy_load.test.ts reads
 * it): static imports, literal dynamic imports and type-only imports, including the
 * `typeof import("...")` that types each core/lazy.ts call. The specifier a lazy call loads at run
 * time is a string, not an import, so the source text is scanned for those calls (and for Worker
 * URLs); a lazy call that cannot be read, or whose type and specifier disagree, fails too.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { CONFIG, REPO_ROOT } from "../support/run_assist.ts";
import { checkLayers, type Edge, LAYERS } from "../support/layers.ts";

/** Every TypeScript module of the program's source folders, repository-relative. */
async function sourceFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(REPO_ROOT, dir))) {
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory && (dir !== "" || e.name in LAYERS)) await walk(rel);
      else if (e.isFile && rel.endsWith(".ts") && (dir !== "" || e.name in LAYERS)) out.push(rel);
    }
  };
  await walk("");
  return out.sort();
}

const FILE_PREFIX = `file://${REPO_ROOT}`;

/** The import edges Deno sees, from one `deno info` over a root that imports every source module. */
async function graphEdges(files: string[]): Promise<Edge[]> {
  const dir = await Deno.makeTempDir({ prefix: "assist-layers-" });
  try {
    const root = join(dir, "all.ts");
    await Deno.writeTextFile(root, files.map((f) => `import "${FILE_PREFIX}${f}";\n`).join(""));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", CONFIG, root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout));
    const edges: Edge[] = [];
    for (const m of info.modules) {
      if (!String(m.specifier).startsWith(FILE_PREFIX)) continue;
      const from = m.specifier.slice(FILE_PREFIX.length);
      for (const d of m.dependencies ?? []) {
        for (const kind of ["code", "type"] as const) {
          const to = d[kind]?.specifier as string | undefined;
          if (to?.startsWith(FILE_PREFIX)) edges.push({ from, to: to.slice(FILE_PREFIX.length), kind });
        }
      }
    }
    return edges;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const LAZY_CALL =
  /\blazy<\s*typeof import\(\s*"([^"]+)"\s*\)\s*>\(\s*import\.meta\.url\s*,\s*"([^"]+)"\s*,?\s*\)/g;
const ANY_LAZY_CALL = /\blazy\s*(<|\()/g;
const WORKER_URL = /new URL\(\s*"([^"]+\.ts)"\s*,\s*import\.meta\.url\s*\)/g;

function isComment(text: string, index: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", index) + 1, index).trimStart();
  return line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
}

/** A relative specifier against a module; undefined for node:, npm: and other bare specifiers. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return undefined;
  return relative(REPO_ROOT, join(REPO_ROOT, dirname(from), spec)).replaceAll("\\", "/");
}

/** Edges the graph cannot show (core/lazy.ts specifiers, Worker URLs) and lazy calls that cannot be checked. */
function scanSource(
  file: string,
  text: string,
): { edges: Edge[]; problems: string[] } {
  const edges: Edge[] = [];
  const problems: string[] = [];
  let calls = 0;
  let read = 0;
  for (const m of text.matchAll(ANY_LAZY_CALL)) {
    if (!isComment(text, m.index) && !text.slice(m.index - 16, m.index).includes("function ")) calls++;
  }
  for (const m of text.matchAll(LAZY_CALL)) {
    if (isComment(text, m.index)) continue;
    read++;
    const [typed, loaded] = [m[1], m[2]];
    if (typed !== loaded) problems.push(`lazy: ${file} types ${typed} but loads ${loaded}`);
    const to = resolve(file, loaded);
    if (to) edges.push({ from: file, to, kind: "lazy" });
  }
  if (read !== calls) {
    problems.push(
      `lazy: ${file} has ${calls - read} lazy call(s) not of the form ` +
        `lazy<typeof import("<spec>")>(import.meta.url, "<spec>") (their targets cannot be checked)`,
    );
  }
  for (const m of text.matchAll(WORKER_URL)) {
    if (isComment(text, m.index)) continue;
    const to = resolve(file, m[1]);
    if (to) edges.push({ from: file, to, kind: "url" });
  }
  return { edges, problems };
}

Deno.test("the lazy-call scanner reads every call and flags one it cannot check", () => {
  const text = [
    '/** @example lazy<typeof import("./x.ts")>(import.meta.url, "./x.ts") */',
    'const a = await lazy<typeof import("../ssh/open.ts")>(',
    "  import.meta.url,",
    '  "../ssh/open.ts",',
    ");",
    'const b = await lazy<typeof import("./a.ts")>(import.meta.url, "./b.ts");',
    "const c = await lazy<Mod>(import.meta.url, name);",
    'const w = new Worker(new URL("./_w.ts", import.meta.url).href);',
  ].join("\n");
  const { edges, problems } = scanSource("tools/x/y.ts", text);
  assertEquals(edges, [
    { from: "tools/x/y.ts", to: "tools/ssh/open.ts", kind: "lazy" },
    { from: "tools/x/y.ts", to: "tools/x/b.ts", kind: "lazy" },
    { from: "tools/x/y.ts", to: "tools/x/_w.ts", kind: "url" },
  ]);
  assertEquals(problems, [
    "lazy: tools/x/y.ts types ./a.ts but loads ./b.ts",
    "lazy: tools/x/y.ts has 1 lazy call(s) not of the form " +
    'lazy<typeof import("<spec>")>(import.meta.url, "<spec>") (their targets cannot be checked)',
  ]);
});

/**
 * Known exceptions, each with the change that removes it. The test fails when one is no longer
 * needed, so the list cannot outlive its reason.
 */
const KNOWN: readonly string[] = [];

Deno.test("the source folders keep the layers: no upward or sideways import, no folder cycle, no _ reach", async () => {
  const files = await sourceFiles();
  const edges = await graphEdges(files);
  const problems: string[] = [];
  for (const f of files) {
    const scan = scanSource(f, await Deno.readTextFile(join(REPO_ROOT, f)));
    edges.push(...scan.edges);
    problems.push(...scan.problems);
  }
  // The graph must be the whole program: every source module is in it.
  const inGraph = new Set(edges.flatMap((e) => [e.from, e.to]));
  assertEquals(files.filter((f) => f !== "main.ts" && !inGraph.has(f)), []);
  // Each folder's public face: the files its mod.ts re-exports from.
  const faces: Record<string, string[]> = {};
  for (const f of files.filter((f) => f.endsWith("/mod.ts"))) {
    const text = await Deno.readTextFile(join(REPO_ROOT, f));
    faces[dirname(f)] = [...text.matchAll(/\bfrom\s+"(\.\/[^"]+)"/g)].map((m) => resolve(f, m[1])!);
  }
  const violations = checkLayers(edges, faces);
  assertEquals(
    { violations: violations.filter((v) => !KNOWN.includes(v)), problems },
    { violations: [], problems: [] },
  );
  assertEquals(KNOWN.filter((k) => !violations.includes(k)), [], "a known exception is gone: remove it");
});
