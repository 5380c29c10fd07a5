/**
 * Delimited and fixed-width extracts (issue #23, item 5): the tables operators pull out of a
 * database, an MPI, a billing system or the engine's own SMAT, as CSV, TSV, pipe, semicolon,
 * Markdown or psql/mysql text tables, or as fixed-width columns, and `key=value` / `key: value`
 * record lines. A `RecordFormat` named `extract` (phi/records.ts).
 *
 * ## Delimited tables
 * A table is two or more records (lines; a quoted field may hold the delimiter, doubled quotes and
 * line breaks) with the same number of fields, the delimiter read from its first record: a tab, else
 * `|`, else `;` when there are more of them than commas, else `,`. CRLF and a leading BOM are read.
 * Markdown (`| a | b |` with a `|---|` row) and psql/mysql tables (`---+---`, `+---+---+` rules)
 * are tables too: their rule lines are skipped and their outer pipes are not fields. A pipe table
 * whose first cell is an HL7 segment id is HL7's (the HL7 scan claims it first).
 *
 * **With a header** (the first record: short word-like cells, none a number or a date, at least one
 * known column name), each column's category comes from its name, case-insensitive with `_`, `-`,
 * `.`, `#`, `/` and spaces ignored, and with a person prefix (`patient`, `pt`, `pat`, `guarantor`,
 * `subscriber`, `insured`, ...) or an id suffix (`number`, `no`, `num`, `nbr`, `id`) allowed around a
 * known name ({@link columnCategory}). A table is a person table when it has a strong column (an
 * identifier, a name part, a birth date, an SSN, ...) or two weak ones (phone, e-mail, address parts,
 * age); only a person table is claimed. In it:
 *
 * | Column | What its cells become |
 * |---|---|
 * | names a person's data (MRN, name parts, DOB, SSN, phone, e-mail, address, city, county, ZIP, account, visit, member, policy, admit/discharge/service/death date, age, licence, device, serial, IP, NPI) | one structured value per cell of that category (every row) |
 * | names free text (comment, note, description, reason, message, error, ...) | a free span: the tiers read it as prose |
 * | names an engine fact or a code (status, code, count, thread, site, process, msg type, control id, timestamp, port, size, host, state, country, sex, facility, ...) | in clear (tier 1 only) |
 * | any other name | a free span (neither known-safe nor known-identifying) |
 *
 * **Without a header** (three or more records), a column is a category when at least 80% of its
 * non-empty cells have that category's shape: an SSN (`123-45-6789`), a formatted phone, an e-mail,
 * a name with a comma or caret (`DOE,JANE`, `DOE^JANE`), a street address (`12 ELM ST`). When one of
 * those makes the table a person table, a column of distinct capitalized single words is a NAME
 * part, a column of distinct 5 to 12 digit numbers an MRN, and a date column a DOB only when every
 * cell is a plausible birth date (a date with no time, years 1900 to now, at least two distinct) and
 * another column holds names. An unlabelled date column in any other table is not tokenized: it is
 * more often the date of the transaction than a birth date. Other columns are free spans.
 *
 * ## Fixed-width tables
 * A header line of two or more known column names, each starting after two or more spaces (or
 * at the line start), followed by data lines in which the character before every column start is
 * blank (or the line has ended): the columns run from one header word's start to the next. A rule
 * line of dashes under the header (`------ -----`) is skipped. The same person-table rule applies;
 * cells are read by the header's categories. A fixed-width file without a header line is not read
 * (its columns cannot be told from its data alone).
 *
 * ## Keyed record lines
 * `key=value`, `key = value` and `key: value` pairs (`mrn=00123 name=DOE,JANE dob=1961-03-04`,
 * `MRN: 00123, Name: DOE, JANE`): on a line whose pairs include a strong person key, or on the
 * lines of a form (one `key: value` a line, indented alike) one of which has one, each pair with a
 * person key gives one structured value. A value runs to the next pair (or the end of the line); an
 * identifier or a date is one word (a date may be written with a month name), an identifier has a
 * digit and four characters or more (`Visit: 5` counts), and a name is the capitalized words at the
 * value's start (`Patient: Maria van Beethoven, follow-up next week` gives the name only). A URL's
 * query parameter (`?visit=5031678`) is the URL's. Only the values are claimed: the rest of the
 * line goes through the tiers as before. Name keys given alone on a line are still
 * phi/keyed_names.ts's (it runs later and skips what is taken), and identifier cues in prose tier
 * 2's.
 *
 * ## Inside JSON strings
 * A JSON string value whose lines are written out (`{"stdout": "MRN,Last\n00123,DOE\n"}`) is
 * decoded and read the same way, one level deep; each value found is mapped back to the characters
 * that encode it (`O\u0027NEIL` is replaced whole), so the JSON stays valid and the round trip exact.
 *
 * ## Not read
 * Fenced code (typed fenced code is the operator's; tool results' fences go to the tiers as
 * before), fixed-width files without a header line, and rows of a fixed-width table whose values
 * overflow a column boundary (the table ends there; later rows go to the tiers).
 */
import type { RecordFormat, RecordScan } from "./records.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { canonicalize, parseDate } from "./normalize.ts";
import { protectedRanges } from "./exclusions.ts";
import { KNOWN_SEGMENTS } from "./_hl7.ts";
import { nameVocabulary } from "./name_words.ts";
import { type Span, SpanSet } from "./spans.ts";

// ---- the column vocabulary ----------------------------------------------------------------------

/** How much a column name says about a person. */
export type Strength = "strong" | "weak" | "ambiguous";

/** What a column (or a key) holds. */
export type ColumnKind =
  | { kind: "phi"; category: string; strength: Strength }
  | { kind: "free" }
  | { kind: "safe" };

