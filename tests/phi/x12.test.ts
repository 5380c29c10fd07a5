/**
 * X12 005010 (phi/x12.ts) through its scan and through the real engine.
 *
 * The corpus is written by hand in the shapes of the ASC X12 005010 implementation guides' examples
 * (837P X222A1, 837I X223A2, 835 X221A1, 270/271 X279A1, 276/277 X212, 834 X220A1, 278 X217: loop
 * order, qualifiers, element positions), with synthetic people, ids and addresses of our own; the
 * generated corpus at the end comes from a seeded PRNG (tests/support/prng.ts). Each case lists the
 * values that must be tokenized and the engine facts that must stay in clear (control numbers,
 * transaction dates, codes, amounts, payer and provider organizations).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { scanX12, x12 } from "../../phi/x12.ts";
import { leaks, roundTrip as sharedRoundTrip, testEngine } from "./_support.ts";
import { mulberry32, randomText } from "../support/prng.ts";
import { generatedX12, interchange, isa } from "../support/x12_ncpdp_gen.ts";

const fields = (text: string) => scanX12(text).structured.map((c) => [c.context ?? "", c.category, c.value]);

// ---- 837P: professional claim (X222A1 shape) -------------------------------------------------------

const P837 = [
  "GS*HC*SUBMITTER77*RECEIVER42*20240315*1253*905*X*005010X222A1",
  "ST*837*0021*005010X222A1",
  "BHT*0019*00*BAT244579*20240315*1253*CH",
  "NM1*41*2*LAKESIDE BILLING SERVICE*****46*TGJ23",
  "PER*IC*BILLING DESK*TE*3055552222*EX*231",
  "NM1*40*2*ACME HEALTH PLAN*****46*66783JJT",
  "HL*1**20*1",
  "PRV*BI*PXC*207Q00000X",
  "NM1*85*2*RIVERSIDE FAMILY CLINIC*****XX*1497758544",
  "N3*2200 COMMERCE BLVD",
  "N4*MADISON*WI*53703",
  "REF*EI*391234567",
  "HL*2*1*22*1",
  "SBR*P**GRP55120******CI",
  "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W88213547",
  "N3*77 HARBOR VIEW DR*UNIT 3B",
  "N4*PORTLAND*ME*04101",
  "DMG*D8*19580722*F",
  "REF*SY*518442917",
  "NM1*PR*2*ACME HEALTH PLAN*****PI*842610001",
  "N3*PO BOX 9000",
  "N4*CHICAGO*IL*60601",
  "HL*3*2*23*0",
  "PAT*19",
  "NM1*QC*1*QUILLFEATHER*TOBIAS",
  "N3*77 HARBOR VIEW DR*UNIT 3B",
  "N4*PORTLAND*ME*04101",
  "DMG*D8*20110830*M",
  "CLM*PCN7781-22*150***11:B:1*Y*A*Y*Y",
  "DTP*431*D8*20240228",
  "REF*G1*PA0099812",
  "REF*EA*MR0099812",
  "NTE*ADD*FOLLOW UP IN TWO WEEKS",
  "HI*ABK:J189*ABF:R0600",
  "NM1*82*1*OKONKWO*CHIDI****XX*1679576722",
  "PRV*PE*PXC*207Q00000X",
  "LX*1",
  "SV1*HC:99213*150*UN*1***1",
  "DTP*472*D8*20240301",
  "SE*38*0021",
  "GE*1*905",
];

Deno.test("X12 837P: each element the policy names, by entity and qualifier", () => {
  const got = fields(interchange(P837));
  assertEquals(got, [
    ["X12 SBR.03", "MEMBER", "GRP55120"],
    ["X12 NM1*IL.03", "NAME", "QUILLFEATHER*MARGARET*J"],
    ["X12 NM1*IL.09", "MEMBER", "W88213547"],
    ["X12 N3.01", "ADDRESS", "77 HARBOR VIEW DR"],
    ["X12 N3.02", "ADDRESS", "UNIT 3B"],
    ["X12 N4.01", "ADDRESS", "PORTLAND"],
    ["X12 N4.03", "ADDRESS", "04101"],
    ["X12 DMG.02", "DOB", "19580722"],
    ["X12 REF*SY.02", "SSN", "518442917"],
    ["X12 NM1*QC.03", "NAME", "QUILLFEATHER*TOBIAS"],
    ["X12 N3.01", "ADDRESS", "77 HARBOR VIEW DR"],
    ["X12 N3.02", "ADDRESS", "UNIT 3B"],
    ["X12 N4.01", "ADDRESS", "PORTLAND"],
    ["X12 N4.03", "ADDRESS", "04101"],
    ["X12 DMG.02", "DOB", "20110830"],
    ["X12 CLM.01", "ACCOUNT", "PCN7781-22"],
    ["X12 DTP*431.03", "DATE", "20240228"],
    ["X12 REF*EA.02", "MRN", "MR0099812"],
    ["X12 NM1*82.03", "NAME", "OKONKWO*CHIDI"],
    ["X12 NM1*82.09", "NPI", "1679576722"],
    ["X12 DTP*472.03", "DATE", "20240301"],
  ]);
  // The name's canonical form reads the element separator as a name separator.
  const name = scanX12(interchange(P837)).structured.find((c) => c.context === "X12 NM1*IL.03")!;
  assertEquals(name.canonical, "j margaret quillfeather");
  const scan = scanX12(interchange(P837));
  const text = interchange(P837);
  assertEquals(scan.free.map((f) => text.slice(f.start, f.end)), ["FOLLOW UP IN TWO WEEKS"]);
  assertEquals(scan.segments.length, P837.length + 2);
  for (const c of scan.structured) assertEquals(text.slice(c.start, c.end), c.value);
});

/** Through the engine (tests/phi/_support.ts), facts checked as whole values. */
const roundTrip = (text: string, values: string[], facts: string[], how: "tool" | "user" = "tool") =>
  sharedRoundTrip(text, values, facts, how, "whole");

