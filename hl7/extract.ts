/**
 * The table behind hl7_field: chosen paths from every message, as TSV.
 *
 * - A header row with the paths (canonical: `PID.5.1`), then one row per message.
 * - Cells hold the text as written in the message (escapes intact).
 * - Several repetitions of a field are joined with `~`, several occurrences of a segment (every
 *   OBX when the path says `OBX.5`) with `|`: HL7's own repetition and field separators, which a
 *   value can only contain escaped. Ask for one with `PID.3[2]` or `OBX[2].5`.
 * - A tab inside a value is written `\X09\` so the columns stay intact; an absent value is empty.
 *
 * @module
 */
import { ENVELOPE_IDS } from "./envelope.ts";
import { getAll } from "./get.ts";
import type { Message } from "./message.ts";
import { formatPath, type Hl7Path, parsePath } from "./path.ts";

/** Options of {@link extractTable}. */
export interface ExtractOptions {
  /** Start each row with the message's number (1-based), under the heading `#`. @default false */
  index?: boolean;
  /**
   * The same rows with their batch envelope around them (`withEnvelopes`): field paths into FHS,
   * BHS, BTS and FTS read these. A whole-segment path (`BHS`) still reads the message itself,
   * which holds no envelope segment.
   */
  envelopes?: readonly Message[];
}

/**
 * Joins the repetitions of one field in a cell.
 *
 * @example
 * ```ts
 * declare const cell: string;
 * cell.split(REPETITION_JOINER); // the repetitions (values escape a literal ~ as \R\)
 * ```
 */
export const REPETITION_JOINER = "~";
/**
 * Joins the occurrences of one segment in a cell.
 *
 * @example
 * ```ts
 * declare const cell: string;
 * cell.split(OCCURRENCE_JOINER); // one entry per OBX when the path is OBX.5
 * ```
 */
export const OCCURRENCE_JOINER = "|";

/**
 * The cell for one path in one message (see the module notes).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * extractCell(parseMessage("MSH|^~\\&|A\rPID|1||1^^^MR~2^^^SS\r"), parsePath("PID.3.1")); // "1~2"
 * ```
 */
export function extractCell(message: Message, path: Hl7Path): string {
  const occurrences: string[] = [];
  let current = -1;
  let reps: string[] = [];
  for (const v of getAll(message, path)) {
    if (v.occurrence !== current) {
      if (current !== -1) occurrences.push(reps.join(REPETITION_JOINER));
      current = v.occurrence;
      reps = [];
    }
    reps.push(v.raw.indexOf("\t") === -1 ? v.raw : v.raw.replaceAll("\t", "\\X09\\"));
  }
  if (current !== -1) occurrences.push(reps.join(REPETITION_JOINER));
  return occurrences.join(OCCURRENCE_JOINER);
}

/**
 * The TSV text: header row, then one row per message, each line ended by `\n`.
 * Throws an Hl7PathError for a path that does not parse.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * declare const text: string;
 * extractTable(parseMessages(text).messages, ["MSH.10", "PID.3.1"], { index: true });
 * // "#\tMSH.10\tPID.3.1\n1\tMSG1\t12345\n"
 * ```
 */
export function extractTable(
  messages: readonly Message[],
  paths: readonly (string | Hl7Path)[],
  options: ExtractOptions = {},
): string {
  const parsed = paths.map((p) => typeof p === "string" ? parsePath(p) : p);
  const head = parsed.map(formatPath);
  let text = (options.index ? ["#", ...head] : head).join("\t") + "\n";
  const env = options.envelopes;
  const inEnvelope = parsed.map((p) =>
    env !== undefined && p.field !== undefined && ENVELOPE_IDS.includes(p.segment)
  );
  messages.forEach((m, i) => {
    const cells = parsed.map((p, k) => extractCell(inEnvelope[k] ? env![i] : m, p));
    text += (options.index ? [String(i + 1), ...cells] : cells).join("\t") + "\n";
  });
  return text;
}
