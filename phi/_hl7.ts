/**
 * The one place phi/ touches hl7/: the lossless parser (segment offsets into the original text),
 * delimiters, unescaping and the shape test.
 */
export {
  DEFAULT_DELIMITERS,
  type Delimiters,
  delimitersFrom,
  type Hl7Document,
  isHl7Shaped,
  KNOWN_SEGMENTS,
  parseMessages,
  unescape,
} from "../hl7/mod.ts";
