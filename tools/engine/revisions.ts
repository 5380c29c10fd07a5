/**
 * The saved states of a site's NetConfig (research/cloverleaf.md 2.5; spec "Network-config revision
 * history"):
 * - `revisions/NetConfig<TS>`: one folder per save holding that NetConfig (a plain file of that name
 *   is read too). The timestamp is not zero-padded, so folder names do not sort by time;
 * - `version/NetConfig/1.N/NetConfig`, the engine's version control, with `version/version.db`
 *   (`version_history`: check-in time in epoch ms, operator, comment); `1.10` comes after `1.9`;
 * - the live `NetConfig`.
 * Each snapshot is ordered by the date of its own prologue, read into a sortable key (then the
 * check-in time, the folder's timestamp, the file time), and annotated with who saved it and when.
 * Snapshots with identical text (a revision that was also checked in) are shown once.
 *
 * @module
 */
import { parseTimeArg } from "../../core/time.ts";
import { DatabaseSync } from "node:sqlite";
import type { EngineFs } from "./engine_fs.ts";
import type { Site } from "./sites.ts";
import { parseDate, type Prologue } from "./netconfig/mod.ts";
import { readPrologue } from "./netconfig/prologue.ts";

export type SnapshotSource = "revisions" | "version" | "current";

export interface Snapshot {
  site: string;
  /** Where it comes from and its name there, e.g. `revisions/NetConfig2024_3_5_9_4_2`, `version 1.2`, `current`. */
  label: string;
  /** Every place this same text was found (first is `label`). */
  aliases: string[];
  source: SnapshotSource;
  path: string;
  text: string;
  /** Who saved it: the prologue's `who`, else version.db's operator. */
  who?: string;
  /** When, as the prologue says it (free text), else the check-in time. */
  when?: string;
  /** Sorts chronologically (see the module notes). */
  sortKey: string;
  /** Where the sort key came from. */
  keyFrom: "prologue" | "check-in" | "folder name" | "file time" | "none";
  /** version.db: operator, check-in time (ISO), comment. */
  checkIn?: { operator?: string; time?: string; comment?: string };
}

/**
 * The time in a `NetConfig<TS>` folder name, when it can be read: epoch seconds (10 digits) or
 * milliseconds (13), 14 digits `YYYYMMDDhhmmss`, or numbers separated by non-digits (`2024_3_5_9_4_2`,
 * `2024-3-5-9.4.2`) read as year, month, day, hour, minute, second. Local wall time (no zone).
 *
 * @example
 * ```ts
 * folderTimeKey("2024_3_5_9_4_2"); // "2024-03-05T09:04:02"
 * ```
 */
export function folderTimeKey(ts: string): string | undefined {
  const p2 = (n: number) => String(n).padStart(2, "0");
  if (/^\d{10}$/.test(ts) || /^\d{13}$/.test(ts)) {
    const ms = ts.length === 10 ? Number(ts) * 1000 : Number(ts);
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
  let parts: number[];
  if (/^\d{14}$/.test(ts)) {
    parts = [0, 4, 6, 8, 10, 12].map((i, k) => Number(ts.slice(i, k === 0 ? 4 : i + 2)));
  } else {
    parts = ts.split(/\D+/).filter((s) => s !== "").map(Number);
    if (parts.length < 3 || parts.length > 6) return undefined;
  }
  const [y, mo, d, h = 0, mi = 0, s = 0] = parts;
  if (y < 1990 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return undefined;
  }
  return `${y}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(s)}`;
}

function prologueOf(text: string): Prologue | undefined {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Skip blank and comment lines before the prologue.
  for (;;) {
    let eol = text.indexOf("\n", pos);
    if (eol === -1) eol = text.length;
    const line = text.slice(pos, eol).trim();
    if (line === "" || line.startsWith("#")) {
      if (eol >= text.length) return undefined;
      pos = eol + 1;
      continue;
    }
    return line === "prologue" ? readPrologue(text, pos, 1).prologue : undefined;
  }
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number), pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

interface CheckIn {
  operator?: string;
  timeMs?: number;
  comment?: string;
}

/** version.db's NetConfig rows, by version; empty (with a note) when it cannot be read. */
async function readVersionDb(fs: EngineFs, path: string, notes: string[]): Promise<Map<string, CheckIn>> {
  const out = new Map<string, CheckIn>();
  if (!(await fs.exists(path))) return out;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(await fs.localFile(path), { readOnly: true });
    const rows = db.prepare(
      "SELECT version, check_in_time, comments, operator FROM version_history " +
        "WHERE file_name = 'NetConfig' OR file_name LIKE '%/NetConfig' OR file_name LIKE '%\\NetConfig'",
    ).all() as Array<Record<string, unknown>>;
    for (const r of rows) {
      const t = Number(String(r.check_in_time ?? "").trim());
      out.set(String(r.version ?? "").trim(), {
        operator: r.operator == null ? undefined : String(r.operator),
        timeMs: Number.isFinite(t) && t > 0 ? (t < 1e11 ? t * 1000 : t) : undefined,
        comment: r.comments == null ? undefined : String(r.comments),
      });
    }
  } catch (err) {
    notes.push(`${path}: not read (${(err as Error).message})`);
  } finally {
    db?.close();
  }
  return out;
}

