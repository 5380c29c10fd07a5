/**
 * NCPDP Telecommunication D.0 (phi/ncpdp.ts) through its scan and through the real engine.
 *
 * The corpus is written by hand in the D.0 layouts (the 56-character request header and the
 * 31-character response header as the standard's transaction header tables give them; segments
 * AM01 patient, AM04 insurance, AM07 claim, AM03 prescriber, AM11 pricing, AM13 clinical, AM06
 * workers' compensation, AM20/AM21/AM22/AM23/AM29 of a response; field ids with their values glued
 * on), with synthetic people, ids and addresses of our own; the generated corpus at the end comes from
 * a seeded PRNG (tests/support/x12_ncpdp_gen.ts). Each case lists the values that must be
 * tokenized and the facts that must stay in clear (BIN, PCN, version, transaction codes, counts,
 * NDCs, quantities, amounts, reject codes, group ids, authorization numbers).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { ncpdp, scanNcpdp } from "../../phi/ncpdp.ts";
import { leaks, roundTrip as sharedRoundTrip, testEngine } from "./_support.ts";
import { mulberry32, randomText } from "../support/prng.ts";
import {
  body,
  FS,
  generatedNcpdp,
  GS,
  requestHeader,
  responseHeader,
  RS,
  spelled,
  SPELLINGS,
} from "../support/x12_ncpdp_gen.ts";

const CLAIM = requestHeader() + body([
  ["AM04", "C2ZW4471902388", "C1RXGRP77", "CCMARGARET", "CDQUILLFEATHER", "C301", "C61"],
  [
    "AM01",
    "CXEA",
    "CYMR0099812",
    "C419580722",
    "C52",
    "CAMARGARET",
    "CBQUILLFEATHER",
    "CM77 HARBOR VIEW DR",
    "CNPORTLAND",
    "COME",
    "CP04101",
    "CQ2075550143",
    "HNmq1958@example.org",
    "4X01",
  ],
  "|",
  [
    "AM07",
    "EM1",
    "D2000004471902",
    "E103",
    "D700093715001",
    "E730000",
    "D300",
    "D530",
    "D60",
    "D80",
    "DE20240310",
    "DJ1",
    "C81",
  ],
  [
    "AM03",
    "EZ01",
    "DB1679576722",
    "DROKONKWO",
    "2JCHIDI",
    "PM6085550199",
    "2K2200 COMMERCE BLVD",
    "2MMADISON",
  ],
  ["AM11", "D91500{", "DC150{", "DQ1650{", "DU1650{", "DN01"],
  ["AM13", "VE1", "WE02", "DOE119"],
]);

const CLAIM_VALUES = [
  "1386942217",
  "20240315",
  "ZW4471902388",
  "MARGARET",
  "QUILLFEATHER",
  "MR0099812",
  "19580722",
  "77 HARBOR VIEW DR",
  "PORTLAND",
  "04101",
  "2075550143",
  "mq1958@example.org",
  "000004471902",
  "20240310",
  "1679576722",
  "OKONKWO",
  "CHIDI",
];
const CLAIM_FACTS = [
  "610591D0B1ADV",
  "SWVNDR0001",
  "RXGRP77",
  "AM04",
  "AM07",
  "00093715001",
  "E730000",
  "D530",
  "D91500{",
  "DQ1650{",
  "DOE119",
  "PM6085550199",
  "2K2200 COMMERCE BLVD",
  "2MMADISON",
  "COME",
];

Deno.test("NCPDP headers are the standard's widths", () => {
  assertEquals(requestHeader().length, 56);
  assertEquals(responseHeader("A").length, 31);
});

Deno.test("NCPDP B1 claim: header, patient, insurance, claim and prescriber fields by id", () => {
  const scan = scanNcpdp(CLAIM);
  assertEquals(scan.structured.map((c) => [c.context ?? "", c.category, c.value]), [
    ["NCPDP header.201-B1", "NPI", "1386942217"],
    ["NCPDP header.401-D1", "DATE", "20240315"],
    ["NCPDP AM04.C2", "MEMBER", "ZW4471902388"],
    ["NCPDP AM04.CC", "NAME", "MARGARET"],
    ["NCPDP AM04.CD", "NAME", "QUILLFEATHER"],
    ["NCPDP AM01.CY", "MRN", "MR0099812"],
    ["NCPDP AM01.C4", "DOB", "19580722"],
    ["NCPDP AM01.CA", "NAME", "MARGARET"],
    ["NCPDP AM01.CB", "NAME", "QUILLFEATHER"],
    ["NCPDP AM01.CM", "ADDRESS", "77 HARBOR VIEW DR"],
    ["NCPDP AM01.CN", "ADDRESS", "PORTLAND"],
    ["NCPDP AM01.CP", "ADDRESS", "04101"],
    ["NCPDP AM01.CQ", "PHONE", "2075550143"],
    ["NCPDP AM01.HN", "EMAIL", "mq1958@example.org"],
    ["NCPDP AM07.D2", "MRN", "000004471902"],
    ["NCPDP AM07.DE", "DATE", "20240310"],
    ["NCPDP AM03.DB", "NPI", "1679576722"],
    ["NCPDP AM03.DR", "NAME", "OKONKWO"],
    ["NCPDP AM03.2J", "NAME", "CHIDI"],
  ]);
  assertEquals(scan.segments, [{ start: 0, end: CLAIM.length }]);
  for (const c of scan.structured) assertEquals(CLAIM.slice(c.start, c.end), c.value);
});

/** Through the engine (tests/phi/_support.ts), facts checked anywhere in the text. */
const roundTrip = (text: string, values: string[], facts: string[], how: "tool" | "user" = "tool") =>
  sharedRoundTrip(text, values, facts, how, "text");

