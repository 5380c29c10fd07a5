/**
 * X12 005010 health-care transactions (837P/I, 835, 270/271, 276/277, 834, 278) read by structure
 * (issue #23, item 1): a `RecordFormat` named `x12`.
 *
 * Where X12 is found: every interchange (`ISA`) anywhere in a text, after a log prefix, inside a
 * JSON string (ending at the closing quote; `\r\n` written out after a terminator skipped), several
 * in one text, segments one per line with CRLF. The separators come from the ISA header: the element
 * separator is the character after `ISA` (`*`, `|`, anything), the repetition separator ISA11 (when
 * it is not a letter or digit, as `U` is in 4010), the component separator ISA16 and the segment
 * terminator the character after ISA16 (`~`, or a line break, real or written out as `\n`); a line
 * break or written-out `\r\n` after the terminator is skipped. An interchange ends after `IEA`, or
 * at the first thing that is not a segment. Without an ISA, a run of segments with known X12 ids
 * (`NM1*`, `CLM*`, `DMG*`, ... at a line start or after `~`, a quote, white space) using `*` and `~`
 * (or a line end) is read the same way when it clearly is X12: two segments or more, one segment
 * ended by `~`, or one strong segment (`NM1`, `DMG`, `CLM`, `CLP`, `INS`, `SBR`, `REF`, ...) with
 * three elements or more. In such a fragment the segments before the first `NM1`/`N1` are taken as
 * the person's (an address pasted alone is tokenized), unless the fragment continues the one just
 * before it (segments as the strings of a JSON array), whose entity it keeps.
 *
 * What is tokenized (tier `hl7_pipeline`, context `X12 <segment>[*<qualifier>].<element>`):
 *
 * | Segment | Elements | Category |
 * |---|---|---|
 * | NM1, person (NM102 = 1) | NM103–NM105 (last, first, middle) as one value; NM106 prefix and NM107 suffix stay | NAME |
 * | NM1, any entity | NM109 by NM108: `34` SSN · `MI` `HN` `N` `C` member ids · `II` unique health id | SSN · MEMBER · MRN |
 * | NM1, person (NM102 = 1) | NM109 when NM108 is `XX` | NPI |
 * | NM1, a patient role (see below) | NM109 with any other qualifier | MRN |
 * | N2, N3, N4 after a patient role's NM1 | N201/N202 names; N301, N302 street; N401 city, N403 ZIP, N406 county when N405 is `CY` (N402 state, N404 country, N407 subdivision stay) | NAME · ADDRESS |
 * | PER after a patient role's NM1 (not PER*CX/BL) | PER02 contact name; PER04/06/08 by PER03/05/07: `EM` e-mail, `UR` URL, any other (TE, FX, CP, HP, WP, EX) phone | NAME · EMAIL · URL · PHONE |
 * | DMG | DMG02 date of birth | DOB |
 * | REF | REF02 by REF01: `SY` SSN · `EA` `ABB` `4A` `28` `XZ` MRN · `EJ` ACCOUNT · `0B` LICENSE · `1L` `0F` `6P` `IG` `1W` `23` `3H` `49` `F6` `HJ` `NQ` `Q4` `GH` MEMBER | as listed |
 * | CLM, CLP | CLM01, CLP01 patient control number | ACCOUNT |
 * | SBR | SBR03 insured group or policy number | MEMBER |
 * | DTP, DTM | DTP03 / DTM02, unless the qualifier is a plan or transaction date (below) | DATE |
 * | INS, PAT | INS12, PAT06 date of death | DATE |
 * | CTX (999) | CTX01 `CLM01:<patient control number>` | ACCOUNT |
 * | MSG, NTE, K3, STC, IK4 | MSG01, NTE02, K301, STC12 free-form text; IK404 (999: a copy of the bad element) | free (the tiers read it) |
 *
 * Patient roles (NM101): `IL` insured/subscriber/member, `QC` patient, `03` dependent, `QD`
 * responsible party, `S1` parent, `S3` custodial parent, `E1` person legally responsible, `EXS`
 * ex-spouse, `GD` guardian, `J6` power of attorney, `TZ` significant other, `70` prior incorrect
 * insured, `74` corrected insured, `31` postal mailing address, `GB` other insured. Their names,
 * addresses, contact numbers and ids are the person's (an organization in such a role, NM102 = 2,
 * keeps its name; its member ids are still tokenized).
 *
 * Decisions (documented here, tested in tests/phi/x12.test.ts):
 * - A person's NM103–NM105 is one NAME value (contiguous in the text); its canonical form reads the
 *   element separator as a name separator (`QUILLFEATHER*MARGARET*J` → `j margaret quillfeather`),
 *   so the same name in later prose (`Margaret Quillfeather`) is the known value of tier 4.
 * - Providers: an individual's name (NM102 = 1: rendering, referring, attending, ...) is a NAME and
 *   its NPI (`XX`) an NPI, as the HL7 policy does for XCN. Organizations (NM102 = 2: billing
 *   provider, payer, submitter, receiver, facility) keep their names and ids (NPI, `PI` payer id,
 *   `24`/`FI` tax id) in clear, and so do provider, payer and facility addresses and contact numbers
 *   (business data the operator routes by; not a patient's).
 * - REF: prior authorization `G1`, referral `9F`, payer claim and clearinghouse trace numbers (`1K`,
 *   `D9`, `F8`), provider secondary ids (`G2`, `1G`, `LU`), plan and network ids stay: they are
 *   transaction references an operator traces by, assigned to a claim, not to a person. `0B` (state
 *   licence, usually a provider's) is a LICENSE. `XZ` (pharmacy prescription number) is an MRN, as
 *   NCPDP's 402-D2 is (phi/ncpdp.ts).
 * - Dates: every DTP/DTM date is a DATE except plan, coverage and transaction dates: `007`
 *   effective, `009` process, `036` expiration, `090`/`091` report start/end, `097` transaction
 *   creation, `102` issue, `152` effective date of change, `291` plan, `292` benefit, `303`
 *   maintenance effective, `307` eligibility, `346`/`347` plan begin/end, `348`/`349` benefit
 *   begin/end, `356`/`357` eligibility begin/end, `368` submittal, `405` production, `543` last
 *   premium paid. Service (`472`), admission and discharge (`435`, `096`), statement (`434`),
 *   onset, accident, received (`050`), paid (`573`) and the rest are tied to the patient. A date
 *   with its time (format `DT`, `CCYYMMDDHHMM`) is its own value (its canonical form keeps the time),
 *   so the same day written `D8` elsewhere in the claim gets another token and each comes back
 *   exactly; a range (`RD8`) is one value.
 * - Kept in clear: ISA/GS/ST/BHT/SE/GE/IEA (sender and receiver ids, dates, control numbers), HL,
 *   codes, amounts, quantities, CLP07 (payer claim control number), TRN trace numbers, BPR, N1
 *   (organizations), PRV taxonomy codes, SBR04 group name, INS codes.
 */
