/**
 * Forms an adversarial review found leaking or wrongly tokenized (`phi_sanitize` on a fresh home):
 * identifier keywords, phone and birth-date spellings. Each hand-written case names what must be
 * tokenized (and as what) and what must stay; generated cases repeat each form with random values.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { npiValid } from "../../phi/tier1_definite.ts";
import { decodedRuns } from "../../phi/base64.ts";
import { nameFinder } from "../../phi/names/mod.ts";

interface Case {
  text: string;
  /** Values that must be tokenized, with the token's category. */
  phi: Array<[string, string]>;
  /** Text that must reach the model unchanged. */
  keep?: string[];
}

/** What is wrong with one case's result (empty when it passes). */
async function problems(c: Case): Promise<string[]> {
  await using h = await testEngine("on");
  const out = await h.engine.sanitizeToolResult(c.text, "bash_exec");
  const bad: string[] = [];
  for (const [value, category] of c.phi) {
    if (leaks(out.text, value)) bad.push(`${JSON.stringify(c.text)}: ${value} leaked`);
    else if (!out.text.includes(`[[${category}_`)) {
      bad.push(`${JSON.stringify(c.text)}: no ${category} token in ${JSON.stringify(out.text)}`);
    }
  }
  for (const k of c.keep ?? []) {
    if (!out.text.includes(k)) bad.push(`${JSON.stringify(c.text)}: lost ${JSON.stringify(k)}`);
  }
  if (c.phi.length === 0 && out.text !== c.text) bad.push(`${JSON.stringify(c.text)} became ${out.text}`);
  return bad;
}

async function check(cases: Case[]): Promise<void> {
  const bad: string[] = [];
  for (const c of cases) bad.push(...await problems(c));
  assertEquals(bad, []);
}

/** Random digits (first not 0), seeded for repeatable runs. */
function rng(seed: number): (n: number) => string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return (n) => {
    let s = String(1 + Math.floor(next() * 9));
    while (s.length < n) s += String(Math.floor(next() * 10));
    return s;
  };
}

const IDENTIFIERS: Case[] = [
  { text: "MR# 12345678", phi: [["12345678", "MRN"]] },
  { text: "Med Rec # 12345678", phi: [["12345678", "MRN"]] },
  { text: "CSN 123456789", phi: [["123456789", "VISIT"]] },
  { text: "FIN 22334455", phi: [["22334455", "ACCOUNT"]] },
  { text: "EMPI 12345678", phi: [["12345678", "MRN"]] },
  { text: "encounter 555666777", phi: [["555666777", "VISIT"]] },
  { text: "Member ID XYZ123456789", phi: [["XYZ123456789", "MEMBER"]] },
  { text: "pt id: 4455667", phi: [["4455667", "MRN"]] },
  { text: "SSN:\n123456789", phi: [["123456789", "SSN"]] },
  { text: "NPI1234567893", phi: [["1234567893", "NPI"]] },
  { text: "PID-19 123456789", phi: [["123456789", "SSN"]] },
  {
    text: "MRNs 11122233 44455566 77788899",
    phi: [["11122233", "MRN"], ["44455566", "MRN"], ["77788899", "MRN"]],
  },
  { text: "MRN 12 345 678", phi: [["12 345 678", "MRN"]] },
];

const NOT_IDENTIFIERS: Case[] = [
  { text: "the MRN field is PID.3 and acct table has 998877 entries", phi: [] },
  { text: "Copied 4455667 bytes from the PID segment; PID.3 has 12 reps", phi: [] },
  { text: "Patient count 1234567 today", phi: [] },
  // A joined NPI whose check digit is wrong is some other code.
  { text: "NPI1234567890", phi: [] },
];

Deno.test("review forms: identifier keywords, lists, groups and a joined NPI are tokenized", async () => {
  await check(IDENTIFIERS);
});

Deno.test("review forms: a count or another noun's number after a keyword stays", async () => {
  await check(NOT_IDENTIFIERS);
});

