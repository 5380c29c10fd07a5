/**
 * NCPDP Telecommunication Standard D.0 claims and responses read by structure (issue #23, item 2): a
 * `RecordFormat` named `ncpdp`.
 *
 * A transmission is a fixed-width header followed by segments. Each segment starts with the segment
 * separator (RS, 0x1E) and holds fields, each after a field separator (FS, 0x1C): a two-character
 * field id glued to its value (`CAJOHN`, `CBSMITH`, `C419620304`); the first field is the segment id
 * (`AM01` patient, `AM04` insurance, `AM07` claim, ...). A group separator (GS, 0x1D) opens each
 * transaction of the transmission.
 *
 * Separators are read as raw bytes and in the written-out forms logs and operators use: `<FS>`,
 * `[FS]`, `{FS}`, `<0x1C>`, `\x1c`, `\u001c` (a JSON string), `\034` (octal), `^\` `^]` `^^` (caret
 * notation of `cat -v` and `less`), and the control pictures `␜` `␝` `␞`; letters in any case, one
 * form per transmission. Pipes are not read as separators (an HL7 reader's; logs that replace the
 * separators by `|` are read by the tiers as prose). A transmission is found wherever a field
 * separator is followed by a segment id (`AM` and two digits): after a log prefix, inside a JSON
 * string (it ends at the closing quote), several in one text. It ends at a line break, or in its
 * last field where prose follows on the same line (a space before a lower-case letter).
 *
 * The header is the fixed-width text right before the first segment: a request's 56 characters (BIN
 * 6, version `D0`, transaction code 2, PCN 10, count 1, service provider id qualifier 2, service
 * provider id 15, date of service 8, software id 10; a batch's `STX G1` and reference number before
 * it are left alone) or a response's 31 (version `D0`, transaction code, count, status `A`/`R`,
 * qualifier, service provider id, date of service).
 *
 * What is tokenized (tier `hl7_pipeline`, context `NCPDP <segment>.<field id>`, e.g.
 * `NCPDP AM01.CB`; the header's `NCPDP header.201-B1`):
 *
 * | Where | Fields | Category |
 * |---|---|---|
 * | header | service provider id (the pharmacy's NPI, whatever its qualifier) | NPI |
 * | header | date of service | DATE |
 * | patient (AM01), response patient (AM29) | CA first name, CB last name | NAME |
 * | | C4 date of birth | DOB |
 * | | CM street, CN city, CP ZIP (CO state stays) | ADDRESS |
 * | | CQ phone · HN e-mail | PHONE · EMAIL |
 * | | CY patient id by CX: `01` SSN, `02` driver's licence, `04` `05` `06` `09` `11` plan-assigned ids, anything else | SSN · LICENSE · MEMBER · MRN |
 * | insurance (AM04), COB and response segments | C2 cardholder id, NU other payer cardholder id, 2A Medigap id, N5 Medicaid id | MEMBER |
 * | | CC cardholder first name, CD cardholder last name | NAME |
 * | prescriber (AM03) | DR last name, 2J first name, 4E primary care provider's last name | NAME |
 * | | DB prescriber id by EZ: `08` `12` `13` (state licence, DEA, state issued) LICENSE, else NPI; DL primary care provider id | LICENSE · NPI |
 * | pharmacy provider (AM02) | E9 provider id (the pharmacist) | NPI |
 * | claim (AM07), response claim (AM22) | D2 prescription/service reference number | MRN |
 * | | DE date prescription written | DATE |
 * | workers' compensation (AM06) | DY date of injury · CL employer contact name · DZ claim reference id | DATE · NAME · ACCOUNT |
 * | messages | F4 message (AM20), FQ additional message information (AM21), BM narrative (AM16), 4K alphanumeric response (AM14) | free (the tiers read it) |
 *
 * Decisions:
 * - The header's service provider id identifies a pharmacy, an organization; the issue asks for it
 *   to be tokenized (a small pharmacy's NPI points to a place), so it is an NPI token. Prescriber
 *   and pharmacist ids are NPIs of individuals, as the HL7 policy treats XCN ids.
 * - The prescription number (402-D2) is tokenized as an MRN: it is printed on the patient's label
 *   and keyed in the pharmacy's patient record, "any other unique identifying number" of Safe
 *   Harbor; X12's `REF*XZ` is treated alike (phi/x12.ts).
 * - C1 group id stays in clear: a PBM group identifies a benefit plan shared by many members (like
 *   BIN and PCN), and rejects name it (`06 M/I Group ID`). Other payer ids, plan ids, prior
 *   authorization numbers (EV, F3), the facility (AM15) and the prescriber's and employer's
 *   addresses and phones stay (organizations and business data).
 * - Stay in clear: BIN, version, transaction code, PCN, counts, software id, qualifiers, product ids
 *   (D7 NDC), quantities, days supply, amounts (overpunched or not), codes, reject codes, DUR codes.
 */
