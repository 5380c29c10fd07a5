/**
 * The PHI lookup table, `$ASSIST_HOME/sanitize/lookup.tsv` (spec, "PHI lookup table"): one row per
 * token, tab-separated: token, category, canonical value, original value. Legacy three-column rows
 * (value in column 3) are read. Lookups key on column 3; detokenization prefers column 4 and falls
 * back to column 3.
 *
 * Concurrency. The file is only ever appended to, never rewritten. A new token is minted only while
 * holding an OS-level exclusive lock (`flock`/`LockFileEx` via `Deno.FsFile.lockSync`) on
 * `lookup.tsv.lock` beside it; under the lock the writer first re-reads whatever other processes
 * appended, so a canonical value another process just added gets that process's token, and the
 * counter continues after the highest one on disk. Rows are appended with one `O_APPEND` write per
 * batch. Readers need no lock: they consume complete lines only (up to the last newline), so a row
 * being written is picked up on the next refresh. The OS drops the lock when a process dies, so a
 * crash never leaves a stale lock.
 *
 * Why several processes never give one token two values (a REPL, `-p` and `phi_sanitize` on one
 * home at once): a token is only ever minted under the lock, after reading every whole row the
 * others appended, so the counter of a category is always past every number on disk, and a value
 * another process stored first gets that process's token. A process that uses a token has appended
 * its row first (the append is done before `assign` returns), so a token in any output is on disk.
 *
 * A torn row is not a row. Every writer appends whole rows that end in a newline, under the lock, so
 * bytes after the last newline seen under the lock are what a writer left when it died mid-append
 * (SIGKILL, power loss). The next writer, still under the lock, ends that line with a torn mark
 * (`\t\#torn`, one write): a marked line is never read as a row, and its token's number counts as
 * used wherever the file is read, so it is never minted again; one warning says so. A write that
 * fails part-way (ENOSPC) is cut back to where it started before the error is thrown.
 *
 * A token that could not be stored (disk full, read-only home) is never a name another process can
 * mint: `remember` gives it this process's own tag (`[[MRN_mk3q7za_1]]`), and it is appended with
 * the next batch that can be written, so it becomes reversible everywhere once space is back.
 *
 * One token per name: a NAME row whose words without initials are another row's (`Horatio
 * Vanderhoeven` and `Vanderhoeven^Horatio^Q`, in either order) gets that row's token, written as an
 * alias row (same token, its own canonical and original value), so every surface form a token stood
 * for is kept. Detokenization picks among them by context (`valueOf`): inside an HL7 field the HL7
 * form, in prose the prose form seen last (else `Given Family` read from the HL7 form).
 *
 * Escaping: a value holding a tab, newline, carriage return or backslash is written with `\t`, `\n`,
 * `\r`, `\\`, and read back the same way.
 *
 * The file work is synchronous (small local reads and appends; the lock is held for well under a
 * millisecond), which keeps thread-pool round trips off the PHI gate's hot path; within a process,
 * calls are also queued one after the other.
 *
 * Modes: the file is created 0600 and its folder 0700 (POSIX).
 */
import { formatToken, parseToken } from "./token.ts";
import { canonicalize, nameWithoutInitials } from "./normalize.ts";

export interface LookupRow {
  /**
   * A number no other row object of its table has (a table numbers its rows as it makes them, from
   * 0, and never reuses a number): callers keep data per row in arrays by it (the engine's audit
   * bookkeeping, phi/audit.ts) instead of on the row.
   */
  readonly id: number;
  token: string;
  category: string;
  /** Column 3: the canonical value (legacy rows: the value). */
  canonical: string;
  /** Column 4: the original value; absent on legacy rows. */
  original?: string;
  /** Kept in memory only because the table could not be written (see `LookupTable.remember`). */
  unsaved?: boolean;
}

/**
 * A row in memory. Every field is set at construction, so all rows share one object shape and the
 * hot loops that read them (the engine's per-value token assignment) stay monomorphic.
 */
class Row implements LookupRow {
  readonly id: number;
  token: string;
  category: string;
  canonical: string;
  original: string | undefined;
  unsaved: boolean;
  /** The token's category and counter when it has our shape (`[[<CATEGORY>_<N>]]`; else n is 0). */
  nCategory: string;
  n: number;