import { candidate } from "./candidate.ts";
import { canonicalize } from "./normalize.ts";
import type { RecordFormat, RecordScan } from "./records.ts";
import { elementValue } from "./_element.ts";
import { isQuote, QuoteTracker } from "./_quoted.ts";

/** Separators of one interchange (or fragment). */
interface Seps {
  element: string;
  component: string;
  /** Empty when the interchange has none. */
  repetition: string;
  /** The terminator character, or "" when segments end at a line break (`nl`). */
  term: string;
  /** Segments end at a line break written out as `\n` / `\r` (a JSON string). */
  writtenNl: boolean;
}

interface Ctx {
  text: string;
  out: RecordScan;
  /** The last NM1/N1 was a patient role (its N3/N4/PER are the person's). */
  personal: boolean;
  quotes: QuoteTracker;
}

/** NM101 entity codes whose data is the person's (patient, subscriber, relatives, guardians). */
const PATIENT_ROLES = new Set([
  "IL",
  "QC",
  "03",
  "QD",
  "S1",
  "S3",
  "E1",
  "EXS",
  "GD",
  "J6",
  "TZ",
  "70",
  "74",
  "31",
  "GB",
]);

/** NM108 qualifiers whose NM109 is a health-plan member id (any entity). */
const MEMBER_QUALS = new Set(["MI", "HN", "N", "C"]);