const VOCAB = new Map<string, ColumnKind>();
function phi(category: string, strength: Strength, keys: string): void {
  for (const k of keys.trim().split(/\s+/)) VOCAB.set(k, { kind: "phi", category, strength });
}
function other(kind: "free" | "safe", keys: string): void {
  for (const k of keys.trim().split(/\s+/)) VOCAB.set(k, { kind } as ColumnKind);
}
// Keys are compact: lower case, `#` read as `no`, everything but letters and digits dropped.
phi(
  "MRN",
  "strong",
  `mrn mrno mrnum mrnumber medicalrecord medicalrecordnumber medicalrecordno medrec medrecno medrecnum
   patientid patid ptid patientnumber patientno patnum patno chart chartno chartnumber chartnum empi
   enterpriseid hospitalnumber hospitalno unitnumber localid mpi mpiid personid epi`,
);
phi(
  "NAME",
  "strong",
  `lastname lname surname familyname last firstname fname givenname given first middlename mname
   middle middleinitial patientname ptname patname fullname guarantorname insuredname
   subscribername maidenname mothersmaidenname nokname nextofkin nextofkinname emergencycontact
   contactname patient guarantor insured preferredname nickname`,
);
phi(
  "NAME",
  "weak",
  `attending attendingphysician attendingmd physician doctor pcp pcpname referringphysician referring
   referringmd alias mi`,
);
phi("NAME", "ambiguous", "name");
phi("DOB", "strong", "dob birthdate dateofbirth birthdt bdate bday birthday birth dtofbirth");
phi("SSN", "strong", "ssn social socialsecurity socialsecuritynumber socialsecurityno ssno sin");
phi(
  "PHONE",
  "weak",
  `phone tel telephone mobile cell cellphone mobilephone fax faxnumber homephone workphone
   phonenumber phoneno contactphone daytimephone eveningphone businessphone`,
);
phi("EMAIL", "weak", "email emailaddress mail");
phi(
  "ADDRESS",
  "weak",
  `address addr addr1 addr2 address1 address2 addressline1 addressline2 streetaddress street
   street1 street2 city town county zip zip4 zip5 zipcode postal postalcode postcode`,
);
phi(
  "ACCOUNT",
  "strong",
  `account accountnumber accountno acct acctno acctnum acctnumber fin finnbr finnumber har
   billingaccount guarantoraccount`,
);
phi(
  "VISIT",
  "strong",
  "encounter encounterid encounternumber enc encid visit visitid visitnumber visitno csn patenccsn",
);
phi(
  "MEMBER",
  "strong",
  `member memberid membernumber memberno subscriber subscriberid policy policynumber policyno policyid
   insuranceid insid medicaid medicaidid medicare medicareid mbi hicn`,
);
phi(
  "DATE",
  "strong",
  `admitdate admissiondate admitdt admitted dischargedate dischdate dischargedt discharged servicedate
   dateofservice servicedt dos deathdate dateofdeath deceaseddate deathdt dod visitdate encounterdate
   appointmentdate apptdate dischdt`,
);
phi("AGE", "weak", "age ageyrs ageyears");
phi(
  "LICENSE",
  "strong",
  "license licence licensenumber licenseno licencenumber driverslicense driverlicense dl dlnumber dlno",
);
phi("DEVICE", "ambiguous", "device deviceid serial serialnumber serialno udi deviceserial");
phi("IP", "ambiguous", "ip ipaddress clientip");
phi("NPI", "weak", "npi providernpi attendingnpi");
other(
  "free",
  `comment comments note notes description desc reason remarks remark text narrative message msg error
   errortext errormessage details detail summary diagnosis complaint chiefcomplaint memo freetext`,
);
other(
  "safe",
  `status state code count cnt thread threadname site sitename process processname proc msgtype
   messagetype type event eventtype trigger controlid msgcontrolid msgid mid messageid timestamp time
   datetime created updated received sent port size bytes length len host hostname server country
   gender sex facility dept department priority result direction queue retries errors version trxid
   dest destination source route protocol pid seq sequence line row index total elapsed duration ms
   kb mb level severity category sendingapp sendingfacility receivingapp receivingfacility app
   application file filename path offset ack acktype race ethnicity language religion marital
   maritalstatus class patientclass location unit room bed service payer payor plan insurance
   insurancename carrier group groupname groupno employer active flag result id messagecontrolid msh10
   receivedat sentat createdat updatedat errorcount queuedepth`,
);
// `id` alone is in clear: `id` columns number the rows of most tables.

const PREFIXES = [
  "patient",
  "pat",
  "pt",
  "person",
  "guarantor",
  "guar",
  "gt",
  "subscriber",
  "sub",
  "insured",
  "ins",
  "primary",
  "pri",
  "home",
  "work",
  "mother",
  "father",
  "nok",
  "contact",
  "emergency",
  "mailing",
  "billing",
  "member",
  "mbr",
  "client",
  "resident",
];
/** Names ending so are counts, sizes and codes (`error_count`, `queue_depth`, `msg_type`). */
const SAFE_TAIL = /(?:count|cnt|size|bytes|depth|port|status|code|type|host|version|ms|secs?)$/;
const SUFFIXES = ["number", "num", "nbr", "no", "id", "value", "txt", "dt"];

/** A column name or key in compact form: lower case, `#` as `no`, only letters and digits. */
export function compactKey(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122 || c >= 48 && c <= 57) out += name[i];
    else if (c >= 65 && c <= 90) out += String.fromCharCode(c + 32);
    else if (c === 35) out += "no";
  }
  return out;
}

const KIND_CACHE = new Map<string, ColumnKind | undefined>();

/**
 * What a column named `name` holds, from the vocabulary above; undefined when the name is not
 * known. A person prefix (`patient_phone`, `pt_dob`) or an id suffix (`mrn_number`, `visit_id`) is
 * allowed around a known name.
 *
 * @example
 * ```ts
 * import { columnCategory } from "./extracts.ts";
 * columnCategory("Pat_Last-Name"); // { kind: "phi", category: "NAME", strength: "strong" }
 * columnCategory("MR#"); // { kind: "phi", category: "MRN", strength: "strong" }
 * columnCategory("msg type"); // { kind: "safe" }
 * ```
 */