Deno.test("NCPDP B1 claim through the engine: values tokenized, facts in clear, exact round trip", async () => {
  await roundTrip(CLAIM, CLAIM_VALUES, CLAIM_FACTS);
});

Deno.test("NCPDP written-out separators: every spelling reads like the raw bytes", async () => {
  const raw = scanNcpdp(CLAIM).structured.map((c) => [c.context, c.value]);
  for (const sp of SPELLINGS) {
    const text = spelled(CLAIM, sp);
    assert(ncpdp.maybe(text), sp[0]);
    assertEquals(scanNcpdp(text).structured.map((c) => [c.context, c.value]), raw, sp[0]);
    await roundTrip(`hcitpstest: ${text}`, CLAIM_VALUES, CLAIM_FACTS.filter((f) => f !== "610591D0B1ADV"));
  }
});

Deno.test("NCPDP anywhere in a text: log prefixes, several transmissions, JSON strings", async () => {
  const second = requestHeader({ spid: "1932176588", dos: "20240316", txn: "B2" }) + body([
    ["AM04", "C2XY0033417750"],
    ["AM01", "C420110830", "CATOBIAS", "CBQUILLFEATHER"],
    "|",
    ["AM07", "EM1", "D2000004471999", "E103", "D700093715001"],
  ]);
  const log = `2024-03-15 09:12:44 [pharm_in] <- ${CLAIM}\n2024-03-15 09:12:45 [pharm_in] <- ${second}\n` +
    "pharm_in: 2 transactions, 0 errors, port 5001\n";
  await roundTrip(log, [...CLAIM_VALUES, "1932176588", "20240316", "XY0033417750", "20110830", "TOBIAS"], [
    ...CLAIM_FACTS,
    "pharm_in",
    "5001",
    "D2000004471999".slice(0, 2),
  ]);
  // Raw bytes inside a JSON string are written \u001c; the closing quote ends the transmission.
  const json = JSON.stringify({ seq: 77120, request: CLAIM, state: "sent" });
  const out = await roundTrip(json, CLAIM_VALUES, [...CLAIM_FACTS, "77120", '"state":"sent"']);
  assert(out.includes("\\u001cD700093715001"));
  // `\x1c` spelled in a log and then JSON-encoded (two backslashes in the raw text).
  const doubled = JSON.stringify({ line: spelled(CLAIM, ["\\x1c", "\\x1d", "\\x1e"]) });
  const scan = scanNcpdp(doubled);
  assertEquals(scan.structured.length, 19);
  assertEquals(scan.structured[0].value, "1386942217");
  for (const c of scan.structured) assert(!c.value.endsWith("\\"), c.value);
  await roundTrip(doubled, CLAIM_VALUES, ["RXGRP77", "00093715001"]);
});

