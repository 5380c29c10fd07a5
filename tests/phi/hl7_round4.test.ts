/**
 * Issue #23 items 7-9 and issue #24 items 5 and 7 for HL7 v2: `^M` beside a name component, free
 * text in ACKs and common segments, quoted-printable soft line breaks and MLLP captures cut
 * mid-frame, Safe Harbor dates and identifier categories by field, and the tier-3 line rule.
 *
 * Corpora: hand-written messages after the segment definitions and example messages of HL7 v2.5.1
 * (chapters 2 ACK/MSA/ERR, 3 ADT/PID/PV1/PV2/NK1/MRG/AL1/DG1/PR1/GT1/IN1/IN2, 4 ORC/OBR/TQ1,
 * 6 FT1, 7 OBX/SPM, 9 TXA, 10 SCH/AIS/AIP); synthetic values only. Generated ones: given names of
 * every initial from faker's `en` list (the lexicon's source) in messages and carriers, with a
 * seeded PRNG. Every case names the engine facts that must stay in clear.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { allLocales } from "@faker-js/faker";
import { scanHl7 } from "../../phi/hl7_sanitize.ts";
import { embeddedScan } from "../../phi/embedded_hl7.ts";
import { findHl7Lines } from "../../phi/tier3_hl7.ts";
import { leaks, testEngine } from "./_support.ts";
import { CARRIERS } from "./_carriers.ts";
import { mulberry32, pick } from "../support/prng.ts";
import { hl7Corpus } from "../support/phi_corpus.ts";

const MSH = (type = "ADT^A01^ADT_A01", ctl = "MSG00001") =>
  `MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20261123083000||${type}|${ctl}|P|2.5.1`;

/** The structured values of a text after both scans (plain, then carriers), as `context category value`. */
function scanAll(text: string): string[] {
  const primary = scanHl7(text);
  const s = embeddedScan(text, primary) ?? primary;
  return s.structured.map((c) => `${c.context} ${c.category} ${text.slice(c.start, c.end)}`);
}

/** Sanitizes each text on one engine; checks no value leaks, every fact stays, and the round trip. */
async function sanitizeAll(
  cases: { text: string; values: string[]; facts: string[]; label: string }[],
  surface: "tool" | "user" = "tool",
): Promise<void> {
  await using h = await testEngine();
  for (const c of cases) {
    const out = surface === "tool"
      ? await h.engine.sanitizeToolResult(c.text, "read_file")
      : await h.engine.tokenizeUserInput(c.text);
    for (const v of c.values) assert(!leaks(out.text, v), `${c.label}: ${v} reached the model:\n${out.text}`);
    for (const f of c.facts) assert(out.text.includes(f), `${c.label}: engine fact ${f} lost:\n${out.text}`);
    assertEquals(h.engine.detokenize(out.text).text, c.text, `${c.label}: round trip`);
  }
}

// ---------------------------------------------------------------------------------------------
// a. `^M` in a name component is data; a written-out CR only where it cannot be a component.

/** The hundred most common US given names starting with M (SSA lists, both sexes, by hand). */
const M_NAMES = [
  "MARY",
  "MICHAEL",
  "MATTHEW",
  "MARK",
  "MARGARET",
  "MICHELLE",
  "MELISSA",
  "MARIA",
  "MARIE",
  "MARTHA",
  "MILDRED",
  "MARILYN",
  "MEGAN",
  "MADISON",
  "MASON",
  "MIA",
  "MILA",
  "MADELYN",
  "MAYA",
  "MACKENZIE",
  "MAKAYLA",
  "MORGAN",
  "MIGUEL",
  "MAX",
  "MAXWELL",
  "MARTIN",
  "MARVIN",
  "MARCUS",
  "MARIO",
  "MICAH",
  "MILES",
  "MATEO",
  "MALIK",
  "MANUEL",
  "MARCO",
  "MAURICE",
  "MELVIN",
  "MITCHELL",
  "MORRIS",
  "MYRON",
  "MILTON",
  "MARSHALL",
  "MARION",
  "MIKE",
  "MATT",
  "MACK",
  "MONICA",
  "MELANIE",
  "MEREDITH",
  "MOLLY",
  "MIRANDA",
  "MARISSA",
  "MARIAH",
  "MCKENZIE",
  "MALLORY",
  "MARLENE",
  "MABEL",
  "MAGGIE",
  "MAE",
  "MAXINE",
  "MURIEL",
  "MYRTLE",
  "MINNIE",
  "MATTIE",
  "MARJORIE",
  "MAUREEN",
  "MARCIA",
  "MARSHA",
  "MIRIAM",
  "MERCEDES",
  "MANDY",
  "MARIAN",
  "MARGUERITE",
  "MAYRA",
  "MELINDA",
  "MISTY",
  "MONA",
  "MYRA",
  "MAMIE",
  "MADELINE",
  "MAGDALENA",
  "MALACHI",
  "MARCOS",
  "MATIAS",
  "MAXIMUS",
  "MAJOR",
  "MARC",
  "MARLON",
  "MATHEW",
  "MOHAMMED",
  "MUHAMMAD",
  "MOSES",
  "MURRAY",
  "MERLE",
  "MONTE",
  "MICKEY",
  "MOISES",
  "MAURICIO",
  "MEKHI",
  "MARQUIS",
];