const P837_VALUES = [
  "GRP55120",
  "QUILLFEATHER",
  "MARGARET",
  "W88213547",
  "77 HARBOR VIEW DR",
  "UNIT 3B",
  "PORTLAND",
  "04101",
  "19580722",
  "518442917",
  "TOBIAS",
  "20110830",
  "PCN7781-22",
  "20240228",
  "MR0099812",
  "OKONKWO",
  "CHIDI",
  "1679576722",
  "20240301",
];
const P837_FACTS = [
  "SUBMITTER77",
  "RECEIVER42",
  "240315",
  "1253",
  "000000905",
  "905",
  "0021",
  "BAT244579",
  "20240315",
  "LAKESIDE BILLING SERVICE",
  "TGJ23",
  "3055552222",
  "ACME HEALTH PLAN",
  "842610001",
  "RIVERSIDE FAMILY CLINIC",
  "1497758544",
  "2200 COMMERCE BLVD",
  "MADISON",
  "53703",
  "391234567",
  "PO BOX 9000",
  "CHICAGO",
  "60601",
  "207Q00000X",
  "PA0099812",
  "ABK:J189",
  "HC:99213",
  "150",
  "ME",
  "005010X222A1",
];

Deno.test("X12 837P through the engine: person values tokenized, facts in clear, exact round trip", async () => {
  await roundTrip(interchange(P837), P837_VALUES, P837_FACTS);
});

// ---- 837I: institutional claim (X223A2 shape) ------------------------------------------------------

const I837 = [
  "GS*HC*SUBMITTER77*RECEIVER42*20240402*0815*906*X*005010X223A2",
  "ST*837*0102*005010X223A2",
  "BHT*0019*00*INST0102*20240402*0815*CH",
  "NM1*41*2*LAKESIDE BILLING SERVICE*****46*TGJ23",
  "PER*IC*CLAIMS TEAM*TE*6085550100",
  "NM1*40*2*STATE MEDICAID*****46*SMCD01",
  "HL*1**20*1",
  "NM1*85*2*ST BRENDAN HOSPITAL*****XX*1861492233",
  "N3*1 HOSPITAL PLAZA",
  "N4*GREEN BAY*WI*54301",
  "REF*EI*396000123",
  "HL*2*1*22*0",
  "SBR*P*18*******MC",
  "NM1*IL*1*ABERNATHY-QUINT*DESMOND*R**JR*MI*ABX449120873",
  "N3*908 LARKSPUR CT",
  "N4*BOISE*ID*83702",
  "DMG*D8*19491103*M",
  "NM1*PR*2*STATE MEDICAID*****PI*SMCD01",
  "CLM*ACC-2024-0412*12500***11:A:1**A*Y*Y",
  "DTP*096*TM*1130",
  "DTP*434*RD8*20240301-20240305",
  "DTP*435*DT*202403011430",
  "CL1*1*7*01",
  "REF*D9*CLRH88201",
  "REF*EA*MRN00451872",
  "HI*ABK:J189",
  "NM1*71*1*VASQUEZ-ORR*LUCIA****XX*1245319599",
  "LX*1",
  "SV2*0450*HC:99284*12500*UN*1",
  "DTP*472*D8*20240301",
  "SE*31*0102",
  "GE*1*906",
];

