/**
 * Where a thread's SMAT archives are (research/cloverleaf.md 3.1): `SAVEMSGS.INFILE`/`OUTFILE` name
 * them relative to `$HCISITEDIR/exec/processes/<PROCESSNAME>/`, as `<name>.smatdb` or
 * `<name>.idx`/`.msg`; cycled copies are in that folder's `SmatHistory/` (or
 * `SmatHistory/<thread>/`), named `<name>.<date>.smatdb|idx`.
 *
 * @module
 */
import { isPlainSqlite } from "./smatdb.ts";
import { isSampleTsv } from "./sample_tsv.ts";
import type { EngineFs } from "../engine_fs.ts";
import type { Site } from "../sites.ts";
import type { NcEntry } from "../netconfig/mod.ts";

export interface SmatFile {
  path: string;
  /** `tsv`: the sampled TSV of ssh_pull_smat --days-back (./sample_tsv.ts). */
  format: "smatdb" | "idx" | "tsv";
  /** What it is for, e.g. `adt_in in`, `history`. */
  role: string;
}

export type SmatDirection = "in" | "out" | "both";

function isSmat(name: string): SmatFile["format"] | undefined {
  if (/\.smatdb$/i.test(name)) return "smatdb";
  if (/\.idx$/i.test(name)) return "idx";
  return undefined;
}

async function listIf(fs: EngineFs, dir: string) {
  const st = await fs.stat(dir).catch(() => undefined);
  return st?.isDirectory ? await fs.list(dir) : [];
}

/**
 * The SMAT files of one thread: current archives first (in, then out), then history copies,
 * newest name first.
 */
export async function threadSmatFiles(
  fs: EngineFs,
  site: Site,
  thread: NcEntry,
  direction: SmatDirection,
  history: boolean,
): Promise<{ files: SmatFile[]; names: string[] }> {
  const process = (thread.config.str("PROCESSNAME") ?? "").trim();
  const save = thread.config.kl("SAVEMSGS");
  const names: Array<[string, string]> = [];
  // The file names count even when saving is switched off now: the archive may be from before.
  const add = (file: string, dir: string) => {
    const name = (save?.str(file) ?? "").trim();
    if (name !== "" && !names.some(([n]) => n === name)) names.push([name, dir]);
  };
  if (direction !== "out") add("INFILE", "in");
  if (direction !== "in") add("OUTFILE", "out");
  const procDir = fs.join(site.dir, "exec", "processes", process);
  const files: SmatFile[] = [];
  for (const [name, dir] of names) {
    // An absolute name is used as is; a relative one is in the process folder.
    const base = /^([\\/]|[A-Za-z]:)/.test(name) ? name : fs.join(procDir, name);
    for (const [ext, format] of [[".smatdb", "smatdb"], [".idx", "idx"]] as const) {
      const p = base + ext;
      if (await fs.exists(p).catch(() => false)) {
        files.push({ path: p, format, role: `${thread.name} ${dir}` });
      }
    }
  }
  if (history) {
    const wanted = names.map(([n]) => fs.basename(n).toLowerCase());
    for (const dir of [fs.join(procDir, "SmatHistory"), fs.join(procDir, "SmatHistory", thread.name)]) {
      const entries = (await listIf(fs, dir)).filter((e) => e.isFile && isSmat(e.name))
        .filter((e) => wanted.some((w) => e.name.toLowerCase().startsWith(`${w}.`)))
        .sort((a, b) => (a.name < b.name ? 1 : -1));
      for (const e of entries) {
        files.push({ path: fs.join(dir, e.name), format: isSmat(e.name)!, role: "history" });
      }
    }
  }
  return { files, names: names.map(([n]) => n) };
}

/** Every current SMAT file of a site (each process folder), and with `history` the SmatHistory ones. */
export async function siteSmatFiles(fs: EngineFs, site: Site, history: boolean): Promise<SmatFile[]> {
  const root = fs.join(site.dir, "exec", "processes");
  const files: SmatFile[] = [];
  for (const p of await listIf(fs, root)) {
    if (!p.isDirectory) continue;
    const dir = fs.join(root, p.name);
    for (const e of await listIf(fs, dir)) {
      const format = e.isFile ? isSmat(e.name) : undefined;
      if (format) files.push({ path: fs.join(dir, e.name), format, role: p.name });
    }
    if (history) {
      for (const e of await listIf(fs, fs.join(dir, "SmatHistory"))) {
        const format = e.isFile ? isSmat(e.name) : undefined;
        if (format) files.push({ path: fs.join(dir, "SmatHistory", e.name), format, role: "history" });
      }
    }
  }
  return files;
}

/** A file named by the operator: `.smatdb`, `.idx`, `.msg`, or a base name with one of them beside it. */
export async function namedSmatFile(fs: EngineFs, path: string): Promise<SmatFile | undefined> {
  if (/\.msg$/i.test(path)) path = path.replace(/\.msg$/i, ".idx");
  const format = isSmat(path);
  if (format) return (await fs.exists(path)) ? { path, format, role: "file" } : undefined;
  const st = await fs.stat(path).catch(() => undefined);
  if (st && !st.isDirectory) {
    // Any other name: recognised by content (a pulled copy, a sample, a renamed archive).
    const head = await fs.readRange(path, 0, 64).catch(() => new Uint8Array());
    if (isPlainSqlite(head)) return { path, format: "smatdb", role: "file" };
    if (isSampleTsv(new TextDecoder().decode(head))) return { path, format: "tsv", role: "file" };
    if (/\.tsv$/i.test(path)) return undefined;
    // Neither: taken as a .smatdb, whose reader says what it is (encrypted, empty, not SQLite).
    return { path, format: "smatdb", role: "file" };
  }
  for (const [ext, f] of [[".smatdb", "smatdb"], [".idx", "idx"]] as const) {
    if (await fs.exists(path + ext).catch(() => false)) return { path: path + ext, format: f, role: "file" };
  }
  return undefined;
}
