/**
 * SMAT message archives (`.smatdb`, SQLite; research/cloverleaf.md 3.3) on an engine host, for
 * `ssh_pull_smat`: finding the archive, and sampling recent messages on the host itself so only
 * the sample crosses the wire. The scripts here are POSIX sh, built with every value quoted; the
 * parsers are pure.
 *
 * Sampling uses what the host has, in this order: the `sqlite3` command, `python3` with its sqlite3
 * module, or the engine's own Tcl (`$HCIROOT/bin/hcitcl`, else `tclsh`) with the sqlite package.
 * Every sampler runs the same query, read-only:
 * `SELECT MidNum, TimeIn, hex(MessageContent) FROM smat_msgs WHERE TimeIn >= <cutoff> ORDER BY
 * TimeIn DESC LIMIT 1000`, where the cutoff is in milliseconds, or in seconds for a 6.0-era archive
 * whose times are seconds (detected by the newest TimeIn being below 10^11). Content travels as hex
 * (safe in any shell and TSV) and becomes base64 here.
 *
 * @module
 */
import { shQuote } from "./wrap.ts";

/** At most this many messages are sampled (spec, Limits). */
export const SAMPLE_LIMIT = 1000;

export const PATH_PREFIX = "SMATDB_PATH:";
const ERROR_PREFIX = "SMATDB_ERROR:";
const SAMPLER_PREFIX = "SMAT_SAMPLER:";
const ROWS_BEGIN = "SMAT_ROWS_BEGIN";
const ROWS_END = "SMAT_ROWS_END";

export interface ResolveArgs {
  /** Engine root; empty: the login shell's $HCIROOT. */
  hciroot: string;
  /** A site name to look in (optional). */
  site?: string;
  /** An absolute `.smatdb` path, a file name, or a SAVEMSGS name (`<name>.smatdb`); empty: the newest. */
  target?: string;
}

/**
 * The script that finds the archive and prints `SMATDB_PATH: <path>` (or `SMATDB_ERROR: ...`).
 * Relative names are looked for under `<root>/<site or every site>/exec/processes/*`; the newest
 * match by modification time wins.
 */
export function resolveScript(a: ResolveArgs): string {
  const site = a.site ?? "";
  const target = a.target ?? "";
  return [
    `root=${shQuote(a.hciroot)}; site=${shQuote(site)}; target=${shQuote(target)}`,
    `[ -n "$root" ] || root="$HCIROOT"`,
    `newest() { ls -t "$@" 2>/dev/null | head -n 1; }`,
    `p=""`,
    `case "$target" in`,
    `  /*) p="$target" ;;`,
    `  *) if [ -z "$root" ] && [ -n "$target" ]; then p="$target"; fi ;;`,
    `esac`,
    `if [ -z "$p" ]; then`,
    `  if [ -z "$root" ]; then echo "${ERROR_PREFIX} HCIROOT is not set (pin it with /ssh-set-hciroot)"; exit 3; fi`,
    `  case "$target" in`,
    `    "") name='*.smatdb' ;;`,
    `    *.smatdb) name="$target" ;;`,
    `    *) name="$target.smatdb" ;;`,
    `  esac`,
    `  if [ -n "$site" ]; then p=$(newest "$root"/"$site"/exec/processes/*/$name)`,
    `  else p=$(newest "$root"/*/exec/processes/*/$name); fi`,
    `fi`,
    `if [ -z "$p" ] || [ ! -f "$p" ]; then`,
    `  echo "${ERROR_PREFIX} no SMAT database \${target:-*.smatdb} under \${root:-?}\${site:+/$site}"; exit 3`,
    `fi`,
    `echo "${PATH_PREFIX} $p"`,
  ].join("\n");
}

/**
 * The archive path from the resolver's output: the line prefixed `SMATDB_PATH:` (by prefix, not by
 * position: login profiles may print around it), else the last non-empty line.
 *
 * @example
 * ```ts
 * pickSmatdbPath("Welcome\nSMATDB_PATH: /hci/a.smatdb\n"); // "/hci/a.smatdb"
 * pickSmatdbPath("/hci/b.smatdb\n"); // "/hci/b.smatdb"
 * ```
 */