Deno.test("review forms: generated identifier values behind each keyword", async () => {
  const digits = rng(7);
  const cases: Case[] = [];
  for (let i = 0; i < 6; i++) {
    const v = digits(7 + (i % 3));
    for (const kw of ["MR#", "Med Rec #", "CSN", "FIN", "EMPI", "Encounter", "Member ID", "pt id:"]) {
      // The keyword names the category (issue #23: accounts, visits and member ids are their own).
      const cat = /^(?:CSN|Encounter)$/.test(kw)
        ? "VISIT"
        : kw === "FIN"
        ? "ACCOUNT"
        : kw === "Member ID"
        ? "MEMBER"
        : "MRN";
      cases.push({ text: `see ${kw} ${v} for the ADT`, phi: [[v, cat]], keep: ["for the ADT"] });
    }
    const a = digits(8), b = digits(8), c = digits(8);
    cases.push({ text: `MRNs ${a} ${b} ${c}`, phi: [[a, "MRN"], [b, "MRN"], [c, "MRN"]] });
    cases.push({ text: `Patient count ${v} today`, phi: [] });
    cases.push({ text: `Copied ${v} bytes; PID.3 has 2 reps`, phi: [] });
  }
  // Joined NPIs with a valid check digit.
  let made = 0;
  for (let i = 0; made < 5 && i < 200; i++) {
    const n = "1" + digits(9);
    if (!npiValid(n)) continue;
    made++;
    cases.push({ text: `prov NPI${n} on PV1`, phi: [[n, "NPI"]] });
  }
  assert(made === 5);
  await check(cases);
});

const PHONES: Case[] = [
  {
    text: "Called the daughter at 937 555 0142 yesterday",
    phi: [["937 555 0142", "PHONE"]],
    keep: ["Called the daughter at", "yesterday"],
  },
  { text: "NTE|1||Called the daughter at 937 555 0142 yesterday", phi: [["937 555 0142", "PHONE"]] },
  {
    text: "calling 937 555 0142 now; calls to 9375550142 failed",
    phi: [["937 555 0142", "PHONE"], ["9375550142", "PHONE"]],
  },
  { text: "home 937\u2013555\u20130142", phi: [["937\u2013555\u20130142", "PHONE"]] },
  { text: "tel:+19375550142", phi: [["+19375550142", "PHONE"]] },
  { text: "phone 937 5550142", phi: [["937 5550142", "PHONE"]] },
];

Deno.test("review forms: phones after call words, with en dashes, tel: URIs and 3-7 groups", async () => {
  await check(PHONES);
});

Deno.test("review forms: generated phones in each new form", async () => {
  const digits = rng(11);
  const cases: Case[] = [];
  for (let i = 0; i < 8; i++) {
    const a = String(200 + (+digits(3) % 800)), b = String(200 + (+digits(3) % 800)), c = digits(4);
    cases.push({
      text: `Called the patient's son at ${a} ${b} ${c} twice`,
      phi: [[`${a} ${b} ${c}`, "PHONE"]],
    });
    cases.push({ text: `fax ${a}\u2013${b}\u2013${c}`, phi: [[`${a}\u2013${b}\u2013${c}`, "PHONE"]] });
    cases.push({ text: `<a href="tel:+1${a}${b}${c}">`, phi: [[`+1${a}${b}${c}`, "PHONE"]] });
    cases.push({ text: `cell ${a} ${b}${c}`, phi: [[`${a} ${b}${c}`, "PHONE"]] });
  }
  await check(cases);
});

const BIRTH_DATES: Case[] = [
  { text: "DOB: 1950.01.05", phi: [["1950.01.05", "DOB"]] },
  { text: "DOB:1950.01.05", phi: [["1950.01.05", "DOB"]] },
  { text: "dob:1950.1.5", phi: [["1950.1.5", "DOB"]] },
  { text: "b. 1950-01-05", phi: [["1950-01-05", "DOB"]] },
  { text: "DOB 01051950", phi: [["01051950", "DOB"]] },
  { text: "DOB 010550", phi: [["010550", "DOB"]] },
];