Deno.test("X12 837I: admission and statement dates, suffix kept, trace numbers kept", async () => {
  const text = interchange(I837, { ctrl: "000000906" });
  const got = fields(text);
  const by = (ctx: string) => got.filter((g) => g[0] === ctx).map((g) => `${g[1]}:${g[2]}`);
  // The suffix (NM107) stays outside the name value.
  assertEquals(by("X12 NM1*IL.03"), ["NAME:ABERNATHY-QUINT*DESMOND*R"]);
  assertEquals(by("X12 DTP*096.03"), ["DATE:1130"]);
  assertEquals(by("X12 DTP*434.03"), ["DATE:20240301-20240305"]);
  assertEquals(by("X12 DTP*435.03"), ["DATE:202403011430"]);
  assertEquals(by("X12 NM1*71.09"), ["NPI:1245319599"]);
  await roundTrip(
    text,
    [
      "ABERNATHY-QUINT",
      "DESMOND",
      "ABX449120873",
      "908 LARKSPUR CT",
      "BOISE",
      "83702",
      "19491103",
      "ACC-2024-0412",
      "20240301-20240305",
      "202403011430",
      "MRN00451872",
      "VASQUEZ-ORR",
      "LUCIA",
      "1245319599",
    ],
    [
      "JR",
      "ST BRENDAN HOSPITAL",
      "1861492233",
      "1 HOSPITAL PLAZA",
      "GREEN BAY",
      "54301",
      "CLRH88201",
      "SMCD01",
      "INST0102",
      "20240402",
      "0815",
      "000000906",
      "12500",
      "ID",
      "6085550100",
    ],
  );
});

// ---- 835: remittance (X221A1 shape) ----------------------------------------------------------------

const R835 = [
  "GS*HP*ACMEPLAN*RIVERSIDE*20240405*1030*907*X*005010X221A1",
  "ST*835*1234",
  "BPR*I*1120*C*ACH*CCP*01*999999992*DA*123456*1512345678**01*999988880*DA*98765*20240405",
  "TRN*1*EFT0045512*1512345678",
  "DTM*405*20240402",
  "N1*PR*ACME HEALTH PLAN",
  "N3*PO BOX 9000",
  "N4*CHICAGO*IL*60601",
  "REF*2U*ACME01",
  "PER*CX*CLAIMS DEPT*TE*8005551234",
  "N1*PE*RIVERSIDE FAMILY CLINIC*XX*1497758544",
  "LX*1",
  "CLP*PCN7781-22*1*150*120*30*12*9401234567890*11*1",
  "NM1*QC*1*QUILLFEATHER*TOBIAS****MI*W88213547",
  "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W88213547",
  "NM1*74*1*QUILLFEATHER*MARGARET*JANE***C*W88213548",
  "NM1*82*1*OKONKWO*CHIDI****XX*1679576722",
  "DTM*232*20240301",
  "DTM*050*20240310",
  "PER*CX*CLAIM UNIT*TE*8005551299",
  "SVC*HC:99213*150*120**1",
  "DTM*472*20240301",
  "CAS*CO*45*30",
  "AMT*B6*120",
  "SE*23*1234",
  "GE*1*907",
];

Deno.test("X12 835: CLP01 is an account, CLP07 and the payer's data stay", async () => {
  const text = interchange(R835, { ctrl: "000000907" });
  const got = fields(text);
  assert(got.some((g) => g[0] === "X12 CLP.01" && g[2] === "PCN7781-22"));
  assert(got.some((g) => g[0] === "X12 NM1*74.09" && g[1] === "MEMBER" && g[2] === "W88213548"));
  assert(!got.some((g) => g[2] === "8005551234" || g[2] === "8005551299"));
  await roundTrip(
    text,
    [
      "PCN7781-22",
      "QUILLFEATHER",
      "TOBIAS",
      "MARGARET",
      "W88213547",
      "W88213548",
      "OKONKWO",
      "1679576722",
      "20240301",
      "20240310",
    ],
    [
      "9401234567890",
      "EFT0045512",
      "1512345678",
      "20240402",
      "20240405",
      "ACME HEALTH PLAN",
      "PO BOX 9000",
      "ACME01",
      "8005551234",
      "8005551299",
      "RIVERSIDE FAMILY CLINIC",
      "1497758544",
      "1120",
      "HC:99213",
      "1234",
    ],
  );
});

// ---- 270/271: eligibility (X279A1 shape) -----------------------------------------------------------

