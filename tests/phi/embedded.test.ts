/**
 * Issue #14, class 1: HL7 segments inside other encodings. The field policy (tier 3) must find them,
 * tokenize their PHI fields and leave the rest of the carrier unchanged.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { carrierCorpus, CARRIERS, valueParts } from "./_carriers.ts";
import { embeddedScan } from "../../phi/embedded_hl7.ts";
import { toolOutputCorpus } from "../support/phi_corpus.ts";

Deno.test("HL7 in other encodings, generated: every carrier, tool result and prompt, 0 raw values, the rest unchanged", async () => {
  await using h = await testEngine("on");
  const cases = carrierCorpus(6);
  assertEquals(cases.length, Object.keys(CARRIERS).length * 6);
  let values = 0;
  for (const c of cases) {
    for (const surface of ["tool", "prompt"] as const) {
      const r = surface === "tool"
        ? await h.engine.sanitizeToolResult(c.text, "read_file")
        : await h.engine.tokenizeUserInput(c.text);
      for (const p of c.phi) {
        for (const v of valueParts(p.value)) {
          values++;
          assert(!leaks(r.text, v), `${c.carrier} (${surface}): ${p.where} ${v} leaked:\n${r.text}`);
        }
      }
      // Only the values were replaced: restoring the tokens gives the carrier back byte for byte.
      assertEquals(h.engine.detokenize(r.text).text, c.text, `${c.carrier} (${surface})`);
    }
  }
  assert(values > 5000, `only ${values} values checked`);
});

/** Handwritten carriers: the raw values that must go, the carrier text that must stay. */
const HANDWRITTEN: { name: string; text: string; raw: string[]; keep: string[] }[] = [
  {
    name: "SQL row, a doubled quote in the name",
    text:
      "INSERT INTO adt_log (seq, seg) VALUES (41, 'PID|1||55120987^^^HOSP^MR||O''BRIEN^SEAMUS^P||19720314|M|||12 Quarry Rd^^Dunmore^PA^18512');",
    raw: ["55120987", "BRIEN", "SEAMUS", "19720314", "Quarry", "Dunmore", "18512"],
    keep: ["INSERT INTO adt_log (seq, seg) VALUES (41, 'PID|1||", "^^^HOSP^MR||", "|M|||", "^PA^", "');"],
  },
  {
    name: "CSV, doubled quotes in a nickname",
    text: 'row,hl7\n3,"PID|1||88104432^^^MAIN^MR||KOWALCZYK^TERESA ""TESS""^A||19590101|F",ok',
    raw: ["88104432", "KOWALCZYK", "TERESA", "TESS", "19590101"],
    keep: ['row,hl7\n3,"PID|1||', "^^^MAIN^MR||", '|F",ok'],
  },
  {
    name: "Tcl keyed list of segments",
    text:
      "keylset ctx MSG {{MSH|^~\\&|EPIC|H|CL|H|202611240101||ADT^A08|9|P|2.3} {PID|1||66120071^^^H^MR||ABERNATHY^QUINTON||19450707|M} {NK1|1|ABERNATHY^MAUDE|SPO||(216)555-0199}}",
    raw: ["66120071", "ABERNATHY", "QUINTON", "19450707", "MAUDE", "(216)555-0199"],
    keep: ["keylset ctx MSG {{MSH|^~\\&|EPIC|H|CL|H|202611240101||ADT^A08|9|P|2.3} {PID|1||", "|SPO||", "}}"],
  },
  {
    name: "nested JSON: \\\\r one level deeper",
    text: JSON.stringify({
      route: "adt_out",
      body: JSON.stringify({
        raw:
          "MSH|^~\\&|A|B|C|D|20261124||ADT^A01|1|P|2.5\rPID|1||70011234^^^H^MR||FITZGERALD^ORLA||19880229|F\rGT1|1||FITZGERALD^DECLAN||9 Elm Ct^^Cobh^IL^60601|(312)555-0110||19600505|M||SE|321-54-9876",
      }),
    }),
    raw: [
      "70011234",
      "FITZGERALD",
      "ORLA",
      "19880229",
      "DECLAN",
      "Elm Ct",
      "Cobh",
      "60601",
      "(312)555-0110",
      "19600505",
      "321-54-9876",
    ],
    keep: ['{"route":"adt_out","body":"{\\"raw\\":\\"MSH|^~', "ADT^A01|1|P|2.5\\\\r", '\\"}"}'],
  },
  {
    name: "\\u000D uppercase, IN1 alone after MSH",
    text:
      '{"m":"MSH|^~\\\\&|A|B|C|D|1||ADT^A01|1|P|2.5\\u000DIN1|1|BCBS|44|BLUE||||||||||||WHITTAKER^LYDIA|SEL|19770812|4 Birch Ln^^Salem^OR"}',
    raw: ["WHITTAKER", "LYDIA", "19770812", "Birch", "Salem"],
    keep: ["\\u000DIN1|1|BCBS|44|BLUE|", "|SEL|", '^OR"}'],
  },
  {
    name: "HTML table cell, <BR> upper case, &amp; in the header",
    text:
      "<tr><td>MSH|^~\\&amp;|LAB|H|CL|H|20261124||ORU^R01|5|P|2.5<BR>PID|1||44019922^^^H^MR||NAKAMURA^HIROSHI||19661111|M<BR>PV1|1|O|CLINIC||||1234567893^OKONKWO^CHIDI</td></tr>",
    raw: ["44019922", "NAKAMURA", "HIROSHI", "19661111", "1234567893", "OKONKWO", "CHIDI"],
    keep: ["<tr><td>MSH|^~\\&amp;|LAB|", "<BR>PID|1||", "</td></tr>"],
  },
  {
    name: "thread log prefix with a timestamp",
    text:
      "2026-11-24 03:12:09.411 ob_adt_lab|OUT|PID|1||31415926^^^H^MR||DELACROIX^MARGUERITE||19510630|F|||77 Rue Lane^^Peoria^IL^61602\n2026-11-24 03:12:09.412 ob_adt_lab|OUT|NK1|1|DELACROIX^ANTOINE|SON|77 Rue Lane^^Peoria^IL^61602|(309)555-0142",
    raw: [
      "31415926",
      "DELACROIX",
      "MARGUERITE",
      "19510630",
      "Rue Lane",
      "Peoria",
      "61602",
      "ANTOINE",
      "(309)555-0142",
    ],
    keep: ["2026-11-24 03:12:09.411 ob_adt_lab|OUT|PID|1||", "^^^H^MR||", "|SON|"],
  },
  {
    name: "lone segments in prose, each kind",
    text: [
      "The engine dropped these:",
      "PID|1||90210044^^^H^MR||QUARTERMAINE^ELOISE||19700101|F",
      "then NK1|1|QUARTERMAINE^BARNABY|FTH|1 Mill Rd^^Bath^ME^04530|(207)555-0188",
      "and GT1|1|G778|QUARTERMAINE^SILAS||3 Mill Rd^^Bath^ME^04530|(207)555-0177||19400404|M||SE|123-45-6789",
      "and PV1|1|I|W1^101^A||||1928374650^ABERCROMBIE^LUCINDA|||MED||||1|||||V5566778",
      "and IN1|1|AET|55|AETNA||||||||||||QUARTERMAINE^ELOISE|SEL|19700101",
    ].join("\n"),
    raw: [
      "90210044",
      "QUARTERMAINE",
      "ELOISE",
      "19700101",
      "BARNABY",
      "Mill Rd",
      "(207)555-0188",
      "SILAS",
      "(207)555-0177",
      "19400404",
      "123-45-6789",
      "1928374650",
      "ABERCROMBIE",
      "LUCINDA",
      "V5566778",
    ],
    keep: ["The engine dropped these:", "then NK1|1|", "|FTH|", "and PV1|1|I|W1^101^A||||", "|AETNA|"],
  },
  {
    name: "^M with a middle initial M before it",
    text:
      "PID|1||12312399^^^H^MR||PEMBERTON^JOSIAH^M||19821212|M^MPV1|1|O|ER||||1112223330^HALVORSEN^INGRID^M^M",
    raw: ["12312399", "PEMBERTON", "JOSIAH", "19821212", "1112223330", "HALVORSEN", "INGRID"],
    keep: ["PID|1||", "|M^MPV1|1|O|ER||||"],
  },
  {
    name: "an HL7 escape before n or r is not a break (\\T\\nurse)",
    text: '{"seg":"PID|1||50607080^^^H^MR||TREMBLAY\\\\T\\\\nurse^GENEVIEVE||19930303|F"}',
    raw: ["50607080", "TREMBLAY", "GENEVIEVE", "19930303"],
    keep: ['{"seg":"PID|1||', '|F"}'],
  },
  {
    name: "XML with &#x0d; lower case and an attribute carrier",
    text:
      '<batch><msg src="PID|1||24681357^^^H^MR||ELLINGTON^BEATRIX||19490909|F&#x0d;NK1|1|ELLINGTON^MILES|SPO"/></batch>',
    raw: ["24681357", "ELLINGTON", "BEATRIX", "19490909", "MILES"],
    keep: ['<batch><msg src="PID|1||', "^^^H^MR||", '|SPO"/></batch>'],
  },
  {
    name: "CDATA holding segments with \\n, behind a log prefix",
    text: "INFO  [xlate] body=<![CDATA[PID|1||97531864^^^H^MR||OYELARAN^FOLAKE||19750505|F\\nPV1|1|E]]>",
    raw: ["97531864", "OYELARAN", "FOLAKE", "19750505"],
    keep: ["INFO  [xlate] body=<![CDATA[PID|1||", "\\nPV1|1|E]]>"],
  },
];