import { candidate } from "./candidate.ts";
import { canonicalize } from "./normalize.ts";
import type { RecordFormat, RecordScan } from "./records.ts";
import { elementValue } from "./_element.ts";
import { isQuote, QuoteTracker } from "./_quoted.ts";

/** One spelling of the three separators: FS, GS, RS (letters compared in any case). */
interface Form {
  fs: string;
  gs: string;
  rs: string;
  /** Lower-case spellings, for case-insensitive matching. */
  lower: [string, string, string];
  /** The spelling starts with a backslash (a JSON or C string): a written `\n` ends the transmission. */
  backslash: boolean;
  /** The first character codes of the three spellings. */
  first0: number;
  first1: number;
  first2: number;
}

function form(fs: string, gs: string, rs: string): Form {
  return {
    fs,
    gs,
    rs,
    lower: [fs.toLowerCase(), gs.toLowerCase(), rs.toLowerCase()],
    backslash: fs.startsWith("\\"),
    first0: fs.charCodeAt(0),
    first1: gs.charCodeAt(0),
    first2: rs.charCodeAt(0),
  };
}

const FORMS: Form[] = [
  form("\x1c", "\x1d", "\x1e"),
  form("<FS>", "<GS>", "<RS>"),
  form("[FS]", "[GS]", "[RS]"),
  form("{FS}", "{GS}", "{RS}"),
  form("<0x1C>", "<0x1D>", "<0x1E>"),
  form("\\x1c", "\\x1d", "\\x1e"),
  form("\\u001c", "\\u001d", "\\u001e"),
  form("\\034", "\\035", "\\036"),
  form("^\\", "^]", "^^"),
  form("\u241c", "\u241d", "\u241e"),
];

/** A field separator in any form followed by a segment id. */
// deno-lint-ignore no-control-regex
const ANCHOR = /(?:\x1c|<FS>|\[FS\]|\{FS\}|<0x1C>|\\x1c|\\u001c|\\034|\^\\|\u241c)AM\d\d/gi;

/** Field id → category (the qualifier-dependent ids CY, DB, DL are handled apart). */
const FIELDS = new Map<string, string>(Object.entries({
  CA: "NAME",
  CB: "NAME",
  CC: "NAME",
  CD: "NAME",
  DR: "NAME",
  "2J": "NAME",
  "4E": "NAME",
  CL: "NAME",
  C4: "DOB",
  CM: "ADDRESS",
  CN: "ADDRESS",
  CP: "ADDRESS",
  CQ: "PHONE",
  HN: "EMAIL",
  C2: "MEMBER",
  NU: "MEMBER",
  "2A": "MEMBER",
  N5: "MEMBER",
  E9: "NPI",
  DL: "NPI",
  D2: "MRN",
  DE: "DATE",
  DY: "DATE",
  DZ: "ACCOUNT",
}));

/** Free-text fields. */
const FREE = new Set(["F4", "FQ", "BM", "4K"]);

/** CX (patient id qualifier) → category of CY. */
const PATIENT_ID = new Map<string, string>(Object.entries({
  "01": "SSN",
  "02": "LICENSE",
  "04": "MEMBER",
  "05": "MEMBER",
  "06": "MEMBER",
  "09": "MEMBER",
  "11": "MEMBER",
}));

/** EZ (prescriber id qualifier) values whose DB is a licence or registration number. */
const LICENSE_QUALS = new Set(["08", "12", "13"]);

/** A request header (56 characters): BIN, `D0`, transaction code, PCN, count, qualifier, id, date, software. */
const REQUEST_HEADER =
  /^\d{6}D0[A-Z0-9]{2}[\x20-\x7e]{10}[1-9][\x20-\x7e]{2}[\x20-\x7e]{15}\d{8}[\x20-\x7e]{10}$/;