/**
 * Every saved state of a site's NetConfig, oldest first.
 *
 * @example
 * ```ts
 * import type { Engine } from "./engine.ts";
 * import type { Site } from "./sites.ts";
 * declare const engine: Engine, site: Site;
 * const { snapshots } = await listSnapshots(engine.fs, site);
 * ```
 */
export async function listSnapshots(
  fs: EngineFs,
  site: Site,
): Promise<{ snapshots: Snapshot[]; notes: string[] }> {
  const notes: string[] = [];
  const found: Array<
    Omit<Snapshot, "sortKey" | "keyFrom" | "aliases"> & { folderKey?: string; mtime?: number; order: number }
  > = [];
  let order = 0;
  const add = async (
    source: SnapshotSource,
    label: string,
    path: string,
    folderKey?: string,
    checkIn?: CheckIn,
  ) => {
    let text: string;
    let mtime: number | undefined;
    try {
      mtime = (await fs.stat(path))?.mtimeMs;
      text = await fs.readText(path);
    } catch (err) {
      notes.push(`${label}: not read (${(err as Error).message})`);
      return;
    }
    found.push({
      site: site.name,
      label,
      source,
      path,
      text,
      folderKey,
      mtime,
      order: order++,
      checkIn: checkIn
        ? {
          operator: checkIn.operator,
          time: checkIn.timeMs === undefined
            ? undefined
            : new Date(checkIn.timeMs).toISOString().replace(/\.\d{3}Z$/, "Z"),
          comment: checkIn.comment,
        }
        : undefined,
    });
  };

  const revDir = fs.join(site.dir, "revisions");
  if ((await fs.stat(revDir))?.isDirectory) {
    for (const e of await fs.list(revDir)) {
      const m = e.name.match(/^NetConfig(.+)$/);
      if (!m) continue;
      let file = fs.join(revDir, e.name);
      if (e.isDirectory) {
        const inner = fs.join(file, "NetConfig");
        if (await fs.exists(inner)) file = inner;
        else {
          const files = (await fs.list(file)).filter((x) => x.isFile);
          if (files.length !== 1) {
            notes.push(`revisions/${e.name}: no NetConfig inside`);
            continue;
          }
          file = fs.join(file, files[0].name);
        }
      } else if (!e.isFile) continue;
      await add("revisions", `revisions/${e.name}`, file, folderTimeKey(m[1].replace(/^[._-]/, "")));
    }
  }

  const verDir = fs.join(site.dir, "version", "NetConfig");
  if ((await fs.stat(verDir))?.isDirectory) {
    const checkIns = await readVersionDb(fs, fs.join(site.dir, "version", "version.db"), notes);
    const versions = (await fs.list(verDir)).filter((e) => e.isDirectory && /^\d+(\.\d+)+$/.test(e.name))
      .map((e) => e.name).sort(compareVersions);
    for (const v of versions) {
      const file = fs.join(verDir, v, "NetConfig");
      if (!(await fs.exists(file))) continue;
      await add("version", `version ${v}`, file, undefined, checkIns.get(v));
    }
  }

  const current = fs.join(site.dir, "NetConfig");
  if (await fs.exists(current)) await add("current", "current", current);

  // One entry per distinct text; its labels in the order found.
  const byText = new Map<string, Snapshot>();
  const snapshots: Snapshot[] = [];
  for (const f of found) {
    const same = byText.get(f.text);
    if (same) {
      same.aliases.push(f.label);
      same.checkIn ??= f.checkIn;
      continue;
    }
    const pro = prologueOf(f.text);
    let sortKey: string | undefined = pro?.when?.key;
    let keyFrom: Snapshot["keyFrom"] = "prologue";
    if (sortKey === undefined && f.checkIn?.time) sortKey = f.checkIn.time, keyFrom = "check-in";
    if (sortKey === undefined && f.folderKey) sortKey = f.folderKey, keyFrom = "folder name";
    if (sortKey === undefined && f.mtime !== undefined) {
      sortKey = new Date(f.mtime).toISOString().replace(/\.\d{3}Z$/, "Z");
      keyFrom = "file time";
    }
    const snap: Snapshot = {
      site: f.site,
      label: f.label,
      aliases: [f.label],
      source: f.source,
      path: f.path,
      text: f.text,
      who: pro?.who || f.checkIn?.operator,
      when: pro?.date || f.checkIn?.time,
      sortKey: sortKey ?? "",
      keyFrom: sortKey === undefined ? "none" : keyFrom,
      checkIn: f.checkIn,
    };
    byText.set(f.text, snap);
    snapshots.push(snap);
  }
  const rank: Record<SnapshotSource, number> = { revisions: 0, version: 1, current: 2 };
  snapshots.sort((a, b) =>
    a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : rank[a.source] - rank[b.source]
  );
  return { snapshots, notes };
}

