/**
 * Reading a NetConfig file: an optional UTF-8 BOM, optional `#` comment lines, the prologue, then
 * records read as the engine's loader reads them (TclX `lgets`: one complete Tcl list, which may span
 * many lines), each `<type> <name> {<keyed list>}` with type `process`, `protocol` or `destination`.
 *
 * A Tcl syntax error (an unbalanced brace or quote, text glued to a closing brace) or a prologue
 * that never ends throws {@link NetConfigError} naming the line and column; nothing else is thrown.
 * Everything the engine would complain about but that can still be read (duplicate names, compared
 * case-insensitively; a protocol without PROCESSNAME; irregular keyed-list elements; unknown record
 * types) is collected in `issues` with its line. Tcl is never executed.
 *
 * @module
 */
import { AssistError } from "../../../core/errors.ts";
import { type Elem, ElemKind, newElem, TclListError, TclSource } from "./tcl_list.ts";
import { KeyedList, type KlIssue, readKeyedList } from "./keyed_list.ts";
import { entryShape } from "./schema.ts";
import { FAST_FAIL, fastClose, fastConfig, fastRelease } from "./_fast.ts";
import { type Prologue, readPrologue } from "./prologue.ts";

/** The parser's own error: the file is not readable as a NetConfig. */
export class NetConfigError extends AssistError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
  readonly source?: string;
  constructor(reason: string, line: number, column: number, source?: string) {
    super(`${source ?? "NetConfig"} line ${line}, column ${column}: ${reason}`, { level: "input" });
    this.name = "NetConfigError";
    this.reason = reason;
    this.line = line;
    this.column = column;
    this.source = source;
  }
}

export type EntryType = "process" | "protocol" | "destination";

/** One record of the file. */
export interface NcEntry {
  /** `process`, `protocol`, `destination`, or an unknown word (kept, not interpreted). */
  type: string;
  name: string;
  config: KeyedList;
  /** Offsets of the record in the text: its first character and just after its last element. */
  offset: number;
  end: number;
  /** 1-based line of the record's first character. */
  line: number;
}

export interface NcIssue {
  line: number;
  severity: "error" | "warning";
  message: string;
}

export interface ParseOptions {
  /** How errors and issues name the file (a path, `siteA/NetConfig`). */
  source?: string;
  /**
   * Read every record the general way (tcl_list.ts + keyed_list.ts) instead of trying the one-pass
   * reader first; the result is the same, only slower. For tests and benchmarks. @default false
   */
  exact?: boolean;
}

/**
 * A parsed NetConfig.
 *
 * @example
 * ```ts
 * declare const siteDir: string;
 * const nc = parseNetConfig(await Deno.readTextFile(`${siteDir}/NetConfig`), { source: "adt/NetConfig" });
 * nc.protocol("ADT_IN")?.config.at("PROTOCOL.PORT"); // "5001" (names are case-insensitive)
 * ```
 */
export class NetConfig {
  readonly text: string;
  readonly source?: string;
  readonly prologue?: Prologue;
  /** Every record in file order, unknown types included. */
  readonly entries: NcEntry[];
  readonly processes: NcEntry[] = [];
  readonly protocols: NcEntry[] = [];
  readonly destinations: NcEntry[] = [];
  readonly issues: NcIssue[];
  #lineStarts: Int32Array | undefined;
  #byName: Map<string, NcEntry> | undefined;

  constructor(
    text: string,
    source: string | undefined,
    prologue: Prologue | undefined,
    entries: NcEntry[],
    issues: NcIssue[],
    lineStarts?: Int32Array,
  ) {
    this.text = text;
    this.source = source;
    this.prologue = prologue;
    this.entries = entries;
    this.issues = issues;
    this.#lineStarts = lineStarts;
    for (const e of entries) {
      if (e.type === "protocol") this.protocols.push(e);
      else if (e.type === "process") this.processes.push(e);
      else if (e.type === "destination") this.destinations.push(e);
    }
  }