Deno.test("review forms: birth dates with dots, after `b.`, and as bare MMDDYYYY / MMDDYY", async () => {
  await check(BIRTH_DATES);
});

Deno.test("review forms: a version or a plain number after `b.` stays; other dates stay", async () => {
  await check([
    { text: "b. 12345678 rows", phi: [] },
    { text: "upgraded to 3.14.2 and 2024.01.05 build", phi: [] },
    { text: "sent 2024-01-05 to the lab", phi: [] },
  ]);
});

Deno.test("review forms: generated birth dates in each new form", async () => {
  const digits = rng(23);
  const cases: Case[] = [];
  for (let i = 0; i < 10; i++) {
    const y = String(1930 + (+digits(2) % 70)), m = 1 + (+digits(2) % 12), d = 1 + (+digits(2) % 28);
    const mm = String(m).padStart(2, "0"), dd = String(d).padStart(2, "0");
    cases.push({ text: `DOB: ${y}.${mm}.${dd}`, phi: [[`${y}.${mm}.${dd}`, "DOB"]] });
    cases.push({ text: `dob:${y}.${m}.${d}`, phi: [[`${y}.${m}.${d}`, "DOB"]] });
    cases.push({ text: `pt b. ${y}-${mm}-${dd} in Ohio`, phi: [[`${y}-${mm}-${dd}`, "DOB"]] });
    cases.push({ text: `DOB ${mm}${dd}${y}`, phi: [[`${mm}${dd}${y}`, "DOB"]] });
    cases.push({ text: `DOB ${mm}${dd}${y.slice(2)}`, phi: [[`${mm}${dd}${y.slice(2)}`, "DOB"]] });
  }
  await check(cases);
});

Deno.test("review forms: an id of identifier type SS is an SSN, one token with PID.19, exact round trip", async () => {
  const digits = rng(31);
  for (const ssn of ["123456789", "123-45-6789", digits(9)]) {
    await using h = await testEngine("on");
    const msg = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\r" +
      `PID|1||${ssn}^^^SSA^SS~MRN555^^^H^MR||DOE^JANE||19500105|F|||||||||||${ssn}\r`;
    const out = await h.engine.sanitizeToolResult(msg, "bash_exec");
    assert(!leaks(out.text, ssn), out.text);
    const fields = out.text.split("\r")[1].split("|");
    assert(/^\[\[SSN_\d+\]\]\^\^\^SSA\^SS~\[\[MRN_\d+\]\]/.test(fields[3]), fields[3]);
    assertEquals(fields[19], fields[3].split("^")[0]);
    assertEquals(h.engine.detokenize(out.text).text, msg);
  }
});

Deno.test("review forms: short base64 values after `=` or `:` are decoded and sanitized", async () => {
  const shown = decodedRuns("name=S293YWxjenlrXkJlcm5hZGV0dGU= x=U1NOIDEyMy00NS02Nzg5").map((r) => r.text);
  assertEquals(shown, ["Kowalczyk^Bernadette", "SSN 123-45-6789"]);
  // Generated values: each decodes to what was encoded.
  const digits = rng(41);
  const enc = new TextEncoder();
  for (const last of ["Nguyen", "Okafor", "Lindqvist", "Brzezinski", "Delacroix"]) {
    const v = `${last}^Ann`;
    const b64 = enc.encode(v).toBase64();
    assertEquals(decodedRuns(`pt=${b64};`).map((r) => r.text), [v]);
    assertEquals(decodedRuns(`"name": "${b64}"`).map((r) => r.text), [v]);
  }
  await using h = await testEngine("on");
  for (let i = 0; i < 5; i++) {
    const ssn = `${digits(3)}-${digits(2)}-${digits(4)}`;
    const text = `x=${enc.encode(`SSN ${ssn}`).toBase64()} done`;
    const out = await h.engine.sanitizeToolResult(text, "bash_exec");
    assert(out.text !== text && out.text.endsWith(" done"), out.text);
    assert(!decodedRuns(out.text).some((r) => r.text.includes(ssn)), out.text);
    assertEquals(h.engine.detokenize(out.text).text, text);
  }
});

