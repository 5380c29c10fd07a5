/**
 * Synthetic PHI corpora for the PHI tests and benchmarks (all values invented; no real person).
 *
 * - `hl7Corpus`: ADT^A01/A04/A08, ORU^R01, SIU^S12 and DFT^P03 messages with PHI at known field
 *   positions (structured) and PHI inside their free-text fields (OBX-5 TX, NTE-3, Z-segments).
 * - `notesCorpus`: free-text notes with tier-1 and tier-2 PHI at known places.
 * - `toolOutputCorpus`: text shaped like tool output (paths, versions, ports, timestamps, ISO dates,
 *   field references, JSON keys, fenced code, status codes, existing tokens) in which nothing may be
 *   tokenized.
 *
 * Every PHI value a generator places is recorded with its category (and field path or tier), and
 * values are unique across one generator instance (counters, not chance), so recall can be measured
 * by absence and a round trip is exact.
 */
import { mulberry32 } from "./prng.ts";

/** Deterministic PRNG (the shared mulberry32 of tests/support/prng.ts). */
export const rng = mulberry32;

const LAST = [
  "ABERNATHY",
  "BALDWIN",
  "CASTELLANO",
  "DRISCOLL",
  "ELLINGTON",
  "FAIRWEATHER",
  "GALLAGHER",
  "HOLLOWAY",
  "IVANOVA",
  "JABLONSKI",
  "KOWALCZYK",
  "LINDQVIST",
  "MONTGOMERY",
  "NAKAMURA",
  "OKONKWO",
  "PEMBERTON",
  "QUINTERO",
  "ROSENBERG",
  "STRICKLAND",
  "THORNBURY",
  "UNDERHILL",
  "VANDERMEER",
  "WHITFIELD",
  "YAMAMOTO",
  "ZIMMERMANN",
];
const FIRST = [
  "ADELINE",
  "BARNABY",
  "CORDELIA",
  "DESMOND",
  "EVANGELINE",
  "FITZGERALD",
  "GWENDOLYN",
  "HORATIO",
  "ISADORA",
  "JEREMIAH",
  "KATARINA",
  "LEOPOLD",
  "MARGUERITE",
  "NATHANIEL",
  "OPHELIA",
  "PERCIVAL",
  "ROSALIND",
  "SEBASTIAN",
  "THEODORA",
  "VALENTINA",
];
const STREETS = ["ELMWOOD", "BIRCHLAND", "CEDARCREST", "MAPLEHURST", "OAKRIDGE", "PINEHAVEN", "WILLOWBROOK"];
const CITIES = ["SPRINGDALE", "RIVERTON", "FAIRHAVEN", "MILLBROOK", "ASHFORD", "BRIDGEPORT", "CLAYMONT"];
const DOMAINS = ["example.org", "mail.example.com", "example.net"];

/** A placed PHI value. */
export interface PlacedPhi {
  value: string;
  category: string;
  /** Field path (HL7) or the tier that must find it (free text). */
  where: string;
}

export interface GeneratedText {
  text: string;
  phi: PlacedPhi[];
}