/** One ADT^A01 for a patient whose given name is `given`: the values after PID-5 that leaked. */
function mPatient(given: string, i: number, middle = "") {
  const mrn = `0551${String(1000 + i).padStart(4, "0")}`;
  const dob = `19${String(40 + (i % 50)).padStart(2, "0")}0${1 + (i % 9)}1${i % 10}`;
  const street = `${100 + i} ELM ST`;
  const city = "GREENSBORO";
  const zip = `274${String(i % 100).padStart(2, "0")}`;
  const phone = `(336)555-${String(1000 + i).slice(-4)}`;
  const account = `ACC${String(770000 + i)}`;
  const ssn = `5${String(10 + (i % 89)).padStart(2, "0")}-4${i % 10}-${String(2000 + i).slice(-4)}`;
  const name = middle ? `SMITH^${given}^${middle}` : `SMITH^${given}`;
  const segs = [
    MSH("ADT^A01^ADT_A01", `MSG${String(i).padStart(5, "0")}`),
    "EVN|A01|20261123083000",
    `PID|1||${mrn}^^^GHH^MR||${name}||${dob}|F|||${street}^^${city}^NC^${zip}||${phone}|||S||${account}^^^GHH^AN|${ssn}`,
    `PV1|1|I|2000^2012^01||||004777^ATTEND^AARON^A|||SUR||||ADM|A0`,
  ];
  return {
    segs,
    values: [mrn, given, dob, street, city, zip, phone, account, ssn],
    facts: [
      "GOOD HEALTH HOSPITAL",
      `MSG${String(i).padStart(5, "0")}`,
      "20261123083000",
      "^NC^",
      "2000^2012^01",
    ],
  };
}

Deno.test("^M: a given name starting with M is a component, not a written-out CR (scan)", () => {
  for (const [i, given] of M_NAMES.entries()) {
    for (const sep of ["\r", "\n", "\r\n"]) {
      const p = mPatient(given, i);
      const text = p.segs.join(sep) + sep;
      const got = scanAll(text);
      assert(got.includes(`PID.5 NAME SMITH^${given}`), `${given}: ${got.join(" | ")}`);
      for (
        const path of ["PID.7 DOB", "PID.11.1 ADDRESS", "PID.11.5 ADDRESS", "PID.13.1 PHONE", "PID.19 SSN"]
      ) {
        assert(got.some((g) => g.startsWith(path)), `${given} (${JSON.stringify(sep)}): ${path} missing`);
      }
      assert(got.some((g) => g.startsWith("PID.18 ACCOUNT")), `${given}: PID.18`);
    }
  }
});

Deno.test("^M: M names through the engine, in plain messages and in every carrier", async () => {
  const cases: { text: string; values: string[]; facts: string[]; label: string }[] = [];
  for (const [i, given] of M_NAMES.entries()) {
    const p = mPatient(given, i);
    cases.push({ text: p.segs.join("\r") + "\r", values: p.values, facts: p.facts, label: given });
  }
  // Carriers (written-out ^M among them: `^MARY` beside real `^M` breaks), a name of each kind.
  const carriers = Object.entries(CARRIERS).filter(([n]) => n !== "lone segments");
  for (const [k, [name, wrap]] of carriers.entries()) {
    const given = M_NAMES[(k * 7) % M_NAMES.length];
    const p = mPatient(given, 200 + k);
    // Facts that a carrier re-encodes (XML escapes `&`, URL-encoding) are checked in the plain form.
    const facts = p.facts.filter((f) => !/[&^ ]/.test(f) || name === "literal ^M");
    cases.push({ text: wrap(p.segs), values: p.values, facts, label: `${given} in ${name}` });
  }
  await sanitizeAll(cases);
});

Deno.test("^M: common given names of every initial, as given and middle name, generated", async () => {
  const en = (allLocales.en as unknown as { person: { first_name: Record<string, string[]> } }).person;
  const all = [...new Set(Object.values(en.first_name).flat().map((n) => n.toUpperCase()))]
    .filter((n) => /^[A-Z]+$/.test(n));
  const rand = mulberry32(2304);
  const cases: { text: string; values: string[]; facts: string[]; label: string }[] = [];
  let i = 0;
  for (const initial of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
    const names = all.filter((n) => n[0] === initial).slice(0, 100);
    for (const given of names) {
      i++;
      // Unit check for every name, the engine for a sample (the engine is the slow part).
      const middle = rand() < 0.3 ? pick(rand, M_NAMES) : "";
      const p = mPatient(given, i, middle);
      const sep = pick(rand, ["\r", "\n", "^M"]);
      const text = p.segs.join(sep) + sep;
      const got = scanAll(text);
      assert(got.some((g) => g.startsWith("PID.7 DOB")), `${given} ${middle} ${JSON.stringify(sep)}: ${got}`);
      assert(got.some((g) => g.startsWith("PID.19 SSN")), `${given} ${middle}: PID.19`);
      if (i % 9 === 0) cases.push({ text, values: p.values, facts: p.facts.slice(1, 3), label: given });
    }
  }
  assert(i > 1500, `names of every initial: ${i}`);
  await sanitizeAll(cases);
});

Deno.test("^M: where it is a carriage return, and the ambiguous forms", () => {
  // Before a known segment id: a break, even right after a name component (`SMITH^MPID|`: no given
  // name is M and a segment id).
  const catV = `${MSH()}^MPID|1||55110099^^^GHH^MR||SMITH^MARY||19610304|F^MPV1|1|I|W^1^A^M`;
  const got = scanAll(catV);
  assert(got.includes("PID.5 NAME SMITH^MARY"), got.join(" | "));
  assert(got.includes("PID.7 DOB 19610304"), got.join(" | "));
  // A middle initial M at the end of a segment in a `\r` message is a component.
  assert(scanAll(`${MSH()}\rPID|1||55110099^^^GHH^MR||SMITH^MARY^M\r`).includes("PID.5 NAME SMITH^MARY^M"));
  // `^MAIS|` (MAIS: the lexicon's one name part that is M and a segment id) is a name unless a set ID follows.
  const mais = scanAll(`${MSH()}\rPID|1||55110099^^^GHH^MR||SMITH^MAIS||19610304|F|||||||||||123-45-6789\r`);
  assert(mais.includes("PID.5 NAME SMITH^MAIS"), mais.join(" | "));
  assert(mais.includes("PID.19 SSN 123-45-6789"), mais.join(" | "));
  // `^M` followed by spaces and prose is not a break.
  const prose = scanAll(`${MSH()}\rPID|1||55110099^^^GHH^MR||SMITH^M ARY||19610304|F\r`);
  assert(prose.includes("PID.7 DOB 19610304"), prose.join(" | "));
});