const E271 = [
  "GS*HB*ACMEPLAN*RIVERSIDE*20240310*1015*908*X*005010X279A1",
  "ST*271*0001*005010X279A1",
  "BHT*0022*11*ELIG77120*20240310*1015",
  "HL*1**20*1",
  "NM1*PR*2*ACME HEALTH PLAN*****PI*842610001",
  "HL*2*1*21*1",
  "NM1*1P*2*RIVERSIDE FAMILY CLINIC*****XX*1497758544",
  "HL*3*2*22*1",
  "TRN*2*93175-012547*9877281234",
  "NM1*IL*1*FARNSWORTH*ELOISE*K***MI*ZQH55120983",
  "REF*6P*0998877*RIVERSIDE EMPLOYEES",
  "REF*SY*321549876",
  "N3*4412 WILLOW BEND RD",
  "N4*NASHVILLE*TN*37211",
  "DMG*D8*19760412*F",
  "INS*Y*18",
  "DTP*346*D8*20240101",
  "EB*1*FAM*30**GOLD PPO",
  "EB*C*IND*30***23*500",
  "MSG*DEDUCTIBLE MET FOR CALENDAR YEAR",
  "HL*4*3*23*0",
  "TRN*2*93175-012548*9877281234",
  "NM1*03*1*FARNSWORTH*TOBIAS",
  "DMG*D8*20110830*M",
  "INS*N*19",
  "DTP*291*D8*20240101",
  "EB*1*IND*30",
  "SE*26*0001",
  "GE*1*908",
];

Deno.test("X12 271: subscriber and dependent tokenized, plan dates and trace numbers stay", async () => {
  const text = interchange(E271, { ctrl: "000000908" });
  const scan = scanX12(text);
  assertEquals(scan.free.map((f) => text.slice(f.start, f.end)), ["DEDUCTIBLE MET FOR CALENDAR YEAR"]);
  await roundTrip(
    text,
    [
      "FARNSWORTH",
      "ELOISE",
      "ZQH55120983",
      "0998877",
      "321549876",
      "4412 WILLOW BEND RD",
      "NASHVILLE",
      "37211",
      "19760412",
      "TOBIAS",
      "20110830",
    ],
    [
      "ELIG77120",
      "93175-012547",
      "93175-012548",
      "9877281234",
      "20240101",
      "GOLD PPO",
      "RIVERSIDE EMPLOYEES",
      "TN",
      "500",
      "842610001",
      "1497758544",
    ],
  );
});

// ---- 276/277: claim status (X212 shape) ------------------------------------------------------------

const S277 = [
  "GS*HN*ACMEPLAN*RIVERSIDE*20240416*0900*909*X*005010X212",
  "ST*277*0002*005010X212",
  "BHT*0010*08*STAT4410*20240416*0900*DG",
  "HL*1**20*1",
  "NM1*PR*2*ACME HEALTH PLAN*****PI*842610001",
  "HL*2*1*21*1",
  "NM1*41*2*LAKESIDE BILLING SERVICE*****46*TGJ23",
  "HL*3*2*19*1",
  "NM1*1P*2*RIVERSIDE FAMILY CLINIC*****XX*1497758544",
  "HL*4*3*22*0",
  "NM1*IL*1*QUILLFEATHER*MARGARET****MI*W88213547",
  "TRN*2*STATTRACE0091",
  "STC*A7:562:85*20240416**150*0*****A7:562:85**SUBSCRIBER DOB DOES NOT MATCH",
  "REF*1K*9401234567890",
  "REF*EJ*PCN7781-22",
  "DTP*472*RD8*20240301-20240301",
  "SE*15*0002",
  "GE*1*909",
];

Deno.test("X12 277: STC12 is free text, REF*EJ an account, REF*1K stays", async () => {
  const text = interchange(S277, { ctrl: "000000909" });
  const scan = scanX12(text);
  assertEquals(scan.free.map((f) => text.slice(f.start, f.end)), ["SUBSCRIBER DOB DOES NOT MATCH"]);
  assert(fields(text).some((g) => g[0] === "X12 REF*EJ.02" && g[1] === "ACCOUNT"));
  await roundTrip(
    text,
    ["QUILLFEATHER", "MARGARET", "W88213547", "PCN7781-22", "20240301-20240301"],
    ["9401234567890", "STATTRACE0091", "A7:562:85", "20240416", "STAT4410"],
  );
});

// ---- 834: enrollment (X220A1 shape) ----------------------------------------------------------------