/** Unique value factories over one PRNG. */
export class PhiFactory {
  readonly rand: () => number;
  #n = 0;
  #names = 0;
  constructor(seed = 1) {
    this.rand = rng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)];
  }
  /** A counter-based number with `digits` digits, never starting with 1 (no epoch-seconds shape). */
  uniqueDigits(digits: number): string {
    const n = ++this.#n;
    const body = String(n * 7919 + this.int(0, 7)).padStart(digits - 1, "0").slice(-(digits - 1));
    return String(this.int(2, 9)) + body;
  }
  mrn(): string {
    return this.uniqueDigits(this.int(7, 9));
  }
  ssn(): string {
    const d = this.uniqueDigits(9);
    return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
  }
  /** A 10-digit NANP phone in one of the formatted shapes. */
  phone(style = this.int(0, 3)): string {
    const d = this.uniqueDigits(10);
    const a = `${this.int(2, 9)}${d.slice(1, 3)}`,
      b = `${this.int(2, 9)}${d.slice(4, 6)}`,
      c = d.slice(6, 10);
    switch (style) {
      case 0:
        return `(${a}) ${b}-${c}`;
      case 1:
        return `${a}-${b}-${c}`;
      case 2:
        return `${a}.${b}.${c}`;
      default:
        return `+1 ${a}-${b}-${c}`;
    }
  }
  /** A date of birth (unique day), as parts. */
  dob(): { y: number; m: number; d: number } {
    const n = ++this.#n;
    const base = Date.UTC(1930, 0, 1) + (n * 37 % 30000) * 86400000;
    const t = new Date(base);
    return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
  }
  /** A person with a unique name (last names get a numeric-free suffix letter pair when reused). */
  person(): { last: string; first: string; middle: string } {
    const n = this.#names++;
    const last = LAST[n % LAST.length] +
      (n >= LAST.length ? String.fromCharCode(65 + (n / LAST.length | 0) % 26) + "SON" : "");
    const first = FIRST[(n * 7) % FIRST.length];
    const middle = String.fromCharCode(65 + (n % 26));
    return { last, first, middle };
  }
  email(p: { last: string; first: string }): string {
    return `${p.first.toLowerCase()}.${p.last.toLowerCase()}${++this.#n}@${this.pick(DOMAINS)}`;
  }
  npi(): string {
    return this.uniqueDigits(10);
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const hl7Date = (d: { y: number; m: number; d: number }) => `${d.y}${pad(d.m)}${pad(d.d)}`;

/** One synthetic HL7 message of `kind`, with PHI recorded by field path. */
export function hl7Message(
  f: PhiFactory,
  kind: "ADT" | "ORU" | "SIU" | "DFT",
  seq: number,
  sep = "\r",
): GeneratedText {
  const phi: PlacedPhi[] = [];
  const put = (
    value: string,
    category: string,
    where: string,
  ) => (phi.push({ value, category, where }), value);
  const p = f.person();
  const mrn = put(f.mrn(), "MRN", "PID.3");
  const alt = put(f.mrn(), "MRN", "PID.3[2]");
  const name = put(`${p.last}^${p.first}^${p.middle}`, "NAME", "PID.5");
  const mother = put(`${f.person().last}^${f.pick(FIRST)}`, "NAME", "PID.6");
  const dob = f.dob();
  const dobText = put(hl7Date(dob), "DOB", "PID.7");
  const street = put(
    `${f.int(10, 9999)} ${f.pick(STREETS)} ${f.pick(["ST", "AVE", "RD", "LN"])}`,
    "ADDRESS",
    "PID.11.1",
  );
  const city = put(f.pick(CITIES), "ADDRESS", "PID.11.3");
  const zip = put(f.uniqueDigits(5), "ADDRESS", "PID.11.5");
  const homePhone = put(f.phone(0).replace(" ", ""), "PHONE", "PID.13.1");
  const email = put(f.email(p), "EMAIL", "PID.13.4");
  const workPhone = put(f.phone(1), "PHONE", "PID.14.1");
  const acct = put(`A${f.mrn()}`, "MRN", "PID.18");
  const ssn = put(f.ssn(), "SSN", "PID.19");
  const dl = put(`S${f.uniqueDigits(8)}`, "MRN", "PID.20");
  const doc = f.person();
  const docId = put(f.npi(), "NPI", "PV1.7.1");
  const docName = put(`${doc.last}^${doc.first}`, "NAME", "PV1.7.2");
  const visit = put(`V${f.mrn()}`, "MRN", "PV1.19");
  const ts = `2024${pad(f.int(1, 12))}${pad(f.int(1, 28))}${pad(f.int(0, 23))}${pad(f.int(0, 59))}00`;
  const trigger = { ADT: f.pick(["A01", "A04", "A08"]), ORU: "R01", SIU: "S12", DFT: "P03" }[kind];
  const segs: string[] = [
    `MSH|^~\\&|EPICADT|MAINHOSP|CLOVERLEAF|LAB|${ts}||${kind}^${trigger}|MSG${pad(seq, 6)}|P|2.5.1`,
    `EVN|${trigger}|${ts}`,
    `PID|1||${mrn}^^^MAINHOSP^MR~${alt}^^^STATE^PI||${name}^^MR^L|${mother}|${dobText}|${
      f.pick(["F", "M"])
    }||2106-3|${street}^^${city}^IL^${zip}^USA^H||${homePhone}^PRN^PH^${email}|${workPhone}^WPN^PH||S||${acct}|${ssn}|${dl}^IL^20300101`,
    `PV1|1|${
      f.pick(["I", "O", "E"])
    }|4W^401^A^MAINHOSP||||${docId}^${docName}^^^DR^^^NPI|||MED||||1|||||${visit}`,
  ];
  if (kind === "ADT" || kind === "DFT") {
    const nk = f.person();
    const nkName = put(`${nk.last}^${nk.first}`, "NAME", "NK1.2");
    const nkStreet = put(`${f.int(10, 9999)} ${f.pick(STREETS)} AVE`, "ADDRESS", "NK1.4.1");
    const nkPhone = put(f.phone(1), "PHONE", "NK1.5.1");
    segs.push(
      `NK1|1|${nkName}|SPO^Spouse^HL70063|${nkStreet}^^${f.pick(CITIES)}^IL^${f.uniqueDigits(5)}|${nkPhone}`,
    );
    const g = f.person();
    const gName = put(`${g.last}^${g.first}`, "NAME", "GT1.3");
    const gDob = put(hl7Date(f.dob()), "DOB", "GT1.8");
    const gSsn = put(f.ssn(), "SSN", "GT1.12");
    const gPhone = put(f.phone(0), "PHONE", "GT1.6.1");
    segs.push(
      `GT1|1|G${f.mrn()}|${gName}||${f.int(10, 999)} ${f.pick(STREETS)} RD^^${
        f.pick(CITIES)
      }^IL|${gPhone}||${gDob}|F||SE|${gSsn}`,
    );
    const ins = f.person();
    const insName = put(`${ins.last}^${ins.first}^${ins.middle}`, "NAME", "IN1.16");
    const insDob = put(hl7Date(f.dob()), "DOB", "IN1.18");
    const policy = put(`POL${f.uniqueDigits(9)}`, "MRN", "IN1.36");
    const insId = put(`M${f.uniqueDigits(9)}`, "MRN", "IN1.49");
    const in1 = ["IN1", "1", "BCBS^Blue Cross", "44", "BLUE CROSS"];
    while (in1.length < 16) in1.push("");
    in1.push(insName, "SEL", insDob, `${f.int(10, 999)} ${f.pick(STREETS)} LN^^${f.pick(CITIES)}^IL`);
    while (in1.length < 36) in1.push("");
    in1.push(policy);
    while (in1.length < 49) in1.push("");
    in1.push(insId);
    segs.push(in1.join("|"));
  }
  if (kind === "ORU") {
    const ord = f.person();
    const ordId = put(f.npi(), "NPI", "OBR.16.1");
    const ordName = put(`${ord.last}^${ord.first}`, "NAME", "OBR.16.2");
    segs.push(`ORC|RE|ORD${seq}|FIL${seq}`);
    segs.push(`OBR|1|ORD${seq}|FIL${seq}|CBC^Complete blood count^L|||${ts}|||||||||${ordId}^${ordName}`);
    segs.push(`OBX|1|NM|718-7^Hemoglobin^LN||${f.int(90, 170) / 10}|g/dL|12.0-16.0|N|||F`);
    const callback = put(f.phone(1), "PHONE", "OBX.5 (tier 1)");
    const noteMrn = put(f.mrn(), "MRN", "OBX.5 (tier 2)");
    segs.push(
      `OBX|2|TX|COMMENT^Comment||Called result to nurse, patient MRN ${noteMrn}, callback ${callback}.||||||F`,
    );
    const noteSsn = put(f.ssn(), "SSN", "NTE.3 (tier 1)");
    segs.push(`NTE|1|L|Verify identity: SSN ${noteSsn} on file.`);
  }
  if (kind === "SIU") {
    const c = f.person();
    const cName = put(`${c.last}^${c.first}`, "NAME", "SCH.12.2");
    const cPhone = put(f.phone(1), "PHONE", "SCH.13.1");
    segs.splice(1, 0, `SCH|APT${seq}|APT${seq}|||||ROUTINE||30|MIN|^^30^${ts}|${f.npi()}^${cName}|${cPhone}`);
    const r = f.person();
    const rName = put(`${r.last}^${r.first}`, "NAME", "AIP.3.2");
    segs.push(`RGS|1`, `AIP|1||${f.npi()}^${rName}|MD^Physician`);
  }
  if (kind === "DFT") {
    const perf = f.person();
    const perfName = put(`${perf.last}^${perf.first}`, "NAME", "FT1.20.2");
    const ft1 = ["FT1", "1", "", "", ts, ts, "CG", `99213^Office visit^CPT`, "", "", "1"];
    while (ft1.length < 20) ft1.push("");
    ft1.push(`${f.npi()}^${perfName}`);
    segs.push(ft1.join("|"));
  }
  const zNote = put(f.phone(2), "PHONE", "ZPI.2 (tier 1)");
  segs.push(`ZPI|1|Alt contact ${zNote}|site-specific`);
  return { text: segs.join(sep) + sep, phi };
}

/** `count` messages cycling through the four kinds; `sep` separates segments, `\n` messages. */
export function hl7Corpus(count: number, seed = 7, sep = "\r"): GeneratedText[] {
  const f = new PhiFactory(seed);
  const kinds = ["ADT", "ORU", "SIU", "DFT"] as const;
  return Array.from({ length: count }, (_, i) => hl7Message(f, kinds[i % 4], i + 1, sep));
}

const ANALYTES = [
  "Sodium",
  "Potassium",
  "Chloride",
  "CO2",
  "BUN",
  "Creatinine",
  "Glucose",
  "Calcium",
  "WBC",
  "RBC",
];

/**
 * Messages with the bulk real feeds carry besides PHI: result panels (ORU with 8–30 OBX rows),
 * allergies, diagnoses and vitals (ADT), charges (DFT). Same PHI as `hl7Corpus`, at a realistic
 * density (about one value per 100–150 bytes instead of one per 30).
 */
export function hl7RealisticCorpus(count: number, seed = 17): GeneratedText[] {
  const f = new PhiFactory(seed);
  const kinds = ["ORU", "ADT", "ORU", "DFT", "ADT", "SIU", "ORU"] as const;
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length];
    const m = hl7Message(f, kind, i + 1);
    const extra: string[] = [];
    if (kind === "ORU") {
      const rows = f.int(8, 30);
      for (let k = 0; k < rows; k++) {
        const a = f.pick(ANALYTES);
        extra.push(
          `OBX|${k + 3}|NM|${f.int(1000, 9999)}-${f.int(0, 9)}^${a}^LN||${
            f.int(10, 999) / 10
          }|mmol/L|1.0-99.0|N|||F|||20240115103000||`,
        );
      }
    } else if (kind === "ADT") {
      extra.push(`PV2|||^Chest pain||||||||||||||||||||N`);
      extra.push(`AL1|1|DA|70618^Penicillin^RXNORM|MO|Hives`, `AL1|2|FA|256349002^Peanut^SNM|SV|Anaphylaxis`);
      extra.push(
        `DG1|1||R07.9^Chest pain, unspecified^I10||20240115|A`,
        `DG1|2||I10^Essential hypertension^I10||20240115|W`,
      );
      extra.push(
        `OBX|1|NM|8867-4^Heart rate^LN||${f.int(50, 120)}|/min|||||F`,
        `OBX|2|NM|8480-6^Systolic BP^LN||${f.int(90, 180)}|mm[Hg]|||||F`,
      );
    } else if (kind === "DFT") {
      for (let k = 0; k < 3; k++) {
        extra.push(
          `FT1|${k + 2}|||20240115|20240115|CG|G${f.int(1000, 9999)}^Lab panel^HCPCS|||1|${
            f.int(10, 900)
          }.00||||||||`,
        );
      }
    }
    const cut = m.text.lastIndexOf("ZPI|");
    return {
      text: m.text.slice(0, cut) + extra.map((x) => x + "\r").join("") + m.text.slice(cut),
      phi: m.phi,
    };
  });
}