/** REF01 qualifier → category of REF02. */
const REF_CATEGORY = new Map<string, string>(Object.entries({
  SY: "SSN",
  EA: "MRN",
  ABB: "MRN",
  "4A": "MRN",
  "28": "MRN",
  XZ: "MRN",
  EJ: "ACCOUNT",
  "0B": "LICENSE",
  "1L": "MEMBER",
  "0F": "MEMBER",
  "6P": "MEMBER",
  IG: "MEMBER",
  "1W": "MEMBER",
  "23": "MEMBER",
  "3H": "MEMBER",
  "49": "MEMBER",
  F6: "MEMBER",
  HJ: "MEMBER",
  NQ: "MEMBER",
  Q4: "MEMBER",
  GH: "MEMBER",
}));

/** DTP01/DTM01 qualifiers of plan, coverage and transaction dates: these stay in clear. */
const KEPT_DATES = new Set([
  "007",
  "009",
  "036",
  "090",
  "091",
  "097",
  "102",
  "152",
  "291",
  "292",
  "303",
  "307",
  "346",
  "347",
  "348",
  "349",
  "356",
  "357",
  "368",
  "405",
  "543",
]);

/** Segment ids that keep the entity context of the NM1 before them. */
const ENTITY_TAIL = new Set(["N2", "N3", "N4", "PER", "REF", "DMG", "PRV"]);

/** X12 segment ids a fragment without ISA may be made of. */
const KNOWN_IDS = new Set(
  ("ISA IEA GS GE ST SE BHT BPR TRN CUR REF DTM DTP N1 N2 N3 N4 PER HL PRV SBR PAT NM1 DMG INS CLM " +
    "CL1 PWK CN1 AMT K3 NTE CR1 CR2 CR3 CR6 CR7 CRC HI HCP LX SV1 SV2 SV3 SV5 TOO LIN CTP MEA PS1 " +
    "SVD CAS OI MOA MIA LQ FRM CLP SVC PLB TS3 TS2 QTY EQ EB III MSG AAA HSD UM HCR STC BGN HD IDC " +
    "LUI COB LS LE ICM HLH DSB RDM ACT ENT N9 RMR AK1 AK2 AK9 IK3 IK4 IK5 CTX TA1").split(" "),
);
/** Ids one segment of which is enough for a fragment (with `~` or three elements). */
const STRONG_IDS = new Set(["NM1", "DMG", "CLM", "CLP", "INS", "SBR", "REF", "PAT", "N3", "N4", "ISA", "ST"]);

const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isAlnum = (c: number) => isUpper(c) || isDigit(c) || (c >= 97 && c <= 122);

// Element start offsets of the current segment (scratch; the scan is synchronous), plus the end + 1.
const AT: number[] = [];

/** Fills `AT` with the element starts of segment `[s, e)`; returns the element count (id = 0). */
function elements(text: string, s: number, e: number, sep: string): number {
  let n = 0;
  AT[n++] = s;
  let p = text.indexOf(sep, s);
  while (p !== -1 && p < e) {
    AT[n++] = p + 1;
    p = text.indexOf(sep, p + 1);
  }
  AT[n] = e + 1;
  return n;
}

/** Element `k` of the current segment as text ("" when absent). */
function el(text: string, n: number, k: number): string {
  return k < n ? text.slice(AT[k], AT[k + 1] - 1) : "";
}

