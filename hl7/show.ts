/**
 * The readable view behind hl7_show: each segment with its name, then its fields with their
 * names and values as written; a field with components gets one line per component (and, below,
 * per subcomponent), a repeating field one block per repetition (`PID.3[2]`). Empty fields and
 * components are left out unless `all` is set; the HL7 null `""` is a value and always shown.
 *
 * @module
 */
import { type Delimiters, encodingCharacters } from "./delimiters.ts";
import type { Hl7Document, Message } from "./message.ts";
import { type ComponentDef, componentsOf, isSiteSpecific, segmentDef } from "./schema.ts";
import { type Segment, splitComponents, splitRepetitions, splitSubcomponents } from "./segment.ts";

/** Options of the render functions. */
export interface ShowOptions {
  /** Show empty fields and components too. @default false */
  all?: boolean;
}

/** Batch segments are not among the 18 built in, but their few fields are worth naming. */
const BATCH: Record<string, [string, string[]]> = {
  FHS: ["File Header", [
    "File Field Separator",
    "File Encoding Characters",
    "File Sending Application",
    "File Sending Facility",
    "File Receiving Application",
    "File Receiving Facility",
    "File Creation Date/Time",
    "File Security",
    "File Name/ID",
    "File Header Comment",
    "File Control ID",
    "Reference File Control ID",
  ]],
  BHS: ["Batch Header", [
    "Batch Field Separator",
    "Batch Encoding Characters",
    "Batch Sending Application",
    "Batch Sending Facility",
    "Batch Receiving Application",
    "Batch Receiving Facility",
    "Batch Creation Date/Time",
    "Batch Security",
    "Batch Name/ID/Type",
    "Batch Comment",
    "Batch Control ID",
    "Reference Batch Control ID",
  ]],
  BTS: ["Batch Trailer", ["Batch Message Count", "Batch Comment", "Batch Totals"]],
  FTS: ["File Trailer", ["File Batch Count", "File Trailer Comment"]],
};

/** Widest name column; a longer name is shortened with "…" so the values stay in one column. */
const NAME_WIDTH = 34;

interface Row {
  depth: number;
  path: string;
  name: string;
  value: string;
}

/** One segment's heading and rows, before layout. */
interface Block {
  heading: string;
  rows: Row[];
}

function segmentBlock(segment: Segment, options: ShowOptions): Block {
  const id = segment.id;
  const def = segmentDef(id);
  const batch = Object.hasOwn(BATCH, id) ? BATCH[id] : undefined;
  const title = def?.name ??
    batch?.[0] ??
    (isSiteSpecific(id) ? "site-specific segment" : "segment not in the built-in schema");
  const rows: Row[] = [];
  const d = segment.delimiters;
  const fields = segment.fields();
  for (let f = 1; f < fields.length; f++) {
    const raw = fields[f];
    if (raw === "" && !options.all) continue;
    const fd = def?.fields[f - 1];
    const name = fd?.name ?? batch?.[1][f - 1] ?? "";
    // OBX-5 takes the data type OBX-2 names (CE, CWE, XPN, ...).
    const type = fd?.type === "varies" && id === "OBX" ? segment.field(2) ?? "" : fd?.type;
    const path = `${id}.${f}`;
    if (segment.isHeader && f <= 2) {
      rows.push({ depth: 1, path, name, value: raw });
      continue;
    }
    const reps = splitRepetitions(raw, d);
    reps.forEach((rep, r) => {
      if (rep === "" && !options.all) return;
      const repPath = reps.length > 1 ? `${path}[${r + 1}]` : path;
      rows.push({ depth: 1, path: repPath, name, value: rep });
      addParts(rows, rep, d, repPath, type ? componentsOf(type) : undefined, options, 2);
    });
  }
  return { heading: `${id}  ${title}`, rows };
}

/** Headings and rows with the path and name columns aligned across all blocks. */
function layout(blocks: readonly Block[]): string {
  const all = blocks.flatMap((b) => b.rows);
  const pw = Math.max(0, ...all.map((r) => 2 * r.depth + r.path.length));
  // Long standard names ("Second and Further Given Names or Initials Thereof") are shortened to
  // the column, so every value starts in the same place.
  const nw = Math.min(NAME_WIDTH, Math.max(0, ...all.map((r) => r.name.length)));
  const fit = (name: string) =>
    name.length <= nw ? name.padEnd(nw) : `${name.slice(0, nw - 1).trimEnd()}…`.padEnd(nw);
  const lines: string[] = [];
  for (const block of blocks) {
    lines.push(block.heading);
    for (const r of block.rows) {
      const left = ("  ".repeat(r.depth) + r.path).padEnd(pw);
      const line = nw === 0 ? `${left}  ${r.value}` : `${left}  ${fit(r.name)}  ${r.value}`;
      lines.push(r.value === "" ? line.trimEnd() : line);
    }
  }
  return lines.join("\n");
}