// ---------------------------------------------------------------------------------------------
// b. Free text of ACKs and common segments goes through the tiers.

Deno.test("free text: MSA-3, ERR-6/7/8, AL1-5, DG1-4, PR1-4, PV2-12 are free; codes stay", () => {
  const text = [
    MSH("ACK^A01^ACK", "ACK00417"),
    "MSA|AE|4812733|Patient THOMAS, BARBARA MRN 05510980 DOB 1961-03-04 not found in MPI",
    "ERR||PID^1^3^1|204^Unknown key identifier^HL70357|E|E1034^MPI lookup^L|05510980|lookup by MRN 05510980 returned 0 rows|Call 336-555-0142 about THOMAS, BARBARA",
    "AL1|1|DA|70618^Penicillin^RXNORM|SV|hives after dose given by wife Ann",
    "DG1|1||R07.9^Chest pain, unspecified^I10|chest pain since fall at 12 Elm St|20261120|A",
    "PR1|1||0BH17EZ^Insertion^ICD10PCS|intubated by Dr. Okafor|20261121",
    "PV2|||^Chest pain|||||||||visit for MRN 05510980",
  ].join("\r") + "\r";
  const s = scanHl7(text);
  assertEquals(s.free.map((f) => text.slice(f.start, f.end)), [
    "Patient THOMAS, BARBARA MRN 05510980 DOB 1961-03-04 not found in MPI",
    "05510980",
    "lookup by MRN 05510980 returned 0 rows",
    "Call 336-555-0142 about THOMAS, BARBARA",
    "hives after dose given by wife Ann",
    "chest pain since fall at 12 Elm St",
    "intubated by Dr. Okafor",
    "visit for MRN 05510980",
  ]);
  // Codes and the control ids of the ACK are no value of the scan.
  const values = s.structured.map((c) => c.value);
  for (const fact of ["4812733", "204", "E1034", "R07.9", "70618", "ACK00417"]) {
    assert(!values.includes(fact), fact);
  }
});

