/**
 * Answers over matched SMAT messages, so a question costs a number or a short table instead of every
 * message: counts per value (`group_by`), the named fields one row per segment occurrence
 * (`fields`), and replies joined to what they answer (an ACK's MSA-2 to its original's MSH-10).
 *
 * Repeating segments: a path without `[n]` reads every occurrence (`OBX.5` is each OBX's value), so
 * `fields` gives one row per occurrence and `group_by` counts a message once per distinct value it
 * holds. The conditions of `hl7` hold when any occurrence matches (`!=` when none does); `fields`
 * then shows only the occurrences that matched.
 *
 * @module
 */
import { formatTime } from "../../../core/time.ts";
import { getAll, readableValue } from "../../../hl7/get.ts";
import type { Message } from "../../../hl7/message.ts";
import { parsePath } from "../../../hl7/path.ts";
import { type Hl7Condition, hl7Of, occurrencesHolding, type SmatMessage } from "./message.ts";

/** What `group_by` can name besides an HL7 path. */
export const GROUP_KEYS = ["thread", "file", "source", "dest", "context", "hour", "day"] as const;

/** The thread an archive belongs to, from its file name (`adt_in.smatdb`, `adt_in.20241120.idx`). */
export function archiveThread(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(smatdb|idx|msg|tsv)$/i, "").replace(/\.\d[\d_-]*$/, "");
}

/** The parsed message, once per message (the answers read several paths of each). */
const parsed = new WeakMap<SmatMessage, Message | null>();

function messageOf(m: SmatMessage): Message | undefined {
  let h = parsed.get(m);
  if (h === undefined) {
    h = hl7Of(m.content) ?? null;
    parsed.set(m, h);
  }
  return h ?? undefined;
}

/** Every value of `path` in the message, readable (escapes resolved), in occurrence order. */
export function valuesOf(m: SmatMessage, path: string): string[] {
  const h = messageOf(m);
  if (!h) return [];
  return getAll(h, path).filter((v) => v.present).map((v) => readableValue(v.raw, v.segment.delimiters));
}

/** Checks a group key or field path, in one line for the model when it is neither. */
export function checkPath(path: string, what: string): string | undefined {
  if ((GROUP_KEYS as readonly string[]).includes(path.toLowerCase())) return undefined;
  try {
    parsePath(path);
    return undefined;
  } catch {
    return `${what} ${path}: expected an HL7 path such as MSH.9.2 or OBX.5, or one of ${
      GROUP_KEYS.join(", ")
    }`;
  }
}

/** One group of {@link groupStats}: its value, how many messages, and their first and last times. */
export interface GroupStat {
  key: string;
  count: number;
  first?: number;
  last?: number;
}

/**
 * Counts per value of `by` over `messages`: an HL7 path (a message counts once per distinct value;
 * a message without the field counts under `(none)`), or the thread, file, source, destination,
 * context, hour or day (in `zone`) of each message; with each group's first and last message time.
 */
