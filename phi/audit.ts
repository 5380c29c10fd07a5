/**
 * The auto-PHI audit log, `$ASSIST_HOME/log/auto-phi.log` (spec, "Auto-PHI audit record"): one JSON
 * object per line with `ts`, `value`, `category`, `token`, `tier`, `surface`, `context`. It records
 * the detected values themselves, so it is a protected local file: mode 0600 in a 0700 folder, never
 * readable by model tools (tools/files/protect.ts), never uploaded. The engine writes one record per
 * value per session, surface and source (tool name or prompt), with the tier and field where it was
 * first seen: a message seen again in a later turn does not grow the log. Records are appended with one `O_APPEND` write per pass, so concurrent
 * sessions interleave whole lines.
 *
 * The notice line (spec, "Terminal notice lines") carries categories and counts only, never a value:
 *
 *     phi> auto-tokenized <n> value(s) [<surface>]: <CATEGORY>×<count> ...
 */
import type { Tier } from "./detect.ts";
import type { LookupRow } from "./lookup.ts";

export type Surface = "user_input" | "tool_result";

/** The tier values an audit record carries (SPEC, "Auto-PHI audit record"). */
export type AuditTier = "definite" | "contextual" | "hl7" | "known" | "hl7_pipeline";

/** The tier a record is written with, and the word that leads its context (tier 5's own name). */
function auditTier(tier: Exclude<Tier, "manual">): { tier: AuditTier; lead?: string } {
  return tier === "sidecar" || tier === "names" ? { tier: "contextual", lead: tier } : { tier };
}

export interface AuditRecord {
  /** ISO 8601 UTC timestamp. */
  ts: string;
  value: string;
  category: string;
  token: string;
  /**
   * `definite`, `contextual`, `hl7`, `known`, `hl7_pipeline`: the spec's five. Tier 5 (the sidecar
   * and the built-in name recognizer) finds values by their context in free text and is written as
   * `contextual`, its own name leading the context (`prompt sidecar PERSON`, `read_file names:cue`).
   */
  tier: AuditTier;
  surface: Surface;
  /** Where: the tool name or `prompt`, then the HL7 field path or the tier's reason. */
  context: string;
}

const enc = new TextEncoder();
const posix = Deno.build.os !== "windows";

const ready = new Set<string>();

function ensurePrivateDir(path: string): void {
  if (ready.has(path)) return;
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (cut > 0) {
    const dir = path.slice(0, cut);
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (posix) {
      const info = Deno.statSync(dir);
      if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(dir, 0o700);
    }
  }
  ready.add(path);
}

/**
 * Audit log lines for one pass, built as JSON text directly: the parts of a line that do not depend
 * on the value (timestamp, surface, category, tier, context) are encoded once and reused, so a
 * large first-sight tool result (tens of thousands of records) costs a string concatenation and two
 * short `JSON.stringify` calls per record. Each line is exactly `JSON.stringify(record)` plus a
 * newline, keys in the spec's order.
 *
 * @example
 * ```ts
 * import { homePaths } from "../core/home.ts";
 * declare const home: string;
 * const lines = new AuditLines("2024-05-01T12:00:00.000Z", "tool_result", "read_file");
 * lines.add("12345678", "MRN", "[[MRN_1]]", "hl7_pipeline", "PID.3");
 * await appendAuditText(homePaths(home).autoPhiLog, lines.text);
 * ```
 */
export class AuditLines {
  readonly #head: string;
  readonly #surface: string;
  readonly #source: string;
  readonly #mid = new Map<string, string>();
  readonly #tails = new Map<string, Map<string | undefined, string>>();
  /** The lines so far. */
  text = "";
  /** How many. */
  count = 0;

  constructor(ts: string, surface: Surface, source: string) {
    this.#head = `{"ts":${JSON.stringify(ts)},"value":`;
    this.#surface = JSON.stringify(surface);
    this.#source = source;
  }