/** A response header (31 characters): `D0`, transaction code, count, status, qualifier, id, date. */
const RESPONSE_HEADER = /^D0[A-Z0-9]{2}[1-9][AR][\x20-\x7e]{2}[\x20-\x7e]{15}\d{8}$/;

interface Ctx {
  text: string;
  out: RecordScan;
  quotes: QuoteTracker;
}

function push(ctx: Ctx, s0: number, e0: number, category: string, context: string): void {
  const v = elementValue(ctx.text, s0, e0);
  if (!v) return;
  const { start, end, value } = v;
  const canonical = canonicalize(category, value);
  if (canonical === "") return;
  ctx.out.structured.push(candidate(start, end, value, category, canonical, "hl7_pipeline", context));
}

/** The length of separator `k` (0 FS, 1 GS, 2 RS) of `f` at `i`, or 0. */
function sepLen(text: string, i: number, f: Form, k: number): number {
  const s = k === 0 ? f.fs : k === 1 ? f.gs : f.rs;
  if (text.charCodeAt(i) !== s.charCodeAt(0)) return 0;
  const low = f.lower[k];
  for (let j = 1; j < s.length; j++) {
    let c = text.charCodeAt(i + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== low.charCodeAt(j)) return 0;
  }
  return s.length;
}

/** The length of any separator of `f` (or a raw separator byte) at `i`, or 0. */
function anySep(text: string, i: number, f: Form): number {
  const c = text.charCodeAt(i);
  if (c === 0x1c || c === 0x1d || c === 0x1e) return 1;
  if (c !== f.first0 && c !== f.first1 && c !== f.first2) return 0;
  return sepLen(text, i, f, 0) || sepLen(text, i, f, 1) || sepLen(text, i, f, 2);
}

/** A separator of `f` (or a raw one) ending right at `i`: its length, or 0. */
function sepBefore(text: string, i: number, f: Form): number {
  const c = text.charCodeAt(i - 1);
  if (c === 0x1d || c === 0x1e) return 1;
  for (const k of [1, 2]) {
    const s = k === 1 ? f.gs : f.rs;
    if (i - s.length >= 0 && sepLen(text, i - s.length, f, k) === s.length) return s.length;
  }
  return 0;
}

/** The header before `b` (the first segment's separator), if any: pushes its values; returns its start. */
function header(ctx: Ctx, b: number, done: number): number {
  const text = ctx.text;
  if (b - 56 >= done) {
    const h = b - 56;
    if (REQUEST_HEADER.test(text.slice(h, b))) {
      push(ctx, h + 23, h + 38, "NPI", "NCPDP header.201-B1");
      push(ctx, h + 38, h + 46, "DATE", "NCPDP header.401-D1");
      return h;
    }
  }
  if (b - 31 >= done) {
    const h = b - 31;
    if (RESPONSE_HEADER.test(text.slice(h, b))) {
      push(ctx, h + 8, h + 23, "NPI", "NCPDP header.201-B1");
      push(ctx, h + 23, h + 31, "DATE", "NCPDP header.401-D1");
      return h;
    }
  }
  return b;
}

