/**
 * Builders and seeded generators of X12 005010 interchanges and NCPDP D.0 transmissions, for the
 * tests of phi/x12.ts and phi/ncpdp.ts and for bench/phi_x12.bench.ts. Synthetic people only; the
 * same seed gives the same text.
 */
import { mulberry32, pick } from "./prng.ts";

/** An ISA with padded fixed-width elements, its separators as given. */
export function isa(
  o: { e?: string; rep?: string; comp?: string; ctrl?: string; date?: string } = {},
): string {
  const e = o.e ?? "*";
  return [
    "ISA",
    "00",
    " ".repeat(10),
    "00",
    " ".repeat(10),
    "ZZ",
    "SUBMITTER77    ",
    "ZZ",
    "RECEIVER42     ",
    o.date ?? "240315",
    "1253",
    o.rep ?? "^",
    "00501",
    o.ctrl ?? "000000905",
    "0",
    "P",
    o.comp ?? ":",
  ].join(e);
}

/** An interchange: ISA, the segments (written with `*`), IEA; with other separators if asked. */
export function interchange(segs: string[], o: { e?: string; term?: string; ctrl?: string } = {}): string {
  const e = o.e ?? "*";
  const term = o.term ?? "~";
  const ctrl = o.ctrl ?? "000000905";
  const body = [isa({ e, ctrl }), ...segs.map((s) => s.replaceAll("*", e)), `IEA${e}1${e}${ctrl}`];
  return body.join(term) + term;
}

export const FS = "\x1c", GS = "\x1d", RS = "\x1e";

/** An NCPDP request header: BIN, D0, transaction code, PCN, count, qualifier, provider id, date, software. */
export function requestHeader(
  o: { bin?: string; txn?: string; pcn?: string; spid?: string; dos?: string } = {},
): string {
  return (o.bin ?? "610591") + "D0" + (o.txn ?? "B1") + (o.pcn ?? "ADV").padEnd(10) + "1" + "01" +
    (o.spid ?? "1386942217").padEnd(15) + (o.dos ?? "20240315") + "SWVNDR0001";
}

/** An NCPDP response header: D0, transaction code, count, status, qualifier, provider id, date. */
export function responseHeader(status: "A" | "R", spid = "1386942217", dos = "20240315"): string {
  return "D0B11" + status + "01" + spid.padEnd(15) + dos;
}

/** NCPDP segments (each a list of fields, the first `AMnn`); `|` opens a new transaction (GS). */
export function body(segs: (string[] | "|")[]): string {
  let out = "";
  for (const s of segs) out += s === "|" ? GS : RS + FS + s.join(FS);
  return out;
}

/** The written-out spellings of FS, GS, RS that logs and operators use. */
export const SPELLINGS: [string, string, string][] = [
  ["<FS>", "<GS>", "<RS>"],
  ["<fs>", "<gs>", "<rs>"],
  ["[FS]", "[GS]", "[RS]"],
  ["{FS}", "{GS}", "{RS}"],
  ["<0x1C>", "<0x1D>", "<0x1E>"],
  ["\\x1c", "\\x1d", "\\x1e"],
  ["\\x1C", "\\x1D", "\\x1E"],
  ["\\u001c", "\\u001d", "\\u001e"],
  ["\\034", "\\035", "\\036"],
  ["^\\", "^]", "^^"],
  ["\u241c", "\u241d", "\u241e"],
];

/** `text` with its raw separators written out in one spelling. */
export function spelled(text: string, [fs, gs, rs]: [string, string, string]): string {
  return text.replaceAll(FS, fs).replaceAll(GS, gs).replaceAll(RS, rs);
}

const LAST = ["HALVORSEN", "MBEKI", "OYELARAN", "TRAN-NGUYEN", "DUBOIS", "KASPRZAK", "O'DONNELL", "ZAMORA"];
const FIRST = ["AGNES", "RUFUS", "IMOGEN", "TEODORO", "PRIYA", "CORNELIUS", "WREN", "MATTHIAS"];
const STREET = ["OAK HOLLOW LN", "BRIARCLIFF AVE", "KESTREL WAY", "MILLRACE RD", "SUMMIT TER"];
const CITY = ["FAIRHAVEN", "BRISTOW", "CALDERON", "EASTLAKE", "HOLLIS"];

