/**
 * Route-test results on this machine: `results.txt` as run.sh frames it (`#@ <bytes> <path>` then
 * exactly that many bytes, for every file under the host's `out/`) unpacked into an outputs folder,
 * and read back per message, stage and destination.
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import { join } from "node:path";
import type { ChainPlan } from "./routetest_plan.ts";

export interface ResultFile {
  /** Relative to the host's `out/` folder: `<inbound>/<message>/<stage...>/<file>`. */
  path: string;
  bytes: Uint8Array;
}

export class ResultsError extends AssistError {
  constructor(message: string) {
    super(message, { level: "input" });
    this.name = "ResultsError";
  }
}

/** The files framed in a results.txt. Throws ResultsError on a torn or unsafe frame. */
export function parseResults(bytes: Uint8Array): ResultFile[] {
  const out: ResultFile[] = [];
  const dec = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(10, at);
    if (nl < 0) throw new ResultsError("results.txt ends inside a header");
    const header = dec.decode(bytes.subarray(at, nl));
    const m = header.match(/^#@ (\d+) out\/(.+)$/);
    if (!m) throw new ResultsError(`results.txt: unexpected line "${header.slice(0, 80)}"`);
    const size = Number(m[1]);
    const path = m[2];
    if (path.split("/").some((p) => p === "" || p === "." || p === "..")) {
      throw new ResultsError(`results.txt: unsafe path ${path}`);
    }
    if (nl + 1 + size > bytes.length) throw new ResultsError(`results.txt: ${path} is cut short`);
    out.push({ path, bytes: bytes.slice(nl + 1, nl + 1 + size) });
    at = nl + 1 + size;
  }
  return out;
}

/** Writes result files under `dir` (mode 0600: outputs hold message content). */
export async function writeResults(files: readonly ResultFile[], dir: string): Promise<void> {
  for (const f of files) {
    const path = join(dir, ...f.path.split("/"));
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeFile(path, f.bytes, { mode: 0o600 });
  }
}

async function readIf(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** What one message's chain ended with, read from an outputs folder. */
export interface ChainOutcome {
  /** Destination → output messages (one a line in the file, CR-separated segments). */
  outputs: Map<string, string[]>;
  /** A stage that failed or did not run, with the reason (first one on the chain). */
  problem?: string;
  /** The chain ran to its end and its last stage routed nothing to the destination followed. */
  filtered: boolean;
}

/**
 * The final outputs of a chain for one message: `msgDir` is `<outputs>/<inbound>/<message>`.
 */
export async function chainOutcome(msgDir: string, chain: ChainPlan): Promise<ChainOutcome> {
  const outputs = new Map<string, string[]>();
  for (const key of chain.stages) {
    const dir = join(msgDir, ...key.split("/"));
    const rc = (await readIf(join(dir, "routetest.rc")))?.trim();
    if (rc === undefined) return { outputs, problem: `stage ${key} did not run`, filtered: false };
    if (rc === "skip") return { outputs, filtered: true };
    if (rc !== "0") {
      const err = ((await readIf(join(dir, "routetest.stderr"))) ?? "").trim().split("\n").slice(-1)[0] ?? "";
      return {
        outputs,
        problem: `hciroutetest exited ${rc} at ${key}${err ? `: ${err}` : ""}`,
        filtered: false,
      };
    }
  }
  if (!chain.final) return { outputs, filtered: false };
  const dir = join(msgDir, ...chain.final.stage.split("/"));
  const lines = (t: string) => t.split("\n").filter((l) => l !== "");
  if (chain.final.dest === "*") {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch { /* nothing routed */ }
    for (
      const e of entries.filter((e) => e.isFile && e.name.endsWith(".hl7")).sort((a, b) =>
        a.name < b.name ? -1 : 1
      )
    ) {
      outputs.set(e.name.slice(0, -4), lines(await Deno.readTextFile(join(dir, e.name))));
    }
  } else {
    const text = await readIf(join(dir, `${chain.final.dest}.hl7`));
    if (text !== undefined) outputs.set(chain.final.dest, lines(text));
  }
  return { outputs, filtered: outputs.size === 0 };
}