const B834 = [
  "GS*BE*SPONSOR01*ACMEPLAN*20240201*0900*910*X*005010X220A1",
  "ST*834*0001*005010X220A1",
  "BGN*00*ENR12456*20240201*0900****2",
  "REF*38*57000",
  "DTP*007*D8*20240301",
  "N1*P5*NORTHWIND MANUFACTURING*FI*999888777",
  "N1*IN*ACME HEALTH PLAN*FI*111222333",
  "INS*Y*18*021*20*A***FT",
  "REF*0F*SUB7781204",
  "REF*1L*GRP55120",
  "REF*17*DEPT-42",
  "DTP*356*D8*20240301",
  "NM1*IL*1*FARNSWORTH*ELOISE*K***34*321549876",
  "PER*IP**HP*6155550123*WP*6155550188*EM*eloise.f@example.net",
  "N3*4412 WILLOW BEND RD*APT 12",
  "N4*NASHVILLE*TN*37211**CY*47037",
  "DMG*D8*19760412*F*M",
  "NM1*31*1",
  "N3*PO BOX 4471",
  "N4*NASHVILLE*TN*37204",
  "NM1*36*2*NORTHWIND MANUFACTURING",
  "N3*900 INDUSTRIAL PKWY",
  "N4*LEBANON*TN*37087",
  "HD*021**HLT*GOLD PPO*EMP",
  "DTP*348*D8*20240301",
  "INS*N*19*021*20*A***N**F",
  "REF*0F*SUB7781204",
  "NM1*IL*1*FARNSWORTH*TOBIAS",
  "DMG*D8*20110830*M",
  "INS*Y*18*024*03*A***FT**N*D8*20240115",
  "REF*0F*SUB7781999",
  "NM1*IL*1*PEMBERTON*AUGUSTINE",
  "SE*31*0001",
  "GE*1*910",
];

Deno.test("X12 834: member ids, contact numbers, mailing address, date of death; employer stays", async () => {
  const text = interchange(B834, { ctrl: "000000910" });
  const got = fields(text);
  const by = (ctx: string) => got.filter((g) => g[0] === ctx).map((g) => `${g[1]}:${g[2]}`);
  assertEquals(by("X12 PER*HP.04"), ["PHONE:6155550123"]);
  assertEquals(by("X12 PER*WP.06"), ["PHONE:6155550188"]);
  assertEquals(by("X12 PER*EM.08"), ["EMAIL:eloise.f@example.net"]);
  assertEquals(by("X12 NM1*IL.09"), ["SSN:321549876"]);
  assertEquals(by("X12 INS.12"), ["DATE:20240115"]);
  await roundTrip(
    text,
    [
      "SUB7781204",
      "SUB7781999",
      "GRP55120",
      "FARNSWORTH",
      "ELOISE",
      "321549876",
      "6155550123",
      "6155550188",
      "eloise.f@example.net",
      "4412 WILLOW BEND RD",
      "APT 12",
      "NASHVILLE",
      "37211",
      "PO BOX 4471",
      "37204",
      "19760412",
      "TOBIAS",
      "20110830",
      "PEMBERTON",
      "AUGUSTINE",
      "20240115",
      "47037",
    ],
    [
      "ENR12456",
      "57000",
      "20240301",
      "NORTHWIND MANUFACTURING",
      "999888777",
      "900 INDUSTRIAL PKWY",
      "LEBANON",
      "37087",
      "DEPT-42",
      "GOLD PPO",
    ],
  );
});

// ---- 278: services review (X217 shape) -------------------------------------------------------------

const A278 = [
  "GS*HI*RIVERSIDE*ACMEUM*20240420*0915*911*X*005010X217",
  "ST*278*0001*005010X217",
  "BHT*0007*13*UMREQ778*20240420*0915",
  "HL*1**20*1",
  "NM1*X3*2*ACME UTILIZATION REVIEW*****PI*842610009",
  "HL*2*1*21*1",
  "NM1*1P*1*OKONKWO*CHIDI****XX*1679576722",
  "HL*3*2*22*1",
  "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W88213547",
  "DMG*D8*19580722*F",
  "HL*4*3*EV*1",
  "UM*HS*I*3*11:B",
  "HCR*A1*AUTH99812",
  "REF*BB*AUTH99812",
  "DTP*472*D8*20240501",
  "HI*ABK:M1711",
  "MSG*KNEE MRI BEFORE SURGERY",
  "SE*16*0001",
  "GE*1*911",
];

Deno.test("X12 278: patient and requesting provider tokenized, authorization numbers stay", async () => {
  await roundTrip(
    interchange(A278, { ctrl: "000000911" }),
    ["QUILLFEATHER", "MARGARET", "W88213547", "19580722", "OKONKWO", "CHIDI", "1679576722", "20240501"],
    ["AUTH99812", "UMREQ778", "842610009", "ACME UTILIZATION REVIEW", "ABK:M1711", "11:B"],
  );
});

// ---- separators and carriers -----------------------------------------------------------------------