export function columnCategory(name: string): ColumnKind | undefined {
  if (name.length > 48) return undefined;
  const k = compactKey(name);
  if (k.length === 0 || k.length > 40) return undefined;
  if (KIND_CACHE.has(k)) return KIND_CACHE.get(k);
  let got = VOCAB.get(k);
  if (!got) {
    for (const p of PREFIXES) {
      if (k.length > p.length && k.startsWith(p)) {
        const rest = VOCAB.get(k.slice(p.length));
        if (rest && rest.kind === "phi") {
          // A person prefix makes an ambiguous name a person's (`patient_name`, `pt_ip`).
          got = rest.strength === "ambiguous" ? { ...rest, strength: "strong" } : rest;
          break;
        }
      }
    }
  }
  if (!got) {
    for (const s of SUFFIXES) {
      if (k.length > s.length && k.endsWith(s)) {
        const rest = columnCategory(k.slice(0, k.length - s.length));
        if (rest && rest.kind === "phi") {
          got = rest;
          break;
        }
      }
    }
  }
  if (!got && SAFE_TAIL.test(k)) got = { kind: "safe" };
  if (KIND_CACHE.size < 4096) KIND_CACHE.set(k, got);
  return got;
}

// ---- cells and records --------------------------------------------------------------------------

/** One field of a record: its raw range, and the range of its value (unquoted, trimmed). */
interface Cell {
  start: number;
  end: number;
  vs: number;
  ve: number;
  quoted: boolean;
}

interface Rec {
  start: number;
  /** End of the record's last field (before the line break). */
  end: number;
  /** Where the next record starts (after the line break), or -1 at the end of the text. */
  next: number;
  cells: Cell[];
  /** A rule line (`|---|---|`, `----+----`): neither header nor data. */
  rule: boolean;
}

const MAX_QUOTED = 8192;

const isBlank = (c: number) => c === 32 || c === 9;

/** The end of the line that starts at or before `pos` (position of `\r`/`\n`, or text length). */
function lineEnd(text: string, pos: number): number {
  const n = text.indexOf("\n", pos);
  const e = n === -1 ? text.length : n;
  return e > pos && text.charCodeAt(e - 1) === 13 ? e - 1 : e;
}

function afterBreak(text: string, le: number): number {
  if (le >= text.length) return -1;
  if (text.charCodeAt(le) === 13) le++;
  if (text.charCodeAt(le) === 10) le++;
  return le >= text.length ? -1 : le;
}

const RULE_LINE = /^[ \t]*[|+]?[ \t]*:?-{3,}:?[ \t]*(?:[|+][ \t]*:?-{3,}:?[ \t]*)*[|+]?[ \t]*$/;

/** The record that starts at `pos`, with fields split by `delim` (quote-aware). */
function parseRecord(text: string, pos: number, delim: number): Rec {
  // Blanks around fields, never the delimiter itself (a tab in a TSV).
  const isBlank = (c: number) => (c === 32 || c === 9) && c !== delim;
  const le0 = lineEnd(text, pos);
  const cells: Cell[] = [];
  if (delim === 124 && le0 - pos >= 3) {
    const line = text.slice(pos, le0);
    if (line.indexOf("---") !== -1 && RULE_LINE.test(line)) {
      return { start: pos, end: le0, next: afterBreak(text, le0), cells, rule: true };
    }
  }
  let i = pos;
  // A pipe table written with outer pipes (Markdown, mysql): the outer ones are not fields.
  let outer = false;
  if (delim === 124) {
    let j = pos;
    while (j < le0 && isBlank(text.charCodeAt(j))) j++;
    let k = le0;
    while (k > j && isBlank(text.charCodeAt(k - 1))) k--;
    if (text.charCodeAt(j) === 124 && k - j >= 2 && text.charCodeAt(k - 1) === 124) {
      outer = true;
      i = j + 1;
    }
  }
  let end = le0;
  for (;;) {
    const fs = i;
    let j = i;
    while (j < text.length && isBlank(text.charCodeAt(j))) j++;
    let cell: Cell | undefined;
    if (text.charCodeAt(j) === 34 /* " */) {
      // A quoted field: to the quote that is not doubled, then blanks, then the delimiter or a line end.
      let k = j + 1;
      const limit = Math.min(text.length, j + MAX_QUOTED);
      let close = -1;
      while (k < limit) {
        let q = k;
        while (q < limit && text.charCodeAt(q) !== 34) q++;
        if (q >= limit) break;
        if (text.charCodeAt(q + 1) === 34) {
          k = q + 2;
          continue;
        }
        let a = q + 1;
        while (a < text.length && isBlank(text.charCodeAt(a))) a++;
        const c = text.charCodeAt(a);
        if (a >= text.length || c === delim || c === 10 || c === 13) close = q;
        break;
      }
      if (close !== -1) {
        let a = close + 1;
        while (a < text.length && isBlank(text.charCodeAt(a))) a++;
        cell = { start: fs, end: a, vs: j + 1, ve: close, quoted: true };
        i = a;
      }
    }
    if (!cell) {
      const le = lineEnd(text, i);
      let k = i;
      while (k < le && text.charCodeAt(k) !== delim) k++;
      let vs = i, ve = k;
      while (vs < ve && isBlank(text.charCodeAt(vs))) vs++;
      while (ve > vs && isBlank(text.charCodeAt(ve - 1))) ve--;
      cell = { start: fs, end: k, vs, ve, quoted: false };
      i = k;
    }
    cells.push(cell);
    const c = text.charCodeAt(i);
    if (i < text.length && c === delim) {
      i++;
      continue;
    }
    end = i < text.length ? i : text.length;
    break;
  }
  if (outer && cells.length > 0) {
    const last = cells[cells.length - 1];
    if (last.vs === last.ve && !last.quoted) cells.pop();
  }
  // `end` is at the line break after the last field (or the end of the text).
  return { start: pos, end, next: afterBreak(text, end), cells, rule: false };
}

/** How many `c` the range holds; -1 when it holds a quote (which may hide some). */
function countOf(text: string, s: number, e: number, c: number): number {
  let n = 0;
  for (let i = s; i < e; i++) {
    const k = text.charCodeAt(i);
    if (k === c) n++;
    else if (k === 34) return -1;
  }
  return n;
}

/** The delimiter of the line at `pos`: tab, else `|`, else `;` when more than `,`, else `,`; 0 if none. */
function delimiterOf(text: string, pos: number, le: number): number {
  let tabs = 0, pipes = 0, semis = 0, commas = 0;
  for (let i = pos; i < le; i++) {
    const c = text.charCodeAt(i);
    if (c === 9) tabs++;
    else if (c === 124) pipes++;
    else if (c === 59) semis++;
    else if (c === 44) commas++;
  }
  if (tabs > 0 && (tabs >= pipes || pipes === 0)) {
    // Tabs as indentation only are no delimiter.
    let j = pos;
    while (j < le && text.charCodeAt(j) === 9) j++;
    if (text.slice(j, le).indexOf("\t") !== -1) return 9;
  }
  if (pipes > 0) return 124;
  if (semis > 0 && semis > commas) return 59;
  if (commas > 0) return 44;
  return 0;
}

