/**
 * SMAT archives: the `.smatdb` and `.idx`/`.msg` readers, archive discovery, and the message filter.
 *
 * @module
 */
export { encryptedNote, isPlainSqlite, type ReadResult, readSmatDb } from "./smatdb.ts";
export { type IdxRecord, parseIdx, readSmatFiles } from "./idx.ts";
export { isSampleTsv, parseSampleTsv, readSampleTsv, SAMPLE_TSV_HEADER } from "./sample_tsv.ts";
export {
  namedSmatFile,
  siteSmatFiles,
  type SmatDirection,
  type SmatFile,
  threadSmatFiles,
} from "./locate.ts";
export {
  contentMatches,
  headerOf,
  type Hl7Condition,
  hl7Of,
  inRange,
  isoTime,
  type MessageFilter,
  parseCondition,
  parseTime,
  type SmatMessage,
  SmatQueryError,
} from "./message.ts";
export {
  archiveThread,
  canBeAnswered,
  checkPath,
  fieldRows,
  GROUP_KEYS,
  type GroupStat,
  groupStats,
  isReply,
  type Joined,
  joinReplies,
  valuesOf,
} from "./query.ts";
