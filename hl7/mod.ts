/**
 * HL7 v2 for assist: a lossless parser and serializer, one field-path language, the built-in
 * schema, completion and help texts for the REPL, shape detection for the PHI gate, and the
 * engines of the hl7_field, hl7_diff and hl7_show tools. No terminal code here: every function
 * returns values or text.
 *
 * @example
 * ```ts
 * declare const text: string;
 * import { getValue, parseMessages, serializeDocument } from "./mod.ts";
 * const doc = parseMessages(text);
 * for (const m of doc.messages) console.log(getValue(m, "MSH.10"), getValue(m, "PID.5.1"));
 * serializeDocument(doc) === text; // true: nothing is lost
 * ```
 *
 * @module
 */
export { Hl7ParseError, Hl7PathError, locate } from "./errors.ts";
export { DEFAULT_DELIMITERS, type Delimiters, delimitersFrom, encodingCharacters } from "./delimiters.ts";
export { escape, HL7_NULL, isNull, unescape } from "./escape.ts";
export { Segment } from "./segment.ts";
export { type DocumentPart, type Hl7Document, type Hl7Warning, Message } from "./message.ts";
export { parseMessage } from "./parse.ts";
export { parseMessages, type ParseOptions } from "./split.ts";
export {
  CharsetError,
  charsetFor,
  type CharsetRegion,
  decodeBytes,
  type DecodedText,
  type DecodeOptions,
  describeCharset,
  encodeText,
  firstDeclared,
  len10Counting,
} from "./charset.ts";
export { type Envelope, ENVELOPE_IDS, envelopes, hasEnvelope, withEnvelopes } from "./envelope.ts";
export {
  decodeField,
  encodeField,
  encodeSegment,
  type FieldInput,
  type FieldTree,
  serializeDocument,
  serializeMessage,
} from "./serialize.ts";
export { formatPath, type Hl7Path, parsePath, pathCovers } from "./path.ts";
export { getAll, getValue, type Hl7Value, readableValue } from "./get.ts";
export { setValue, type SetValueOptions } from "./set.ts";
export {
  BUILTIN_SEGMENTS,
  type ComponentDef,
  componentsOf,
  describePath,
  type FieldDef,
  fieldDef,
  isSiteSpecific,
  KNOWN_SEGMENTS,
  type PathDescription,
  SCHEMA_VERSION,
  type SegmentDef,
  segmentDef,
  typeName,
} from "./schema.ts";
export { completeHl7, type Hl7Completion } from "./complete.ts";
export { formatFieldHelp, formatSegmentHelp } from "./format.ts";
export { isHl7Shaped } from "./shape.ts";
export {
  DEFAULT_IGNORE,
  diffMessageLists,
  diffMessages,
  type DiffOptions,
  formatDiff,
  type Hl7Change,
  type Hl7DiffResult,
  howDiffer,
  type MessagePair,
  type Unpaired,
} from "./diff.ts";
export {
  extractCell,
  type ExtractOptions,
  extractTable,
  OCCURRENCE_JOINER,
  REPETITION_JOINER,
} from "./extract.ts";
export {
  renderDocument,
  renderMessage,
  renderSegment,
  type ShowDocumentOptions,
  type ShowOptions,
} from "./show.ts";
export { crToNewlines, hl7ForTerminal, startsLikeHl7 } from "./screen.ts";