function push(ctx: Ctx, s0: number, e0: number, category: string, context: string, seps?: Seps): void {
  const v = elementValue(ctx.text, s0, e0);
  if (!v) return;
  const { start, end, value } = v;
  let plain = value;
  if (seps && category === "NAME" && plain.indexOf(seps.element) !== -1) {
    plain = plain.split(seps.element).join("^");
  }
  let canonical = plain.trim() === "" ? "" : canonicalize(category, plain);
  // A date with its time (DTP format DT, `CCYYMMDDHHMM`) keeps the time in its canonical form: the
  // same day written as a date (`D8`) elsewhere in the claim is another value, so each spelling
  // comes back exactly.
  if (category === "DATE" && /^\d{12}$/.test(plain)) {
    canonical = `${canonicalize(category, plain)} ${plain.slice(8)}`;
  }
  if (canonical === "") return;
  ctx.out.structured.push(candidate(start, end, value, category, canonical, "hl7_pipeline", context));
}

/** Pushes element `k` of the current segment when present. */
function pushEl(ctx: Ctx, n: number, k: number, category: string, context: string): void {
  if (k < n) push(ctx, AT[k], AT[k + 1] - 1, category, context);
}

/** Applies the policy to one segment `[s, e)` whose id ends at `idEnd`. */
function segment(ctx: Ctx, s: number, e: number, seps: Seps): void {
  const text = ctx.text;
  ctx.out.segments.push({ start: s, end: e });
  const n = elements(text, s, e, seps.element);
  const id = text.slice(s, n < 2 ? e : AT[1] - 1);
  if (!ENTITY_TAIL.has(id) && id !== "NM1") ctx.personal = false;
  switch (id) {
    case "NM1": {
      const role = el(text, n, 1);
      const type = el(text, n, 2);
      const patient = PATIENT_ROLES.has(role);
      ctx.personal = patient && type !== "2";
      const where = `X12 NM1*${role}`;
      if (type === "1" && n > 3) {
        // NM103–NM105 (last, first, middle): one value from NM103 to the last non-empty of them.
        let last = -1;
        for (let k = 3; k <= 5 && k < n; k++) if (AT[k + 1] - 1 > AT[k]) last = k;
        if (last !== -1) push(ctx, AT[3], AT[last + 1] - 1, "NAME", `${where}.03`, seps);
      }
      const qual = el(text, n, 8);
      if (n > 9 && qual !== "") {
        let cat: string | undefined;
        if (qual === "34") cat = "SSN";
        else if (MEMBER_QUALS.has(qual)) cat = "MEMBER";
        else if (qual === "II") cat = "MRN";
        else if (qual === "XX") cat = type === "1" ? "NPI" : undefined;
        else if (patient) cat = "MRN";
        if (cat) pushEl(ctx, n, 9, cat, `${where}.09`);
      }
      break;
    }
    case "N1":
      ctx.personal = false;
      break;
    case "N2":
      if (ctx.personal) {
        pushEl(ctx, n, 1, "NAME", "X12 N2.01");
        pushEl(ctx, n, 2, "NAME", "X12 N2.02");
      }
      break;
    case "N3":
      if (ctx.personal) {
        pushEl(ctx, n, 1, "ADDRESS", "X12 N3.01");
        pushEl(ctx, n, 2, "ADDRESS", "X12 N3.02");
      }
      break;
    case "N4":
      if (ctx.personal) {
        pushEl(ctx, n, 1, "ADDRESS", "X12 N4.01");
        pushEl(ctx, n, 3, "ADDRESS", "X12 N4.03");
        // N406 is a county when N405 says so (`CY`, a FIPS county code in 834 enrollments).
        if (el(text, n, 5) === "CY") pushEl(ctx, n, 6, "ADDRESS", "X12 N4*CY.06");
      }
      break;
    case "PER": {
      const func = el(text, n, 1);
      if (ctx.personal && func !== "CX" && func !== "BL") {
        pushEl(ctx, n, 2, "NAME", `X12 PER*${func}.02`);
        for (let k = 3; k + 1 < n && k <= 7; k += 2) {
          const q = el(text, n, k);
          if (q === "") continue;
          const cat = q === "EM" ? "EMAIL" : q === "UR" ? "URL" : "PHONE";
          pushEl(ctx, n, k + 1, cat, `X12 PER*${q}.${String(k + 1).padStart(2, "0")}`);
        }
      }
      break;
    }
    case "DMG":
      pushEl(ctx, n, 2, "DOB", "X12 DMG.02");
      break;
    case "REF": {
      const q = el(text, n, 1);
      const cat = REF_CATEGORY.get(q);
      if (cat) pushEl(ctx, n, 2, cat, `X12 REF*${q}.02`);
      break;
    }
    case "CLM":
      pushEl(ctx, n, 1, "ACCOUNT", "X12 CLM.01");
      break;
    case "CLP":
      pushEl(ctx, n, 1, "ACCOUNT", "X12 CLP.01");
      break;
    case "SBR":
      pushEl(ctx, n, 3, "MEMBER", "X12 SBR.03");
      break;
    case "DTP": {
      const q = el(text, n, 1);
      if (!KEPT_DATES.has(q)) pushEl(ctx, n, 3, "DATE", `X12 DTP*${q}.03`);
      break;
    }
    case "DTM": {
      const q = el(text, n, 1);
      if (!KEPT_DATES.has(q)) pushEl(ctx, n, 2, "DATE", `X12 DTM*${q}.02`);
      break;
    }
    case "INS":
      pushEl(ctx, n, 12, "DATE", "X12 INS.12");
      break;
    case "PAT":
      pushEl(ctx, n, 6, "DATE", "X12 PAT.06");
      break;
    case "MSG":
      freeEl(ctx, n, 1);
      break;
    case "NTE":
      freeEl(ctx, n, 2);
      break;
    case "K3":
      freeEl(ctx, n, 1);
      break;
    case "STC":
      freeEl(ctx, n, 12);
      break;
    case "IK4":
      // 999: a copy of the bad data element (it may be a name, a date of birth, an id).
      freeEl(ctx, n, 4);
      break;
    case "CTX": {
      // 999: the business unit identifier of the claim in error (`CTX*CLM01:PCN7781-22`).
      if (n > 1 && text.startsWith(`CLM01${seps.component}`, AT[1])) {
        push(ctx, AT[1] + 5 + seps.component.length, AT[2] - 1, "ACCOUNT", "X12 CTX*CLM01.01");
      }
      break;
    }
  }
}