const SMALL = [
  "GS*HC*SUBMITTER77*RECEIVER42*20240315*1253*905*X*005010X222A1",
  "ST*837*0021*005010X222A1",
  "HL*2*1*22*0",
  "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W88213547",
  "N3*77 HARBOR VIEW DR",
  "N4*PORTLAND*ME*04101",
  "DMG*D8*19580722*F",
  "REF*SY*518442917",
  "CLM*PCN7781-22*150***11:B:1*Y*A*Y*Y",
  "SE*8*0021",
  "GE*1*905",
];
const SMALL_VALUES = [
  "QUILLFEATHER",
  "MARGARET",
  "W88213547",
  "77 HARBOR VIEW DR",
  "PORTLAND",
  "04101",
  "19580722",
  "518442917",
  "PCN7781-22",
];
const SMALL_FACTS = ["SUBMITTER77", "000000905", "0021", "20240315", "150", "11:B:1"];

Deno.test("X12 separators from ISA: `|` and `!` elements, newline and CRLF terminators", async () => {
  for (
    const o of [{ e: "|" }, { e: "!" }, { term: "\n" }, { term: "~\r\n" }, { term: "\r\n" }, { term: "'" }]
  ) {
    const text = interchange(SMALL, o);
    const got = fields(text);
    assertEquals(got.length, 8, JSON.stringify(o));
    assertEquals(got[0][2], `QUILLFEATHER${o.e ?? "*"}MARGARET${o.e ?? "*"}J`);
    await roundTrip(text, SMALL_VALUES, SMALL_FACTS);
  }
});

Deno.test({
  name: "X12 with `|` elements, one segment per line, beside the HL7 reader (needs records to win)",
  // `NTE|`, `NM1|`, `REF|` at line starts make the text HL7-shaped: an interchange with a readable
  // ISA wins over the segments the HL7 loose scan read there (RecordFormat.overrides).
  fn: async () => {
    const segs = [...SMALL.slice(0, -2), "NTE*ADD*CALL BEFORE NOON", ...SMALL.slice(-2)];
    for (const term of ["\n", "~\r\n"]) {
      await roundTrip(interchange(segs, { e: "|", term }), SMALL_VALUES, SMALL_FACTS);
    }
  },
});

Deno.test("X12 anywhere in a text: log prefix, several interchanges, JSON strings, prose around", async () => {
  const one = interchange(SMALL);
  const two = interchange(SMALL.map((s) => s.replace("QUILLFEATHER*MARGARET*J", "PEMBERTON*AUGUSTINE*Q")), {
    ctrl: "000000906",
  });
  const log = `2024-03-15 12:53:07.114 [ib_837_in] INFO received ${one} len=612\n` +
    `2024-03-15 12:53:09.002 [ib_837_in] INFO received ${two}\nthread ib_837_in: 2 messages, port 7801\n`;
  await roundTrip(log, [...SMALL_VALUES, "PEMBERTON", "AUGUSTINE"], [
    ...SMALL_FACTS,
    "000000906",
    "ib_837_in",
    "7801",
    "612",
  ]);
  // Inside a JSON string, segments one per line written out as `~\r\n`, the closing quote ends it.
  const json = JSON.stringify({ id: 4471, payload: interchange(SMALL, { term: "~\r\n" }), status: "queued" });
  const out = await roundTrip(json, SMALL_VALUES, [...SMALL_FACTS, "4471", "queued"]);
  assert(out.endsWith('~\\r\\n","status":"queued"}'));
  // Segments terminated by a line break written out (ISA16 followed by `\n` in a JSON string).
  const nl = JSON.stringify({ edi: interchange(SMALL, { term: "\n" }) });
  await roundTrip(nl, SMALL_VALUES, SMALL_FACTS);
});

Deno.test("X12 inside base64 and inside a JSON string value, typed or read, through the engine", async () => {
  const edi = interchange(SMALL);
  const b64 = btoa(edi);
  const text = `attachment (base64): ${b64}\nend of attachment`;
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(text, "read_file");
  assert(!out.text.includes(b64));
  const decoded = atob(out.text.split(" ")[2].split("\n")[0]);
  for (const v of SMALL_VALUES) assert(!leaks(decoded, v), v);
  for (const f of SMALL_FACTS) assert(leaks(decoded, f), f);
  assertEquals(h.engine.detokenize(out.text).text, text);
  // Typed by the operator, as a JSON value.
  const typed = `why was this rejected? {"claim":"${edi}"}`;
  await roundTrip(typed, SMALL_VALUES, SMALL_FACTS, "user");
});