  /** 1-based line of a text offset. */
  lineOf(offset: number): number {
    const starts = this.#lineStarts ??= lineStartsOf(this.text);
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  #index(): Map<string, NcEntry> {
    if (this.#byName) return this.#byName;
    const m = new Map<string, NcEntry>();
    // First definition wins, as with the loader's first-seen checks; protocols before destinations.
    for (const type of ["protocol", "destination", "process"]) {
      for (const e of this.entries) {
        if (e.type !== type) continue;
        const k = `${type}\0${e.name.toLowerCase()}`;
        if (!m.has(k)) m.set(k, e);
      }
    }
    return this.#byName = m;
  }

  /** A protocol (thread) by name, case-insensitive. */
  protocol(name: string): NcEntry | undefined {
    return this.#index().get(`protocol\0${name.toLowerCase()}`);
  }

  destination(name: string): NcEntry | undefined {
    return this.#index().get(`destination\0${name.toLowerCase()}`);
  }

  process(name: string): NcEntry | undefined {
    return this.#index().get(`process\0${name.toLowerCase()}`);
  }

  /** A protocol, else a destination, else a process of that name. */
  find(name: string): NcEntry | undefined {
    return this.protocol(name) ?? this.destination(name) ?? this.process(name);
  }

  /** The record as written in the file (from the start of its first line). */
  raw(entry: NcEntry): string {
    let from = entry.offset;
    while (from > 0 && this.text[from - 1] !== "\n") from--;
    let to = entry.end;
    while (to < this.text.length && (this.text[to] === " " || this.text[to] === "\t")) to++;
    return this.text.slice(from, to).replace(/\r/g, "");
  }
}

function lineStartsOf(text: string): Int32Array {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  const starts = new Int32Array(n);
  let k = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts[k++] = i + 1;
  return starts;
}

const KNOWN_TYPES = new Set(["process", "protocol", "destination"]);

/**
 * Parses NetConfig text. Throws only {@link NetConfigError}.
 *
 * @example
 * ```ts
 * const nc = parseNetConfig("prologue\n    type:\tnet\nend_prologue\nprocess p { { HUBNAME localhub } } \n");
 * nc.processes[0].name; // "p"
 * ```
 */
export function parseNetConfig(text: string, options: ParseOptions = {}): NetConfig {
  // Line starts are needed only for issues and errors; record lines are counted as records go by.
  let lineStarts: Int32Array | undefined;
  const lineAt = (offset: number) => {
    const starts = lineStarts ??= lineStartsOf(text);
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const fail = (reason: string, offset: number): never => {
    const l = lineAt(offset);
    throw new NetConfigError(reason, l + 1, offset - lineStarts![l] + 1, options.source);
  };
  const issues: NcIssue[] = [];
  const warn = (offset: number, message: string, severity: NcIssue["severity"] = "warning") =>
    issues.push({ line: lineAt(offset) + 1, severity, message });

  let countedTo = 0, countedLine = 1;
  const recordLine = (offset: number) => {
    for (let i = text.indexOf("\n", countedTo); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
      countedLine++;
      countedTo = i + 1;
    }
    return countedLine;
  };

  // Before the records: BOM, blank and `#` lines, the prologue.
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let prologue: Prologue | undefined;
  let prologueAt = 0;
  for (;;) {
    let eol = text.indexOf("\n", pos);
    if (eol === -1) eol = text.length;
    const line = text.slice(pos, eol).trim();
    if (line === "" || line.startsWith("#")) {
      if (eol >= text.length) {
        pos = text.length;
        break;
      }
      pos = eol + 1;
      continue;
    }
    if (line === "prologue") {
      prologueAt = pos;
      const r = readPrologue(text, pos, recordLine(pos));
      if (r.next === undefined) fail("the prologue has no end_prologue line", pos);
      prologue = r.prologue;
      pos = r.next!;
    } else {
      warn(pos, "no prologue: the file does not start with a prologue block");
    }
    break;
  }
  if (prologue && prologue.type !== undefined && prologue.type.toLowerCase() !== "net") {
    warn(prologueAt, `prologue type is "${prologue.type}", not "net"`);
  }

  const src = new TclSource(text);
  const entries: NcEntry[] = [];
  const klIssues: KlIssue[] = [];
  const els: Elem[] = [newElem(), newElem(), newElem(), newElem()];
  const end = text.length;
  try {
    for (;;) {
      // Skip white space between records, and whole-line `#` comments.
      while (pos < end) {
        const c = text.charCodeAt(pos);
        if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) pos++;
        else if (c === 0x23 /* # */) {
          const eol = text.indexOf("\n", pos);
          pos = eol === -1 ? end : eol + 1;
        } else break;
      }
      if (pos >= end) break;
      // One record: elements up to a newline that lies outside every element.
      let n = 0;
      let p = pos;
      const recordStart = pos;
      let fast: KeyedList | undefined;
      for (;;) {
        if (n === 2 && fast === undefined && !options.exact) {
          // The configuration, in the writers' form, is read in one pass (netconfig/_fast.ts).
          let q = p;
          while (q < end && (text.charCodeAt(q) === 0x20 || text.charCodeAt(q) === 0x09)) q++;
          const type0 = src.value(els[0]);
          if (text.charCodeAt(q) === 0x7b && KNOWN_TYPES.has(type0)) {
            try {
              const kl = fastConfig(text, q, end, entryShape(type0));
              const close = fastClose;
              const after = close + 1 < end ? text.charCodeAt(close + 1) : 0x20;
              if (after === 0x20 || (after >= 0x09 && after <= 0x0d)) {
                const e = els[2];
                e.kind = ElemKind.Braced;
                e.at = q;
                e.start = q + 1;
                e.end = close;
                e.next = close + 1;
                e.subst = undefined;
                fast = kl;
                p = close + 1;
                n++;
                continue;
              }
            } catch (err) {
              if (err !== FAST_FAIL) throw err;
            }
          }
        }
        const e = els[n < 3 ? n : 3];
        if (!src.next(p, end, e, true)) break;
        p = e.next;
        n++;
      }
      pos = p;
      const type = src.value(els[0]);
      const entry: NcEntry = {
        type,
        name: n > 1 ? src.value(els[1]) : "",
        config: EMPTY,
        offset: recordStart,
        end: p,
        line: recordLine(recordStart),
      };
      if (!KNOWN_TYPES.has(type)) {
        warn(recordStart, `unknown record type "${clip(type)}" ignored`);
        entries.push(entry);
        continue;
      }
      if (n !== 3) {
        warn(
          recordStart,
          `${type} record ${n > 1 ? `"${clip(entry.name)}" ` : ""}has ${n} element${n === 1 ? "" : "s"}, ` +
            "expected 3 (type, name, configuration)",
          "error",
        );
      }
      if (n >= 3 && fast) {
        entry.config = fast;
      } else if (n >= 3) {
        const c = els[2];
        const shape = entryShape(type);
        if (c.kind === ElemKind.Braced) {
          entry.config = readKeyedList(src, c.start, c.end, shape, klIssues);
        } else {
          const value = src.value(c);
          entry.config = readKeyedList(new TclSource(value, c.at), 0, value.length, shape, klIssues);
        }
      } else {
        entry.config = new KeyedList();
      }
      entries.push(entry);
    }
  } catch (err) {
    if (err instanceof TclListError) fail(err.reason, err.offset);
    throw err;
  } finally {
    fastRelease();
  }
  for (const i of klIssues) warn(i.offset, i.message);
  check(entries, warn);
  issues.sort((a, b) => a.line - b.line);
  return new NetConfig(text, options.source, prologue, entries, issues, lineStarts);
}

const EMPTY = new KeyedList();

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** The loader's and validator's checks that do not stop reading. */
function check(
  entries: NcEntry[],
  warn: (offset: number, message: string, severity?: NcIssue["severity"]) => void,
): void {
  const seen = new Map<string, NcEntry>();
  const processes = new Set<string>();
  for (const e of entries) if (e.type === "process") processes.add(e.name.toLowerCase());
  for (const e of entries) {
    if (!KNOWN_TYPES.has(e.type)) continue;
    if (e.name === "") continue;
    // Processes have their own name space; threads and destinations share one (validator).
    const space = e.type === "process" ? "process" : "thread";
    const key = `${space}\0${e.name.toLowerCase()}`;
    const first = seen.get(key);
    if (first) {
      const same = first.name === e.name ? "" : ` (as "${first.name}")`;
      const what = first.type === e.type
        ? `duplicate ${e.type} name`
        : `${e.type} name already used by a ${first.type}`;
      warn(e.offset, `${what} "${e.name}"${same}, first defined on line ${first.line}`, "error");
    } else {
      seen.set(key, e);
    }
    if (e.type === "protocol") {
      const proc = e.config.str("PROCESSNAME");
      if (proc === undefined || proc.trim() === "") {
        warn(e.offset, `protocol "${e.name}" has no PROCESSNAME`, "error");
      } else if (!processes.has(proc.toLowerCase())) {
        warn(e.offset, `protocol "${e.name}" names process "${proc}", which is not defined`);
      }
    }
  }
}
