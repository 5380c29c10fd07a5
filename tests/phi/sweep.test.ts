/**
 * The known-value sweep (phi/sweep.ts): a value tokenized by structure stays tokenized wherever else
 * it stands in the same text. Cases written by hand from what broken senders do (HL7 v2.5.1 field
 * numbers: NK1-8 is a start date, NK1-16 a birth date, NK1-4 the address), then a seeded fuzz.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { formsOf, sweepKnown } from "../../phi/sweep.ts";
import { candidate } from "../../phi/candidate.ts";
import { leaks, testEngine } from "./_support.ts";
import { mulberry32, pick } from "../support/prng.ts";

const MSH = "MSH|^~\\&|REG|MAIN|ADT|HUB|20261124083000||ADT^A08|5120037|P|2.5";
const PID = "PID|1||5120037^^^MAIN^MR||QUIGLEY^ROSALIND^Q||19610414|F|||12 ELM ST^^SPRINGDALE^IL^62701||" +
  "(217)555-0142|||||A9004417^^^MAIN^AN|512-44-9087";
const VALUES = [
  "5120037",
  "QUIGLEY",
  "ROSALIND",
  "19610414",
  "12 ELM ST",
  "SPRINGDALE",
  "62701",
  "555-0142",
  "A9004417",
];

async function sanitized(lines: string[]): Promise<{ out: string; back: string }> {
  await using h = await testEngine("on");
  const text = lines.join("\r") + "\r";
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  return { out: r.text, back: h.engine.detokenize(r.text).text };
}

function lineOf(out: string, id: string): string {
  return out.split("\r").find((l) => l.startsWith(id)) ?? "";
}

Deno.test("sweep: a broken sender's shifted NK1 fields keep no value of the patient in clear", async () => {
  // Name in NK1-8 (a date field), DOB in NK1-10, the address in NK1-14: each one field off.
  const nk1 = "NK1|1|QUIGLEY^TOBIAS|SPO|||||QUIGLEY^ROSALIND^Q||19610414||||12 ELM ST^^SPRINGDALE^IL^62701";
  const { out, back } = await sanitized([MSH, PID, nk1]);
  const line = lineOf(out, "NK1|");
  for (const v of ["QUIGLEY", "ROSALIND", "19610414", "12 ELM ST", "SPRINGDALE", "62701", "TOBIAS"]) {
    assert(!leaks(line, v), `${v} in ${line}`);
  }
  assertEquals(back, [MSH, PID, nk1].join("\r") + "\r", "the message comes back exactly");
});

Deno.test("sweep: a date field holding no date is one value, never half tokenized", async () => {
  // A name the message holds nowhere else, shifted into NK1-8: no part of it may stay.
  const nk1 = "NK1|1|OKAFOR^TOBIAS|SPO|||||HALVORSEN^AMARA^J";
  const { out, back } = await sanitized([MSH, PID, nk1]);
  const line = lineOf(out, "NK1|");
  for (const v of ["HALVORSEN", "AMARA"]) assert(!leaks(line, v), `${v} in ${line}`);
  assertEquals(back, [MSH, PID, nk1].join("\r") + "\r");
});

Deno.test("sweep: AL1 text, an unknown segment and a line that is no segment get the patient's tokens", async () => {
  const al1 = "AL1|1|DA|PCN^Penicillin^RXN|SV|rash QUIGLEY^ROSALIND^Q 19610414";
  const xyz = "XYZ|1|5120037|QUIGLEY^ROSALIND^Q|12 ELM ST|A9004417|(217)555-0142";
  const plain = "forwarded by the desk: QUIGLEY^ROSALIND^Q, acct A9004417, 12 ELM ST, 62701";
  const { out, back } = await sanitized([MSH, PID, al1, xyz, plain]);
  for (const id of ["AL1|", "XYZ|", "forwarded"]) {
    const line = lineOf(out, id);
    for (const v of VALUES) assert(!leaks(line, v), `${v} in ${line}`);
  }
  // The same written form, the same token, as in PID.
  const pidTokens: string[] = lineOf(out, "PID|").match(/\[\[[A-Z]+_\d+\]\]/g) ?? [];
  const xyzTokens = lineOf(out, "XYZ|").match(/\[\[[A-Z]+_\d+\]\]/g) ?? [];
  for (const t of xyzTokens) assert(pidTokens.includes(t), `${t} is PID's own token`);
  assertEquals(back, [MSH, PID, al1, xyz, plain].join("\r") + "\r");
  // Allergy codes and the engine's facts stay.
  assert(lineOf(out, "AL1|").includes("PCN^Penicillin^RXN"));
});

Deno.test("sweep: the header's facts stay even when a value equals one of them; short numbers stay", async () => {
  // MSH-10 (the control id) equals the MRN here; OBX-5's 4-digit result is not a known value.
  const obx = "OBX|1|NM|2345-7^Glucose^LN||4417|mg/dL|70-99|H|||F";
  const { out } = await sanitized([MSH, PID, obx]);
  assertEquals(lineOf(out, "MSH|"), MSH, "MSH is the engine's, never swept");
  assert(lineOf(out, "OBX|").includes("|4417|"), lineOf(out, "OBX|"));
});

Deno.test("sweep: written forms of a phone, a date of birth, an SSN and a name", () => {
  const forms = (value: string, category: string) => formsOf({ value, category, canonical: value });
  assert(forms("(217)555-0142", "PHONE").includes("217-555-0142"));
  assert(forms("(217)555-0142", "PHONE").includes("2175550142"));
  assert(forms("19610414", "DOB").includes("04/14/1961"));
  assert(forms("19610414", "DOB").includes("1961-04-14"));
  assert(forms("512-44-9087", "SSN").includes("512449087"));
  assert(forms("QUIGLEY^ROSALIND^Q", "NAME").includes("rosalind quigley"));
  assert(
    !forms("QUIGLEY^ROSALIND^Q", "NAME").includes("quigley^rosalind"),
    "an HL7 spelling only as written",
  );
  assertEquals(forms("IL", "ADDRESS"), [], "too short to look for");
  assertEquals(forms("4417", "MRN"), [], "too few digits");
});

Deno.test("sweep: a name's forms are lowercased whole, as the text is (a Greek final sigma)", () => {
  // JavaScript lowercases Σ to ς before a space or comma and to σ before ^: a form cut from the
  // lowercased HL7 value would never match the lowercased text.
  const forms = formsOf({ value: "ΟΔΥΣΣΕΥΣ^ΓΙΑΝΝΗΣ", category: "NAME", canonical: "" });
  assert(forms.includes("γιαννης οδυσσευς"), forms.join(" | "));
  const text = "PID|1||123||ΟΔΥΣΣΕΥΣ^ΓΙΑΝΝΗΣ||\nNTE|1||patient ΓΙΑΝΝΗΣ ΟΔΥΣΣΕΥΣ called\n";
  const at = text.indexOf("ΟΔΥΣΣΕΥΣ^ΓΙΑΝΝΗΣ");
  const c = candidate(at, at + 16, "ΟΔΥΣΣΕΥΣ^ΓΙΑΝΝΗΣ", "NAME", "ΟΔΥΣΣΕΥΣ^ΓΙΑΝΝΗΣ", "hl7_pipeline", "PID-5");
  assertEquals(sweepKnown(text, [c], [c], false).add.map((x) => x.value), ["ΓΙΑΝΝΗΣ ΟΔΥΣΣΕΥΣ"]);
});

Deno.test("sweep: thousands of values alike in one text without messages (a TSV) are each found", () => {
  // 3,000 phones sharing their first six digits, each once as a known value and once again later:
  // every second standing is swept, none mistaken for another.
  const phones = Array.from({ length: 3000 }, (_, i) => `217555${String(i).padStart(4, "0")}`);
  const head = phones.map((p, i) => `row${i}\t${p}`).join("\n");
  const text = `${head}\n--- again ---\n${phones.slice().reverse().join(" ")}\n`;
  const known = phones.map((p) => {
    const at = text.indexOf(`\t${p}`) + 1;
    return candidate(at, at + p.length, p, "PHONE", p, "contextual", "TSV");
  });
  const swept = sweepKnown(text, known, known, false).add;
  assertEquals(swept.length, 3000);
  const tail = text.indexOf("--- again");
  assert(swept.every((c) => c.start > tail && text.slice(c.start, c.end) === c.value));
  assertEquals(new Set(swept.map((c) => c.value)).size, 3000);
});

Deno.test("sweep fuzz: PID's values copied anywhere in 300 messages never stay in clear", async () => {
  const rand = mulberry32(88);
  await using h = await testEngine("on");
  const families = ["QUIGLEY", "OKAFOR", "BRANDT", "LINDQVIST", "MORENO", "HALVORSEN", "ABERNATHY"];
  const givens = ["ROSALIND", "TOBIAS", "INGRID", "MATEO", "SIGRID", "AMARA", "CORNELIUS"];
  let raw = 0;
  for (let n = 0; n < 300; n++) {
    const mrn = String(6_100_000 + n * 131);
    const name = `${pick(rand, families)}X${n}^${pick(rand, givens)}`;
    const dob = `19${40 + (n % 60)}0${1 + (n % 9)}1${n % 10}`;
    const street = `${10 + n} ${pick(rand, ["ELM", "OAK", "BIRCH"])} ST`;
    const acct = `V${8_000_000 + n}`;
    const pid =
      `PID|1||${mrn}^^^H^MR||${name}||${dob}|M|||${street}^^RIVERTON^IL^6${String(1000 + n).slice(-4)}` +
      `||||||||${acct}`;
    const values = [mrn, name, dob, street, acct];
    // Where a broken sender or a log puts them again.
    const v = () => pick(rand, values);
    const places = [
      () => `NK1|1|DOE^JANE|MTH|||||${v()}||${v()}||||${v()}`,
      () => `AL1|1|DA|PCN^Penicillin|SV|${v()}`,
      () => `XYZ|1|${v()}|${v()}`,
      () => `ZZ1|${v()}`,
      () => `note ${v()} see ${v()}`,
      () => `GT1|1||${v()}|||||||||||||||||${v()}`,
    ];
    const extra = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(rand, places)());
    const text = [MSH.replace("5120037", `C${n}`), pid, ...extra].join("\r") + "\r";
    const out = (await h.engine.sanitizeToolResult(text, "read_file")).text;
    const rest = out.split("\r").slice(2).join("\r");
    for (const value of values) {
      for (const part of value.split("^")) if (leaks(rest, part)) raw++;
    }
    assertEquals(h.engine.detokenize(out).text, text, `message ${n} comes back exactly`);
  }
  assertEquals(raw, 0, "values left in clear outside PID");
});