Deno.test("X12 fragments without ISA: pasted segments read with the defaults", async () => {
  const frag = "NM1*IL*1*QUILLFEATHER*MARGARET****MI*W88213547~DMG*D8*19580722*F~";
  assertEquals(fields(frag), [
    ["X12 NM1*IL.03", "NAME", "QUILLFEATHER*MARGARET"],
    ["X12 NM1*IL.09", "MEMBER", "W88213547"],
    ["X12 DMG.02", "DOB", "19580722"],
  ]);
  // One per line, no terminators, after prose.
  const lines =
    "the subscriber loop of the rejected claim:\nNM1*IL*1*QUILLFEATHER*MARGARET****MI*W88213547\n" +
    "N3*77 HARBOR VIEW DR\nN4*PORTLAND*ME*04101\nREF*SY*518442917\nthanks";
  assertEquals(fields(lines).map((g) => g[2]), [
    "QUILLFEATHER*MARGARET",
    "W88213547",
    "77 HARBOR VIEW DR",
    "PORTLAND",
    "04101",
    "518442917",
  ]);
  // An address pasted alone is the person's; one strong segment ended by `~` is enough.
  assertEquals(fields("N3*12 ELM ST~N4*SPRINGDALE*AR*72764~").map((g) => g[2]), [
    "12 ELM ST",
    "SPRINGDALE",
    "72764",
  ]);
  assertEquals(fields("see REF*SY*518442917~ in the claim").map((g) => g[1]), ["SSN"]);
  await roundTrip(`subscriber: ${frag} please check`, ["QUILLFEATHER", "MARGARET", "W88213547", "19580722"], [
    "please",
  ], "user");
});

Deno.test("X12: prose, markdown and near misses are not claimed", () => {
  for (
    const t of [
      "VISA*1234 is a card, not X12",
      "**NOTE** the ST* loop",
      "a*b*c~d",
      "ISA",
      "ISA*00*short",
      "The DISABLED flag*",
      "use HL7 PID|1||123",
      "see REF*EA in the guide",
    ]
  ) {
    const s = x12.maybe(t) ? x12.scan(t) : undefined;
    assertEquals(s?.structured ?? [], [], t);
  }
  assert(!x12.maybe("plain prose without any of it"));
  assert(x12.maybe("NM1*IL*1*DOE"));
});

Deno.test("X12: an organization in a patient role keeps its name, its member id is tokenized", () => {
  const got = fields("NM1*IL*2*NORTHWIND MANUFACTURING*****MI*GRPMEM0001~N3*900 INDUSTRIAL PKWY~");
  assertEquals(got, [["X12 NM1*IL.09", "MEMBER", "GRPMEM0001"]]);
  // An individual billing provider: name and NPI; an organization's NPI stays.
  assertEquals(fields("NM1*85*1*LINDQVIST*ASTRID****XX*1326093452~NM1*85*2*CLINIC*****XX*1497758544~"), [
    ["X12 NM1*85.03", "NAME", "LINDQVIST*ASTRID"],
    ["X12 NM1*85.09", "NPI", "1326093452"],
  ]);
});

Deno.test("X12 with the same person in prose: no value reaches the model", async () => {
  // The round trip of a name written both ways in one text is the engine's (one prose form per
  // token; see the report of issue #23): here only that nothing leaks.
  await using h = await testEngine();
  const text = `Margaret Quillfeather called about claim PCN7781-22:\n${interchange(SMALL)}`;
  const out = await h.engine.sanitizeToolResult(text, "read_file");
  for (const v of SMALL_VALUES) assert(!leaks(out.text, v), v);
  assert(!/Quillfeather/i.test(out.text));
});

// ---- robustness ------------------------------------------------------------------------------------

Deno.test("X12 scan never throws: random pieces and every truncation of an interchange", () => {
  const rand = mulberry32(2323);
  const pieces = [
    "ISA*",
    "ISA|00|",
    "*",
    "~",
    "|",
    "^",
    ":",
    "\n",
    "\r\n",
    "\\n",
    '"',
    "NM1*IL*1*",
    "DOE",
    "N3*",
    "N4*",
    "REF*SY*",
    "DMG*D8*",
    "123456789",
    "IEA*1*",
    "GS*",
    isa(),
    " ",
    "[[NAME_1]]",
  ];
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 40);
    const s = x12.maybe(t) ? x12.scan(t) : undefined;
    for (const c of s?.structured ?? []) assertEquals(t.slice(c.start, c.end), c.value);
  }
  const full = interchange(P837);
  for (let n = 0; n <= full.length; n += 3) {
    const t = full.slice(0, n);
    const s = scanX12(t);
    for (const c of s.structured) assertEquals(t.slice(c.start, c.end), c.value);
    const u = full.slice(n);
    for (const c of scanX12(u).structured) assertEquals(u.slice(c.start, c.end), c.value);
  }
});

// ---- generated corpus ------------------------------------------------------------------------------

