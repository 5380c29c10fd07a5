/**
 * SMAT databases (`.smatdb`, research/cloverleaf.md 3.3): SQLite with the messages in table
 * `smat_msgs` (`MessageContent`, `TimeIn`, `MidNum`; other columns are used when present, matched
 * case-insensitively). Times are epoch milliseconds (seconds in 6.0 databases, recognised by their
 * size). Newest first means save order, newest saved first (rowid descending): that is how the
 * engine appends, it needs no index, and it lets a search stop as soon as it has enough messages.
 *
 * An encrypted database (SQLCipher; the key is the site name by default) has no `SQLite format 3`
 * header; it is recognised from its first bytes and reported, never guessed at. node:sqlite opens a
 * local file only: the seam's `localFile` gives one (a remote engine's file is pulled first).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { CharsetError, encodeText } from "../../../hl7/charset.ts";
import type { EngineFs } from "../engine_fs.ts";
import {
  contentMatches,
  inRange,
  type MessageFilter,
  smatContent,
  type SmatMessage,
  SmatQueryError,
} from "./message.ts";

const HEADER = "SQLite format 3\0";

/** Is this the start of a plain (unencrypted) SQLite file? */
export function isPlainSqlite(head: Uint8Array): boolean {
  if (head.length < HEADER.length) return false;
  for (let i = 0; i < HEADER.length; i++) if (head[i] !== HEADER.charCodeAt(i)) return false;
  return true;
}

/**
 * Could this be a SQLCipher database? Its file is whole pages (a multiple of 512 bytes) that start
 * with a random salt; a damaged file or another kind of file (text, a truncated copy, zeros) is not
 * called encrypted.
 */
export function looksEncrypted(head: Uint8Array, size: number): boolean {
  if (size < 512 || size % 512 !== 0 || head.length < 16) return false;
  const first = head.subarray(0, 16);
  const printable = first.filter((b) => b >= 0x20 && b < 0x7f).length;
  return new Set(first).size >= 10 && printable < 12;
}

/** The one line shown for a file that is no SQLite database and no encrypted one. */
export function notSqliteNote(path: string): string {
  return `${path} is not a SQLite database (damaged, cut short, or another kind of file): it cannot be read ` +
    "as a SMAT archive";
}

/** The one line shown for an encrypted SMAT database. */
export function encryptedNote(path: string, site?: string): string {
  return `${path} is an encrypted SMAT database (SQLCipher; the key is the site name${
    site ? ` "${site}"` : ""
  } ` +
    "unless the host server sets another): it cannot be read here; read it on the engine host or export it " +
    "with hcismatconvert";
}

export interface ReadResult {
  messages: SmatMessage[];
  /** Set when the file was not read, with the one-line reason. */
  skipped?: { kind: "encrypted" | "not_smat" | "empty"; message: string };
}

/** `setReturnArrays` is in node:sqlite (Node 22.16+, Deno) but not yet in Deno's type declarations. */
type ArrayRows = StatementSync & { setReturnArrays?(enabled: boolean): void };

/** One row of the message query, by the aliases of its SELECT list (in order). */
interface Row {
  seq: unknown;
  d: unknown;
  h: unknown;
  n: unknown;
  t: unknown;
  src: unknown;
  dst: unknown;
  typ: unknown;
  ctx: unknown;
  body: unknown;
}

function namedRow(a: unknown[]): Row {
  return {
    seq: a[0],
    d: a[1],
    h: a[2],
    n: a[3],
    t: a[4],
    src: a[5],
    dst: a[6],
    typ: a[7],
    ctx: a[8],
    body: a[9],
  };
}

/**
 * Reads up to `limit` messages of one `.smatdb`, newest first, that pass `filter`.
 *
 * @example
 * ```ts
 * import type { EngineFs } from "../engine_fs.ts";
 * declare const fs: EngineFs, procDir: string;
 * const { messages } = await readSmatDb(fs, `${procDir}/adt_in.smatdb`, { text: "DOE^JANE" }, 20);
 * ```
 */