Deno.test("free text: the ACK of the issue tokenizes name, MRN and DOB; the ACK's facts stay", async () => {
  const ack = [
    MSH("ACK^A01^ACK", "ACK00417"),
    "MSA|AE|4812733|Patient THOMAS, BARBARA MRN 05510980 DOB 1961-03-04 not found in MPI",
  ].join("\r") + "\r";
  const ackV23 = [
    "MSH|^~\\&|CLV|LAB|EPIC|HOSP|20261123083001||ACK|ACK0002|P|2.3",
    "MSA|AR|CTL7788|Rejected: PID-3 05510981 belongs to WASHINGTON, GEORGE (DOB 02/22/1932)",
    "ERR|PID^1^3^207&Application internal error&HL70357",
  ].join("\r") + "\r";
  await sanitizeAll([
    {
      label: "MSA-3",
      text: ack,
      values: ["THOMAS", "BARBARA", "05510980", "1961-03-04"],
      facts: ["MSA|AE|4812733|Patient ", "not found in MPI", "ACK00417", "20261123083000", "ACK^A01^ACK"],
    },
    {
      label: "MSA-3 v2.3",
      text: ackV23,
      values: ["WASHINGTON", "GEORGE", "05510981", "02/22/1932"],
      facts: [
        "MSA|AR|CTL7788|Rejected: PID-3 ",
        "ERR|PID^1^3^207&Application internal error&HL70357",
        "ACK0002",
      ],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
// c. Quoted-printable soft line breaks and MLLP captures begun mid-frame.

/** Quoted-printable (RFC 2045 6.7): `=`, CR and LF escaped, lines wrapped at 76 with `=\r\n`. */
function quotedPrintable(s: string, width = 76): string {
  const enc = s.replace(/=/g, "=3D").replace(/\r/g, "=0D").replace(/\n/g, "=0A");
  const out: string[] = [];
  let i = 0;
  while (i < enc.length) {
    let j = Math.min(enc.length, i + width - 1);
    // Never split an escape (`=0D`).
    const eq = enc.lastIndexOf("=", j);
    if (j < enc.length && eq > j - 3 && eq >= i) j = eq;
    out.push(enc.slice(i, j));
    i = j;
  }
  return out.join("=\r\n");
}

Deno.test("quoted-printable: an e-mail alert's message, wrapped by soft line breaks, keeps its policy", async () => {
  const corpus = hl7Corpus(30, 4711);
  await using h = await testEngine();
  for (const [k, m] of corpus.entries()) {
    const width = 60 + (k % 17);
    const body = quotedPrintable(m.text, width);
    const mail = `From: cloverleaf@ghh.example\r\nSubject: [ALERT] adt_out error queue\r\n` +
      `Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n` +
      `Thread adt_out put 1 message in the error database:\r\n\r\n${body}\r\n`;
    const out = await h.engine.sanitizeToolResult(mail, "read_file");
    // Structured values (each field of the policy), wherever the encoder wrapped them.
    // (Free-text values are read by the tiers in the source text: one cut by a soft break is not.)
    for (const p of m.phi.filter((p) => /^[A-Z][A-Z0-9]{2}[.-]\d[^ ]*$/.test(p.where))) {
      const flat = out.text.replace(/=\r\n/g, "");
      assert(!leaks(flat, p.value), `message ${k} (width ${width}): ${p.where} ${p.value} leaked`);
    }
    // Facts: the control id and the message type stay (read across the soft breaks).
    const flat = out.text.replace(/=\r\n/g, "");
    const ctl = /\|(MSG\d+)\|/.exec(m.text)![1];
    assert(flat.includes(ctl), `${ctl} lost`);
    assert(flat.includes("Thread adt_out put 1 message in the error database:"), "prose lost");
    // Round trip: exact but for soft breaks inside tokenized values (a carrier's value comes back
    // decoded, as for XML character references); every other byte, soft breaks included, stays.
    const back = h.engine.detokenize(out.text).text;
    assertEquals(back.replace(/=\r\n/g, ""), mail.replace(/=\r\n/g, ""), `message ${k}: round trip`);
  }
});

Deno.test("quoted-printable: the issue's alert, with `=\\n` soft breaks too", () => {
  for (const nl of ["\r\n", "\n"]) {
    const mail = `Content-Transfer-Encoding: quoted-printable${nl}${nl}` +
      `MSH|^~\\&|EPIC|HOSP|CLV|LAB|20261123083000||ADT^A01|CTL0001|P|2.5.1=0D=0APID|1||05510980^^^HOSP^MR||SMITH^JO=${nl}HN||19610304|F|||12 ELM ST^^DENV=${nl}` +
      `ER^CO^80202||(303)555-0187|||||ACC778899|123-=${nl}45-6789=0D=0APV1|1|I|W^1^A||||||||||||||||VN1=${nl}2345=0D=0A${nl}`;
    const got = scanAll(mail).map((g) => g.replace(/=\r?\n/g, ""));
    for (
      const want of [
        "PID.3 MRN 05510980",
        "PID.5 NAME SMITH^JOHN",
        "PID.7 DOB 19610304",
        "PID.11.3 ADDRESS DENVER",
        "PID.11.5 ADDRESS 80202",
        "PID.13.1 PHONE (303)555-0187",
        "PID.18 ACCOUNT ACC778899",
        "PID.19 SSN 123-45-6789",
        "PV1.19 VISIT VN12345",
      ]
    ) assert(got.includes(want), `${JSON.stringify(nl)}: ${want} missing: ${got.join(" | ")}`);
  }
});

Deno.test("MLLP: a capture begun mid-frame keeps the field policy for the cut message's tail", async () => {
  const corpus = hl7Corpus(40, 99);
  const rand = mulberry32(8080);
  await using h = await testEngine();
  let aligned = 0;
  for (let k = 0; k + 2 < corpus.length; k++) {
    const m = corpus[k];
    // Cut inside the PID segment, after PID-3 (the trace began mid-frame).
    const pid = m.text.indexOf("\rPID|") + 1;
    const pidEnd = m.text.indexOf("\r", pid);
    const from = m.text.indexOf("|", m.text.indexOf("^^^", pid)) - 1 - Math.floor(rand() * 3);
    const tail = m.text.slice(from);
    const frames = [corpus[k + 1], corpus[k + 2]].map((x) => `\x0b${x.text}\x1c\r`).join("");
    const capture = `${tail}\x1c\r${frames}`;
    const out = await h.engine.sanitizeToolResult(capture, "read_file");
    // Values of the cut PID that lie wholly in the tail (the cut id's rest aside).
    const pidText = m.text.slice(from, pidEnd);
    const inTail = m.phi.filter((p) =>
      p.where.startsWith("PID.") && p.where !== "PID.3" && pidText.includes(p.value)
    );
    for (const p of inTail) assert(!leaks(out.text, p.value), `capture ${k}: ${p.where} ${p.value} leaked`);
    if (scanHl7(capture).structured.some((c) => c.start < pidEnd - from && c.context?.startsWith("PID."))) {
      aligned++;
    }
    // Values of the full frames, and the facts.
    for (const x of [corpus[k + 1], corpus[k + 2]]) {
      for (const p of x.phi.filter((p) => /^(PID|NK1|GT1|IN1)\./.test(p.where))) {
        assert(!leaks(out.text, p.value), `capture ${k}: frame ${p.where} ${p.value} leaked`);
      }
      assert(out.text.includes(/\|(MSG\d+)\|/.exec(x.text)![1]), "control id lost");
    }
    assertEquals(h.engine.detokenize(out.text).text, capture, `capture ${k}: round trip`);
  }
  assertEquals(aligned, corpus.length - 2, "every tail aligned with a PID of the frames after it");
});

Deno.test("MLLP: a tail that matches no segment is left to the tiers, and nothing throws", () => {
  const frames = `\x0b${MSH()}\rPID|1||7777777^^^GHH^MR||DOE^JANE||19700101\r\x1c\r`;
  // Too few fields, or shapes that match no segment: no field numbers are guessed.
  for (const tail of ["^MR||SMITH^JOHN\r", "a|b^c|d|e^f^g^h|i\r", "|||\r", "", "\x1c\r"]) {
    const s = scanHl7(tail + frames);
    assert(s.structured.every((c) => c.start >= tail.length), JSON.stringify(tail));
  }
  // Random cuts of a message before frames: never throws, positions stay inside the text.
  const rand = mulberry32(5);
  const msg = hl7Corpus(1, 3)[0].text;
  for (let i = 0; i < 300; i++) {
    const text = msg.slice(Math.floor(rand() * msg.length)) + frames;
    for (const c of scanHl7(text).structured) assert(c.start >= 0 && c.end <= text.length && c.start < c.end);
  }
});

// ---------------------------------------------------------------------------------------------
// d. Safe Harbor dates and identifier categories by field.

/** A segment from its fields by number (the rest empty): field numbers written as in the standard. */
function seg(id: string, fields: Record<number, string>): string {
  const n = Math.max(...Object.keys(fields).map(Number));
  return [id, ...Array.from({ length: n }, (_, i) => fields[i + 1] ?? "")].join("|");
}

/** An inpatient stay from pre-admit to discharge and billing, by hand after v2.5.1's chapters. */
const STAY = [
  MSH("ADT^A03^ADT_A03", "MSG20417"),
  seg("EVN", {
    1: "A03",
    2: "20261123083000",
    3: "20261123090000",
    5: "OPER1^CLERK^KIM",
    6: "20261123082500",
  }),
  seg("PID", {
    1: "1",
    2: "P9001^^^GHH^PI",
    3: "PATID5521^^^GHH^MR~123-45-6789^^^USSSA^SS",
    4: "ALT77^^^GHH^PT",
    5: "EVERYMAN^ADAM^A^III",
    7: "19610615",
    8: "M",
    11: "2222 HOME STREET^^GREENSBORO^NC^27401-1020^USA^H",
    13: "(555)555-2004",
    16: "S",
    18: "AN5521001^^^GHH^AN",
    19: "444-33-3333",
    20: "NC987654^NC^20300615",
    21: "MOTHER1^^^GHH^MR",
    33: "20261123083000",
  }),
  seg("PD1", { 4: "1234567893^PRIMARY^PAT" }),
  seg("NK1", {
    1: "1",
    2: "EVERYMAN^EVE^W",
    3: "SPO^SPOUSE",
    5: "(555)555-2005",
    7: "NK^NEXT OF KIN",
    8: "20200101",
    9: "20261231",
  }),
  seg("PV1", {
    1: "1",
    2: "I",
    3: "2000^2012^01",
    5: "PRE4411^^^GHH^VN",
    7: "004777^ATTEND^AARON^A",
    10: "SUR",
    14: "ADM",
    15: "A0",
    19: "VN8812^^^GHH^VN",
    44: "20261118101500",
    45: "20261123080000",
    50: "ALTV901^^^GHH^VN",
  }),
  seg("PV2", {
    3: "^Chest pain",
    8: "20261118",
    9: "20261123",
    14: "20250210",
    17: "20360101",
    26: "20250301",
    28: "20240105",
    29: "20261101",
    33: "20261119",
  }),
  seg("AL1", { 1: "1", 2: "DA", 3: "70618^Penicillin^RXNORM", 4: "SV", 5: "hives", 6: "20150402" }),
  seg("DG1", {
    1: "1",
    3: "I21.4^NSTEMI^I10",
    5: "20261118",
    6: "A",
    16: "1234567893^CARDIO^CARL",
    19: "20261122",
  }),
  seg("PR1", { 1: "1", 3: "02703ZZ^Dilation^ICD10PCS", 4: "PCI", 5: "20261119143000" }),
  seg("GT1", {
    1: "1",
    2: "GTR5521^^^GHH^AN",
    3: "EVERYMAN^ADAM",
    5: "2222 HOME STREET^^GREENSBORO^NC^27401",
    6: "(555)555-2004",
    8: "19610615",
    9: "M",
    11: "SE",
    12: "444-33-3333",
  }),
  seg("IN1", {
    1: "1",
    2: "BCBSNC01^Blue Cross NC",
    3: "BCBS",
    4: "BLUE CROSS BLUE SHIELD OF NC",
    8: "GRP7788",
    12: "20260101",
    13: "20261231",
    16: "EVERYMAN^ADAM",
    17: "SEL",
    18: "19610615",
    19: "2222 HOME STREET^^GREENSBORO^NC^27401",
    36: "POL556677",
    49: "MBR998877^^^BCBS^MB",
  }),
  seg("IN2", {
    1: "EMP4455",
    2: "444-33-3333",
    6: "1EG4TE5MK73",
    8: "MCD7766554",
    26: "SUB3344^^^BCBS",
    40: "MAIDEN^MARGE",
    52: "EVERYMAN^EVE",
    53: "(555)555-2005",
  }),
  seg("MRG", { 1: "OLDMRN1^^^GHH^MR", 3: "OLDACCT9^^^GHH^AN", 6: "OLDVISIT3^^^GHH^VN" }),
  seg("FT1", {
    1: "1",
    4: "20261119^20261120",
    5: "20261124",
    6: "CG",
    7: "99223^Initial hospital care^CPT",
    10: "1",
  }),
].join("\r") + "\r";

Deno.test("Safe Harbor: dates of care are DATE, identifiers have their own categories", () => {
  const got = scanAll(STAY);
  const by = (ctx: string) =>
    got.filter((g) => g.split(" ")[0] === ctx).map((g) => g.split(" ").slice(1).join(" "));
  const want: Record<string, string[]> = {
    "PID.2": ["MRN P9001"],
    "PID.3": ["MRN PATID5521"],
    "PID.3[2]": ["SSN 123-45-6789"],
    "PID.4": ["MRN ALT77"],
    "PID.7": ["DOB 19610615"],
    "PID.18": ["ACCOUNT AN5521001"],
    "PID.19": ["SSN 444-33-3333"],
    "PID.20": ["LICENSE NC987654"],
    "PID.21": ["MRN MOTHER1"],
    "NK1.8": ["DATE 20200101"],
    "NK1.9": ["DATE 20261231"],
    "PV1.5": ["VISIT PRE4411"],
    "PV1.19": ["VISIT VN8812"],
    "PV1.44": ["DATE 20261118101500"],
    "PV1.45": ["DATE 20261123080000"],
    "PV1.50": ["VISIT ALTV901"],
    "PV2.8": ["DATE 20261118"],
    "PV2.9": ["DATE 20261123"],
    "PV2.26": ["DATE 20250301"],
    "PV2.33": ["DATE 20261119"],
    "PV2.14": ["DATE 20250210"],
    "PV2.29": ["DATE 20261101"],
    "IN2.26": ["MEMBER SUB3344"],
    "IN2.40": ["NAME MAIDEN^MARGE"],
    "IN2.52": ["NAME EVERYMAN^EVE"],
    "IN2.53.1": ["PHONE (555)555-2005"],
    "AL1.6": ["DATE 20150402"],
    "DG1.5": ["DATE 20261118"],
    "DG1.19": ["DATE 20261122"],
    "PR1.5": ["DATE 20261119143000"],
    "GT1.2": ["ACCOUNT GTR5521"],
    "GT1.8": ["DOB 19610615"],
    "IN1.12": ["DATE 20260101"],
    "IN1.13": ["DATE 20261231"],
    "IN1.18": ["DOB 19610615"],
    "IN1.36": ["MEMBER POL556677"],
    "IN1.49": ["MEMBER MBR998877"],
    "IN2.1": ["MRN EMP4455"],
    "IN2.2": ["SSN 444-33-3333"],
    "IN2.6": ["MEMBER 1EG4TE5MK73"],
    "IN2.8": ["MEMBER MCD7766554"],
    "MRG.1": ["MRN OLDMRN1"],
    "MRG.3": ["ACCOUNT OLDACCT9"],
    "MRG.6": ["VISIT OLDVISIT3"],
    "FT1.4.1": ["DATE 20261119"],
    "FT1.4.2": ["DATE 20261120"],
  };
  for (const [ctx, v] of Object.entries(want)) assertEquals(by(ctx), v, ctx);
  // Engine facts: message and event times, the record's last update, posting date, codes, payer.
  for (
    const ctx of [
      "MSH.7",
      "EVN.2",
      "EVN.3",
      "EVN.6",
      "PID.33",
      "PV2.17",
      "PV2.28",
      "FT1.5",
      "IN1.2",
      "IN1.3",
      "IN1.8",
      "DG1.3",
      "FT1.7",
    ]
  ) {
    assertEquals(by(ctx), [], ctx);
  }
});

Deno.test("Safe Harbor: orders, results, specimens, documents and appointments", () => {
  const oru = [
    MSH("ORU^R01^ORU_R01", "LAB90001"),
    "PID|1||PATID7001^^^GHH^MR||JONES^MARIA||19790304|F",
    seg("ORC", {
      1: "RE",
      2: "ORD448",
      3: "FIL448",
      5: "CM",
      9: "20261120091500",
      12: "1234567893^ORDER^OLGA",
      15: "20261120093000",
    }),
    "OBR|1|ORD448|FIL448|24331-1^Lipid panel^LN|||20261120100000|20261120101500|||||fasting, drawn by RN Lee|20261120103000|||||||20261120160000|||F",
    "TQ1|1||||||20261120100000|20261120110000",
    seg("OBX", {
      1: "1",
      2: "NM",
      3: "2093-3^Cholesterol^LN",
      5: "212",
      6: "mg/dL",
      7: "<200",
      8: "H",
      11: "F",
      14: "20261120101500",
      19: "20261120150000",
    }),
    "OBX|2|CX|76435-7^Patient ID^LN||PATID7002^^^OTH^MR||||||F",
    "OBX|3|XPN|52473-6^Contact name^LN||GARCIA^ROSA||||||F",
    "OBX|4|XAD|56799-0^Address^LN||9 PINE RD^^DURHAM^NC^27701||||||F",
    "OBX|5|XTN|42077-8^Phone^LN||^PRN^PH^^^919^5550133||||||F",
    "OBX|6|DT|8665-2^Last menstrual period^LN||20261101||||||F",
    "OBX|7|CE|883-9^ABO group^LN||O^O^ABO||||||F",
    "SPM|1|SP77^SPF77||BLD^Blood^HL70487|||||||||||||20261120100000^20261120100500|20261120103000",
    "TXA|1|DS|TX|20261121080000|1234567893^WRITER^WANDA|20261121081000|20261121090000|20261121093000|1234567893^AUTHOR^AL||||DOC77||||AU",
  ].join("\r") + "\r";
  const siu = [
    MSH("SIU^S12^SIU_S12", "SCH30001"),
    "SCH|APT1001|APT1001|||||FOLLOWUP^Follow-up||30|MIN|^^30^20261201140000^20261201143000|1234567893^SCHED^SAM|(555)555-0100",
    "PID|1||PATID7001^^^GHH^MR||JONES^MARIA||19790304|F",
    "RGS|1",
    "AIS|1||99213^Office visit^CPT|20261201140000|0|MIN|30|MIN",
    "AIG|1||ROOM4^Room 4|||||20261201140000",
    "AIL|1||CLINIC^4^A|||20261201140000",
    "AIP|1||1234567893^DOCTOR^DANA|MD^Physician||20261201140000",
  ].join("\r") + "\r";
  const got = [...scanAll(oru), ...scanAll(siu)];
  const has = (s: string) => assert(got.includes(s), `${s} missing: ${got.join(" | ")}`);
  for (
    const s of [
      "ORC.9 DATE 20261120091500",
      "ORC.15 DATE 20261120093000",
      "OBR.7 DATE 20261120100000",
      "OBR.8 DATE 20261120101500",
      "OBR.14 DATE 20261120103000",
      "TQ1.7 DATE 20261120100000",
      "TQ1.8 DATE 20261120110000",
      "OBX.14 DATE 20261120101500",
      "OBX.19 DATE 20261120150000",
      "OBX.5 MRN PATID7002",
      "OBX.5 NAME GARCIA^ROSA",
      "OBX.5.1 ADDRESS 9 PINE RD",
      "OBX.5.3 ADDRESS DURHAM",
      "OBX.5.5 ADDRESS 27701",
      "OBX.5.6 PHONE 919",
      "OBX.5.7 PHONE 5550133",
      "OBX.5 DATE 20261101",
      "SPM.17.1 DATE 20261120100000",
      "SPM.17.2 DATE 20261120100500",
      "SPM.18 DATE 20261120103000",
      "TXA.4 DATE 20261121080000",
      "TXA.6 DATE 20261121081000",
      "TXA.7 DATE 20261121090000",
      "TXA.8 DATE 20261121093000",
      "SCH.11.4 DATE 20261201140000",
      "SCH.11.5 DATE 20261201143000",
      "AIS.4 DATE 20261201140000",
      "AIG.8 DATE 20261201140000",
      "AIL.6 DATE 20261201140000",
      "AIP.6 DATE 20261201140000",
    ]
  ) has(s);
  // Results, codes, order numbers, the report time (OBR-22), the document number stay.
  for (const fact of ["212", "O^O^ABO", "ORD448", "FIL448", "20261120160000", "DOC77", "2093-3", "APT1001"]) {
    assert(!got.some((g) => g.endsWith(` ${fact}`)), fact);
  }
});

Deno.test("Safe Harbor: the stay through the engine, round trip exact, facts in clear", async () => {
  await sanitizeAll([{
    label: "A03",
    text: STAY,
    values: [
      "PATID5521",
      "EVERYMAN",
      "19610615",
      "AN5521001",
      "NC987654",
      "VN8812",
      "20261118101500",
      "20261123080000",
      "POL556677",
      "MBR998877",
      "1EG4TE5MK73",
      "MCD7766554",
      "OLDACCT9",
      "OLDVISIT3",
      "20261119143000",
    ],
    facts: [
      "|20261123083000||ADT^A03^ADT_A03|MSG20417|",
      "EVN|A03|20261123083000|20261123090000||",
      "|20261123082500\r",
      "I21.4^NSTEMI^I10",
      "BCBSNC01^Blue Cross NC|BCBS|BLUE CROSS BLUE SHIELD OF NC",
      "|GRP7788|",
      "|20261124|CG|99223^Initial hospital care^CPT|",
    ],
  }]);
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(STAY, "read_file");
  for (const cat of ["ACCOUNT", "VISIT", "MEMBER", "LICENSE", "DATE"]) {
    assert(out.text.includes(`[[${cat}_1]]`), `${cat} token: ${out.text}`);
  }
  // PID-33 (last update) equals MSH-7 here: the same string stays in clear in both places.
  assert(out.text.includes("^^^GHH^MR||||||||||||20261123083000\r"), out.text);
});

// ---------------------------------------------------------------------------------------------
// e. The tier-3 line rule reads the value written after the field, and nothing else on the line.

Deno.test("tier 3: the value after a field reference, by the field's rule; facts on the line stay", async () => {
  const cases = [
    {
      label: "counts and a control id on a PID.18 line",
      text: "PID.18 empty in 12 of 4,310 messages (MSH.10 ctl 20261123083000417)",
      values: [],
      facts: ["PID.18 empty in 12 of 4,310 messages (MSH.10 ctl 20261123083000417)"],
    },
    {
      label: "counts on a PID.13.4 line after a log timestamp",
      text: "2026-11-23 08:30:00.412 [qa] PID.13.4 missing in 55 of 1200 messages, 3 retries, port 6001",
      values: [],
      facts: ["2026-11-23 08:30:00.412 [qa] PID.13.4 missing in 55 of 1200 messages, 3 retries, port 6001"],
    },
    {
      label: "XAD after `is`",
      text: "PID.11 is 455 OAK AVE^^DENVER^CO^80202",
      values: ["455 OAK AVE", "DENVER", "80202"],
      facts: ["PID.11 is ", "^^", "^CO^"],
    },
    {
      label: "street after `is`, prose after it",
      text: "PID.11 is 12 ELM ST and the zip is missing (seen 14 times since 2026-11-20)",
      values: ["12 ELM ST"],
      facts: ["PID.11 is ", " and the zip is missing (seen 14 times since 2026-11-20)"],
    },
    {
      label: "hcixlttest trace",
      text: [
        "xlate adt_in.xlt: 2026-11-23 08:30:01",
        "  PID.3.1 <- 70011234",
        "  PID.5.1 <- SMITH",
        "  PID.5.2 <- MARY",
        "  PID.7 <- 1964-10-28",
        "  PID.18 <- AN7001",
        "  PV1.19 <- VN442211",
        "  PV1.44 <- 20261118101500",
        "  MSH.7 <- 20261123083001",
        "  MSH.10 <- 8830017",
        "  EVN.2 <- 20261123083001",
        "  PID.8 <- F",
        "xlate done: 11 fields, 0 errors in 1.42 ms",
      ].join("\n"),
      values: ["70011234", "SMITH", "MARY", "1964-10-28", "AN7001", "VN442211", "20261118101500"],
      facts: [
        "2026-11-23 08:30:01",
        "MSH.7 <- 20261123083001",
        "MSH.10 <- 8830017",
        "EVN.2 <- 20261123083001",
        "PID.8 <- F",
        "11 fields, 0 errors in 1.42 ms",
      ],
    },
    {
      label: "every connector",
      text: "PID.3 = 70011235; PID.19: 123-45-6789, PID.5 -> JONES^ANN, PID.13.1 == (555)555-0142 " +
        "and IN1.36 (policy number) is POL998877; PID.20 was NC55512^NC",
      values: ["70011235", "123-45-6789", "JONES^ANN", "(555)555-0142", "POL998877", "NC55512"],
      facts: ["PID.3 = ", "PID.19: ", "PID.5 -> ", "IN1.36 (policy number) is ", "^NC"],
    },
    {
      label: "a value before the reference is not its value",
      text: "saw 20261123083000417 in PV1.19 and 4310 in PID.18 today",
      values: [],
      facts: ["saw 20261123083000417 in PV1.19 and 4310 in PID.18 today"],
    },
  ];
  await sanitizeAll(cases);
  // The same text as typed by the operator.
  await sanitizeAll(cases, "user");
  // Categories: the field's own.
  const cat = (t: string) => findHl7Lines(t).map((c) => `${c.category} ${c.value}`);
  assertEquals(cat("PID.11 is 455 OAK AVE^^DENVER^CO^80202"), [
    "ADDRESS 455 OAK AVE",
    "ADDRESS DENVER",
    "ADDRESS 80202",
  ]);
  assertEquals(cat("PID.18 <- AN7001"), ["ACCOUNT AN7001"]);
  assertEquals(cat("PV1.19 = VN442211"), ["VISIT VN442211"]);
  assertEquals(cat("IN1.49: MBR1^^^BCBS^MB"), ["MEMBER MBR1"]);
  assertEquals(cat("PID.20 is NC55512^NC"), ["LICENSE NC55512"]);
  assertEquals(cat("PV1.45 -> 20261123080000"), ["DATE 20261123080000"]);
  assertEquals(cat("PID.7 <- 1964-10-28"), ["DOB 1964-10-28"]);
  assertEquals(cat("SCH.11.4 = 20261201140000, SCH.11.3 = 30"), ["DATE 20261201140000"]);
  assertEquals(cat("  SPM.17.2  Range End  20261120100500"), ["DATE 20261120100500"]);
  assertEquals(cat("PID.5.1: 1 time(s); PID.18 4310 messages; PID.3 12 of 40"), []);
  // A field's label written after its path (schema notes, tickets) is no value.
  for (
    const label of [
      "PID.7: Date/Time of Birth (TS)",
      "PID.7 is Date of Birth",
      "PID.3 = Patient Identifier List",
      "PV1.19 is Visit Number",
      "PID.13.4 = Email Address",
    ]
  ) assertEquals(cat(label), [], label);
});

Deno.test("tier 3: a log timestamp is never a DOB, so it is never swept into later text", async () => {
  await using h = await testEngine();
  const first = "2026-11-23 08:30:00 PID.7 <- 1964-10-28 (DOB rewritten)\n";
  const out1 = await h.engine.sanitizeToolResult(first, "read_file");
  assert(out1.text.startsWith("2026-11-23 08:30:00 PID.7 <- [[DOB_1]]"), out1.text);
  const later = "run of 2026-11-23: 4,310 messages, first at 2026-11-23 08:30:00";
  const out2 = await h.engine.sanitizeToolResult(later, "read_file");
  assertEquals(out2.text, later);
});

Deno.test("field listings and messages agree: one value, one token, one category", async () => {
  await using h = await testEngine();
  const msg = await h.engine.sanitizeToolResult(STAY, "read_file");
  const listing = [
    "  PID.7     Date/Time of Birth        19610615",
    "  PID.18    Patient Account Number    AN5521001^^^GHH^AN",
    "  PID.20.1  License Number            NC987654",
    "  PV1.19    Visit Number              VN8812^^^GHH^VN",
    "  PV1.44    Admit Date/Time           20261118101500",
    "  IN1.36    Policy Number             POL556677",
    "  MSH.7     Date/Time of Message      20261123083000",
    "  EVN.2     Recorded Date/Time        20261123083000",
  ].join("\n");
  const out = await h.engine.sanitizeToolResult(listing, "read_file");
  const tokenOf = (text: string, after: string) =>
    new RegExp(`${after}[^\\n]*?(\\[\\[[A-Z]+_\\d+\\]\\])`).exec(text)?.[1];
  for (
    const [row, inMsg] of [
      ["PID.7 ", "\\|M\\|\\|\\|\\[\\[ADDRESS|\\|"],
      ["PID.18 ", "\\|S\\|\\|"],
      ["PV1.19 ", "\\|A0\\|\\|\\|\\|\\|"],
      ["IN1.36 ", "\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|\\|"],
    ]
  ) {
    const t = tokenOf(out.text, row);
    assert(t, `${row}: ${out.text}`);
    assert(msg.text.includes(t!), `${row} token ${t} is not the message's (${inMsg})`);
  }
  for (const cat of ["DOB", "ACCOUNT", "LICENSE", "VISIT", "DATE", "MEMBER"]) {
    assert(new RegExp(`\\[\\[${cat}_\\d+\\]\\]`).test(out.text), `${cat}: ${out.text}`);
  }
  assert(out.text.includes("Date/Time of Message      20261123083000"), out.text);
  assert(out.text.includes("Recorded Date/Time        20261123083000"), out.text);
  assertEquals(h.engine.detokenize(out.text).text, listing);
});

// ---------------------------------------------------------------------------------------------
// Never throws: random and truncated inputs of the new forms.

Deno.test("fuzz: ^M, QP soft breaks, mid-frame captures and field mentions never throw", () => {
  const pieces = [
    "PID|1||55110099^^^GHH^MR||SMITH^MARY||19610304|F",
    "^M",
    "^MPID|",
    "^MAIS|1|",
    "=\r\n",
    "=\n",
    "=0D=0A",
    "=0D",
    "\x0b",
    "\x1c\r",
    "MSA|AE|4812733|Patient THOMAS, BARBARA",
    "ERR||PID^1^3|204|E||x|y|z",
    "PID.11 is ",
    "PID.7 <- ",
    "PID.5.1: ",
    " -> ",
    "455 OAK AVE^^DENVER^CO^80202",
    "\r",
    "\n",
    "|",
    "^",
    '"',
    "SCH|A|A|||||||||^^30^20261201140000^20261201143000",
    "FT1|1|||20261119^20261120",
    "OBX|1|XAD|X||9 PINE RD^^DURHAM",
    `${MSH()}`,
  ];
  const rand = mulberry32(424242);
  for (let i = 0; i < 1500; i++) {
    const n = 1 + Math.floor(rand() * 14);
    let text = "";
    for (let j = 0; j < n; j++) text += pick(rand, pieces);
    if (rand() < 0.3) text = text.slice(Math.floor(rand() * text.length));
    const primary = scanHl7(text);
    const s = embeddedScan(text, primary) ?? primary;
    for (const c of [...s.structured, ...findHl7Lines(text)]) {
      assert(c.start >= 0 && c.end <= text.length && c.start < c.end, JSON.stringify(text));
      assertEquals(
        text.slice(c.start, c.end),
        c.value.length && c.tier === "hl7" ? c.value : text.slice(c.start, c.end),
      );
    }
  }
});