Deno.test("review forms: short hashes and keys after `=` stay untouched", async () => {
  // Random bytes (seeded) of 12 to 23 bytes, as hashes, salts and keys are.
  let x = 99;
  const byte = () => (x = (x * 1103515245 + 12345) % 2147483648) >> 23;
  const texts: string[] = [];
  for (let n = 12; n < 24; n++) {
    for (let k = 0; k < 8; k++) {
      const b = new Uint8Array(n).map(() => byte());
      texts.push(`sha=${b.toBase64()} salt: ${b.toBase64({ alphabet: "base64url", omitPadding: true })}`);
    }
  }
  for (const t of texts) assertEquals(decodedRuns(t), [], t);
  await using h = await testEngine("on");
  for (const t of texts.slice(0, 20)) {
    assertEquals((await h.engine.sanitizeToolResult(t, "bash_exec")).text, t);
  }
});

/** The names the built-in tier 5 finds in `text` (no engine root). */
async function namesIn(text: string): Promise<string[]> {
  const find = await nameFinder(undefined);
  return find(text).map((s) => text.slice(s.start, s.end));
}

Deno.test("review forms: names in capitals after a comma, and lowercase after a name cue", async () => {
  assertEquals(await namesIn("THOMPSON, MARGARET A was the patient"), ["THOMPSON, MARGARET"]);
  assertEquals(await namesIn("Failing msg for KOWALSKI, ANNA"), ["KOWALSKI, ANNA"]);
  assertEquals(await namesIn("HERNANDEZ, MARIA L"), ["HERNANDEZ, MARIA"]);
  assertEquals(await namesIn("patient name: garcia, jose"), ["garcia, jose"]);
  // Generated: known family and given names in both forms.
  const pairs = [["GARCIA", "JOSE"], ["NGUYEN", "LINDA"], ["MILLER", "ROBERT"], ["LOPEZ", "ANA"], [
    "WILSON",
    "MARY",
  ]];
  for (const [last, first] of pairs) {
    assertEquals(await namesIn(`msg for ${last}, ${first} failed`), [`${last}, ${first}`]);
    const lower = `${last.toLowerCase()}, ${first.toLowerCase()}`;
    assertEquals(await namesIn(`name: ${lower}`), [lower]);
  }
  // An HL7 person name out of its segment (as a decoded `name=` value gives it); not message types.
  assertEquals(await namesIn("Kowalczyk^Bernadette"), ["Kowalczyk^Bernadette"]);
  assertEquals(await namesIn("msg ADT^A01 from ORU^R01 via Epic^Cerner"), []);
  // Through the engine (tier 5 on): nothing of the name reaches the model.
  await using h = await testEngine("on", { config: { phiNames: "on" } });
  const out = await h.engine.sanitizeToolResult("THOMPSON, MARGARET A was the patient", "bash_exec");
  assert(!leaks(out.text, "THOMPSON") && !leaks(out.text, "MARGARET"), out.text);
  const encoded = "name=S293YWxjenlrXkJlcm5hZGV0dGU=";
  const b = await h.engine.sanitizeToolResult(encoded, "bash_exec");
  assert(b.text !== encoded && !decodedRuns(b.text).some((r) => r.text.includes("Kowalczyk")), b.text);
  assertEquals(h.engine.detokenize(b.text).text, encoded);
});

Deno.test("review forms: engine objects and teams named like people are not names", async () => {
  const keep = [
    "Grace period 30 s; Hunter thread; Jordan site",
    "Per Austin datacenter policy",
    "Thanks,\nInterface Team",
    "ERROR, MARK the message",
    "name: port, table",
  ];
  for (const t of keep) assertEquals(await namesIn(t), [], t);
  for (const w of ["Hunter", "Jordan", "Austin", "Taylor", "Madison"]) {
    for (const noun of ["thread", "site", "proc", "table", "process", "route", "xlate"]) {
      assertEquals(await namesIn(`restart the ${w} ${noun} now`), [], `${w} ${noun}`);
    }
  }
});
