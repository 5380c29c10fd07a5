import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { scanHl7 } from "../../phi/hl7_sanitize.ts";
import { policyFor } from "../../phi/hl7_policy.ts";
import { testEngine } from "./_support.ts";

const MSH = "MSH|^~\\&|APP|FAC|CLV|LAB|20240115103000||ADT^A01|MSG1|P|2.5.1";
const fields = (text: string) => scanHl7(text).structured.map((c) => [c.context ?? "", c.category, c.value]);

Deno.test("HL7 policy: ids, names, dates, addresses, phones, SSN per rule kind", () => {
  const pid = "PID|1|X1^^^A|M1^^^H^MR~M2^^^S^PI|ALT1|DOE^JANE^Q^JR^DR^MD^L~ROE^J|MAIDEN^M|19800315^D|F|" +
    "ALIAS^A|2106-3|12 ELM ST&ELM ST&12^APT 4^SPRINGDALE^IL^62704^USA^H^^COOK|COOK|(555)123-4567^PRN^PH^j@x.org^1^555^1234567^^^^^5551234567|" +
    "555-987-6543^WPN||S|CAT|ACCT1^^^H|123-45-6789|DL1^IL^2030|MOM1|H|SPRINGFIELD||||||20200101|Y";
  const got = fields(`${MSH}\r${pid}\r`);
  const by = (ctx: string) => got.filter((g) => g[0] === ctx).map((g) => `${g[1]}:${g[2]}`);
  assertEquals(by("PID.2"), ["MRN:X1"]);
  assertEquals(by("PID.3"), ["MRN:M1"]);
  assertEquals(by("PID.3[2]"), ["MRN:M2"]);
  assertEquals(by("PID.4"), ["MRN:ALT1"]);
  assertEquals(by("PID.5"), ["NAME:DOE^JANE^Q^JR"]);
  assertEquals(by("PID.5[2]"), ["NAME:ROE^J"]);
  assertEquals(by("PID.6"), ["NAME:MAIDEN^M"]);
  assertEquals(by("PID.7"), ["DOB:19800315"]);
  assertEquals(by("PID.9"), ["NAME:ALIAS^A"]);
  assertEquals(by("PID.11.1"), ["ADDRESS:12 ELM ST&ELM ST&12"]);
  assertEquals(by("PID.11.2"), ["ADDRESS:APT 4"]);
  assertEquals(by("PID.11.3"), ["ADDRESS:SPRINGDALE"]);
  assertEquals(by("PID.11.5"), ["ADDRESS:62704"]);
  assertEquals(by("PID.11.9"), ["ADDRESS:COOK"]);
  assertEquals(by("PID.12"), ["ADDRESS:COOK"]);
  assertEquals(by("PID.13.1"), ["PHONE:(555)123-4567"]);
  assertEquals(by("PID.13.4"), ["EMAIL:j@x.org"]);
  assertEquals(by("PID.13.6"), ["PHONE:555"]);
  assertEquals(by("PID.13.7"), ["PHONE:1234567"]);
  assertEquals(by("PID.13.12"), ["PHONE:5551234567"]);
  assertEquals(by("PID.14.1"), ["PHONE:555-987-6543"]);
  assertEquals(by("PID.18"), ["ACCOUNT:ACCT1"]); // issue #24 item 7: own category
  assertEquals(by("PID.19"), ["SSN:123-45-6789"]);
  assertEquals(by("PID.20"), ["LICENSE:DL1"]);
  assertEquals(by("PID.21"), ["MRN:MOM1"]);
  assertEquals(by("PID.23"), ["ADDRESS:SPRINGFIELD"]);
  assertEquals(by("PID.29"), ["DATE:20200101"]);
  // State, country, address type, sex, race, marital status stay.
  assert(!got.some((g) => ["IL", "USA", "H", "F", "2106-3", "S", "CAT"].includes(g[2])));
});

Deno.test("HL7 policy: XCN and NDL people, visit numbers; codes and empty or null values stay", () => {
  const text =
    `${MSH}\rPV1|1|I|4W^401^A||||1234567893^SMITH^ROB^^^DR^^^NPI|^ONLY^GIVEN|""|MED|||||||||V1234\r` +
    `OBR|1|P1|F1|CBC^Count^L|||20240101|||||||||ORD1^WHO^PAT||||||||||||||||DOC1&BROWN&ANN&&&&DR^20240101\r`;
  assertEquals(fields(text), [
    ["PV1.7.1", "NPI", "1234567893"],
    ["PV1.7.2", "NAME", "SMITH^ROB"],
    ["PV1.8.2", "NAME", "ONLY^GIVEN"],
    ["PV1.19", "VISIT", "V1234"],
    ["OBR.7", "DATE", "20240101"], // observation date: a date of the patient's care (Safe Harbor)
    ["OBR.16.1", "NPI", "ORD1"],
    ["OBR.16.2", "NAME", "WHO^PAT"],
    ["OBR.32.1.1", "NPI", "DOC1"],
    ["OBR.32.1.2", "NAME", "BROWN&ANN"],
  ]);
});

Deno.test("HL7 free text: OBX-5 only for TX/FT/ST, NTE-3, OBR-13, Z-segments", () => {
  const text = `${MSH}\rOBX|1|NM|X||12345678|\rOBX|2|TX|X||note 1|\rOBX|3|FT^x|X||note 2|\rNTE|1||note 3\r` +
    `ZPI|a|b\rOBR|1||||||||||||clinical info\r`;
  const scan = scanHl7(text);
  assertEquals(scan.free.map((f) => text.slice(f.start, f.end)), [
    "note 1",
    "note 2",
    "note 3",
    "a",
    "b",
    "clinical info",
  ]);
  assertEquals(scan.segments.length, 7);
});

