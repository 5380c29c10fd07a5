/**
 * One saved message as the SMAT readers return it, whatever the archive format, and the filter the
 * readers apply (time range, text, HL7 field values).
 *
 * @module
 */
import { AssistError } from "../../../core/errors.ts";
import { decodeBytes } from "../../../hl7/charset.ts";
import { getAll, getValue, readableValue } from "../../../hl7/get.ts";
import type { Message } from "../../../hl7/message.ts";
import { type Delimiters, readDelimiters } from "../../../hl7/delimiters.ts";
import { Segment, splitRepetitions } from "../../../hl7/segment.ts";
import { parsePath } from "../../../hl7/path.ts";
import { parseMessages } from "../../../hl7/split.ts";
import { formatTime, parseTimeArg } from "../../../core/time.ts";

export interface SmatMessage {
  /** The archive file it came from. */
  file: string;
  /** `domain.hub.number`, e.g. `0.0.123`. */
  mid: string;
  /** Epoch milliseconds (TimeIn / TIME), when known. */
  time?: number;
  source: string;
  dest: string;
  /** DATA or REPLY. */
  type: string;
  /** Save context (`inbound`, `outbound`, ...). */
  context: string;
  /** The message text, its bytes read by hl7/charset.ts (MSH-18, else UTF-8, else Windows-1252). */
  content: string;
  /** Size of the saved message in bytes. */
  bytes?: number;
  /** How the bytes were read, when a fallback was taken (one line each). */
  charsetNotes?: readonly string[];
  /** Position in its file (rowid or record number): ties on time keep file order. */
  seq: number;
}

/** One `PID.3.1=value` condition. */
export interface Hl7Condition {
  path: string;
  op: "=" | "!=" | "~";
  value: string;
}

export interface MessageFilter {
  /** Inclusive bounds, epoch ms. */
  since?: number;
  until?: number;
  /** Substring of the raw message. */
  text?: string;
  ignoreCase?: boolean;
  /** Every condition must hold. */
  hl7?: Hl7Condition[];
  /**
   * Filled by {@link contentMatches}: how many messages an `=` condition matched only in another
   * written form of its value (leading zeros, an assigning-authority suffix), per condition text.
   */
  otherForms?: Map<string, number>;
}

export class SmatQueryError extends AssistError {
  readonly kind: string;
  constructor(kind: string, message: string) {
    super(message, { level: "input" });
    this.name = "SmatQueryError";
    this.kind = kind;
  }
}

/**
 * Reads `PATH=value`, `PATH!=value` or `PATH~text` (contains, case-insensitive); the path in the
 * HL7 path language (`PID.3.1`, `MSH.9.2`, `OBX[2].5`). Throws SmatQueryError on a bad condition.
 *
 * @example
 * ```ts
 * parseCondition("PID.3.1=700123"); // { path: "PID.3.1", op: "=", value: "700123" }
 * ```
 */
export function parseCondition(text: string): Hl7Condition {
  const m = text.match(/^\s*([^=!~\s]+)\s*(!=|=|~)\s?(.*)$/);
  if (!m) {
    throw new SmatQueryError(
      "bad_hl7_filter",
      `--hl7 ${text}: expected PATH=value, PATH!=value or PATH~text (PID.3.1=12345)`,
    );
  }
  try {
    parsePath(m[1]);
  } catch (err) {
    throw new SmatQueryError("bad_hl7_filter", `--hl7 ${text}: ${(err as Error).message}`);
  }
  return { path: m[1], op: m[2] as Hl7Condition["op"], value: m[3].trim() };
}

/** The first HL7 message of a text, or undefined when it holds none. */
export function hl7Of(content: string): Message | undefined {
  try {
    return parseMessages(content).messages[0];
  } catch {
    return undefined;
  }
}

/**
 * MSH-9 (message type) and MSH-10 (control id) of the first message of a text, as `getValue` gives
 * them from {@link hl7Of}. The summary of `nc_msgs` shows them for up to thousands of messages in
 * a process that runs once (where simple code is fast and the general parser is still cold), so a
 * text that starts with its MSH segment, as saved messages do, has only that segment read: the
 * fields of an MSH depend on nothing after it. Anything else (framing, a batch header, text before
 * the message) takes the whole parse. tests/tools/engine/smat.test.ts holds both ways equal.
 */
export function headerOf(content: string): { type?: string; control?: string } {
  const sep = content.charAt(3);
  // A separator that is a letter, digit, space or line break (including MLLP's VT and FS) is left
  // to the whole parse.
  if (content.startsWith("MSH") && sep !== "" && !/[\s\w]/.test(sep) && sep !== "\x0b" && sep !== "\x1c") {
    let end = content.search(/[\r\n]/);
    if (end === -1) end = content.length;
    let d: Delimiters;
    try {
      d = readDelimiters(content, 0, end);
    } catch {
      return {}; // the whole parse fails on the same MSH-2
    }
    const msh = new Segment(content.slice(0, end), "", d);
    // getValue reads the first repetition; a field the segment ends before reads as "".
    const first = (n: number) => {
      const f = msh.field(n);
      return f === undefined ? "" : readableValue(splitRepetitions(f, d)[0], d);
    };
    return { type: first(9), control: first(10) };
  }
  const h = hl7Of(content);
  return h ? { type: getValue(h, "MSH.9"), control: getValue(h, "MSH.10") } : {};
}

/**
 * True when `value` is `wanted` written another way: the same number with or without leading zeros,
 * or with an assigning-authority suffix after its first component (`00815566^^^HOSP^MR` for
 * `815566`). A search by a token's value (the model searches by `[[MRN_9]]`) then finds every form.
 */