  constructor(
    id: number,
    token: string,
    category: string,
    canonical: string,
    original: string | undefined,
    unsaved: boolean,
    nCategory: string,
    n: number,
  ) {
    this.id = id;
    this.token = token;
    this.category = category;
    this.canonical = canonical;
    this.original = original;
    this.unsaved = unsaved;
    this.nCategory = nCategory;
    this.n = n;
  }
}

/** What a caller asks a token for. */
export interface TokenRequest {
  category: string;
  canonical: string;
  original: string;
}

/** The nine digits of an SSN-shaped MRN or SSN canonical value, else undefined. */
function ssnDigits(category: string, canonical: string): string | undefined {
  if (category !== "SSN" && category !== "MRN" && category !== "presidio_US_SSN") return undefined;
  const m = /^(\d{3})([- .\u2013]?)(\d{2})\2(\d{4})$/.exec(canonical);
  return m ? m[1] + m[3] + m[4] : undefined;
}

/**
 * The one-token key of a NANP phone number: its ten digits, with or without the country code `1`
 * or `001` (`+1 217 555 0199` and `217-555-0199` are one number). Keys start with `p` so they never
 * meet an SSN's nine digits in the alias map.
 */
function nanpDigits(category: string, canonical: string): string | undefined {
  if (
    category !== "PHONE" && category !== "presidio_PHONE_NUMBER" && category !== "presidio_HL7_PHONE_BARE"
  ) {
    return undefined;
  }
  const d = canonical.length === 11 && canonical[0] === "1"
    ? canonical.slice(1)
    : canonical.length === 13 && canonical.startsWith("001")
    ? canonical.slice(3)
    : canonical;
  return d.length === 10 && /^[2-9]\d{9}$/.test(d) ? `p${d}` : undefined;
}

/** Categories whose token keeps a form per context (an HL7 field, prose): `seen` and `valueOf`. */
export const isName = (category: string) => category === "NAME" || category === "presidio_PERSON";

// The last key computed: a new name is looked up and then indexed, with one computation.
let lastCanonical = "";
let lastKey: string | undefined;

/** The one-token key of a name (its words without initials, two or more), else undefined. */
function nameKey(category: string, canonical: string): string | undefined {
  if (!isName(category)) return undefined;
  if (canonical === lastCanonical) return lastKey;
  const key = nameWithoutInitials(canonical);
  lastCanonical = canonical;
  lastKey = key.indexOf(" ") === -1 ? undefined : key;
  return lastKey;
}

/** The one-letter words of a canonical name, as one string (`"q"` of `horatio q vanderhoeven`). */
function initials(canonical: string): string {
  let out = "";
  for (let i = 0; i < canonical.length; i++) {
    if (
      (i === 0 || canonical.charCodeAt(i - 1) === 32) &&
      (i + 1 === canonical.length || canonical.charCodeAt(i + 1) === 32)
    ) {
      out += canonical[i];
    }
  }
  return out;
}

/** True when the initials of one name are all among the other's (`jane doe`, `jane q doe`; not `q`/`r`). */
function initialsAgree(a: string, b: string): boolean {
  const ia = initials(a), ib = initials(b);
  const [short, long] = ia.length <= ib.length ? [ia, ib] : [ib, ia];
  for (const c of short) if (!long.includes(c)) return false;
  return true;
}

/** `Given Family` (with the middle names) from an HL7 XPN `Family^Given^Middle^...`. */
export function readableXpn(xpn: string): string {
  const [family = "", given = "", middle = ""] = xpn.split("^");
  const out = [given, middle, family].filter((w) => w !== "").join(" ");
  return out === "" ? xpn : out;
}

/**
 * The end of a line that was a torn row (`[[MRN_7]]\tMR` + this): never a row, and its token's
 * number is never minted again. `\#` is no escape `escapeField` writes, so no whole row ends so.
 */
const TORN_END = "\t\\#torn";

/** A tag of letters and digits no other process will draw (30 bits of randomness, base 32). */
function processTag(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let out = "m";
  for (const b of bytes) out += alphabet[b & 31];
  return out;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const posix = Deno.build.os !== "windows";

function escapeField(v: string): string {
  return needsEscape(v)
    ? v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r")
    : v;
}

function needsEscape(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 92 || c === 9 || c === 10 || c === 13) return true;
  }
  return false;
}