Deno.test("HL7 in other encodings, handwritten: the values go, the carrier stays", async () => {
  for (const c of HANDWRITTEN) {
    await using h = await testEngine("on");
    for (const surface of ["tool", "prompt"] as const) {
      const r = surface === "tool"
        ? await h.engine.sanitizeToolResult(c.text, "bash_exec")
        : await h.engine.tokenizeUserInput(c.text);
      for (const v of c.raw) assert(!r.text.includes(v), `${c.name} (${surface}): ${v} leaked:\n${r.text}`);
      for (const k of c.keep) assert(r.text.includes(k), `${c.name} (${surface}): lost ${k}:\n${r.text}`);
    }
  }
});

Deno.test("HL7 in other encodings: one token per value, whatever the carrier", async () => {
  await using h = await testEngine("on");
  const seg = "PID|1||61616161^^^H^MR||LINDQVIST^ASTRID||19800808|F";
  const plain = await h.engine.sanitizeToolResult(
    `MSH|^~\\&|A|B|C|D|1||ADT^A01|1|P|2.5\r${seg}\r`,
    "read_file",
  );
  const tokens = plain.tokenized.map((t) => t.token).sort();
  for (const wrap of Object.values(CARRIERS)) {
    const r = await h.engine.sanitizeToolResult(
      wrap(["MSH|^~\\&|A|B|C|D|1||ADT^A01|1|P|2.5", seg]),
      "read_file",
    );
    assertEquals(r.tokenized.map((t) => t.token).sort(), tokens);
  }
});

Deno.test("HL7 in other encodings: text that only looks like it stays untouched", async () => {
  await using h = await testEngine("on");
  const texts = [
    "| PID | field | notes |\n|-----|-------|-------|\n| PID | 5 | the name |",
    "grep 'PID|' adt.hl7 | wc -l; echo \"PID|\" > /tmp/x",
    'set fields {PID|MSH|OBX}; puts "MRN field is PID|3"',
    "<td>PID|</td><td>the patient segment</td>",
    "SELECT * FROM t WHERE seg LIKE 'PID|%' AND n > 12345678;",
    ...toolOutputCorpus(11).slice(0, 10),
  ];
  for (const t of texts) {
    const scan = embeddedScan(t);
    assertEquals(scan?.structured ?? [], [], t);
    const p = await h.engine.tokenizeUserInput(t);
    assertEquals(p.tokenized.map((x) => `${x.tier} ${x.category} ${x.value}`), [], t);
  }
});