/**
 * A `--since` (or, with `end`, `--until`) value as a key comparable with snapshot keys: the forms of
 * core/time.ts (a date, a date and time in `zone`, else local time, unless a zone is given, an age
 * such as 7d), or
 * a prologue-style date. Undefined when unreadable or impossible (`2024-13-45`).
 */
export function sinceKey(text: string, end = false, now = Date.now(), zone?: string): string | undefined {
  const t = text.trim();
  const ms = parseTimeArg(t, { end, now, zone });
  if (ms !== undefined) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  if (/^\d{4}-\d{1,2}-\d{1,2}/.test(t)) return undefined;
  return parseDate(t)?.key;
}

/** Which saved snapshots the live NetConfig is: `labels` and whether byte for byte (`exact`). */
export interface LiveMatch {
  labels: string[];
  /** False when only the records match: the same file saved again since (its prologue differs). */
  exact: boolean;
}

/** The records of a NetConfig text: everything after its prologue, line ends and BOM aside. */
function recordsOf(text: string): string {
  const t = text.replace(/^\uFEFF/, "").replace(/\r/g, "");
  const end = t.search(/^end_prologue[ \t]*$/m);
  return (end === -1 ? t : t.slice(end).replace(/^end_prologue[ \t]*\n?/, "")).trimEnd();
}

/**
 * Which saved snapshots (revisions/ or version/ copies) the live NetConfig equals: the same text,
 * else the same records under another prologue (saved again without a change; the newest such
 * copy first). Undefined when the site has no live file; `labels` empty when it matches none.
 */
export function liveMatch(snapshots: readonly Snapshot[]): LiveMatch | undefined {
  const live = snapshots.find((s) => s.aliases.includes("current"));
  if (!live) return undefined;
  const same = live.aliases.filter((a) => a !== "current");
  if (same.length > 0) return { labels: same, exact: true };
  const records = recordsOf(live.text);
  const labels = snapshots
    .filter((s) => s !== live && recordsOf(s.text) === records)
    .reverse()
    .flatMap((s) => s.aliases);
  return { labels, exact: false };
}