/** Reads one transmission whose first segment's field separator is at `a`; returns its end. */
function transmission(ctx: Ctx, a: number, f: Form, done: number): number {
  const text = ctx.text;
  // Back over the segment and group separators before the first segment, then the header.
  let b = a;
  for (let guard = 0; guard < 4; guard++) {
    // `\\x1e` in a JSON string: the backslash that escapes the spelling's own backslash.
    let e = b;
    while (f.backslash && e > 0 && text.charCodeAt(e - 1) === 92) e--;
    const l = sepBefore(text, e, f);
    if (l === 0) {
      b = e;
      break;
    }
    b = e - l;
  }
  while (f.backslash && b > 0 && text.charCodeAt(b - 1) === 92) b--;
  const start = header(ctx, b, done);
  const quoted = ctx.quotes.at(start);
  let seg = "";
  let cx = "";
  let ez = "";
  let i = a;
  let end = a;
  while (i < text.length) {
    const l = anySep(text, i, f);
    if (l === 0) break;
    i += l;
    // The field: up to the next separator or the end of the transmission.
    const fs = i;
    let stop = false;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        stop = true;
        break;
      }
      if (c === 34 && quoted && isQuote(text, i)) {
        stop = true;
        break;
      }
      if (c === 92 && (quoted || f.backslash)) {
        const n = text.charCodeAt(i + 1);
        if (n === 110 || n === 114) {
          stop = true;
          break;
        }
      }
      if (anySep(text, i, f) > 0) break;
    }
    end = i;
    // A backslash written before a backslash spelling (`\\x1c` in a JSON string) is not the value's.
    let ve = i;
    while (f.backslash && ve > fs + 2 && text.charCodeAt(ve - 1) === 92) ve--;
    // The last field ends where prose begins on the same line (` and then`, ` len=612`): values are
    // upper case, so a space before a lower-case letter ends it.
    if (stop || i >= text.length) {
      for (let k = fs + 2; k + 1 < ve; k++) {
        const n = text.charCodeAt(k + 1);
        if (text.charCodeAt(k) === 32 && n >= 97 && n <= 122) {
          ve = k;
          end = k;
          break;
        }
      }
    }
    if (ve - fs >= 2) {
      const id = text.slice(fs, fs + 2).toUpperCase();
      if (id === "AM") {
        seg = text.slice(fs + 2, fs + 4);
        cx = "";
        ez = "";
      } else field(ctx, id, fs + 2, ve, seg, cx, ez);
      if (id === "CX") cx = text.slice(fs + 2, ve).trim();
      else if (id === "EZ") ez = text.slice(fs + 2, ve).trim();
    }
    if (stop) break;
  }
  ctx.out.segments.push({ start, end });
  return end;
}

/** The policy for one field `id` whose value is `[vs, ve)`. */
function field(ctx: Ctx, id: string, vs: number, ve: number, seg: string, cx: string, ez: string): void {
  const where = `NCPDP AM${seg}.${id}`;
  if (FREE.has(id)) {
    if (ve > vs) ctx.out.free.push({ start: vs, end: ve });
    return;
  }
  let cat: string | undefined;
  if (id === "CY") cat = PATIENT_ID.get(cx) ?? "MRN";
  else if (id === "DB") cat = LICENSE_QUALS.has(ez) ? "LICENSE" : "NPI";
  else cat = FIELDS.get(id);
  if (cat) push(ctx, vs, ve, cat, where);
}

/** The form whose field separator is at `i`. */
function formAt(text: string, i: number): Form | undefined {
  for (const f of FORMS) if (sepLen(text, i, f, 0) > 0) return f;
  return undefined;
}

/**
 * The NCPDP transmissions of `text`.
 *
 * @example
 * ```ts
 * const scan = scanNcpdp("<RS><FS>AM01<FS>C419620304<FS>CAJOHN<FS>CBSMITH");
 * scan.structured.map((c) => [c.context, c.value]);
 * // [["NCPDP AM01.C4", "19620304"], ["NCPDP AM01.CA", "JOHN"], ["NCPDP AM01.CB", "SMITH"]]
 * ```
 */
export function scanNcpdp(text: string): RecordScan {
  const ctx: Ctx = { text, out: { structured: [], free: [], segments: [] }, quotes: new QuoteTracker(text) };
  let done = 0;
  ANCHOR.lastIndex = 0;
  for (let m = ANCHOR.exec(text); m; m = ANCHOR.exec(text)) {
    const a = m.index;
    if (a < done) continue;
    const f = formAt(text, a);
    if (!f) continue;
    const end = transmission(ctx, a, f, done);
    done = end;
    ANCHOR.lastIndex = Math.max(end, a + 1);
  }
  ctx.out.structured.sort((x, y) => x.start - y.start);
  return ctx.out;
}

/** The NCPDP record format (phi/records.ts). */
export const ncpdp: RecordFormat = {
  name: "ncpdp",
  maybe(text: string): boolean {
    return text.indexOf("\x1c") !== -1 ||
      (text.indexOf("AM") !== -1 && /(?:[>\]}\\\u241c]|\\x1c|\\u001c|\\034)AM\d\d/i.test(text));
  },
  scan(text: string): RecordScan | undefined {
    const got = scanNcpdp(text);
    return got.segments.length === 0 ? undefined : got;
  },
};