export async function readSmatDb(
  fs: EngineFs,
  path: string,
  filter: MessageFilter,
  limit: number,
  site?: string,
): Promise<ReadResult> {
  const st = await fs.stat(path);
  if (st && st.size === 0) return { messages: [], skipped: { kind: "empty", message: `${path} is empty` } };
  const head = await fs.readRange(path, 0, 16);
  if (!isPlainSqlite(head)) {
    return looksEncrypted(head, st?.size ?? 0)
      ? { messages: [], skipped: { kind: "encrypted", message: encryptedNote(path, site) } }
      : { messages: [], skipped: { kind: "not_smat", message: notSqliteNote(path) } };
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(await fs.localFile(path), { readOnly: true });
  } catch (err) {
    throw new SmatQueryError("smat_unreadable", `${path}: cannot open (${(err as Error).message})`);
  }
  try {
    const cols = new Map<string, string>();
    try {
      for (const r of db.prepare("PRAGMA table_info(smat_msgs)").all() as Array<{ name: string }>) {
        cols.set(String(r.name).toLowerCase(), String(r.name));
      }
    } catch (err) {
      throw new SmatQueryError("smat_unreadable", `${path}: ${(err as Error).message}`);
    }
    if (!cols.has("messagecontent")) {
      return {
        messages: [],
        skipped: { kind: "not_smat", message: `${path} has no smat_msgs table; not a SMAT database` },
      };
    }
    const col = (name: string) => cols.get(name.toLowerCase());
    const q = (c: string) => `"${c.replace(/"/g, '""')}"`;
    const pick = (
      name: string,
      alias: string,
    ) => (col(name) ? `${q(col(name)!)} AS ${alias}` : `NULL AS ${alias}`);
    const timeCol = col("TimeIn");
    // Seconds (6.0) or milliseconds: judged from the newest row.
    let scale = 1;
    if (timeCol) {
      const last = db.prepare(`SELECT ${q(timeCol)} AS t FROM smat_msgs ORDER BY rowid DESC LIMIT 1`).get() as
        | { t: unknown }
        | undefined;
      const t = Number(last?.t);
      if (Number.isFinite(t) && t > 0 && t < 1e11) scale = 1000;
    }
    const where: string[] = [];
    const args: Array<number | string | Uint8Array> = [];
    if (timeCol && filter.since !== undefined) {
      where.push(`${q(timeCol)} >= ?`), args.push(Math.floor(filter.since / scale));
    }
    if (timeCol && filter.until !== undefined) {
      where.push(`${q(timeCol)} <= ?`), args.push(Math.floor(filter.until / scale));
    }
    if (!timeCol && (filter.since !== undefined || filter.until !== undefined)) where.push("0");
    // The text filter runs in SQLite on the raw bytes (case-sensitive); ignoring case is done below.
    // Messages are saved in their own character set: non-ASCII text is looked for in UTF-8 and in
    // Windows-1252 (which holds Latin-1's letters) alike.
    if (filter.text && !filter.ignoreCase) {
      const body = `CAST(${q(col("MessageContent")!)} AS BLOB)`;
      const forms: Uint8Array[] = [new TextEncoder().encode(filter.text)];
      try {
        const legacy = encodeText(filter.text, "windows-1252");
        if (legacy.length !== forms[0].length) forms.push(legacy);
      } catch (err) {
        if (!(err instanceof CharsetError)) throw err;
      }
      where.push(`(${forms.map(() => `instr(${body}, ?) > 0`).join(" OR ")})`);
      args.push(...forms);
    }
    const needsJs = (filter.text !== undefined && filter.text !== "" && filter.ignoreCase) ||
      (filter.hl7?.length ?? 0) > 0;
    // namedRow reads these columns by position: keep the two in the same order.
    const sql =
      `SELECT rowid AS seq, ${pick("MidDomain", "d")}, ${pick("MidHub", "h")}, ${pick("MidNum", "n")}, ` +
      `${pick("TimeIn", "t")}, ${pick("SourceConn", "src")}, ${pick("DestConn", "dst")}, ${
        pick("Type", "typ")
      }, ` +
      `${pick("SaveContext", "ctx")}, ${q(col("MessageContent")!)} AS body FROM smat_msgs` +
      (where.length ? ` WHERE ${where.join(" AND ")}` : "") + " ORDER BY rowid DESC" +
      (needsJs ? "" : ` LIMIT ${Math.max(0, Math.floor(limit))}`);
    let stmt: StatementSync;
    try {
      stmt = db.prepare(sql);
    } catch (err) {
      throw new SmatQueryError("smat_unreadable", `${path}: ${(err as Error).message}`);
    }
    // Rows as arrays where this SQLite binding offers it: naming each row's ten columns on the
    // native side costs more than the query (a JS object is built from the array below instead).
    const arrays = typeof (stmt as ArrayRows).setReturnArrays === "function";
    if (arrays) (stmt as ArrayRows).setReturnArrays!(true);
    // With a LIMIT in the SQL all rows are wanted: one call. A JS filter may stop early: one by one.
    const rows = (needsJs ? stmt.iterate(...args) : stmt.all(...args)) as Iterable<unknown>;
    const messages: SmatMessage[] = [];
    for (const row of rows) {
      const r = arrays ? namedRow(row as unknown[]) : row as Row;
      const body = r.body;
      const read = body instanceof Uint8Array
        ? smatContent(body)
        : { content: body == null ? "" : String(body) };
      const content = read.content;
      const time = r.t == null || r.t === "" ? undefined : Number(r.t) * scale;
      if (!inRange(time, filter)) continue;
      if (needsJs && !contentMatches(content, filter)) continue;
      const n = r.n == null ? String(r.seq) : String(r.n);
      messages.push({
        file: path,
        mid: `${r.d ?? 0}.${r.h ?? 0}.${n}`,
        time: Number.isFinite(time) ? time : undefined,
        source: r.src == null ? "" : String(r.src),
        dest: r.dst == null ? "" : String(r.dst),
        type: r.typ == null ? "" : String(r.typ),
        context: r.ctx == null ? "" : String(r.ctx),
        ...read,
        seq: Number(r.seq),
      });
      if (messages.length >= limit) break;
    }
    return { messages };
  } catch (err) {
    if (err instanceof SmatQueryError) throw err;
    throw new SmatQueryError("smat_unreadable", `${path}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}