function sameIdentifier(value: string, wanted: string, component: string): boolean {
  const first = component !== "" && value.indexOf(component) !== -1 ? value.split(component)[0] : value;
  if (!/\d/.test(wanted)) return false; // identifiers only (`MSH.9=ADT` stays exact)
  if (first === wanted) return first !== value;
  if (!/^\d+$/.test(first) || !/^\d+$/.test(wanted)) return false;
  return first.replace(/^0+(?=\d)/, "") === wanted.replace(/^0+(?=\d)/, "");
}

/**
 * Whether `c` holds in `m`; `other` collects the `=` conditions that held only through another
 * written form of the value (counted by the caller once the whole message matched).
 */
function holds(m: Message, c: Hl7Condition, other?: string[]): boolean {
  const found = getAll(m, c.path).filter((v) => v.present);
  const values = found.map((v) => readableValue(v.raw, v.segment.delimiters));
  const wanted = wantedValues(c);
  const equal = () => {
    if (values.some((v) => wanted.includes(v))) return true;
    const yes = found.some((v, i) =>
      wanted.some((w) => sameIdentifier(values[i], w, v.segment.delimiters.component))
    );
    if (yes) other?.push(`${c.path}=${c.value}`);
    return yes;
  };
  switch (c.op) {
    case "=":
      return equal();
    case "!=":
      // The negation of `=`, other written forms included: a message is never both.
      return !equal();
    case "~":
      return values.some((v) => wanted.some((w) => v.toLowerCase().includes(w.toLowerCase())));
  }
}

/** A value list (`MSH.10=A|B|C`): any of them. A field's value never holds the field separator. */
function wantedValues(c: Hl7Condition): string[] {
  return c.value.includes("|") ? c.value.split("|").map((w) => w.trim()).filter((w) => w !== "") : [c.value];
}

/**
 * The occurrences of the condition's segment (1-based) in which an `=` or `~` condition holds by
 * itself (`OBX.8=H|HH`: the OBX segments flagged high); undefined for `!=`, which is about the
 * message as a whole. `fields` keeps the rows of these occurrences only.
 */
export function occurrencesHolding(m: Message, c: Hl7Condition): Set<number> | undefined {
  if (c.op === "!=") return undefined;
  const wanted = wantedValues(c);
  const out = new Set<number>();
  for (const v of getAll(m, c.path)) {
    if (!v.present) continue;
    const value = readableValue(v.raw, v.segment.delimiters);
    const ok = c.op === "="
      ? wanted.includes(value) || wanted.some((w) => sameIdentifier(value, w, v.segment.delimiters.component))
      : wanted.some((w) => value.toLowerCase().includes(w.toLowerCase()));
    if (ok) out.add(v.occurrence);
  }
  return out;
}

/** Does the message content pass the text and HL7 conditions (the time range is checked by readers)? */
export function contentMatches(content: string, f: MessageFilter): boolean {
  if (f.text !== undefined && f.text !== "") {
    if (f.ignoreCase ? !content.toLowerCase().includes(f.text.toLowerCase()) : !content.includes(f.text)) {
      return false;
    }
  }
  if (f.hl7 && f.hl7.length) {
    const m = hl7Of(content);
    if (!m) return false;
    const other: string[] = [];
    for (const c of f.hl7) if (!holds(m, c, c.op === "=" ? other : undefined)) return false;
    // Counted only for a message that matched as a whole.
    for (const k of new Set(other)) f.otherForms?.set(k, (f.otherForms.get(k) ?? 0) + 1);
  }
  return true;
}

export function inRange(time: number | undefined, f: MessageFilter): boolean {
  if (f.since === undefined && f.until === undefined) return true;
  if (time === undefined) return false;
  return (f.since === undefined || time >= f.since) && (f.until === undefined || time <= f.until);
}

/**
 * A time bound (core/time.ts: a date, a date and time in local time unless a zone is given, epoch
 * seconds or milliseconds, or an age such as `90m`, `36h`, `7d`); `end` makes a bare date mean its
 * last millisecond. Undefined when unreadable or impossible (`2024-13-45`).
 *
 * @example
 * ```ts
 * parseTime("2024-11-20T08:05Z"); // 1732089900000
 * parseTime("2h", false, Date.UTC(2024, 0, 1)); // 2023-12-31T22:00Z
 * ```
 */
export function parseTime(text: string, end = false, now = Date.now(), zone?: string): number | undefined {
  return parseTimeArg(text, { end, now, zone });
}

/** `2024-11-20T02:11:00-06:00` in the local zone, or UTC with `utc` (or `?`). */
export function isoTime(ms: number | undefined, utc = false): string {
  return formatTime(ms, { utc });
}

/**
 * A saved message's content and how it was read: the one decoder (hl7/charset.ts), so a Latin-1
 * message that declares 8859/1 reads right and an undeclared one is never turned into U+FFFD.
 *
 * @example
 * ```ts
 * smatContent(new Uint8Array([0x4d, 0xfc])).content; // "Mü" (not UTF-8: read as Windows-1252)
 * ```
 */
export function smatContent(
  bytes: Uint8Array,
): { content: string; bytes: number; charsetNotes?: readonly string[] } {
  const d = decodeBytes(bytes);
  return d.notes.length
    ? { content: d.text, bytes: bytes.length, charsetNotes: d.notes }
    : { content: d.text, bytes: bytes.length };
}
