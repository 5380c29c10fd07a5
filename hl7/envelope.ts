/**
 * Batch envelopes: the FHS/BHS headers and BTS/FTS trailers around messages. The parser keeps them
 * as batch parts between the messages (split.ts); here each message is given the envelope it sits
 * in, so `FHS.4` (the file's sending facility) or `BHS.11` (the batch control id) can be read for
 * any message, and a file that holds only an envelope still has something to read.
 *
 * A header belongs to the messages after it until its trailer (BTS for BHS, FTS for FHS) or the
 * next header of its kind; a trailer to the messages since its header.
 *
 * @module
 */
import type { Hl7Document } from "./message.ts";
import { Message } from "./message.ts";
import type { Segment } from "./segment.ts";

/**
 * The ids of the envelope segments.
 *
 * @example
 * ```ts
 * ENVELOPE_IDS.includes("BHS"); // true
 * ```
 */
export const ENVELOPE_IDS: readonly string[] = ["FHS", "BHS", "BTS", "FTS"];

/** The envelope segments around one message, each absent when the input has none. */
export interface Envelope {
  fhs?: Segment;
  bhs?: Segment;
  bts?: Segment;
  fts?: Segment;
}

/**
 * The envelope of each message of `doc`, in message order.
 *
 * @example
 * ```ts
 * import { parseMessages } from "./mod.ts";
 * const doc = parseMessages("BHS|^~\\&|A|FAC\rMSH|^~\\&|A\rPID|1\rBTS|1\r");
 * envelopes(doc)[0].bhs?.field(4); // "FAC"
 * ```
 */
export function envelopes(doc: Hl7Document): Envelope[] {
  const out: Envelope[] = [];
  let fhs: Segment | undefined;
  let bhs: Segment | undefined;
  let inFile: Envelope[] = [];
  let inBatch: Envelope[] = [];
  for (const part of doc.parts) {
    if (part.kind === "message") {
      const e: Envelope = {};
      if (fhs) e.fhs = fhs;
      if (bhs) e.bhs = bhs;
      out.push(e);
      inFile.push(e);
      inBatch.push(e);
      continue;
    }
    if (part.kind !== "batch") continue;
    const s = part.segment;
    switch (s.id) {
      case "FHS":
        fhs = s;
        bhs = undefined;
        inFile = [];
        inBatch = [];
        break;
      case "BHS":
        bhs = s;
        inBatch = [];
        break;
      case "BTS":
        for (const e of inBatch) e.bts ??= s;
        bhs = undefined;
        inBatch = [];
        break;
      case "FTS":
        for (const e of inFile) e.fts ??= s;
        fhs = undefined;
        bhs = undefined;
        inFile = [];
        inBatch = [];
        break;
    }
  }
  return out;
}

/**
 * The rows a field table reads: each message with its envelope segments around it (FHS, BHS, the
 * message, BTS, FTS), or, for input that holds an envelope and no message, one row of the envelope
 * segments themselves. Empty when the input holds neither.
 *
 * @example
 * ```ts
 * import { getValue, parseMessages } from "./mod.ts";
 * const rows = withEnvelopes(parseMessages("BHS|^~\\&|||||20081231\rBTS|0"));
 * getValue(rows[0], "BHS.7"); // "20081231"
 * ```
 */
export function withEnvelopes(doc: Hl7Document): Message[] {
  if (doc.messages.length === 0) {
    const batch = doc.parts.flatMap((p) => p.kind === "batch" ? [p.segment] : []);
    return batch.length === 0 ? [] : [new Message(batch[0].delimiters, batch, true)];
  }
  const env = envelopes(doc);
  return doc.messages.map((m, i) => {
    const e = env[i];
    if (!e.fhs && !e.bhs && !e.bts && !e.fts) return m;
    const before = [e.fhs, e.bhs].filter((s): s is Segment => s !== undefined);
    const after = [e.bts, e.fts].filter((s): s is Segment => s !== undefined);
    return new Message(m.delimiters, [...before, ...m.segments, ...after], m.headless);
  });
}

/**
 * True when `doc` holds batch envelope segments (FHS, BHS, BTS, FTS).
 *
 * @example
 * ```ts
 * import { parseMessages } from "./mod.ts";
 * hasEnvelope(parseMessages("FHS|^~\\&|A\rFTS|0")); // true
 * ```
 */
export function hasEnvelope(doc: Hl7Document): boolean {
  return doc.parts.some((p) => p.kind === "batch");
}
