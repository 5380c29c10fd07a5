/**
 * Where a site's Tcl procs are defined, from the two indexes the engine keeps in `tclprocs/`:
 * `tclIndex` (Tcl's auto_mkindex: `set auto_index(NAME) [list source [file join $dir FILE]]`, the
 * engine writing `SourceFilter` for `source`) and `.upocindex` (the IDE's, from mktclindex:
 * `{{<upoc type>} {<procname>} {<filename>} ?{<usage>}?}` a line). A file proc names need not be
 * its file's name (`hi` in `demo.tcl`), so `nc_refs` reads these to say where an unused proc lives
 * and to suggest proc names.
 *
 * @module
 */
import type { EngineFs } from "./engine_fs.ts";

export interface ProcDef {
  /** The file under `tclprocs/` that defines it. */
  file: string;
  /** Which index says so. */
  from: "tclIndex" | ".upocindex";
  /** The UPoC type `.upocindex` gives (`tps`, `unknown`, ...), when it does. */
  upocType?: string;
}

const TCL_INDEX_LINE =
  /^\s*set\s+auto_index\(([^)\s]+)\)\s+\[list\s+\S+\s+\[file\s+join\s+\$dir\s+([^\]\s]+)\s*\]\s*\]/;
const UPOC_INDEX_LINE = /^\s*\{\s*\{([^{}]*)\}\s+\{([^{}]*)\}\s+\{([^{}]*)\}/;

/**
 * The procs `tclIndex` and `.upocindex` text define, by name (`tclIndex` first when both name
 * one). Lines of neither shape (comments, other commands) are passed over.
 *
 * @example
 * ```ts
 * parseProcIndexes("set auto_index(hi) [list source [file join $dir demo.tcl]]\n", "");
 * // Map { "hi" => { file: "demo.tcl", from: "tclIndex" } }
 * ```
 */
export function parseProcIndexes(tclIndex: string, upocIndex: string): Map<string, ProcDef> {
  const out = new Map<string, ProcDef>();
  for (const line of tclIndex.split(/\r?\n/)) {
    const m = TCL_INDEX_LINE.exec(line);
    if (m && !out.has(m[1])) out.set(m[1], { file: m[2], from: "tclIndex" });
  }
  for (const line of upocIndex.split(/\r?\n/)) {
    if (line.trimStart().startsWith("#")) continue;
    const m = UPOC_INDEX_LINE.exec(line);
    if (!m) continue;
    const [type, name, file] = [m[1].trim(), m[2].trim(), m[3].trim()];
    if (name === "" || file === "" || out.has(name)) continue;
    out.set(name, { file, from: ".upocindex", ...(type ? { upocType: type } : {}) });
  }
  return out;
}

/** The procs a site's `tclprocs/` indexes define (empty when it has neither). */
export async function readProcIndex(fs: EngineFs, siteDir: string): Promise<Map<string, ProcDef>> {
  const read = (name: string) => fs.readText(fs.join(siteDir, "tclprocs", name)).catch(() => "");
  const [tclIndex, upocIndex] = await Promise.all([read("tclIndex"), read(".upocindex")]);
  return parseProcIndexes(tclIndex, upocIndex);
}
