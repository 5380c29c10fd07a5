/**
 * File-based SMAT (research/cloverleaf.md 3.2): `<name>.idx` holds one record per message, a Tcl
 * list whose single element is a keyed list (`MID {0 0 123}`, `TIME`, `SOURCECONN`, `DESTCONN`,
 * `TYPE`, `SAVECONTEXT`, `OFFSET`, `LENGTH`, ...; newer engines pad the values to a fixed width);
 * `<name>.msg` holds the message bytes, `LENGTH` bytes at `OFFSET`. Records are appended, so the
 * newest are at the end: they are read from the end and only the messages needed are fetched.
 *
 * @module
 */
import { coerceInt } from "../../../core/clean.ts";
import type { EngineFs } from "../engine_fs.ts";
import { KeyedList, type KlIssue, readKeyedList } from "../netconfig/keyed_list.ts";
import type { Shape } from "../netconfig/schema.ts";
import { newElem, TclListError, TclSource } from "../netconfig/tcl_list.ts";
import { contentMatches, inRange, type MessageFilter, smatContent, type SmatMessage } from "./message.ts";
import type { ReadResult } from "./smatdb.ts";

const KL: Shape = { kind: "kl", fields: Object.create(null) };

export interface IdxRecord {
  fields: KeyedList;
  /** 1-based record number. */
  seq: number;
}

/**
 * The records of `.idx` text: one Tcl list per record (it may span lines, as `lgets` reads it). A
 * record that is not a readable Tcl list is skipped and counted, and reading goes on at the next line.
 *
 * @example
 * ```ts
 * parseIdx("{{MID {0 0 1}} {TIME 1732089600} {OFFSET 0} {LENGTH 10}}\n").records[0].fields.str("LENGTH"); // "10"
 * ```
 */
export function parseIdx(text: string): { records: IdxRecord[]; bad: number } {
  const records: IdxRecord[] = [];
  let bad = 0;
  const src = new TclSource(text);
  const first = newElem();
  const more = newElem();
  const issues: KlIssue[] = [];
  let pos = 0;
  while (pos < text.length) {
    try {
      if (!src.next(pos, text.length, first)) break;
      let end = first.next;
      let count = 1;
      while (src.next(end, text.length, more, true)) {
        end = more.next;
        count++;
      }
      let fields: KeyedList;
      if (count === 1) {
        // The record is the list's single element: the keyed list.
        const body = src.value(first);
        fields = first.subst === undefined
          ? readKeyedList(src, first.start, first.end, KL, issues)
          : readKeyedList(new TclSource(body), 0, body.length, KL, issues);
      } else {
        fields = readKeyedList(src, first.at, end, KL, issues); // an unwrapped keyed list
      }
      pos = end;
      if (fields.fields.length === 0) bad++;
      else records.push({ fields, seq: records.length + 1 });
    } catch (err) {
      if (!(err instanceof TclListError)) throw err;
      bad++;
      const eol = text.indexOf("\n", Math.max(pos, first.at));
      pos = eol === -1 ? text.length : eol + 1;
    }
  }
  return { records, bad };
}

function midOf(v: string | undefined, seq: number): string {
  const parts = (v ?? "").trim().split(/\s+/).filter((p) => p !== "");
  if (parts.length === 3) return parts.join(".");
  if (parts.length === 1) return `0.0.${parts[0]}`;
  return `?.?.${seq}`;
}

/** A non-negative integer field (CR-stripped and coerced; padded values are trimmed). */
function num(v: string | undefined): number | undefined {
  return coerceInt(v ?? "", { min: 0 });
}

/**
 * Reads up to `limit` messages of one `.idx`/`.msg` pair, newest first, that pass `filter`.
 *
 * @example
 * ```ts
 * import type { EngineFs } from "../engine_fs.ts";
 * declare const fs: EngineFs, procDir: string;
 * const { messages } = await readSmatFiles(fs, `${procDir}/lab_in.idx`, {}, 20);
 * ```
 */
export async function readSmatFiles(
  fs: EngineFs,
  idxPath: string,
  filter: MessageFilter,
  limit: number,
): Promise<ReadResult & { bad: number }> {
  const msgPath = idxPath.replace(/\.idx$/i, ".msg");
  const { records, bad } = parseIdx(await fs.readText(idxPath));
  const msgSize = (await fs.stat(msgPath))?.size;
  if (msgSize === undefined) {
    return {
      messages: [],
      bad,
      skipped: { kind: "not_smat", message: `${idxPath}: no ${msgPath} beside it` },
    };
  }
  // A small .msg is read once; a large one record by record.
  const whole = msgSize <= 32 * 1024 * 1024 ? await fs.readBytes(msgPath) : undefined;
  const messages: SmatMessage[] = [];
  for (let i = records.length - 1; i >= 0 && messages.length < limit; i--) {
    const r = records[i].fields;
    const t = num(r.str("TIME"));
    const time = t === undefined ? undefined : t < 1e11 ? t * 1000 : t;
    if (!inRange(time, filter)) continue;
    const offset = num(r.str("OFFSET")), length = num(r.str("LENGTH"));
    if (offset === undefined || length === undefined) continue;
    const bytes = whole
      ? whole.subarray(offset, offset + length)
      : await fs.readRange(msgPath, offset, length);
    const read = smatContent(bytes);
    if (!contentMatches(read.content, filter)) continue;
    messages.push({
      file: idxPath,
      mid: midOf(r.str("MID"), records[i].seq),
      time,
      source: (r.str("SOURCECONN") ?? "").trim(),
      dest: (r.str("DESTCONN") ?? "").trim(),
      type: (r.str("TYPE") ?? "").trim(),
      context: (r.str("SAVECONTEXT") ?? "").trim(),
      ...read,
      seq: records[i].seq,
    });
  }
  return { messages, bad };
}