function digits(rand: () => number, n: number): string {
  let s = String(1 + Math.floor(rand() * 9));
  while (s.length < n) s += String(Math.floor(rand() * 10));
  return s;
}

function dob(rand: () => number): string {
  return `19${digits(rand, 2)}0${1 + Math.floor(rand() * 9)}1${Math.floor(rand() * 9)}`;
}

/** A generated case: the text, the person's values (must be tokenized), facts (must stay). */
export interface Generated {
  text: string;
  values: string[];
  facts: string[];
}

/** A generated 837P or 271 interchange with one person, in a random segment terminator. */
export function generatedX12(seed: number): Generated {
  const rand = mulberry32(seed);
  const last = pick(rand, LAST), first = pick(rand, FIRST);
  const street = `${digits(rand, 3)} ${pick(rand, STREET)}`, city = pick(rand, CITY), zip = digits(rand, 5);
  const birth = dob(rand);
  const member = `M${digits(rand, 9)}`, ssn = digits(rand, 9), acct = `PC${digits(rand, 7)}`;
  const ctrl = digits(rand, 9), st = digits(rand, 4), amount = String(40 + Math.floor(rand() * 900));
  const claim = rand() < 0.5;
  const segs = [
    `GS*${claim ? "HC" : "HB"}*SUBMITTER77*RECEIVER42*20240315*1253*${Number(ctrl)}*X*005010X222A1`,
    `ST*${claim ? "837" : "271"}*${st}*005010X222A1`,
    "HL*1**20*1",
    "NM1*PR*2*ACME HEALTH PLAN*****PI*842610001",
    "HL*2*1*22*0",
    `NM1*IL*1*${last}*${first}****MI*${member}`,
    `N3*${street}`,
    `N4*${city}*OH*${zip}`,
    `DMG*D8*${birth}*U`,
    `REF*SY*${ssn}`,
    ...(claim
      ? [`CLM*${acct}*${amount}***11:B:1*Y*A*Y*Y`, "HI*ABK:J189", "LX*1", `SV1*HC:99213*${amount}*UN*1***1`]
      : [`EB*1*IND*30**PLAN ${amount}`, "MSG*COPAY APPLIES"]),
    `SE*10*${st}`,
    `GE*1*${Number(ctrl)}`,
  ];
  const text = interchange(segs, { ctrl, term: pick(rand, ["~", "~\n", "~\r\n", "\n"]) });
  const values = [last, first, member, street, city, zip, birth, ssn, ...(claim ? [acct] : [])];
  return { text, values, facts: [ctrl, st, amount, "ACME HEALTH PLAN", "842610001"] };
}

/** A generated B1 claim with one person, raw or in a random spelling of the separators. */
export function generatedNcpdp(seed: number): Generated {
  const rand = mulberry32(seed);
  const last = pick(rand, LAST), first = pick(rand, FIRST);
  const birth = dob(rand);
  const card = `C${digits(rand, 10)}`, rx = digits(rand, 12), npi = digits(rand, 10), zip = digits(rand, 5);
  const ndc = digits(rand, 11),
    qty = String(1000 * (1 + Math.floor(rand() * 90))),
    group = `G${digits(rand, 5)}`;
  const raw = requestHeader({ spid: npi }) + body([
    ["AM04", `C2${card}`, `C1${group}`, "C301"],
    ["AM01", `C4${birth}`, "C52", `CA${first}`, `CB${last}`, `CP${zip}`],
    "|",
    ["AM07", "EM1", `D2${rx}`, "E103", `D7${ndc}`, `E7${qty}`, "D530", "D80"],
    ["AM11", "D91500{", "DC150{", "DQ1650{", "DU1650{", "DN01"],
  ]);
  const sp: [string, string, string] = rand() < 0.5 ? [FS, GS, RS] : pick(rand, SPELLINGS);
  return {
    text: spelled(raw, sp),
    values: [last, first, birth, card, rx, npi, zip],
    facts: [ndc, group, qty],
  };
}