  /** One record; `place` is the field path or reason, appended to the source as the context. */
  add(value: string, category: string, token: string, tier: Exclude<Tier, "manual">, place?: string): void {
    let mid = this.#mid.get(category);
    if (mid === undefined) this.#mid.set(category, mid = `,"category":${JSON.stringify(category)},"token":`);
    let byPlace = this.#tails.get(tier);
    if (byPlace === undefined) this.#tails.set(tier, byPlace = new Map());
    let tail = byPlace.get(place);
    if (tail === undefined) {
      const written = auditTier(tier);
      // `names:cue` already says which tier found it; `PERSON` does not.
      const lead = written.lead !== undefined && place?.startsWith(`${written.lead}:`)
        ? undefined
        : written.lead;
      const where = [lead, place].filter((p) => p !== undefined && p !== "").join(" ");
      const context = where ? `${this.#source} ${where}` : this.#source;
      tail = `,"tier":${JSON.stringify(written.tier)},"surface":${this.#surface},"context":${
        JSON.stringify(context)
      }}\n`;
      byPlace.set(place, tail);
    }
    this.text += this.#head + JSON.stringify(value) + mid + JSON.stringify(token) + tail;
    this.count++;
  }
}

/** Appends lines made by `AuditLines` to the audit log (creating it 0600, its folder 0700). */
export function appendAuditText(path: string, text: string): Promise<void> {
  try {
    if (text !== "") writePrivate(path, text);
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** One `O_APPEND` write of `text` to a 0600 file in a 0700 folder. */
function writePrivate(path: string, text: string): void {
  ensurePrivateDir(path);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  } catch (err) {
    ready.delete(path); // the folder may have gone: check it again next time
    throw err;
  }
  try {
    if (posix) {
      const info = file.statSync();
      if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(path, 0o600);
    }
    const bytes = enc.encode(text);
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
  } finally {
    file.close();
  }
}

/**
 * The terminal notice for one pass, or undefined when nothing was tokenized. Categories are listed
 * by count (highest first), then by name.
 *
 * @example
 * ```ts
 * import { noticeLine } from "./audit.ts";
 * noticeLine("tool_result", ["NAME", "MRN", "NAME"]);
 * // "phi> auto-tokenized 3 value(s) [tool_result]: NAME×2 MRN×1"
 * ```
 */
export function noticeLine(surface: Surface, categories: readonly string[]): string | undefined {
  if (categories.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const c of categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([c, n]) => `${c}×${n}`);
  return `phi> auto-tokenized ${categories.length} value(s) [${surface}]: ${parts.join(" ")}`;
}

/**
 * The engine's per-session audit bookkeeping for the rows of one lookup table, kept beside the
 * rows (not on them), in arrays by row id: which rows a pass has reported already (a value found
 * many times in one result is reported once), and the places (surface and source) each row was
 * audited at this session (a value is audited once per place). Row ids are never reused, so a row
 * the table drops and reads again (a file replaced by hand) starts afresh, while a row that stays
 * keeps its marks.
 *
 * @example
 * ```ts
 * import { type AuditLines, AuditBook } from "./audit.ts";
 * import type { LookupRow } from "./lookup.ts";
 * declare const row: LookupRow;
 * declare const audit: AuditLines;
 * const book = new AuditBook();
 * book.nextPass();
 * if (book.firstInPass(row) && book.firstAt(row, "tool_result\u0000read_file")) {
 *   audit.add(row.canonical, row.category, row.token, "known");
 * }
 * ```
 */
export class AuditBook {
  /** The last pass each row came up in, by row id (0: none yet). */
  #pass = new Int32Array(1024);
  /** The places each row was audited at, by row id; one place alone (the usual case) as a string. */
  #places: Array<string | string[] | undefined> = new Array(1024).fill(undefined);
  #current = 0;

  /** Starts a pass: from here each row comes up once more. */
  nextPass(): void {
    this.#current++;
  }

  /** True the first time `row` comes up in this pass. */
  firstInPass(row: LookupRow): boolean {
    const id = row.id;
    if (id >= this.#pass.length) this.#grow(id);
    if (this.#pass[id] === this.#current) return false;
    this.#pass[id] = this.#current;
    return true;
  }

  /** Records that `row` was audited at `place`; false when it was there already. */
  firstAt(row: LookupRow, place: string): boolean {
    const id = row.id;
    if (id >= this.#places.length) this.#grow(id);
    const seen = this.#places[id];
    if (seen === undefined) this.#places[id] = place;
    else if (seen === place || (typeof seen !== "string" && seen.includes(place))) return false;
    else if (typeof seen === "string") this.#places[id] = [seen, place];
    else seen.push(place);
    return true;
  }

  #grow(id: number): void {
    let n = this.#pass.length;
    while (n <= id) n *= 2;
    const pass = new Int32Array(n);
    pass.set(this.#pass);
    this.#pass = pass;
    const places = new Array<string | string[] | undefined>(n).fill(undefined);
    for (let i = 0; i < this.#places.length; i++) places[i] = this.#places[i];
    this.#places = places;
  }
}