/**
 * One segment: a heading with its name, then aligned rows `path  name  value`.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * renderSegment(parseMessage("MSH|^~\\&|A\rEVN|A01|20240101\r").segments[1]);
 * // "EVN  Event Type\n  EVN.1  Event Type Code     A01\n  EVN.2  Recorded Date/Time  20240101"
 * ```
 */
export function renderSegment(segment: Segment, options: ShowOptions = {}): string {
  return layout([segmentBlock(segment, options)]);
}

/** Component rows (depth 2) and subcomponent rows (depth 3) of one repetition or component. */
function addParts(
  rows: Row[],
  raw: string,
  d: Delimiters,
  path: string,
  defs: readonly ComponentDef[] | undefined,
  options: ShowOptions,
  depth: number,
): void {
  const parts = depth === 2 ? splitComponents(raw, d) : splitSubcomponents(raw, d);
  if (parts.length < 2) return;
  parts.forEach((part, i) => {
    if (part === "" && !options.all) return;
    const def = defs?.[i];
    const p = `${path}.${i + 1}`;
    rows.push({ depth, path: p, name: def?.name ?? "", value: part });
    if (depth === 2) addParts(rows, part, d, p, def ? componentsOf(def.type) : undefined, options, 3);
  });
}

/**
 * A message: its segments one after the other, columns aligned across the message.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * declare const text: string;
 * renderMessage(parseMessage(text), { all: true });
 * ```
 */
export function renderMessage(message: Message, options: ShowOptions = {}): string {
  return layout(message.segments.map((s) => segmentBlock(s, options)));
}

/** Options of {@link renderDocument}. */
export interface ShowDocumentOptions extends ShowOptions {
  /** Show only message N (1-based). */
  message?: number;
  /** Show at most this many messages. @default all */
  limit?: number;
}

/**
 * A whole document: batch segments, and each message under a heading line
 * `message N of M: TYPE control id ID`; then warnings and a note on messages not shown. An input of
 * only an envelope shows its segments and says that no message is inside.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * declare const fileText: string;
 * renderDocument(parseMessages(fileText), { limit: 10 });
 * ```
 */
export function renderDocument(doc: Hl7Document, options: ShowDocumentOptions = {}): string {
  const out: string[] = [];
  const total = doc.messages.length;
  const limit = options.limit ?? Infinity;
  let n = 0;
  let shown = 0;
  for (const part of doc.parts) {
    if (part.kind === "batch") {
      if (options.message === undefined) out.push(renderSegment(part.segment, options));
      continue;
    }
    if (part.kind !== "message") continue;
    n++;
    if (options.message !== undefined && n !== options.message) continue;
    if (shown >= limit) continue;
    shown++;
    out.push(heading(part.message, n, total), renderMessage(part.message, options));
  }
  if (options.message !== undefined && options.message > total) {
    out.push(`no message ${options.message}: the input holds ${total} message${total === 1 ? "" : "s"}`);
  }
  if (options.message === undefined && shown < total) {
    out.push(
      `... ${total - shown} more message${total - shown === 1 ? "" : "s"} not shown (use --message N)`,
    );
  }
  for (const w of doc.warnings) out.push(`warning: line ${w.line}: ${w.message}`);
  if (total === 0) {
    out.push(
      doc.parts.some((p) => p.kind === "batch")
        ? "no messages inside the batch envelope"
        : "no HL7 messages found",
    );
  }
  return out.join("\n");
}

function heading(m: Message, n: number, total: number): string {
  const head = `message ${n} of ${total}`;
  if (m.headless) {
    return `${head}: segments without MSH (delimiters ${m.delimiters.field}${
      encodingCharacters(m.delimiters)
    } assumed)`;
  }
  const msh = m.segments[0];
  const type = msh.field(9) ?? "";
  const id = msh.field(10) ?? "";
  return `${head}: ${type || "(no message type)"}, control id ${id || "(none)"}`;
}
