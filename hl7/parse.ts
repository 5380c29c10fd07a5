/**
 * Reads exactly one message. For input that may hold several messages, framing or batches, use
 * `parseMessages` (split.ts); this function is its strict form.
 *
 * @module
 */
import { parseErrorAt } from "./errors.ts";
import type { Message } from "./message.ts";
import { parseMessages } from "./split.ts";

/**
 * Parses one message: an MSH segment and the segments after it (or, headless, segments without an
 * MSH), each ended by `\r`, `\n` or `\r\n`. `message.toString()` gives `text` back byte for byte.
 * Throws an Hl7ParseError when `text` holds no message, more than one, or anything besides the
 * message (blank lines, framing, batch segments).
 *
 * @example
 * ```ts
 * const m = parseMessage("MSH|^~\\&|LAB|H|||20240101||ORU^R01|42|P|2.5.1\rPID|1||123^^^MRN\r");
 * m.segments[1].field(3); // "123^^^MRN"
 * ```
 */
export function parseMessage(text: string): Message {
  const doc = parseMessages(text);
  if (doc.parts.length === 1 && doc.messages.length === 1) return doc.messages[0];
  if (doc.messages.length === 0) {
    throw parseErrorAt(
      text,
      0,
      "no HL7 message found; a message starts with a segment such as MSH|^~\\&|...",
    );
  }
  const first = doc.parts[0];
  const stray = first.kind === "message" ? doc.parts[1] : first;
  switch (stray.kind) {
    case "message":
      throw parseErrorAt(
        text,
        stray.message.offset,
        "a second message starts here; use parseMessages for input with several messages",
      );
    case "batch":
      throw parseErrorAt(
        text,
        stray.segment.offset,
        `${stray.segment.id} is a batch segment; use parseMessages for batch files`,
      );
    case "framing":
      throw parseErrorAt(
        text,
        stray.offset,
        "framing bytes (MLLP or len10); use parseMessages for framed input",
      );
    case "text":
      throw parseErrorAt(
        text,
        stray.offset,
        "text outside the message (a blank line or a line that is not a segment); use parseMessages",
      );
  }
}