function freeEl(ctx: Ctx, n: number, k: number): void {
  if (k < n && AT[k + 1] - 1 > AT[k]) ctx.out.free.push({ start: AT[k], end: AT[k + 1] - 1 });
}

/** A written-out line break (`\n`, `\r`) at `i`. */
function writtenBreak(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 92) return false;
  const n = text.charCodeAt(i + 1);
  return n === 110 || n === 114;
}

/**
 * Where the segment starting at `s` ends: at the terminator, a line break, an unescaped quote (in a
 * quoted string) or a written-out line break (when segments end there). Returns the end and whether
 * the terminator (or the line break that terminates) was found.
 */
function segmentEnd(text: string, s: number, seps: Seps, quoted: boolean): [number, boolean] {
  const t = seps.term === "" ? -1 : seps.term.charCodeAt(0);
  for (let i = s; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === t) return [i, true];
    if (c === 10 || c === 13) return [i, t === -1 && !seps.writtenNl];
    if (c === 34 && quoted && isQuote(text, i)) return [i, false];
    if (c === 92 && (quoted || seps.writtenNl) && writtenBreak(text, i)) return [i, seps.writtenNl];
  }
  return [text.length, false];
}

/** Skips the terminator at `i` (if any) and the line breaks after it (real or written out). */
function skipBreaks(text: string, i: number, quoted: boolean): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) i++;
    else if ((quoted || c === 92) && writtenBreak(text, i)) i += 2;
    else return i;
  }
}

/** A segment id (`[A-Z][A-Z0-9]{1,2}`) at `i` followed by the element separator (or terminator). */
function idAt(text: string, i: number, seps: Seps): number {
  if (!isUpper(text.charCodeAt(i))) return 0;
  let k = 1;
  while (k < 3 && (isUpper(text.charCodeAt(i + k)) || isDigit(text.charCodeAt(i + k)))) k++;
  if (k < 2) return 0;
  const next = text[i + k];
  return next === seps.element || (seps.term !== "" && next === seps.term) ? k : 0;
}