// ---- cell values --------------------------------------------------------------------------------

const PLACEHOLDER =
  /^(?:null|none|nil|n\/?a|na|unknown|unk|undefined|-+|\?+|0|""|\[null\]|<null>|\(null\)|tbd|redacted)$/i;

/** First characters (lower-cased) a placeholder may start with. */
const PLACEHOLDER_FIRST = new Set([...'nu-?0"[<(tr'].map((c) => c.charCodeAt(0) | 32));

function cellValue(text: string, c: Cell): string {
  return text.slice(c.vs, c.ve);
}

/** True when the value in `[s, e)` is worth tokenizing (not empty, a placeholder, or a token). */
function worthIt(value: string, category: string): boolean {
  const n = value.length;
  if (n === 0 || n > 200) return false;
  let digits = 0, alnum = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127) alnum++;
  }
  if (digits + alnum === 0) return false;
  if ((category === "PHONE" || category === "SSN") && digits < 4) return false;
  if (n <= 12 && PLACEHOLDER_FIRST.has(value.charCodeAt(0) | 32) && PLACEHOLDER.test(value)) return false;
  if (value.indexOf("[[") !== -1 && /^(?:\s*\[\[[A-Za-z][A-Za-z0-9_]*_\d{1,9}\]\]\s*)+$/.test(value)) {
    return false;
  }
  // Non-ASCII without a letter or digit (`—`, `…`) is nothing.
  return digits > 0 || /[\p{L}\p{N}]/u.test(value);
}

function pushValue(
  out: RecordScan,
  text: string,
  s: number,
  e: number,
  category: string,
  context: string,
  quoted: boolean,
): void {
  const value = text.slice(s, e);
  if (!worthIt(value, category)) return;
  const plain = quoted && value.indexOf('""') !== -1 ? value.replaceAll('""', '"') : value;
  const canonical = canonicalize(category, plain);
  if (canonical === "") return;
  out.structured.push(candidate(s, e, value, category, canonical, "hl7_pipeline", context));
}

// ---- shapes (tables without a header) -----------------------------------------------------------