Deno.test("X12 generated corpus: 200 interchanges, every person value tokenized, facts kept", async () => {
  await using h = await testEngine();
  for (let seed = 1; seed <= 200; seed++) {
    const g = generatedX12(seed);
    const out = await h.engine.sanitizeToolResult(g.text, "read_file");
    for (const v of g.values) assert(!leaks(out.text, v), `seed ${seed}: leaked ${v}`);
    for (const f of g.facts) assert(leaks(out.text, f), `seed ${seed}: fact lost ${f}`);
    assertEquals(h.engine.detokenize(out.text).text, g.text, `seed ${seed}`);
  }
});

Deno.test("X12 segments as the strings of a JSON array: each read, the entity carried across", async () => {
  const segs = [
    "NM1*85*2*RIVERSIDE FAMILY CLINIC*****XX*1497758544~",
    "N3*2200 COMMERCE BLVD~",
    "N4*MADISON*WI*53703~",
    "NM1*IL*1*QUILLFEATHER*MARGARET****MI*W88213547~",
    "N3*77 HARBOR VIEW DR~",
    "N4*PORTLAND*ME*04101~",
    "PER*IP**HP*2075550143~",
    "DTP*472*D8*20240301~",
  ];
  const json = JSON.stringify({ segments: segs }, null, 2);
  await roundTrip(
    json,
    [
      "QUILLFEATHER",
      "MARGARET",
      "W88213547",
      "77 HARBOR VIEW DR",
      "PORTLAND",
      "04101",
      "2075550143",
      "20240301",
    ],
    ["RIVERSIDE FAMILY CLINIC", "1497758544", "2200 COMMERCE BLVD", "MADISON", "53703"],
  );
});

Deno.test("X12 999: the claim's control number in CTX is an account, IK404 is free text", async () => {
  const ack = interchange([
    "GS*FA*RECEIVER42*SUBMITTER77*20240315*1300*915*X*005010X231A1",
    "ST*999*0001*005010X231A1",
    "AK1*HC*905*005010X222A1",
    "AK2*837*0021*005010X222A1",
    "IK3*DMG*18**8",
    "CTX*CLM01:PCN7781-22",
    "IK4*2*1251*8*19581372",
    "IK5*R*5",
    "AK9*R*1*1*0",
    "SE*9*0001",
    "GE*1*915",
  ], { ctrl: "000000915" });
  const scan = scanX12(ack);
  assertEquals(scan.structured.map((c) => [c.context, c.category, c.value]), [
    ["X12 CTX*CLM01.01", "ACCOUNT", "PCN7781-22"],
  ]);
  assertEquals(scan.free.map((f) => ack.slice(f.start, f.end)), ["19581372"]);
  await roundTrip(ack, ["PCN7781-22"], ["905", "0021", "1251", "000000915", "005010X231A1"]);
});

Deno.test("X12 name in a later prompt: the known value, the same token", async () => {
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(interchange(SMALL), "read_file");
  const token = /NM1\*IL\*1\*(\[\[NAME_\d+\]\])/.exec(out.text)?.[1];
  assert(token, out.text);
  const typed = await h.engine.tokenizeUserInput(
    "why was Margaret Quillfeather's claim rejected? MARGARET J QUILLFEATHER",
  );
  assert(!/quillfeather/i.test(typed.text), typed.text);
  assertEquals(typed.text.split(token).length - 1, 2, typed.text);
});

Deno.test("X12 and prose in one text: the X12 name and the prose name come back each in its form", async () => {
  await using h = await testEngine();
  const text =
    "ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *261123*0830*^*00501*000000001*0*P*:~" +
    "GS*HC*S*R*20261123*0830*1*X*005010X222A1~ST*837*0001*005010X222A1~" +
    "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W123456789~N3*455 OAK AVE~N4*DENVER*CO*80202~DMG*D8*19610304*F~" +
    "SE*5*0001~GE*1*1~IEA*1*000000001~\nCalled Margaret Quillfeather about the claim.\n";
  const out = await h.engine.sanitizeToolResult(text, "read_file");
  assert(!out.text.includes("QUILLFEATHER") && !out.text.includes("Quillfeather"), out.text);
  assertEquals(h.engine.detokenize(out.text).text, text);
  // A model answer quoting the NM1 back, in small chunks, gives the X12 form.
  const nm1 = out.text.split("~").find((s) => s.startsWith("NM1*"))!;
  const s = h.engine.createStreamDetokenizer();
  let shown = "";
  for (let i = 0; i < nm1.length; i += 3) shown += s.push(nm1.slice(i, i + 3));
  shown += s.flush();
  assertEquals(shown, "NM1*IL*1*QUILLFEATHER*MARGARET*J***MI*W123456789");
});