Deno.test("HL7: other delimiters, escapes and the null value", () => {
  const text = 'MSH#*~\\&#APP#FAC\rPID#1##M9***H##DOE*JOHN##19700101\rPID#1##""\r';
  assertEquals(fields(text), [["PID.3", "MRN", "M9"], ["PID.5", "NAME", "DOE*JOHN"], [
    "PID.7",
    "DOB",
    "19700101",
  ]]);
  assertEquals(scanHl7(text).structured[1].canonical, "doe john");
  const esc = `${MSH}\rPID|1||M1||SMITH\\S\\JONES^ANN\r`;
  assertEquals(scanHl7(esc).structured[1].value, "SMITH\\S\\JONES^ANN");
  assertEquals(
    scanHl7(esc).structured[1].canonical,
    "ann jones smith",
    "escapes decoded for the canonical value",
  );
  assertEquals(policyFor("MSH"), undefined);
  assertEquals(policyFor("ZXY")?.[42]?.kind, "free");
});

Deno.test("HL7 found in other text: grep prefixes, JSON-escaped segment breaks, MLLP frames", () => {
  const grep = "a.hl7:2:PID|1||M1||DOE^JOHN\nb.hl7-3-NK1|1|ROE^ANN";
  assertEquals(fields(grep).map((f) => f[2]), ["M1", "DOE^JOHN", "ROE^ANN"]);
  const json = `{"msg":"MSH|^~\\\\&|A|B\\rPID|1||M2||DOE^JANE\\rPV1|1|I"}`;
  assertEquals(fields(json).map((f) => f[2]), ["M2", "DOE^JANE"]);
  const mllp = `\x0b${MSH}\rPID|1||M3||DOE^JIM\r\x1c\r`;
  assertEquals(fields(mllp).map((f) => f[2]), ["M3", "DOE^JIM"]);
});

Deno.test("HL7 through the engine: policy values tokenized, message otherwise byte-identical", async () => {
  await using h = await testEngine("on");
  const text = `${MSH}\rPID|1||M1^^^H^MR||DOE^JANE||19800315|F\rOBX|1|TX|N||seen, callback 555-123-4567|\r` +
    `PV1|1|I|||||||||||||||||V99|x@y.org\r`;
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  assertEquals(
    r.text,
    `${MSH}\rPID|1||[[MRN_1]]^^^H^MR||[[NAME_1]]||[[DOB_1]]|F\rOBX|1|TX|N||seen, callback [[PHONE_1]]|\r` +
      `PV1|1|I|||||||||||||||||[[VISIT_1]]|[[EMAIL_1]]\r`,
  );
  assertEquals(r.tokenized.map((t) => t.tier), [
    "hl7_pipeline",
    "hl7_pipeline",
    "hl7_pipeline",
    "definite",
    "hl7_pipeline",
    "definite",
  ]);
  assertEquals(h.engine.detokenize(r.text).text, text);
  assertEquals(
    r.notice,
    "phi> auto-tokenized 6 value(s) [tool_result]: DOB×1 EMAIL×1 MRN×1 NAME×1 PHONE×1 VISIT×1",
  );
  // Off mode: the field policy still applies; the tiers do not.
  h.engine.mode = "off";
  const off = await h.engine.sanitizeToolResult(text, "read_file");
  assert(off.text.includes("555-123-4567") && off.text.includes("x@y.org"));
  assert(!off.text.includes("DOE^JANE") && off.text.includes("[[NAME_1]]"));
});

Deno.test("HL7 sanitized twice is sanitized once: tokens in fields are never tokenized again", async () => {
  await using h = await testEngine("on");
  const text = `${MSH}\rPID|1||MRN12345^^^HOSP||SMITHERSON^JOHNATHAN||19700101|M\r`;
  const once = await h.engine.tokenizeUserInput(text);
  assert(once.text.includes("[[NAME_1]]") && once.text.includes("[[MRN_1]]"), once.text);
  // What /load attaches is already sanitized; the agent loop's pass must leave it as it is.
  const twice = await h.engine.tokenizeUserInput(`who is it?\n\n[loaded msg.hl7]\n${once.text}`);
  assertEquals(twice.text, `who is it?\n\n[loaded msg.hl7]\n${once.text}`);
  assertEquals(twice.notice, undefined);
  assertEquals(h.engine.detokenize(twice.text).text.includes("SMITHERSON^JOHNATHAN"), true);
  const table = await Deno.readTextFile(`${h.home}/sanitize/lookup.tsv`);
  assert(!/\t\[\[/.test(table), `a token was stored as a value:\n${table}`);
});

Deno.test("HL7: a real value written inside [[...]] is still a value (only minted tokens are skipped)", async () => {
  await using h = await testEngine("on");
  const text = `${MSH}\rPID|1||[[55120987]]^^^HOSP||[[SMITHERSON]]^[[JOHNATHAN]]||19700101|M\r`;
  const r = await h.engine.tokenizeUserInput(text);
  for (const raw of ["55120987", "SMITHERSON", "JOHNATHAN"]) {
    assert(!r.text.includes(raw), `${raw} passed raw`);
  }
});