/** One message of about `bytes` bytes (ORU with extra OBX rows), for latency benchmarks. */
export function hl7MessageOfSize(bytes: number, seed = 11): string {
  const f = new PhiFactory(seed);
  let text = hl7Message(f, "ORU", 1).text;
  let i = 3;
  while (text.length < bytes) {
    text += `OBX|${i++}|NM|${f.int(1000, 9999)}-${f.int(0, 9)}^Analyte ${i}^LN||${
      f.int(10, 999) / 10
    }|mg/dL|1.0-99.0|N|||F\r`;
  }
  return text;
}

// ---- free text -------------------------------------------------------------------------------------

type Slot = (f: PhiFactory) => { value: string; category: string; tier: "definite" | "contextual" };

const fmtDob = (f: PhiFactory): string => {
  const d = f.dob();
  switch (f.int(0, 3)) {
    case 0:
      return `${pad(d.m)}/${pad(d.d)}/${d.y}`;
    case 1:
      return `${d.m}/${d.d}/${d.y}`;
    case 2:
      return `${d.y}-${pad(d.m)}-${pad(d.d)}`;
    default:
      return `${pad(d.m)}-${pad(d.d)}-${d.y}`;
  }
};

const SLOTS: Array<[string, Slot]> = [
  [
    "Patient MRN {} was admitted overnight.",
    (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" }),
  ],
  ["mrn: {} (verified at registration)", (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" })],
  ["Acct #{} needs a billing review.", (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" })],
  ["Account number {} was merged.", (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" })],
  ["Visit {} closed at discharge.", (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" })],
  ["Medical Record: {}", (f) => ({ value: f.mrn(), category: "MRN", tier: "contextual" })],
  ["patient id {} in the ADT feed", (f) => ({ value: `E${f.mrn()}`, category: "MRN", tier: "contextual" })],
  ["DOB {} per the registration clerk.", (f) => ({ value: fmtDob(f), category: "DOB", tier: "contextual" })],
  ["Date of Birth: {}", (f) => ({ value: fmtDob(f), category: "DOB", tier: "contextual" })],
  ["Birthdate {} confirmed.", (f) => ({ value: fmtDob(f), category: "DOB", tier: "contextual" })],
  ["SSN {} appeared in the free text.", (f) => ({ value: f.ssn(), category: "SSN", tier: "definite" })],
  ["call back at {} after 5pm", (f) => ({ value: f.phone(), category: "PHONE", tier: "definite" })],
  ["Daughter's cell {}.", (f) => ({ value: f.phone(), category: "PHONE", tier: "definite" })],
  [
    "emailed {} with the letter",
    (f) => ({ value: f.email(f.person()), category: "EMAIL", tier: "definite" }),
  ],
  ["Ordering provider NPI: {}", (f) => ({ value: f.npi(), category: "NPI", tier: "definite" })],
];

const FILLER = [
  "The interface engine resent the message.",
  "Nursing notified; no further action.",
  "Results were routed to the ordering clinic.",
  "The ADT feed was delayed by the downtime window.",
];

/** `count` notes, each 2–5 sentences with 1–3 PHI values. */
export function notesCorpus(count: number, seed = 3): GeneratedText[] {
  const f = new PhiFactory(seed);
  const out: GeneratedText[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    const phi: PlacedPhi[] = [];
    const n = f.int(1, 3);
    for (let k = 0; k < n; k++) {
      const [template, slot] = f.pick(SLOTS);
      const s = slot(f);
      const tpl = f.rand() < 0.2 ? template.toUpperCase() : template;
      parts.push(tpl.replace("{}", s.value));
      phi.push({ value: s.value, category: s.category, where: s.tier });
      if (f.rand() < 0.6) parts.push(f.pick(FILLER));
    }
    out.push({ text: parts.join(f.rand() < 0.5 ? " " : "\n"), phi });
  }
  return out;
}

// ---- never-tokenize corpus -------------------------------------------------------------------------

/** Tool-output-like texts in which nothing may be tokenized (no known values in the table). */
export function toolOutputCorpus(seed = 5): string[] {
  const f = new PhiFactory(seed);
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    const n = f.uniqueDigits(8);
    const site = `site${f.int(1, 9)}`;
    out.push(
      [
        `$ ls -la /hci/prod/${site}/exec/processes/${n}/`,
        `Patient archive /hci/prod/${site}/data/patient_${n}.hl7 (MRN index ./mrn/${n}.idx)`,
        `MRN service v2.9.${f.int(0, 9)} build ${n}; Patient module version ${f.int(1, 9)}.${f.int(0, 9)}.${
          f.int(0, 99)
        }`,
        `Visit feed on port ${f.int(1024, 65535)}; Account feed connected to engine01.example.org:${
          f.int(1024, 65535)
        }`,
        `Record ts=${1700000000000 + f.int(0, 99999999)}; Patient epoch ${1700000000 + f.int(0, 9999999)}`,
        `Acct sync error ${f.uniqueDigits(6)}; Patient status ${f.uniqueDigits(5)}`,
        `-rw-r--r-- 1 hci hci ${f.int(100, 99999)} Jan 15 10:${
          pad(f.int(0, 59))
        } /hci/prod/${site}/data/patient_${n}.hl7`,
        `C:\\cloverleaf\\cis2022.09\\integrator\\${site}\\Account\\${n}.tcl`,
        `see https://docs.example.com/record/${n}?visit=${f.uniqueDigits(7)}`,
        `relative path MRN/${n}/visit.txt and data/${n}/acct.txt`,
        `assist v0.8.${f.int(0, 19)} (deno 2.9.6, typescript 6.0.3); HL7 version 2.5.1; build ${n}`,
        `engine release 2022.09.01 on Linux 5.15.0-${f.int(10, 99)}-generic`,
        `listening on 127.0.0.1:${f.int(1024, 65535)} and port ${f.int(1024, 65535)}; --port=${
          f.int(1024, 65535)
        }`,
        `Patient thread connected to engine01.example.org:${f.int(1024, 65535)}`,
        `ts=${1700000000000 + f.int(0, 99999999)} epoch=${
          1700000000 + f.int(0, 9999999)
        } Patient queue drained`,
        `Visit feed started 2024-${pad(f.int(1, 12))}-${pad(f.int(1, 28))}T${pad(f.int(0, 23))}:${
          pad(f.int(0, 59))
        }:00Z and ran until 2024-${pad(f.int(1, 12))}-${pad(f.int(1, 28))}`,
        `Account import of ${f.int(1, 999)} rows done at 2024-${pad(f.int(1, 12))}-${
          pad(f.int(1, 28))
        } 10:00`,
        `PID.18 holds the account number; PID-3.1 the MRN; IN1.16 the insured; OBX.5[2].1 text; NK1-2 name`,
        `{"patient_count": ${f.int(1, 99)}, "${
          f.phone(1)
        }": "phone-shaped key", "mrn_${n}": true, "dob_field": "PID.7"}`,
        `Record update failed: error ${f.uniqueDigits(5)}; status ${f.int(200, 599)}; rc=${
          f.int(1, 255)
        }; exit code ${f.int(1, 255)}`,
        `Patient lookup returned HTTP/1.1 ${f.int(400, 599)} after retry; errno ${f.int(1, 150)}`,
        "```",
        `MRN ${f.mrn()} DOB 03/15/1980 SSN ${f.ssn()} call ${f.phone()}`,
        "```",
        `Already tokenized: [[NAME_${f.int(1, 9)}]] and [[MRN_${f.int(1, 99)}]] and [[presidio_PERSON_2]]`,
        `checksum ${"QUJDREVGR0g".repeat(1)} id=${f.int(1, 999)} Patient count 3 Visit 12 Record 7`,
        // Issue #14/#18 false tokenizations: whole-word keywords, counts with units, bare ports,
        // ordinary dates, long numeric ids that may pass the Luhn check.
        `Dobson Street ${f.int(1000, 9999)}; we recorded ${f.int(1000, 99999)} messages; visitors: ${
          f.int(100, 999)
        }`,
        `MRN lookup took ${f.int(1000, 99999)} ms; Patient import: ${f.int(1000, 99999)} rows; Account feed ${
          f.int(1000, 99999)
        } bytes`,
        `proxy listening on :${f.int(1024, 65535)} and :${f.int(1024, 65535)}`,
        `Visit on ${f.int(1, 12)}/${f.int(1, 28)}/2024; Patient seen January ${
          f.int(1, 28)
        }, 2024; record of ${f.int(1, 28)} Mar 2023`,
        `MSH|^~\\&|A|B|C|D|2024${pad(f.int(1, 12))}${pad(f.int(1, 28))}120000||ADT^A01|${
          f.uniqueDigits(16)
        }|P|2.5`,
        `msgid=${f.uniqueDigits(19)} seq ${f.uniqueDigits(13)} ctrl ${f.uniqueDigits(15)}`,
      ].join("\n"),
    );
  }
  return out;
}