/** The separators of an ISA at `p`, and where its element 16 ends; undefined when not an ISA. */
function isaAt(text: string, p: number): { seps: Seps; termAt: number } | undefined {
  const sep = text[p + 3];
  if (sep === undefined) return undefined;
  const sc = sep.charCodeAt(0);
  if (isAlnum(sc) || sc <= 32) return undefined;
  // The separators after ISA01 to ISA15, within a short stretch of one line.
  let q = p + 3;
  let rep = "";
  for (let k = 1; k <= 15; k++) {
    const nx = text.indexOf(sep, q + 1);
    if (nx === -1 || nx - p > 200) return undefined;
    for (let i = q + 1; i < nx; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) return undefined;
    }
    if (k === 1 && nx - q - 1 !== 2) return undefined; // ISA01 is two characters
    if (k === 11) rep = text.slice(q + 1, nx);
    q = nx;
  }
  const component = text[q + 1];
  if (component === undefined) return undefined;
  const cc = component.charCodeAt(0);
  if (cc === 10 || cc === 13) return undefined;
  const tc = text.charCodeAt(q + 2);
  let term = "";
  let writtenNl = false;
  if (tc === 10 || tc === 13 || Number.isNaN(tc)) term = "";
  else if (writtenBreak(text, q + 2)) writtenNl = true;
  else if (isAlnum(tc) || tc === 32) return undefined;
  else term = text[q + 2];
  const repetition = rep.length === 1 && !isAlnum(rep.charCodeAt(0)) && rep !== sep && rep !== component
    ? rep
    : "";
  return { seps: { element: sep, component, repetition, term, writtenNl }, termAt: q + 2 };
}

/** Reads segments from `s` with `seps` until IEA, the end, or something that is not a segment. */
function run(ctx: Ctx, s: number, seps: Seps, quoted: boolean, fragment: boolean): number {
  const text = ctx.text;
  for (;;) {
    const k = idAt(text, s, seps);
    if (k === 0) return s;
    if (fragment && !KNOWN_IDS.has(text.slice(s, s + k))) return s;
    const [e, terminated] = segmentEnd(text, s, seps, quoted);
    segment(ctx, s, e, seps);
    if (text.startsWith("IEA", s) && k === 3) return e + (terminated && seps.term !== "" ? 1 : 0);
    if (!terminated) {
      // A line break ends a `~` segment early (a line per segment without terminators is read on).
      if (seps.term !== "" && e < text.length && (text.charCodeAt(e) === 10 || text.charCodeAt(e) === 13)) {
        const next = skipBreaks(text, e, quoted);
        if (idAt(text, next, seps) === 0) return e;
        s = next;
        continue;
      }
      return e;
    }
    s = skipBreaks(text, seps.term !== "" ? e + 1 : e, quoted);
  }
}

const DEFAULT_SEPS: Seps = { element: "*", component: ":", repetition: "^", term: "~", writtenNl: false };

/** A known segment id followed by `*`, not inside a word, not right after a `*` (a fragment start). */
const FRAGMENT_START = /(?<![A-Za-z0-9*])([A-Z][A-Z0-9]{1,2})\*/g;

/**
 * Fragment acceptance: the run from `s` holds two segments or more, or one strong segment ended by
 * `~` or with three elements or more.
 */
function clearlyX12(text: string, s: number, quoted: boolean): boolean {
  const seps = DEFAULT_SEPS;
  const k = idAt(text, s, seps);
  const id = text.slice(s, s + k);
  const [e, terminated] = segmentEnd(text, s, seps, quoted);
  const next = terminated ? skipBreaks(text, e + 1, quoted) : skipBreaks(text, e, quoted);
  const k2 = idAt(text, next, seps);
  if (k2 > 0 && KNOWN_IDS.has(text.slice(next, next + k2)) && next > e) return true;
  // A known segment ended by `~` (one line of an array of segments, `["NM1*...~", "N3*...~"]`).
  if (terminated) return true;
  if (!STRONG_IDS.has(id)) return false;
  let stars = 0;
  for (let i = s; i < e; i++) if (text.charCodeAt(i) === 42) stars++;
  return stars >= 3;
}