function unescapeField(v: string): string {
  if (v.indexOf("\\") === -1) return v;
  return v.replace(
    /\\([\\tnr])/g,
    (_, c: string) => c === "t" ? "\t" : c === "n" ? "\n" : c === "r" ? "\r" : "\\",
  );
}

/**
 * The in-memory view of the table plus the locked append. One instance per process and path is
 * enough; `LookupTable.open` returns a fresh one each call.
 *
 * @example
 * ```ts
 * import { homePaths } from "../core/home.ts";
 * declare const home: string;
 * const table = await LookupTable.open(homePaths(home).lookup);
 * const [token] = await table.assign([{ category: "MRN", canonical: "12345678", original: "12345678" }]);
 * table.byToken(token)?.original; // "12345678"
 * ```
 */
export class LookupTable {
  readonly path: string;
  readonly lockPath: string;
  #rows: Row[] = [];
  #byCanonical = new Map<string, Row>();
  /** SSN-shaped MRN and SSN rows by their nine digits (`find`). */
  #bySsn = new Map<string, Row>();
  /** Name rows by their words without initials (`#nameAlias`). */
  #byName = new Map<string, Row>();
  /** The surface forms of name tokens (by the first row's token): last seen in an HL7 field, in prose. */
  #fieldForm = new Map<string, string>();
  #proseForm = new Map<string, string>();
  #byToken = new Map<string, Row>();
  /** Tokens lowercased, built on the first lookup that needs it (models rarely vary the case). */
  #byTokenLower = new Map<string, Row>();
  #lowerIndexed = 0;
  #maxN = new Map<string, number>();
  #offset = 0;
  /** Rows kept in memory only (`remember`), appended with the next batch that can be written. */
  #pending: Row[] = [];
  /** This process's tag for tokens it could not store (`remember`); drawn on first use. */
  #tag = "";
  /** Lines for the operator about the table (a torn row repaired), taken by `takeWarnings`. */
  #warnings: string[] = [];
  #serial: Promise<unknown> = Promise.resolve();
  #dirReady = false;
  /** The id of the next row this table makes. */
  #nextId = 0;
  /** Bumped whenever rows are added; callers cache derived indexes against it. */
  version = 0;
  /** Bumped when the rows are read again from the start (the file shrank); indexes must restart. */
  generation = 0;

  private constructor(path: string) {
    this.path = path;
    this.lockPath = `${path}.lock`;
  }

  /** Opens (and reads) the table at `path`; a missing file is an empty table, created on first write. */
  static async open(path: string): Promise<LookupTable> {
    const t = new LookupTable(path);
    await t.refresh();
    return t;
  }

  /** All rows in file order (plus unsaved in-memory rows). */
  rows(): readonly LookupRow[] {
    return this.#rows;
  }

  get size(): number {
    return this.#rows.length;
  }

  /** The row whose column 3 is `canonical`, if any. */
  get(canonical: string): LookupRow | undefined {
    return this.#byCanonical.get(canonical);
  }

  /**
   * The row a request gets: the row of its canonical value, else the row of the same SSN written
   * another way (one token per value): an SSN in an MRN field or free text, with or without
   * dashes (`123-45-6789` in PID.3 with identifier type SS, `123456789` after `SSN:`), and the SSN
   * field's `123-45-6789`.
   *
   * And a name written with or without its initials (`#nameAlias`): `assign` writes such a form as
   * an alias row with the name's token, so the table keeps every spelling (see `valueOf`).
   */
  find(r: { category: string; canonical: string }): LookupRow | undefined {
    return this.#byCanonical.get(r.canonical) ?? this.#alias(r) ?? this.#nameAlias(r);
  }