Deno.test("NCPDP inside base64 and typed in a JSON value, through the engine", async () => {
  // Written-out separators (the raw GS and RS bytes are not decoded as text by the base64 pass yet:
  // see the next test).
  const written = spelled(CLAIM, ["<FS>", "<GS>", "<RS>"]);
  const b64 = btoa(written);
  const text = `payload=${b64}\n`;
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(text, "read_file");
  assert(!out.text.includes(b64));
  const decoded = atob(out.text.slice("payload=".length).trim());
  for (const v of CLAIM_VALUES) assert(!leaks(decoded, v), v);
  assert(decoded.includes("RXGRP77") && decoded.includes("00093715001"));
  assertEquals(h.engine.detokenize(out.text).text, text);
  await roundTrip(`claim rejected, here it is: {"ncpdp":${JSON.stringify(CLAIM)}}`, CLAIM_VALUES, [
    "RXGRP77",
    "00093715001",
  ], "user");
});

Deno.test({
  name: "NCPDP raw bytes inside base64: GS and RS are read as text",
  // phi/base64.ts reads NCPDP's GS and RS (0x1D, 0x1E) as part of a decoded text.
  fn: async () => {
    await using h = await testEngine();
    const text = `payload=${btoa(CLAIM)}\n`;
    const out = await h.engine.sanitizeToolResult(text, "read_file");
    const decoded = atob(out.text.slice("payload=".length).trim());
    for (const v of CLAIM_VALUES) assert(!leaks(decoded, v), v);
    assertEquals(h.engine.detokenize(out.text).text, text);
  },
});

Deno.test("NCPDP responses: header, response patient, messages as free text; codes stay", async () => {
  const paid = responseHeader("A") + body([
    ["AM20", "F4PAID. NEXT FILL AFTER 04/09/2024"],
    "|",
    ["AM21", "ANP", "F3PA20240315AX7", "UF1", "FQCALL HELP DESK 8005550100"],
    ["AM22", "EM1", "D2000004471902"],
    ["AM23", "F5500{", "F61150{", "F91150{"],
  ]);
  const scan = scanNcpdp(paid);
  assertEquals(scan.structured.map((c) => [c.context, c.category, c.value]), [
    ["NCPDP header.201-B1", "NPI", "1386942217"],
    ["NCPDP header.401-D1", "DATE", "20240315"],
    ["NCPDP AM22.D2", "MRN", "000004471902"],
  ]);
  assertEquals(scan.free.map((f) => paid.slice(f.start, f.end)), [
    "PAID. NEXT FILL AFTER 04/09/2024",
    "CALL HELP DESK 8005550100",
  ]);
  await roundTrip(paid, ["1386942217", "000004471902"], ["PA20240315AX7", "F61150{", "D0B11A01", "ANP"]);

  const rejected = responseHeader("R") + body([
    ["AM20", "F4M/I CARDHOLDER ID"],
    ["AM29", "CAMARGARET", "CBQUILLFEATHER", "C419580722"],
    "|",
    ["AM21", "ANR", "FA2", "FB07", "FB65"],
  ]);
  await roundTrip(rejected, ["MARGARET", "QUILLFEATHER", "19580722", "1386942217"], [
    "FB07",
    "FB65",
    "M/I CARDHOLDER ID",
    "D0B11R01",
  ]);
});