export function pickSmatdbPath(output: string): string | undefined {
  const lines = output.replace(/\r/g, "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const hit = lines.filter((l) => l.startsWith(PATH_PREFIX)).pop();
  if (hit !== undefined) return hit.slice(PATH_PREFIX.length).trim() || undefined;
  const last = lines[lines.length - 1];
  if (last === undefined || last.startsWith(ERROR_PREFIX)) return undefined;
  return last;
}

/** The resolver's error line, if it printed one. */
export function resolveError(output: string): string | undefined {
  const line = output.replace(/\r/g, "").split("\n").find((l) => l.startsWith(ERROR_PREFIX));
  return line?.slice(ERROR_PREFIX.length).trim();
}

/** The sampling query for a cutoff (ms since the epoch). */
export function sampleSql(cutoffMs: number, limit = SAMPLE_LIMIT): string {
  const ms = Math.floor(cutoffMs);
  const s = Math.floor(ms / 1000);
  return `SELECT MidNum, TimeIn, hex(MessageContent) AS ContentHex FROM smat_msgs ` +
    `WHERE TimeIn >= CASE WHEN (SELECT MAX(TimeIn) FROM smat_msgs) < 100000000000 THEN ${s} ELSE ${ms} END ` +
    `ORDER BY TimeIn DESC LIMIT ${limit};`;
}

const PY = `import os, sys, sqlite3
from urllib.parse import quote
con = sqlite3.connect("file:" + quote(os.environ["SMAT_P"]) + "?mode=ro", uri=True)
for row in con.execute(os.environ["SMAT_SQL"]):
    sys.stdout.write("\\t".join("" if v is None else str(v) for v in row) + "\\n")
`;

const TCL = `if {[catch {package require sqlite3}]} { package require sqlite }
sqlite3 smatdb $env(SMAT_P) -readonly 1
smatdb eval $env(SMAT_SQL) { puts [join [list $MidNum $TimeIn $ContentHex] "\\t"] }
smatdb close
`;

/**
 * The script that samples an archive with whatever the host has and prints
 * `SMAT_SAMPLER: <name> <program>`, then the rows (`mid \t time \t hex`) between markers.
 */
export function sampleScript(path: string, cutoffMs: number, hciroot: string, limit = SAMPLE_LIMIT): string {
  return [
    `SMAT_P=${shQuote(path)}; SMAT_SQL=${shQuote(sampleSql(cutoffMs, limit))}; export SMAT_P SMAT_SQL`,
    `root=${shQuote(hciroot)}; [ -n "$root" ] || root="$HCIROOT"`,
    `if command -v sqlite3 >/dev/null 2>&1 && sqlite3 -version >/dev/null 2>&1; then`,
    `  echo "${SAMPLER_PREFIX} sqlite3 $(command -v sqlite3)"; echo ${ROWS_BEGIN}`,
    `  sqlite3 -readonly -batch -noheader -separator "$(printf '\\t')" "$SMAT_P" "$SMAT_SQL" || exit 4`,
    `  echo ${ROWS_END}; exit 0`,
    `fi`,
    `if command -v python3 >/dev/null 2>&1 && python3 -c 'import sqlite3' >/dev/null 2>&1; then`,
    `  echo "${SAMPLER_PREFIX} python3 $(command -v python3)"; echo ${ROWS_BEGIN}`,
    `  python3 -c ${shQuote(PY)} || exit 4`,
    `  echo ${ROWS_END}; exit 0`,
    `fi`,
    `for t in "$root/bin/hcitcl" tclsh tclsh8.6; do`,
    `  if [ "$t" = "/bin/hcitcl" ]; then continue; fi`,
    `  if command -v "$t" >/dev/null 2>&1 && printf '%s\\n' 'if {[catch {package require sqlite3}]} {package require sqlite}' 'puts ok' | "$t" 2>/dev/null | grep -q '^ok$'; then`,
    `    echo "${SAMPLER_PREFIX} tcl $(command -v "$t")"; echo ${ROWS_BEGIN}`,
    `    printf '%s' ${shQuote(TCL)} | "$t" || exit 4`,
    `    echo ${ROWS_END}; exit 0`,
    `  fi`,
    `done`,
    `echo "${ERROR_PREFIX} no SQLite reader on the engine host (looked for sqlite3, python3 with sqlite3, the engine's Tcl)"`,
    `exit 5`,
  ].join("\n");
}

export interface SampleRow {
  mid: string;
  timeIn: number;
  content: Uint8Array;
}

export interface SampleOutput {
  /** `sqlite3`, `python3` or `tcl`, and the program's path on the host. */
  sampler?: { name: string; program: string };
  rows: SampleRow[];
  /** The output ended before the end marker (the sampler failed part way). */
  complete: boolean;
  error?: string;
}

/** Parses the sampler's output (login noise before or after the markers is ignored). */
export function parseSampleOutput(output: string): SampleOutput {
  const lines = output.replace(/\r/g, "").split("\n");
  const out: SampleOutput = { rows: [], complete: false };
  let inRows = false;
  for (const line of lines) {
    if (!inRows) {
      if (line.startsWith(SAMPLER_PREFIX)) {
        const [name, ...rest] = line.slice(SAMPLER_PREFIX.length).trim().split(" ");
        out.sampler = { name, program: rest.join(" ") };
      } else if (line.startsWith(ERROR_PREFIX)) out.error = line.slice(ERROR_PREFIX.length).trim();
      else if (line === ROWS_BEGIN) inRows = true;
      continue;
    }
    if (line === ROWS_END) {
      out.complete = true;
      inRows = false;
      continue;
    }
    if (line === "") continue;
    const [mid, time, hex = ""] = line.split("\t");
    const timeIn = Number(time);
    if (!Number.isFinite(timeIn) || !/^[0-9A-Fa-f]*$/.test(hex) || hex.length % 2 !== 0) continue;
    out.rows.push({ mid: mid ?? "", timeIn, content: Uint8Array.fromHex(hex) });
  }
  return out;
}

/** An archive time (ms, or seconds for 6.0-era archives) as ISO 8601. */
export function timeIso(timeIn: number): string {
  const ms = timeIn < 1e11 ? timeIn * 1000 : timeIn;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

export const TSV_COLUMNS = ["mid", "time_in", "time_iso", "content_base64"] as const;

/**
 * The sampled TSV: a header row, then one row per message with the content in base64.
 *
 * @example
 * ```ts
 * rowsToTsv([{ mid: "7", timeIn: 0, content: new TextEncoder().encode("MSH|") }]);
 * // "mid\ttime_in\ttime_iso\tcontent_base64\n7\t0\t1970-01-01T00:00:00.000Z\tTVNIfA==\n"
 * ```
 */
export function rowsToTsv(rows: SampleRow[]): string {
  const lines = [TSV_COLUMNS.join("\t")];
  for (const r of rows) {
    lines.push(
      [r.mid.replace(/[\t\n\r]/g, " "), String(r.timeIn), timeIso(r.timeIn), r.content.toBase64()].join("\t"),
    );
  }
  return lines.join("\n") + "\n";
}