  /**
   * The row of the same name written with or without initials (`horatio vanderhoeven`, `horatio q
   * vanderhoeven`). An HL7 form (`original` holding `^`) joins only a token with no HL7 form yet: two
   * HL7 spellings of one token could not both come back in one message (`fieldTokens`: tokens given
   * an HL7 form by this batch).
   */
  #nameAlias(
    r: { category: string; canonical: string; original?: string },
    fieldTokens?: ReadonlySet<string>,
  ): Row | undefined {
    if (this.#byName.size === 0) return undefined;
    const key = nameKey(r.category, r.canonical);
    const row = key === undefined ? undefined : this.#byName.get(key);
    if (row === undefined) return undefined;
    if (r.original?.includes("^")) {
      if (this.#fieldForm.has(row.token) || fieldTokens?.has(row.token)) return undefined;
    }
    return initialsAgree(row.canonical, r.canonical) ? row : undefined;
  }

  #alias(r: { category: string; canonical: string }): Row | undefined {
    if (this.#bySsn.size === 0) return undefined;
    const ssn = ssnDigits(r.category, r.canonical);
    if (ssn !== undefined) return this.#bySsn.get(ssn);
    const phone = nanpDigits(r.category, r.canonical);
    return phone === undefined ? undefined : this.#bySsn.get(phone);
  }

  #indexAlias(row: Row): void {
    const ssn = ssnDigits(row.category, row.canonical) ?? nanpDigits(row.category, row.canonical);
    if (ssn !== undefined && !this.#bySsn.has(ssn)) this.#bySsn.set(ssn, row);
    const key = nameKey(row.category, row.canonical);
    if (key !== undefined && !this.#byName.has(key)) this.#byName.set(key, row);
  }

  /** Keeps a surface form of a name token: in an HL7 field (`field`), else in prose. */
  #noteForm(row: LookupRow, value: string, field: boolean): void {
    if (!isName(row.category)) return;
    (field ? this.#fieldForm : this.#proseForm).set(row.token, value);
  }

  /**
   * Records that `value` was just tokenized as `row`'s token, inside an HL7 field or in prose:
   * detokenizing in that context then gives this form back (names only; other tokens have one value).
   */
  seen(row: LookupRow, value: string, field: boolean): void {
    this.#noteForm(row, value, field);
  }

  /** The row of a token (exact text first, then ignoring case, since models sometimes vary it). */
  byToken(token: string): LookupRow | undefined {
    return this.#byToken.get(token) ?? this.#byLower(token.toLowerCase());
  }

  #byLower(lower: string): Row | undefined {
    const rows = this.#rows;
    for (let i = this.#lowerIndexed; i < rows.length; i++) {
      const key = rows[i].token.toLowerCase();
      if (!this.#byTokenLower.has(key)) this.#byTokenLower.set(key, rows[i]);
    }
    this.#lowerIndexed = rows.length;
    return this.#byTokenLower.get(lower);
  }

  /**
   * The value a token stands for: column 4, else column 3. With `field` given, a name token gives the
   * form for that context: inside an HL7 field (`true`) its HL7 form, in prose (`false`) the prose
   * form seen last, else `Given Family` from its HL7 form.
   */
  valueOf(token: string, field?: boolean): string | undefined {
    const row = this.byToken(token);
    if (row === undefined) return undefined;
    const value = row.original ?? row.canonical;
    if (field === undefined || !isName(row.category)) return value;
    const hl7 = this.#fieldForm.get(row.token);
    const prose = this.#proseForm.get(row.token);
    if (field) return hl7 ?? prose ?? value;
    return prose ?? (hl7 !== undefined ? readableXpn(hl7) : value);
  }

  #add(row: Row): void {
    const same = this.#byToken.get(row.token);
    if (same && same.canonical === row.canonical && same.category === row.category) {
      same.unsaved = same.unsaved && row.unsaved; // our own row read back from disk
      return;
    }
    this.#rows.push(row);
    if (!this.#byCanonical.has(row.canonical)) this.#byCanonical.set(row.canonical, row);
    if (row.original === undefined) {
      // Legacy rows may predate canonicalization: key them on their canonical form as well.
      const canon = canonicalize(row.category, row.canonical);
      if (canon && !this.#byCanonical.has(canon)) this.#byCanonical.set(canon, row);
    }
    this.#indexAlias(row);
    if (!this.#byToken.has(row.token)) this.#byToken.set(row.token, row);
    if (row.original !== undefined) this.#noteForm(row, row.original, row.original.includes("^"));
    if (row.n > (this.#maxN.get(row.nCategory) ?? 0)) this.#maxN.set(row.nCategory, row.n);
    this.version++;
  }

  #parseLine(line: string): void {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.endsWith(TORN_END)) return this.#reserve(line.slice(0, line.indexOf("\t")));
    if (line === "" || line.startsWith("#")) return;
    const cols = line.split("\t");
    if (cols.length < 3) return;
    const token = cols[0].trim();
    const category = cols[1].trim();
    if (token === "" || category === "") return;
    const canonical = unescapeField(cols[2]);
    if (canonical === "") return;
    const original = cols.length >= 4 && cols[3] !== "" ? unescapeField(cols[3]) : undefined;
    const ours = parseToken(token);
    this.#add(
      new Row(
        this.#nextId++,
        token,
        category,
        canonical,
        original,
        false,
        ours?.category ?? "",
        ours?.n ?? 0,
      ),
    );
  }

  /** Counts a token's number as used, so it is never minted again (a torn row's token). */
  #reserve(token: string): void {
    const ours = parseToken(token);
    if (ours !== undefined && ours.n > (this.#maxN.get(ours.category) ?? 0)) {
      this.#maxN.set(ours.category, ours.n);
    }
  }

  /** Warnings about the table since the last call (a torn row dropped), each given once. */
  takeWarnings(): string[] {
    const out = this.#warnings;
    this.#warnings = [];
    return out;
  }

  /** Rows of this process that are in memory only (the table could not be written). */
  get unsavedCount(): number {
    return this.#pending.length;
  }

  /**
   * Reads what other processes appended since the last read (cheap when nothing changed). A file that
   * shrank (replaced by hand) is read again from the start.
   */
  refresh(): Promise<void> {
    try {
      this.refreshSync();
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** `refresh`, synchronously (small local reads: no thread-pool round trips). */
  refreshSync(): void {
    // The common case (nothing new) costs one stat.
    let size: number;
    try {
      size = Deno.statSync(this.path).size;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      throw err;
    }
    if (size === this.#offset) return;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(this.path, { read: true });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      throw err;
    }
    try {
      size = file.statSync().size;
      if (size < this.#offset) this.#reset();
      if (size === this.#offset) return;
      file.seekSync(this.#offset, Deno.SeekMode.Start);
      const buf = new Uint8Array(size - this.#offset);
      let got = 0;
      while (got < buf.length) {
        const n = file.readSync(buf.subarray(got));
        if (n === null) break;
        got += n;
      }
      const last = buf.subarray(0, got).lastIndexOf(0x0a);
      if (last === -1) return;
      const text = dec.decode(buf.subarray(0, last));
      for (const line of text.split("\n")) this.#parseLine(line);
      this.#offset += last + 1;
    } finally {
      file.close();
    }
  }

  #reset(): void {
    const unsaved = this.#rows.filter((r) => r.unsaved);
    const maxN = new Map(this.#maxN);
    this.#rows = [];
    this.#byCanonical.clear();
    this.#bySsn.clear();
    this.#byName.clear();
    this.#fieldForm.clear();
    this.#proseForm.clear();
    this.#byToken.clear();
    this.#byTokenLower.clear();
    this.#lowerIndexed = 0;
    this.#maxN.clear();
    this.#offset = 0;
    this.generation++;
    for (const r of unsaved) this.#add(r);
    // Numbers once handed out stay used, whatever the file now says (a file replaced by hand).
    for (const [c, n] of maxN) if (n > (this.#maxN.get(c) ?? 0)) this.#maxN.set(c, n);
  }

  /** Runs `fn` after every earlier call of this instance finished (one writer per process at a time). */
  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#serial.then(fn, fn);
    this.#serial = run.catch(() => {});
    return run;
  }

  #ensureDir(): void {
    if (this.#dirReady) return;
    const cut = Math.max(this.path.lastIndexOf("/"), this.path.lastIndexOf("\\"));
    if (cut > 0) {
      const dir = this.path.slice(0, cut);
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (posix) {
        const info = Deno.statSync(dir);
        if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(dir, 0o700);
      }
    }
    this.#dirReady = true;
  }

  /**
   * The token of each request, in order: an existing row's token when column 3 matches, else a new
   * row minted under the lock. Requests with the same canonical value in one batch share a token.
   * Throws when the table cannot be written (the caller decides: strict aborts, other modes fall
   * back to `remember`).
   */
  async assign(requests: readonly TokenRequest[]): Promise<string[]> {
    return (await this.assignRows(requests)).map((r) => r.token);
  }

  /** `assign`, giving the rows themselves (one lookup per request, none afterwards). */
  assignRows(requests: readonly TokenRequest[], avoid?: ReadonlySet<string>): Promise<LookupRow[]> {
    const out: Row[] = new Array(requests.length);
    for (let i = 0; i < requests.length; i++) {
      const row = this.#byCanonical.get(requests[i].canonical) ?? this.#alias(requests[i]);
      if (row === undefined) {
        // Synchronous file work under the lock: the lock is held for a refresh and one append (well
        // under a millisecond for a prompt), and no other task of this process can interleave with it.
        return this.#queue(() => {
          try {
            return Promise.resolve(this.#assignSync(requests, avoid));
          } catch (err) {
            return Promise.reject(err);
          }
        });
      }
      out[i] = row;
    }
    return Promise.resolve(out);
  }

  #assignSync(requests: readonly TokenRequest[], avoid?: ReadonlySet<string>): Row[] {
    this.#ensureDir();
    const lock = Deno.openSync(this.lockPath, { create: true, write: true, mode: 0o600 });
    const out: Row[] = new Array(requests.length);
    try {
      lock.lockSync(true);
      this.refreshSync();
      this.#repairTornTail();
      // Rows kept in memory while the table could not be written go first: their tokens are this
      // process's own (`remember`), so nothing on disk can have taken them meanwhile.
      const fresh: Row[] = this.#pending.slice();
      const fieldTokens = new Set<string>();
      // Counters of the categories in this batch (few; a Map lookup per value would cost more).
      const cats: string[] = [];
      const next: number[] = [];
      for (let i = 0; i < requests.length; i++) {
        const r = requests[i];
        let row = this.#byCanonical.get(r.canonical) ?? this.#alias(r);
        const same = row === undefined ? this.#nameAlias(r, fieldTokens) : undefined;
        if (same !== undefined) {
          // Another form of a known name: an alias row with its token (its category and counter).
          row = new Row(
            this.#nextId++,
            same.token,
            same.category,
            r.canonical,
            r.original,
            false,
            same.nCategory,
            same.n,
          );
          this.#byCanonical.set(r.canonical, row);
          fresh.push(row);
          if (r.original.includes("^")) fieldTokens.add(row.token);
        } else if (row === undefined) {
          let k = cats.indexOf(r.category);
          if (k === -1) {
            k = cats.push(r.category) - 1;
            next.push((this.#maxN.get(r.category) ?? 0) + 1);
          }
          let n = next[k]++;
          // Never a token the text already holds (an operator's literal `[[MRN_1]]`): one token, one value.
          while (avoid?.has(formatToken(r.category, n))) n = next[k]++;
          row = new Row(
            this.#nextId++,
            formatToken(r.category, n),
            r.category,
            r.canonical,
            r.original,
            false,
            r.category,
            n,
          );
          // In the index at once, so a repeat in this batch shares it; taken out again if the append fails.
          this.#byCanonical.set(r.canonical, row);
          this.#indexAlias(row);
          fresh.push(row);
          if (isName(r.category) && r.original.includes("^")) fieldTokens.add(row.token);
        }
        out[i] = row;
      }
      if (fresh.length > 0) {
        try {
          this.#append(fresh);
        } catch (err) {
          for (const row of fresh) {
            if (row.unsaved) continue; // still in memory, still pending
            this.#byCanonical.delete(row.canonical);
            for (const [k, v] of this.#bySsn) if (v === row) this.#bySsn.delete(k);
            for (const [k, v] of this.#byName) if (v === row) this.#byName.delete(k);
          }
          // Part of the batch may be on disk: its numbers are never used again.
          for (let k = 0; k < cats.length; k++) this.#maxN.set(cats[k], next[k] - 1);
          throw err;
        }
        // New tokens, past the highest counter of their category, or alias rows of a token already
        // indexed (`byToken` keeps the first row): nothing to check on the way in. Pending rows are
        // in memory already and now stored.
        for (const row of this.#pending) row.unsaved = false;
        const pending = this.#pending.length;
        this.#pending = [];
        for (let k = pending; k < fresh.length; k++) {
          const row = fresh[k];
          this.#rows.push(row);
          if (!this.#byToken.has(row.token)) this.#byToken.set(row.token, row);
          if (row.original !== undefined) this.#noteForm(row, row.original, row.original.includes("^"));
        }
        for (let k = 0; k < cats.length; k++) this.#maxN.set(cats[k], next[k] - 1);
        this.version++;
      }
    } finally {
      try {
        lock.unlockSync();
      } finally {
        lock.close();
      }
    }
    return out;
  }

  /**
   * Under the lock: bytes after the last whole row are a torn row (its writer died mid-append). One
   * write ends that line with the torn mark, which makes it a line that is never a row and whose
   * token is never minted again; no byte of the file is rewritten.
   */
  #repairTornTail(): void {
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(this.path, { read: true, append: true });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      throw err;
    }
    let token: string | undefined;
    try {
      const size = file.statSync().size;
      if (size <= this.#offset) return;
      const head = new Uint8Array(Math.min(size - this.#offset, 128));
      file.seekSync(this.#offset, Deno.SeekMode.Start);
      let got = 0;
      while (got < head.length) {
        const n = file.readSync(head.subarray(got));
        if (n === null) break;
        got += n;
      }
      token = /^(\[\[[A-Za-z][A-Za-z0-9_]*_\d{1,9}\]\])\t/.exec(dec.decode(head.subarray(0, got)))?.[1];
      const mark = enc.encode(`${TORN_END}\n`);
      let off = 0;
      while (off < mark.length) off += file.writeSync(mark.subarray(off));
    } finally {
      file.close();
    }
    this.refreshSync(); // reads the marked line: its token's number is now used
    this.#warnings.push(
      `phi> ${this.path}: a row cut short by a crash was dropped` +
        (token !== undefined ? `; its token ${token} is never used again` : ""),
    );
  }

  #append(rows: Row[]): void {
    const text = rows.map((r) =>
      `${r.token}\t${escapeField(r.category)}\t${escapeField(r.canonical)}\t${
        escapeField(r.original ?? "")
      }\n`
    ).join("");
    const file = Deno.openSync(this.path, { append: true, create: true, mode: 0o600 });
    let start = -1;
    try {
      const info = file.statSync();
      if (posix && info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(this.path, 0o600);
      start = info.size;
      const bytes = enc.encode(text);
      let off = 0;
      while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
      // Our rows are in memory already; move past them unless someone else's bytes sit before them
      // (a writer that does not lock), which the next refresh then reads.
      if (info.size === this.#offset) this.#offset = info.size + bytes.length;
    } catch (err) {
      // Whole rows or nothing: a write that failed part-way (disk full) is cut back to where it began.
      if (start >= 0) {
        try {
          file.truncateSync(start);
        } catch { /* the next writer's repair (#repairTornTail) drops what is left */ }
      }
      throw err;
    } finally {
      file.close();
    }
  }

  /**
   * Keeps tokens in memory only, for when the table cannot be written (disk full, permissions): the
   * values still never reach the model and are reversed for the rest of the session, but the tokens
   * are not stable across processes. Strict mode never uses this.
   */
  remember(requests: readonly TokenRequest[]): string[] {
    return this.rememberRows(requests).map((r) => r.token);
  }

  /** `remember`, giving the rows. */
  rememberRows(requests: readonly TokenRequest[], avoid?: ReadonlySet<string>): LookupRow[] {
    if (this.#tag === "") this.#tag = processTag();
    return requests.map((r) => {
      const have = this.#byCanonical.get(r.canonical) ?? this.#alias(r) ?? this.#nameAlias(r);
      if (have) return have;
      // This process's own token name: no other process can mint it, stored or not.
      const own = `${r.category}_${this.#tag}`;
      let n = (this.#maxN.get(own) ?? 0) + 1;
      while (avoid?.has(formatToken(own, n))) n++;
      const row = new Row(
        this.#nextId++,
        formatToken(own, n),
        r.category,
        r.canonical,
        r.original,
        true,
        own,
        n,
      );
      this.#add(row);
      this.#pending.push(row);
      return row;
    });
  }
}