Deno.test("NCPDP qualifiers: CX 01 makes CY an SSN, EZ 12 makes DB a licence; workers' comp", () => {
  const text = requestHeader({ txn: "E1" }) + body([
    ["AM01", "CX01", "CY518442917", "CASOREN", "CBHALVORSEN"],
    ["AM04", "C2W88213547", "NUOTH5512098", "N5MCD77120044"],
    "|",
    ["AM03", "EZ12", "DBBO1234563", "DRVASQUEZ-ORR", "2JLUCIA", "4EOKONKWO", "DL1679576722"],
    [
      "AM06",
      "DY20240201",
      "CFNORTHWIND MANUFACTURING",
      "CLHARLAN BRISTOW",
      "CK6155550188",
      "DZWC-20240201-77",
    ],
    ["AM16", "BMPATIENT TRAVELING, EARLY REFILL"],
  ]);
  const by = Object.fromEntries(
    scanNcpdp(text).structured.map((c) => [c.context, `${c.category}:${c.value}`]),
  );
  assertEquals(by["NCPDP AM01.CY"], "SSN:518442917");
  assertEquals(by["NCPDP AM04.NU"], "MEMBER:OTH5512098");
  assertEquals(by["NCPDP AM04.N5"], "MEMBER:MCD77120044");
  assertEquals(by["NCPDP AM03.DB"], "LICENSE:BO1234563");
  assertEquals(by["NCPDP AM03.4E"], "NAME:OKONKWO");
  assertEquals(by["NCPDP AM03.DL"], "NPI:1679576722");
  assertEquals(by["NCPDP AM06.DY"], "DATE:20240201");
  assertEquals(by["NCPDP AM06.CL"], "NAME:HARLAN BRISTOW");
  assertEquals(by["NCPDP AM06.DZ"], "ACCOUNT:WC-20240201-77");
  assertEquals(by["NCPDP AM06.CF"], undefined);
  assertEquals(by["NCPDP AM06.CK"], undefined);
  const scan = scanNcpdp(text);
  assertEquals(scan.free.map((f) => text.slice(f.start, f.end)), ["PATIENT TRAVELING, EARLY REFILL"]);
});

Deno.test("NCPDP fragments without a header, and near misses that are not NCPDP", () => {
  // A segment pasted alone (no header): the fields are still read.
  const frag = "the patient segment was <RS><FS>AM01<FS>C419580722<FS>CAMARGARET<FS>CBQUILLFEATHER and then";
  assertEquals(scanNcpdp(frag).structured.map((c) => c.value), [
    "19580722",
    "MARGARET",
    "QUILLFEATHER",
  ]);
  for (
    const t of [
      "the AM01 segment holds the patient",
      "<FS> is the field separator",
      "MSH|^~\\&|A|B\rPID|1||123",
      "10:30 AM01 shift",
    ]
  ) {
    const s = ncpdp.maybe(t) ? ncpdp.scan(t) : undefined;
    assertEquals(s?.structured ?? [], [], t);
  }
  assert(!ncpdp.maybe("plain prose"));
});

Deno.test("NCPDP scan never throws: random pieces and every truncation", () => {
  const rand = mulberry32(2424);
  const pieces = [
    FS,
    GS,
    RS,
    "<FS>",
    "<RS>",
    "\\x1c",
    "^\\",
    "^^",
    "AM01",
    "AM04",
    "CA",
    "CB",
    "C4",
    "CX01",
    "CY",
    "EZ12",
    "DB",
    "JOHN",
    "19620304",
    " ",
    "\n",
    '"',
    "\\",
    requestHeader(),
    responseHeader("A"),
    "[[NAME_1]]",
  ];
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 30);
    const s = ncpdp.maybe(t) ? ncpdp.scan(t) : undefined;
    for (const c of s?.structured ?? []) assertEquals(t.slice(c.start, c.end), c.value);
  }
  for (const text of [CLAIM, spelled(CLAIM, SPELLINGS[0]), spelled(CLAIM, SPELLINGS[7])]) {
    for (let n = 0; n <= text.length; n++) {
      for (const t of [text.slice(0, n), text.slice(n)]) {
        for (const c of scanNcpdp(t).structured) assertEquals(t.slice(c.start, c.end), c.value);
      }
    }
  }
});

// ---- generated corpus ------------------------------------------------------------------------------

Deno.test("NCPDP generated corpus: 200 claims, every person value tokenized, facts kept", async () => {
  await using h = await testEngine();
  for (let seed = 1; seed <= 200; seed++) {
    const g = generatedNcpdp(seed);
    const out = await h.engine.sanitizeToolResult(g.text, "read_file");
    for (const v of g.values) assert(!leaks(out.text, v), `seed ${seed}: leaked ${v}`);
    for (const f of g.facts) assert(out.text.includes(f), `seed ${seed}: fact lost ${f}`);
    assertEquals(h.engine.detokenize(out.text).text, g.text, `seed ${seed}`);
  }
});