const SSN_SHAPE = /^\d{3}-\d{2}-\d{4}$/;
const PHONE_SHAPE = /^(?:\+?1[ .-]?)?(?:\(\d{3}\)[ ]?|\d{3}[.-])\d{3}[.-]\d{4}$/;
const EMAIL_SHAPE = /^[^\s@,;]+@[^\s@,;]+\.[A-Za-z]{2,}$/;
const NAME_SHAPE = /^[\p{L}'\u2019-]{2,}[ ]?[,^][ ]?[\p{L}'\u2019-]{2,}(?:[ ^][\p{L}.'\u2019-]+){0,2}$/u;
const STREET_SHAPE =
  /^\d{1,6}[A-Z]?\s+(?:[NSEW]\.?\s+)?[\p{L}0-9'. -]{2,40}\s(?:st|street|ave|avenue|rd|road|dr|drive|ln|lane|blvd|ct|court|way|pl|place|pkwy|hwy|cir|ter|trl)\.?(?:\s+(?:apt|unit|ste|#)\s*\w+)?$/iu;
const WORD_SHAPE = /^(?:\p{Lu}[\p{Ll}'\u2019-]+|\p{Lu}[\p{Lu}'\u2019-]+)$/u;
const ID_SHAPE = /^\d{5,12}$/;
/** Words of a status or code column, never a name. */
const STATUS_WORDS = new Set(
  `sent error errors held resent ok okay failed failure fail active inactive pending done complete
   completed up down open closed yes no true false new old none null success warning warn info
   debug fatal queued retry retrying running stopped dead alive good bad ack nak`.split(/\s+/),
);
function nameWord(v: string): boolean {
  if (!WORD_SHAPE.test(v)) return false;
  const l = v.toLowerCase();
  return !STATUS_WORDS.has(l) && !nameVocabulary().has(l);
}
const TIME_IN = /\d:\d\d/;

/** A plausible birth date: a date with no time, between 1900 and this year. */
function birthDateLike(v: string): boolean {
  if (TIME_IN.test(v)) return false;
  const d = parseDate(v);
  if (!d) return false;
  const y = +d.slice(0, 4);
  return y >= 1900 && y <= new Date().getUTCFullYear();
}

interface Inferred {
  category: string;
  context: string;
}

/** Column categories of a table without a header (see the module doc), or undefined. */
function inferColumns(text: string, rows: Rec[], width: number): (Inferred | undefined)[] | undefined {
  const cats: (Inferred | undefined)[] = new Array(width).fill(undefined);
  const stats = [];
  for (let col = 0; col < width; col++) {
    let n = 0, ssn = 0, phone = 0, email = 0, name = 0, street = 0, word = 0, id = 0, birth = 0;
    const distinct = new Set<string>();
    for (const r of rows) {
      const c = r.cells[col];
      if (!c) continue;
      const v = cellValue(text, c);
      if (v === "" || PLACEHOLDER.test(v)) continue;
      n++;
      distinct.add(v);
      if (SSN_SHAPE.test(v)) ssn++;
      else if (PHONE_SHAPE.test(v)) phone++;
      else if (EMAIL_SHAPE.test(v)) email++;
      else if (NAME_SHAPE.test(v)) name++;
      else if (STREET_SHAPE.test(v)) street++;
      else if (nameWord(v)) word++;
      else if (ID_SHAPE.test(v) && !parseDate(v)) id++;
      if (v.length >= 6 && v.length <= 30 && v.charCodeAt(0) < 128 && birthDateLike(v)) birth++;
    }
    stats.push({ n, ssn, phone, email, name, street, word, id, birth, distinct: distinct.size });
  }
  const most = (k: number, n: number) => n >= 3 && k >= 0.8 * n;
  let person = false;
  let names = false;
  stats.forEach((s, col) => {
    const ctx = `extract column ${col + 1}`;
    if (most(s.ssn, s.n)) cats[col] = { category: "SSN", context: ctx };
    else if (most(s.phone, s.n)) cats[col] = { category: "PHONE", context: ctx };
    else if (most(s.email, s.n)) cats[col] = { category: "EMAIL", context: ctx };
    else if (most(s.name, s.n)) {
      cats[col] = { category: "NAME", context: ctx };
      names = true;
    } else if (most(s.street, s.n)) cats[col] = { category: "ADDRESS", context: ctx };
    if (cats[col]) person = true;
  });
  if (!person) return undefined;
  stats.forEach((s, col) => {
    if (cats[col]) return;
    const ctx = `extract column ${col + 1}`;
    if (most(s.word, s.n) && s.distinct >= 0.8 * s.n) {
      cats[col] = { category: "NAME", context: ctx };
      names = true;
    }
  });
  stats.forEach((s, col) => {
    if (cats[col]) return;
    const ctx = `extract column ${col + 1}`;
    if (most(s.id, s.n) && s.distinct === s.n) cats[col] = { category: "MRN", context: ctx };
    else if (names && s.n >= 3 && s.birth === s.n && s.distinct >= 2) {
      cats[col] = { category: "DOB", context: ctx };
    }
  });
  return cats;
}

// ---- header tables ------------------------------------------------------------------------------

const HEADER_CELL = /^[A-Za-z][A-Za-z0-9 _.#\/()-]{0,47}$/;

/** The column kinds of a header record, or undefined when it is not a header of a person table. */
function headerKinds(text: string, r: Rec): (ColumnKind | undefined)[] | undefined {
  const kinds: (ColumnKind | undefined)[] = [];
  let strong = 0, weak = 0, known = 0;
  for (const c of r.cells) {
    const v = cellValue(text, c);
    if (v === "") {
      kinds.push(undefined);
      continue;
    }
    if (!HEADER_CELL.test(v)) return undefined;
    const k = columnCategory(v);
    kinds.push(k);
    if (!k) continue;
    known++;
    if (k.kind === "phi") {
      if (k.strength === "strong") strong++;
      else if (k.strength === "weak") weak++;
    }
  }
  if (known === 0 || (strong === 0 && weak < 2)) return undefined;
  return kinds;
}

// ---- the scan -----------------------------------------------------------------------------------

interface Out {
  out: RecordScan;
}

/** The first cell is an HL7 segment id (`PID|...`): the row is HL7's. */
function hl7Row(text: string, r: Rec): boolean {
  const c = r.cells[0];
  if (!c || c.ve - c.vs !== 3) return false;
  const id = text.slice(c.vs, c.ve);
  return KNOWN_SEGMENTS.has(id) || /^Z[A-Z0-9]{2}$/.test(id) || id === "FHS" || id === "BHS";
}

/**
 * Tries a delimited table at line start `pos`: `claimed` when a table was found and claimed, and
 * `end`, the end of the records read (a block of records that is no table is not tried again line
 * by line), or -1 when not even two records start there.
 */
function delimitedAt(text: string, pos: number, o: Out): { end: number; claimed: boolean } {
  const none = { end: -1, claimed: false };
  const le = lineEnd(text, pos);
  if (le - pos < 3) return none;
  const delim = delimiterOf(text, pos, le);
  if (delim === 0) return none;
  // Cheap rejections before parsing: an HL7 segment, or a next line with another number of
  // delimiters (when no quote could hide one).
  if (delim === 124 && (text.charCodeAt(pos + 3) === 124 || text.charCodeAt(pos + 3) === 13)) {
    const id = text.slice(pos, pos + 3);
    if (KNOWN_SEGMENTS.has(id) || /^Z[A-Z0-9]{2}$/.test(id)) return none;
  }
  const n2 = afterBreak(text, le);
  if (n2 === -1) return none;
  const le2 = lineEnd(text, n2);
  // (A pipe table may have a rule line next: `---+---`.)
  if (delim !== 124) {
    const a = countOf(text, pos, le, delim), b = countOf(text, n2, le2, delim);
    if (a !== -1 && b !== -1 && a !== b) return none;
  }
  const first = parseRecord(text, pos, delim);
  if (first.rule || first.cells.length < 2) return none;
  if (delim === 124 && hl7Row(text, first)) return none;
  const width = first.cells.length;
  const kinds = headerKinds(text, first);
  // A header table is emitted as it is read; other blocks keep a sample of rows for the shapes.
  const contexts = kinds ? first.cells.map((c) => `extract ${cellValue(text, c)}`) : [];
  const sample: Rec[] = kinds ? [] : [first];
  let data = 0;
  let next = first.next;
  let last = first.end;
  const rowsStart = next;
  while (next !== -1) {
    const r = parseRecord(text, next, delim);
    if (!r.rule && r.cells.length !== width) break;
    if (!r.rule && delim === 124 && hl7Row(text, r)) break;
    if (!r.rule) data++;
    if (kinds) {
      if (data === 1 && !r.rule) o.out.segments.push({ start: first.start, end: first.end });
      if (data > 0) emitRow(text, o, r, (col) => kinds[col], contexts);
      else o.out.segments.push({ start: r.start, end: r.end });
    } else if (sample.length < SAMPLE) sample.push(r);
    last = r.end;
    next = r.next;
  }
  if (data === 0) {
    // Rule lines read before any data row stay unclaimed: no table.
    if (kinds) {
      o.out.segments.splice(o.out.segments.length - countRules(text, rowsStart, last, delim), Infinity);
    }
    return none;
  }
  if (kinds) return { end: last, claimed: true };
  if (data + 1 < 3) return { end: last, claimed: false };
  const cats = inferColumns(text, sample.filter((r) => !r.rule), width);
  if (!cats) return { end: last, claimed: false };
  const ctx = cats.map((c) => c?.context ?? "");
  const kindOf = (col: number): ColumnKind | undefined => {
    const c = cats[col];
    return c ? { kind: "phi", category: c.category, strength: "strong" } : undefined;
  };
  // Read again, now emitting (only blocks whose shapes made them a table pay twice).
  let at: number = pos;
  while (at !== -1 && at <= last) {
    const r = parseRecord(text, at, delim);
    emitRow(text, o, r, kindOf, ctx);
    if (r.end >= last) break;
    at = r.next;
  }
  return { end: last, claimed: true };
}

const SAMPLE = 500;

/** The rule lines between `from` and `to` (records of a block that had no data row). */
function countRules(text: string, from: number, to: number, delim: number): number {
  let n = 0;
  for (let at = from; at !== -1 && at <= to;) {
    const r = parseRecord(text, at, delim);
    if (r.rule) n++;
    if (r.end >= to) break;
    at = r.next;
  }
  return n;
}

/** One record of a claimed table: its segment, its values by column kind, its free cells. */
function emitRow(
  text: string,
  o: Out,
  r: Rec,
  kindOf: (col: number) => ColumnKind | undefined,
  contexts: string[],
): void {
  const out = o.out;
  out.segments.push({ start: r.start, end: r.end });
  if (r.rule) return;
  for (let col = 0; col < r.cells.length; col++) {
    const c = r.cells[col];
    if (c.ve <= c.vs) continue;
    const k = kindOf(col);
    if (k?.kind === "safe") continue;
    if (k?.kind === "phi") pushValue(out, text, c.vs, c.ve, k.category, contexts[col], c.quoted);
    else out.free.push({ start: c.vs, end: c.ve });
  }
}

// ---- fixed-width tables -------------------------------------------------------------------------

const FIELD_PATH_CELL = /^[A-Z][A-Z0-9]{2}(?:\[\d{1,4}\])?[.-]\d/;
const DASH_RULE = /^[ \t]*-{2,}(?:[ \t]+-{2,})+[ \t]*$/;

/** The column starts of a fixed-width header line `[pos, le)`: word runs after 2+ spaces. */
function fixedColumns(line: string): { starts: number[]; names: string[] } | undefined {
  if (line.indexOf("  ") === -1 || line.indexOf("\t") !== -1) return undefined;
  const starts: number[] = [];
  const names: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && line.charCodeAt(i) === 32) i++;
    if (i >= line.length) break;
    const s = i;
    // A column name: words separated by single spaces.
    while (
      i < line.length &&
      !(line.charCodeAt(i) === 32 && (line.charCodeAt(i + 1) === 32 || i + 1 >= line.length))
    ) {
      i++;
    }
    starts.push(s);
    names.push(line.slice(s, i));
  }
  return starts.length >= 2 ? { starts, names } : undefined;
}

function fixedAt(text: string, pos: number, o: Out): number {
  const le = lineEnd(text, pos);
  if (le - pos < 8) return -1;
  const line = text.slice(pos, le);
  const cols = fixedColumns(line);
  if (!cols) return -1;
  // A line that starts with an HL7 field path is a field listing (hl7_show), read by its path.
  if (FIELD_PATH_CELL.test(cols.names[0])) return -1;
  const kinds: (ColumnKind | undefined)[] = [];
  let strong = 0, weak = 0;
  for (const n of cols.names) {
    if (!HEADER_CELL.test(n)) return -1;
    const k = columnCategory(n);
    kinds.push(k);
    if (k?.kind === "phi") {
      if (k.strength === "strong") strong++;
      else if (k.strength === "weak") weak++;
    }
  }
  if (strong === 0 && weak < 2) return -1;
  const out = o.out;
  const rows: { start: number; end: number }[] = [];
  let next = afterBreak(text, le);
  let last = le;
  while (next !== -1) {
    const e = lineEnd(text, next);
    const l = text.slice(next, e);
    if (l.trim() === "") break;
    if (DASH_RULE.test(l)) {
      rows.push({ start: next, end: e });
      last = e;
      next = afterBreak(text, e);
      continue;
    }
    // Every column start (after the first) has a blank before it, or the line has ended.
    let ok = true;
    for (let k = 1; k < cols.starts.length; k++) {
      const s = cols.starts[k];
      if (s < l.length && l.charCodeAt(s - 1) !== 32) {
        ok = false;
        break;
      }
    }
    if (!ok || l.length < cols.starts[1]) break;
    rows.push({ start: next, end: e });
    last = e;
    next = afterBreak(text, e);
  }
  if (!rows.some((r) => !DASH_RULE.test(text.slice(r.start, r.end)))) return -1;
  out.segments.push({ start: pos, end: le });
  for (const r of rows) {
    out.segments.push(r);
    const l = text.slice(r.start, r.end);
    if (DASH_RULE.test(l)) continue;
    for (let k = 0; k < cols.starts.length; k++) {
      const s = cols.starts[k];
      if (s >= l.length) break;
      const e = k + 1 < cols.starts.length ? Math.min(cols.starts[k + 1], l.length) : l.length;
      let vs = s, ve = e;
      while (vs < ve && isBlank(l.charCodeAt(vs))) vs++;
      while (ve > vs && isBlank(l.charCodeAt(ve - 1))) ve--;
      if (ve <= vs) continue;
      const kind = kinds[k];
      if (kind?.kind === "safe") continue;
      if (kind?.kind === "phi") {
        pushValue(out, text, r.start + vs, r.start + ve, kind.category, `extract ${cols.names[k]}`, false);
      } else out.free.push({ start: r.start + vs, end: r.start + ve });
    }
  }
  return last;
}

// ---- keyed record lines -------------------------------------------------------------------------

/** `key=value`, `key: value`, `key = value` (the key a word of up to 32 characters). */
const PAIR = /(?<![\w.#-])([A-Za-z][\w .#-]{0,31}?)[ \t]*(=|:)(?![=:\/])[ \t]*/g;
/** Categories whose value is one word. */
const ONE_WORD = new Set([
  "MRN",
  "ACCOUNT",
  "VISIT",
  "MEMBER",
  "SSN",
  "DOB",
  "DATE",
  "AGE",
  "LICENSE",
  "DEVICE",
  "IP",
  "NPI",
  "EMAIL",
]);

interface Pair {
  keyStart: number;
  valueStart: number;
  kind: ColumnKind | undefined;
  key: string;
}

/** The keyed pairs of the line `[ls, le)`. */
function pairsOf(line: string): { pairs: Pair[]; strong: boolean; form: boolean } {
  const pairs: Pair[] = [];
  PAIR.lastIndex = 0;
  let strong = false;
  for (let m = PAIR.exec(line); m; m = PAIR.exec(line)) {
    let key = m[1].trim();
    let at = m.index;
    // A key of several words only with `:` (`Patient Name: ...`), and at most three words; else the
    // last word alone (`... JANE dob=`).
    if (key.indexOf(" ") !== -1 && (m[2] === "=" || key.split(" ").length > 3)) {
      at = m.index + m[1].lastIndexOf(" ") + 1;
      key = key.slice(key.lastIndexOf(" ") + 1);
    }
    // After a written-out line break (`\nthread=` in a JSON string) the key starts past it.
    if (at > 0 && line.charCodeAt(at - 1) === 92 && /[nrt]/.test(line[at]) && key.length > 1) {
      at++;
      key = key.slice(1);
    }
    // A URL's query parameter (`?visit=5031678`) is the URL's, not a record's.
    const before = at > 0 ? line.charCodeAt(at - 1) : 32;
    const url = before === 63 /* ? */ || before === 38 /* & */ || before === 47 /* / */;
    const kind = url ? undefined : columnCategory(key);
    pairs.push({ keyStart: at, valueStart: m.index + m[0].length, kind, key });
    if (kind?.kind === "phi" && kind.strength === "strong") strong = true;
  }
  // A form line: its first pair starts the line (after indentation).
  const form = pairs.length > 0 && /^[ \t]*$/.test(line.slice(0, pairs[0].keyStart));
  return { pairs, strong, form };
}

/** Keyed lines, with the lines of a form (`key: value` one per line) read as one record. */
class KeyedForm {
  readonly #text: string;
  readonly #o: Out;
  #lines: { ls: number; line: string; pairs: Pair[] }[] = [];
  #strong = false;

  constructor(text: string, o: Out) {
    this.#text = text;
    this.#o = o;
  }

  line(ls: number, le: number): void {
    const line = this.#text.slice(ls, le);
    if (line.indexOf("=") === -1 && line.indexOf(":") === -1) {
      this.flush();
      return;
    }
    const p = pairsOf(line);
    if (!p.form) {
      this.flush();
      if (p.strong) emitPairs(this.#text, this.#o, ls, line, p.pairs);
      return;
    }
    this.#lines.push({ ls, line, pairs: p.pairs });
    if (p.strong) this.#strong = true;
  }

  flush(): void {
    if (this.#strong) {
      for (const l of this.#lines) emitPairs(this.#text, this.#o, l.ls, l.line, l.pairs);
    }
    this.#lines = [];
    this.#strong = false;
  }
}

const DATE_CATS = new Set(["DOB", "DATE"]);
const ID_CATS = new Set(["MRN", "ACCOUNT", "VISIT", "MEMBER", "LICENSE", "DEVICE", "SSN", "PHONE"]);

const NAME_WORD_RE = String
  .raw`(?:\p{Lu}[\p{L}\p{M}'\u2019.-]*|(?:\p{Ll}{1,5}[ '\u2019-]){1,3}\p{Lu}[\p{L}\p{M}'\u2019.-]*)`;
const NAME_AT = new RegExp(String.raw`^${NAME_WORD_RE}(?:(?:, ?|\^| )${NAME_WORD_RE}){0,7}`, "u");

/**
 * The length of the name at the start of a keyed value: capitalized words (particles such as `van`,
 * `ter`, `de la` before one) joined by a space, a comma or a caret; prose after it (`Maria van
 * Beethoven, follow-up next week`) is not part of it, and a value that is no name (`tps_x.tcl`) has
 * none.
 */
export function nameExtent(v: string): number {
  const m = NAME_AT.exec(v);
  if (!m) return 0;
  // A word glued to digits, `_`, a path or an address is no name word.
  const next = v[m[0].length];
  // (A written-out line break or quote, `\n` `\"` in a JSON string, ends it.)
  if (next === "\\" && /^(?:[nrt"]|$)/.test(v[m[0].length + 1] ?? "")) return m[0].length;
  if (next !== undefined && /[\d_\/\\@]/.test(next)) return 0;
  return m[0].length;
}

function emitPairs(text: string, o: Out, ls: number, line: string, pairs: Pair[]): void {
  const out = o.out;
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i];
    const k = p.kind;
    if (k?.kind !== "phi") continue;
    let vs = p.valueStart;
    let ve = i + 1 < pairs.length ? pairs[i + 1].keyStart : line.length;
    // Separators before the next key (`, `, `; `, ` | `, `&`).
    while (ve > vs && /[\s,;|&\\]/.test(line[ve - 1])) ve--;
    let quoted = false;
    const q = line[vs];
    if ((q === '"' || q === "'") && ve > vs + 1 && line[ve - 1] === q) {
      vs++;
      ve--;
      quoted = true;
    }
    if (!quoted && ONE_WORD.has(k.category)) {
      let e = vs;
      while (e < ve && !/[\s,;|&\\]/.test(line[e])) e++;
      if (DATE_CATS.has(k.category) && !parseDate(line.slice(vs, e))) {
        // A date written with words (`Mar 4, 1961`, `4 March 1961`).
        const m = /^(?:[A-Za-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2} [A-Za-z]{3,9}\.?,? \d{4})/
          .exec(
            line.slice(vs, ve),
          );
        if (m && parseDate(m[0])) e = vs + m[0].length;
      }
      ve = e;
    }
    if (!quoted && k.category === "NAME") ve = vs + nameExtent(line.slice(vs, ve));
    if (ve <= vs) continue;
    // An identifier in prose-like lines has a digit and some length (`Visit: 5` counts something).
    if (ID_CATS.has(k.category) && (ve - vs < 4 || !/\d/.test(line.slice(vs, ve)))) continue;
    const n = out.structured.length;
    pushValue(out, text, ls + vs, ls + ve, k.category, `key ${p.key}`, false);
    if (out.structured.length > n) out.segments.push({ start: ls + vs, end: ls + ve });
  }
}

// ---- fenced code ---------------------------------------------------------------------------------

/** The fenced code blocks of `text`, as the never-tokenize list reads them (phi/exclusions.ts). */
function fencedBlocks(text: string): Span[] {
  if (text.indexOf("```") === -1 && text.indexOf("~~~") === -1) return [];
  return protectedRanges(text, true, true).filter((p) => p.kind === "fence");
}

/**
 * `out` without what lies in fenced code: typed fenced code is the operator's to show as it is
 * (phi/exclusions.ts), and a scan cannot tell a prompt from a tool result, so fenced code is left
 * to the tiers, which know the surface.
 */
export function withoutFences(text: string, out: RecordScan): RecordScan {
  const fences = fencedBlocks(text);
  if (fences.length === 0) return out;
  const outside = (x: Span) => !fences.some((f) => x.start < f.end && f.start < x.end);
  return {
    structured: out.structured.filter(outside),
    free: out.free.filter(outside),
    segments: out.segments.filter(outside),
  };
}

// ---- the format ---------------------------------------------------------------------------------

/** True when the line `[ls, le)` has two spaces in a row (a fixed-width header may). */
function hasDoubleSpace(text: string, ls: number, le: number): boolean {
  for (let i = ls + 1; i < le; i++) {
    if (text.charCodeAt(i) === 32 && text.charCodeAt(i - 1) === 32) return true;
  }
  return false;
}

/**
 * The extracts of `text` (see the module doc), or undefined when there are none.
 *
 * @example
 * ```ts
 * import { scanExtracts } from "./extracts.ts";
 * const s = scanExtracts("MRN,Last,First,Status\n00123,DOE,JANE,A\n");
 * s?.structured.map((c) => [c.category, c.value]); // [["MRN","00123"],["NAME","DOE"],["NAME","JANE"]]
 * ```
 */
export function scanExtracts(text: string): RecordScan | undefined {
  const o: Out = { out: { structured: [], free: [], segments: [] } };
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const keyed = text.indexOf("=") !== -1 || text.indexOf(":") !== -1;
  const form = new KeyedForm(text, o);
  /** Lines before this position were read as records of a block that is no table. */
  let noTableUntil = -1;
  while (pos !== -1 && pos < text.length) {
    const le = lineEnd(text, pos);
    if (le > pos && pos >= noTableUntil) {
      const d = delimitedAt(text, pos, o);
      let end = d.claimed ? d.end : -1;
      if (!d.claimed && d.end !== -1) noTableUntil = d.end;
      if (end === -1 && hasDoubleSpace(text, pos, le)) end = fixedAt(text, pos, o);
      if (end !== -1) {
        form.flush();
        pos = afterBreak(text, lineEnd(text, end));
        continue;
      }
    }
    if (keyed && le > pos) form.line(pos, le);
    else form.flush();
    pos = afterBreak(text, le);
  }
  form.flush();
  addJsonStrings(text, scanExtracts, o.out);
  const out = withoutFences(text, o.out);
  if (out.segments.length === 0) return undefined;
  const bySpan = (a: Span, b: Span) => a.start - b.start;
  out.structured.sort(bySpan);
  out.free.sort(bySpan);
  out.segments.sort(bySpan);
  return out;
}

// ---- inside JSON strings -------------------------------------------------------------------------

/** A JSON string value of some length on one line (its escapes whole). */
const JSON_STRING = /"((?:[^"\\\r\n]|\\.){16,})"/g;
let jsonDepth = 0;

/** The decoded text of the JSON string body `[s, e)` of `text`, and each view position's source. */
function decodeJson(text: string, s: number, e: number): { view: string; map: Int32Array } {
  const parts: string[] = [];
  const map = new Int32Array(e - s + 1);
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = text[i];
    map[n] = i;
    if (c !== "\\" || i + 1 >= e) {
      parts.push(c);
      n++;
      continue;
    }
    const x = text[i + 1];
    const simple: Record<string, string> = {
      n: "\n",
      r: "\r",
      t: "\t",
      '"': '"',
      "\\": "\\",
      "/": "/",
      b: "\b",
      f: "\f",
    };
    if (x in simple) {
      parts.push(simple[x]);
      i++;
    } else if (x === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      parts.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
      i += 5;
    } else parts.push(c);
    n++;
  }
  map[n] = e;
  return { view: parts.join(""), map: map.subarray(0, n + 1) };
}

/**
 * Records inside JSON string values whose lines are written-out `\n` (a tool's JSON output, a log
 * line's payload): each such string is decoded, scanned by `scan`, and what it finds is mapped back
 * to the characters that encode it (a value's token replaces its escaped form exactly). What
 * overlaps a segment of `out` already is left to it. One level of JSON only.
 */
export function addJsonStrings(
  text: string,
  scan: (t: string) => RecordScan | undefined,
  out: RecordScan,
): void {
  if (jsonDepth > 0 || text.indexOf("\\n") === -1 || text.indexOf('"') === -1) return;
  const taken = SpanSet.of([...out.segments].sort((a, b) => a.start - b.start));
  jsonDepth++;
  try {
    JSON_STRING.lastIndex = 0;
    for (let m = JSON_STRING.exec(text); m; m = JSON_STRING.exec(text)) {
      const s = m.index + 1, e = s + m[1].length;
      if (m[1].indexOf("\\n") === -1 || taken.covers(s, e)) continue;
      const { view, map } = decodeJson(text, s, e);
      const got = scan(view);
      if (!got) continue;
      // What the text's own reading found first stays; the string's records fill in around it.
      for (const c of got.structured) {
        const a = map[c.start], b = map[c.end];
        if (taken.overlaps(a, b)) continue;
        const context = `${c.context ?? ""} in a JSON string`.trim();
        out.structured.push(candidate(a, b, text.slice(a, b), c.category, c.canonical, c.tier, context));
      }
      for (const g of got.segments) {
        const a = map[g.start], b = map[g.end];
        if (!taken.overlaps(a, b)) out.segments.push({ start: a, end: b });
      }
      for (const f of got.free) {
        const a = map[f.start], b = map[f.end];
        if (!taken.overlaps(a, b)) out.free.push({ start: a, end: b });
      }
    }
  } finally {
    jsonDepth--;
  }
}

/** Delimited and fixed-width extracts and keyed record lines (phi/records.ts). */
export const EXTRACT_FORMAT: RecordFormat = {
  name: "extract",
  maybe(text: string): boolean {
    if (text.length < 8) return false;
    if (text.indexOf("\n") !== -1) return true;
    return text.indexOf("=") !== -1 || text.indexOf(":") !== -1;
  },
  scan: scanExtracts,
  readsGaps: true,
};

/** Categories a structured extract value may have (for tests). */
export type ExtractCandidate = Candidate;