export function groupStats(
  messages: readonly SmatMessage[],
  by: string,
  zone: string | undefined,
): GroupStat[] {
  const groups = new Map<string, GroupStat>();
  let m: SmatMessage;
  const add = (k: string) => {
    let g = groups.get(k);
    if (g === undefined) groups.set(k, g = { key: k, count: 0 });
    g.count++;
    if (m.time !== undefined) {
      if (g.first === undefined || m.time < g.first) g.first = m.time;
      if (g.last === undefined || m.time > g.last) g.last = m.time;
    }
  };
  const key = by.toLowerCase();
  for (m of messages) {
    switch (key) {
      case "thread":
        add(archiveThread(m.file));
        break;
      case "file":
        add(m.file);
        break;
      case "source":
        add(m.source || "-");
        break;
      case "dest":
        add(m.dest || "-");
        break;
      case "context":
        add(m.context || m.type || "-");
        break;
      case "hour":
      case "day": {
        const t = m.time === undefined ? "(no time)" : formatTime(m.time, { zone });
        add(t === "(no time)" ? t : key === "day" ? t.slice(0, 10) : `${t.slice(0, 13)}:00`);
        break;
      }
      default: {
        const values = new Set(valuesOf(m, by).filter((v) => v !== ""));
        if (values.size === 0) add("(none)");
        for (const v of values) add(v);
      }
    }
  }
  const out = [...groups.values()];
  // Times in time order; values by count, then by value.
  if (key === "hour" || key === "day") out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else out.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

/** What {@link fieldRows} gives for one message. */
export interface FieldRows {
  rows: string[][];
  /** Rows of occurrences the conditions left out (no condition on the rows' segment: 0). */
  omitted: number;
  /** The segment the rows follow when the conditions chose among its occurrences. */
  filteredBy?: string;
}

/**
 * The named fields of one message, one row per occurrence of the most repeated segment among the
 * paths (`OBX.3` and `OBX.5`: one row per OBX); a path of a segment that occurs once repeats its
 * value on every row, and repetitions of one field are joined with `~`. With `conditions` (the
 * `hl7` filter) that test that segment with `=` or `~`, only the occurrences where they hold are
 * rows (`OBX.8=H|HH` and fields of OBX: the OBX segments flagged high, not every OBX of the
 * message). A message whose conditions held only in different occurrences then has no row.
 */
export function fieldRows(
  m: SmatMessage,
  paths: readonly string[],
  conditions: readonly Hl7Condition[] = [],
): FieldRows {
  const h = messageOf(m);
  if (!h) return { rows: [paths.map(() => "")], omitted: 0 };
  const perPath = paths.map((p) => {
    const byOccurrence = new Map<number, string[]>();
    for (const v of getAll(h, p)) {
      if (!v.present) continue;
      const list = byOccurrence.get(v.occurrence) ?? byOccurrence.set(v.occurrence, []).get(v.occurrence)!;
      list.push(readableValue(v.raw, v.segment.delimiters));
    }
    return {
      segment: parsePath(p).segment,
      byOccurrence,
      values: [...byOccurrence.values()].map((vs) => vs.join("~")),
    };
  });
  let lead: string | undefined, most = 0;
  for (const p of perPath) {
    if (p.byOccurrence.size > most) [lead, most] = [p.segment, p.byOccurrence.size];
  }
  // The rows: the lead segment's occurrences, in order.
  const occurrences = [
    ...new Set(perPath.filter((p) => p.segment === lead).flatMap((p) => [...p.byOccurrence.keys()])),
  ]
    .sort((a, b) => a - b);
  const all = occurrences.length > 0 ? occurrences : [0];
  const rowOf = (occurrence: number, i: number) =>
    perPath.map((p) => {
      if (p.segment === lead && occurrence > 0) return p.byOccurrence.get(occurrence)?.join("~") ?? "";
      return p.values.length === 1 ? p.values[0] : p.values[i] ?? "";
    });
  let keep = all;
  let filteredBy: string | undefined;
  if (lead !== undefined && occurrences.length > 1) {
    const sets = conditions
      .filter((c) => {
        const cp = parsePath(c.path);
        return cp.segment === lead && cp.segmentIndex === undefined;
      })
      .map((c) => occurrencesHolding(h, c))
      .filter((x): x is Set<number> => x !== undefined);
    if (sets.length > 0) {
      filteredBy = lead;
      keep = occurrences.filter((o) => sets.every((set) => set.has(o)));
    }
  }
  const rows = keep.map((o) => rowOf(o, all.indexOf(o)));
  return { rows, omitted: all.length - keep.length, ...(filteredBy ? { filteredBy } : {}) };
}

/** A message that answers another: a REPLY, an ACK (MSH-9.1) or anything holding an MSA. */
export function isReply(m: SmatMessage): boolean {
  if (m.type.toUpperCase() === "REPLY") return true;
  const t = valuesOf(m, "MSH.9.1")[0];
  return t === "ACK" || valuesOf(m, "MSA.2").length > 0;
}

export interface Joined {
  original: SmatMessage;
  reply?: SmatMessage;
}

/** The threads a reply to `o` would be saved by: where it was sent, else the thread that received it. */
function replyThreads(o: SmatMessage): string[] {
  const to = o.dest.trim() || o.source.trim();
  return to === "" ? [] : to.toLowerCase().split(/[\s,]+/);
}

/**
 * Whether reply `r` can answer `o` by their threads: a reply saved by a thread (its source) answers
 * what was sent to that thread (the original's destination), or, for a message the engine received
 * (no destination), what that thread received. An inbound copy of a message is not "answered" by
 * the ACK another system sent for its outbound copy. A reply that names no thread may answer any.
 */
function answers(r: SmatMessage, o: SmatMessage): boolean {
  const by = r.source.trim().toLowerCase();
  return by === "" || replyThreads(o).includes(by);
}

/**
 * Whether any of `replies` could answer `o`: false when the replies name their threads and none is
 * one `o` would be answered by (an inbound copy on a thread whose archives hold no replies). Such
 * an original is left out of a join rather than counted as never answered.
 */
export function canBeAnswered(o: SmatMessage, replyBy: ReadonlySet<string>, anonymous: boolean): boolean {
  return anonymous || replyThreads(o).some((t) => replyBy.has(t));
}

/**
 * Each original joined to the reply that answers it (its MSA-2 equal to the original's MSH-10, from
 * the thread it was sent to: see `answers`; the first reply after the original when several do).
 * Originals come in the order given.
 */
export function joinReplies(originals: readonly SmatMessage[], replies: readonly SmatMessage[]): Joined[] {
  const byControl = new Map<string, SmatMessage[]>();
  for (const r of replies) {
    const id = valuesOf(r, "MSA.2")[0];
    if (id === undefined || id === "") continue;
    (byControl.get(id) ?? byControl.set(id, []).get(id)!).push(r);
  }
  for (const list of byControl.values()) list.sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
  return originals.map((o) => {
    const id = valuesOf(o, "MSH.10")[0];
    const candidates = (id ? byControl.get(id) ?? [] : []).filter((r) => answers(r, o));
    const reply = candidates.find((r) => o.time === undefined || r.time === undefined || r.time >= o.time) ??
      candidates[0];
    return reply ? { original: o, reply } : { original: o };
  });
}