/** Only a few quotes, commas, brackets and white space between a run ending at `end` and `s`. */
function continues(text: string, end: number, s: number): boolean {
  if (end < 0 || s - end > 12) return false;
  for (let i = end; i < s; i++) {
    const c = text.charCodeAt(i);
    if (isAlnum(c)) return false;
  }
  return true;
}

/**
 * The X12 interchanges and fragments of `text`.
 *
 * @example
 * ```ts
 * const scan = scanX12("NM1*IL*1*DOE*JANE****MI*W123456789~DMG*D8*19800101*F~");
 * scan.structured.map((c) => [c.context, c.value]);
 * // [["X12 NM1*IL.03", "DOE*JANE"], ["X12 NM1*IL.09", "W123456789"], ["X12 DMG.02", "19800101"]]
 * ```
 */
export function scanX12(text: string): RecordScan {
  const ctx: Ctx = {
    text,
    out: { structured: [], free: [], segments: [] },
    personal: false,
    quotes: new QuoteTracker(text),
  };
  let done = 0; // text before this offset belongs to a run already read
  const runs: number[] = []; // start, end of each interchange read
  // Interchanges first.
  for (let p = text.indexOf("ISA"); p !== -1; p = text.indexOf("ISA", p + 3)) {
    if (p < done) continue;
    if (p > 0 && isAlnum(text.charCodeAt(p - 1))) continue;
    const isa = isaAt(text, p);
    if (!isa) continue;
    ctx.personal = false;
    done = run(ctx, p, isa.seps, ctx.quotes.at(p), false);
    runs.push(p, done);
  }
  // Fragments without ISA, outside the interchanges.
  let ri = 0;
  let lastEnd = -1;
  if (text.indexOf("*") !== -1) {
    FRAGMENT_START.lastIndex = 0;
    for (let m = FRAGMENT_START.exec(text); m; m = FRAGMENT_START.exec(text)) {
      const s = m.index;
      while (ri < runs.length && runs[ri + 1] <= s) ri += 2;
      if (ri < runs.length && runs[ri] <= s) {
        FRAGMENT_START.lastIndex = runs[ri + 1];
        continue;
      }
      if (!KNOWN_IDS.has(m[1])) continue;
      const quoted = ctx.quotes.at(s);
      if (!clearlyX12(text, s, quoted)) continue;
      // Until the first NM1/N1 a pasted address is the person's; a fragment that continues the one
      // before it (only quotes, commas, white space between: segments as strings of an array)
      // keeps its entity.
      if (!continues(text, lastEnd, s)) ctx.personal = true;
      const end = run(ctx, s, DEFAULT_SEPS, quoted, true);
      lastEnd = end;
      FRAGMENT_START.lastIndex = Math.max(end, s + 1);
    }
  }
  ctx.out.segments.sort((a, b) => a.start - b.start);
  ctx.out.structured.sort((a, b) => a.start - b.start);
  ctx.out.free.sort((a, b) => a.start - b.start);
  return ctx.out;
}

/** A fragment hint: a segment id that only X12 writes, followed by `*`. */
const HINT = /(?:NM1|CLM|CLP|DMG|INS|SBR|BHT|REF|DTP|N3|N4|PER|HL|GS|ST)\*/;

/** The X12 record format (phi/records.ts). */
export const x12: RecordFormat = {
  name: "x12",
  maybe(text: string): boolean {
    return text.indexOf("ISA") !== -1 || (text.indexOf("*") !== -1 && HINT.test(text));
  },
  scan(text: string): RecordScan | undefined {
    const got = scanX12(text);
    return got.segments.length === 0 ? undefined : got;
  },
  overrides(text: string): boolean {
    for (let p = text.indexOf("ISA"); p !== -1; p = text.indexOf("ISA", p + 3)) {
      if (isaAt(text, p) !== undefined) return true;
    }
    return false;
  },
};
