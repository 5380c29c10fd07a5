/**
 * The prologue that opens a NetConfig (and the engine's other configuration files):
 *
 * ```
 * prologue
 *     who:	James Danley
 *     date:	May 21, 2021 9:39:05 AM CDT
 *     type:	net
 *     version:	3.20
 * end_prologue
 * ```
 *
 * Keys are case-insensitive; the separator after the colon is a tab (IDE) or spaces (old Tcl
 * writer). The date is free text in one of two observed styles, read into a sortable key.
 *
 * @module
 */
import { MONTHS } from "../../../core/months.ts";

export interface Prologue {
  /** Every `key: value` line, keys lower-cased, in order. */
  fields: Map<string, string>;
  who?: string;
  date?: string;
  type?: string;
  version?: string;
  /** The date read into a sortable form, when it could be read. */
  when?: SortableDate;
  /** 1-based line of the `prologue` line. */
  line: number;
}

/** A date read from free text. */
export interface SortableDate {
  /**
   * Sorts chronologically as a string: `2021-05-21T14:39:05Z` when the time zone was known (UTC),
   * else the wall-clock time `2021-05-21T09:39:05` (compares correctly with others of one zone).
   */
  key: string;
  /** Milliseconds since the epoch, when the time zone was known. */
  epochMs?: number;
}

/** Offsets (minutes east of UTC) of the zone abbreviations Java and `date` print in the field. */
const ZONES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  UT: 0,
  WET: 0,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  AST: -240,
  ADT: -180,
  NST: -210,
  NDT: -150,
};

function pad(n: number, w = 2): string {
  return String(n).padStart(w, "0");
}

function month(name: string): number | undefined {
  return MONTHS[name.toLowerCase().slice(0, 3)];
}

function zoneOffset(zone: string | undefined): number | undefined {
  if (zone === undefined) return undefined;
  const z = zone.toUpperCase();
  if (z in ZONES) return ZONES[z];
  const m = z.match(/^(?:GMT|UTC)?([+-])(\d{2}):?(\d{2})$/);
  if (m) return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return undefined;
}

function build(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  zone: string | undefined,
): SortableDate | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const off = zoneOffset(zone);
  if (off === undefined) {
    return { key: `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}` };
  }
  const epochMs = Date.UTC(y, mo - 1, d, h, mi, s) - off * 60_000;
  return { key: new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, "Z"), epochMs };
}

/**
 * Reads a prologue date in either observed style into a sortable key; undefined when the text has
 * neither form.
 *
 * @example
 * ```ts
 * parseDate("May 21, 2021 9:39:05 AM CDT")?.key; // "2021-05-21T14:39:05Z"
 * parseDate("Mon Jun 24 22:03:45 MDT 2002")?.key; // "2002-06-25T04:03:45Z"
 * ```
 */
export function parseDate(text: string): SortableDate | undefined {
  const t = text.trim().replace(/\s+/g, " ");
  // Java IDE style: "MMMM d, yyyy h:mm:ss a zzz".
  let m = t.match(
    /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AaPp][Mm])?(?: ([A-Za-z]{1,5}|(?:GMT|UTC)?[+-]\d{2}:?\d{2}))?$/,
  );
  if (m) {
    const mo = month(m[1]);
    if (mo === undefined) return undefined;
    let h = Number(m[4]);
    if (m[7]) {
      if (h < 1 || h > 12) return undefined;
      h = (h % 12) + (m[7].toUpperCase() === "PM" ? 12 : 0);
    }
    return build(Number(m[3]), mo, Number(m[2]), h, Number(m[5]), Number(m[6] ?? 0), m[8]);
  }
  // Unix `date` style: "Mon Jun 24 22:03:45 MDT 2002" (weekday and zone optional).
  m = t.match(
    /^(?:[A-Za-z]{3,9},? )?([A-Za-z]{3,9}) (\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Za-z]{1,5}|[+-]\d{4}))? (\d{4})$/,
  );
  if (m) {
    const mo = month(m[1]);
    if (mo === undefined) return undefined;
    return build(Number(m[7]), mo, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), m[6]);
  }
  // ISO-like "2024-03-05 10:24:52" (written by scripts).
  m = t.match(
    /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)? ?(Z|[A-Za-z]{1,5}|[+-]\d{2}:?\d{2})?$/,
  );
  if (m) {
    return build(
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6] ?? 0),
      m[7],
    );
  }
  return undefined;
}

/**
 * Reads a prologue whose `prologue` line starts at offset `start` of `text` and is line `line`
 * (1-based). Returns the prologue and the offset just after the `end_prologue` line, or `next`
 * undefined when `end_prologue` never comes.
 */
export function readPrologue(
  text: string,
  start: number,
  line: number,
): { prologue: Prologue; next?: number; lines: number } {
  const fields = new Map<string, string>();
  let pos = text.indexOf("\n", start);
  let lines = 1;
  let next: number | undefined;
  while (pos !== -1) {
    pos++;
    lines++;
    let eol = text.indexOf("\n", pos);
    if (eol === -1) eol = text.length;
    const l = text.slice(pos, eol).trim();
    if (l === "end_prologue") {
      next = Math.min(eol + 1, text.length);
      break;
    }
    const colon = l.indexOf(":");
    if (colon > 0) {
      const key = l.slice(0, colon).trim().toLowerCase();
      if (!fields.has(key)) fields.set(key, l.slice(colon + 1).trim());
    } // any other line is ignored, as the engine's reader ignores it
    pos = eol < text.length ? eol : -1;
  }
  const date = fields.get("date");
  const prologue: Prologue = {
    fields,
    who: fields.get("who"),
    date,
    type: fields.get("type"),
    version: fields.get("version"),
    when: date === undefined ? undefined : parseDate(date),
    line,
  };
  return { prologue, next, lines };
}
