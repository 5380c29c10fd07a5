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

/**
 * The most rows one render builds. A pathological input (millions of `^` and `&` in one field,
 * shown with `all`) would otherwise need more memory than a string may hold ("Invalid string
 * length"); past the cap the view stops and says so (issue #29 item 9).
 */
export const SHOW_MAX_ROWS = 100_000;
/** The most characters of values, paths and headings one render builds (see {@link SHOW_MAX_ROWS}). */
export const SHOW_MAX_CHARS = 16 * 1024 * 1024;

/** What one render may still build; `cut` once a row did not fit. */
interface Budget {
  rows: number;
  chars: number;
  cut: boolean;
}

/** Each render starts with the whole budget; headings and rows take from it. */
const newBudget = (): Budget => ({ rows: SHOW_MAX_ROWS, chars: SHOW_MAX_CHARS, cut: false });

/** Takes one row of `chars` characters from the budget; false (and the budget cut) when it is spent. */
function spend(budget: Budget, chars: number): boolean {
  if (budget.cut) return false;
  if (budget.rows <= 0 || chars > budget.chars) {
    budget.cut = true;
    return false;
  }
  budget.rows--;
  budget.chars -= chars;
  return true;
}

/** Adds a row when the budget allows; false (and the budget cut) when it does not. */
function addRow(rows: Row[], row: Row, budget: Budget): boolean {
  if (!spend(budget, row.value.length + row.path.length)) return false;
  rows.push(row);
  return true;
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
/** Widest path column; a longer path (a segment id that is a whole line of junk) is not padded. */
const PATH_WIDTH = 40;

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

function segmentBlock(segment: Segment, options: ShowOptions, budget: Budget): Block {
  const id = segment.id;
  if (!spend(budget, id.length)) return { heading: "", rows: [] };
  const def = segmentDef(id);
  const batch = Object.hasOwn(BATCH, id) ? BATCH[id] : undefined;
  const title = def?.name ??
    batch?.[0] ??
    (isSiteSpecific(id) ? "site-specific segment" : "segment not in the built-in schema");
  const rows: Row[] = [];
  const d = segment.delimiters;
  const fields = segment.fields();
  for (let f = 1; f < fields.length && !budget.cut; f++) {
    const raw = fields[f];
    if (raw === "" && !options.all) continue;
    const fd = def?.fields[f - 1];
    const name = fd?.name ?? batch?.[1][f - 1] ?? "";
    // OBX-5 takes the data type OBX-2 names (CE, CWE, XPN, ...).
    const type = fd?.type === "varies" && id === "OBX" ? segment.field(2) ?? "" : fd?.type;
    const path = `${id}.${f}`;
    if (segment.isHeader && f <= 2) {
      addRow(rows, { depth: 1, path, name, value: raw }, budget);
      continue;
    }
    const reps = splitRepetitions(raw, d);
    for (let r = 0; r < reps.length && !budget.cut; r++) {
      const rep = reps[r];
      if (rep === "" && !options.all) continue;
      const repPath = reps.length > 1 ? `${path}[${r + 1}]` : path;
      if (!addRow(rows, { depth: 1, path: repPath, name, value: rep }, budget)) break;
      addParts(rows, rep, d, repPath, type ? componentsOf(type) : undefined, options, 2, budget);
    }
  }
  return { heading: `${id}  ${title}`, rows };
}

/** Headings and rows with the path and name columns aligned across all blocks. */
function layout(blocks: readonly Block[]): string {
  // Loops, not Math.max(...rows): a spread of a hundred thousand rows overflows the stack.
  let pw = 0;
  let names = 0;
  for (const b of blocks) {
    for (const r of b.rows) {
      pw = Math.min(PATH_WIDTH, Math.max(pw, 2 * r.depth + r.path.length));
      names = Math.max(names, r.name.length);
    }
  }
  // Long standard names ("Second and Further Given Names or Initials Thereof") are shortened to
  // the column, so every value starts in the same place.
  const nw = Math.min(NAME_WIDTH, names);
  const fit = (name: string) =>
    name.length <= nw ? name.padEnd(nw) : `${name.slice(0, nw - 1).trimEnd()}…`.padEnd(nw);
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.heading === "") continue; // over the budget: not built
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
  const budget = newBudget();
  return layout([segmentBlock(segment, options, budget)]) + cutNote(budget);
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
  budget: Budget,
): void {
  const parts = depth === 2 ? splitComponents(raw, d) : splitSubcomponents(raw, d);
  if (parts.length < 2) return;
  for (let i = 0; i < parts.length && !budget.cut; i++) {
    const part = parts[i];
    if (part === "" && !options.all) continue;
    const def = defs?.[i];
    const p = `${path}.${i + 1}`;
    if (!addRow(rows, { depth, path: p, name: def?.name ?? "", value: part }, budget)) break;
    if (depth === 2) {
      addParts(rows, part, d, p, def ? componentsOf(def.type) : undefined, options, 3, budget);
    }
  }
}

/** The line that says a render stopped at its cap, after a newline; "" when it did not. */
function cutNote(budget: Budget): string {
  return budget.cut ? `\n${CUT_NOTE}` : "";
}

/** What a render that hit its cap says, and how to see the rest. */
export const CUT_NOTE = `[hl7_show: stopped at ${SHOW_MAX_ROWS.toLocaleString("en-US")} lines or ` +
  `${SHOW_MAX_CHARS / 1024 / 1024} MB of text; show one message with --message N, ` +
  `leave out --all, or read one field with hl7_field]`;

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
  const budget = newBudget();
  return layout(messageBlocks(message, options, budget)) + cutNote(budget);
}

function messageBlocks(message: Message, options: ShowOptions, budget: Budget): Block[] {
  const blocks: Block[] = [];
  for (const s of message.segments) {
    if (budget.cut) break;
    blocks.push(segmentBlock(s, options, budget));
  }
  return blocks;
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
  const budget = newBudget();
  let n = 0;
  let shown = 0;
  for (const part of doc.parts) {
    if (part.kind === "batch") {
      if (options.message === undefined && !budget.cut) {
        out.push(layout([segmentBlock(part.segment, options, budget)]));
      }
      continue;
    }
    if (part.kind !== "message") continue;
    n++;
    if (options.message !== undefined && n !== options.message) continue;
    if (shown >= limit || budget.cut) continue;
    shown++;
    out.push(heading(part.message, n, total), layout(messageBlocks(part.message, options, budget)));
  }
  if (budget.cut) out.push(CUT_NOTE);
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
