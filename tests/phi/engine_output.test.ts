/**
 * Tcl and engine output (phi/engine_output.ts, issue #23 item 6), through the real engine.
 *
 * Corpora:
 * - handwritten: shapes from research/cloverleaf.md (keyed lists written `{ KEY value }` as NetConfig
 *   and SMAT .idx files write them; `keylset`; hcitpstest's `%8s: '%s'` send-to output and
 *   hciroutetest's `dest: 'message'` lines; Tcl's own errorInfo frames `while executing` /
 *   `invoked from within` / `(procedure "x" line N)`), and Cloverleaf process-log lines
 *   (`[pd  :pdtd:INFO/0:thread:timestamp] text`, `[msg :Msg :ERR /0:...]`, `[pd  .PDTS.0001]`).
 *   Synthetic values only.
 * - generated: keyed lists and log lines from a seeded PRNG (tests/support/prng.ts), with person
 *   values that must go and engine facts (threads, sites, ports, counts, MIDs, timestamps) that must
 *   stay.
 * Every case checks the round trip `detokenize(out) === input`, byte for byte.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { ENGINE_OUTPUT_FORMAT, scanEngineOutput } from "../../phi/engine_output.ts";
import { assertGone, assertKept, testEngine, through as throughAs } from "./_support.ts";
import { mulberry32, pick, randomText } from "../support/prng.ts";

type Engine = Awaited<ReturnType<typeof testEngine>>["engine"];
const through = (engine: Engine, text: string) => throughAs(engine, text, "bash_exec");

Deno.test("engine output, unit: keyed lists by key, nested address and name lists", () => {
  const t = "{MSGID message0} {PATIENT {{NAME {QUILLFEATHER MARGARET J}} {MRN 00482913} {DOB 19440130}\n" +
    "  {ADDR {{STREET {12 ELM ST}} {CITY SPRINGFIELD} {STATE IL} {ZIP 62704}}} {PHONE {(217) 555-0142}}}}";
  const s = scanEngineOutput(t)!;
  assertEquals(
    s.structured.map((c) => [c.category, c.value, c.context]),
    [
      ["NAME", "QUILLFEATHER MARGARET J", "Tcl PATIENT.NAME"],
      ["MRN", "00482913", "Tcl PATIENT.MRN"],
      ["DOB", "19440130", "Tcl PATIENT.DOB"],
      ["ADDRESS", "12 ELM ST", "Tcl PATIENT.ADDR.STREET"],
      ["ADDRESS", "SPRINGFIELD", "Tcl PATIENT.ADDR.CITY"],
      ["ADDRESS", "62704", "Tcl PATIENT.ADDR.ZIP"],
      ["PHONE", "(217) 555-0142", "Tcl PATIENT.PHONE"],
    ],
  );
  // A weak key alone names no person: `{NAME adt_in}` is a thread.
  assertEquals(scanEngineOutput("{NAME adt_in} {PORT 5001} {PSTATUS up}")?.structured ?? [], []);
  assertEquals(scanEngineOutput("{LAST tps_x.tcl} {PORT 5001}")?.structured ?? [], []);
});

Deno.test("engine output, handwritten: keyed lists, test tools, logs and stacks", async () => {
  await using h = await testEngine("on");
  const cases: { name: string; text: string; gone: string[]; kept: string[] }[] = [
    {
      name: "keyed list printed by a TPS (echo $kl)",
      text:
        "tps_pat_lookup: got {MRN 00771234} {NAME {HALVORSEN SOLVEIG}} {DOB 19520817} {SSN 512-44-9087} " +
        "{PHONE {608 555 0133}} {THREAD adt_in} {COUNT 14}\n",
      gone: ["00771234", "HALVORSEN SOLVEIG", "19520817", "512-44-9087", "608 555 0133"],
      kept: ["{THREAD adt_in}", "{COUNT 14}", "tps_pat_lookup"],
    },
    {
      name: "NetConfig-style writing, spaces inside braces",
      text: "{ PATIENT {\n    { LAST CASTELLANOS }\n    { FIRST ROSALIND }\n    { ACCOUNT A7719920 }\n" +
        "    { ADDR {\n        { LINE1 {455 OAK AVE} }\n        { CITY ROCKFORD }\n        { STATE IL }\n    } }\n} }\n" +
        "{ PROTOCOL {\n    { HOST engine01 }\n    { PORT 6201 }\n} }\n",
      gone: ["CASTELLANOS", "ROSALIND", "A7719920", "455 OAK AVE", "ROCKFORD"],
      kept: ["{ STATE IL }", "{ HOST engine01 }", "{ PORT 6201 }"],
    },
    {
      name: "keylset and set in a Tcl script",
      text: "keylset pat MRN 00993311 NAME {BLACKWOOD TOBIAS} DOB 1971-02-03\nset dob 19690411\n" +
        'set patient_name "ZIELINSKI, KAROL"\nset thread adt_in\nset port 5001\n',
      gone: ["00993311", "BLACKWOOD TOBIAS", "1971-02-03", "19690411", "ZIELINSKI, KAROL"],
      kept: ["set thread adt_in", "set port 5001", "keylset pat MRN"],
    },
    {
      name: "hcitpstest output with an apostrophe in a name",
      text: "Command Line: hcitpstest -r run -a -f nl -c sms_ib_data adt.nl tps_filter_a08\n" +
        "CONTINUE: 'MSH|^~\\&|EPIC|MAIN|LAB|MAIN|20241105093012||ADT^A08|MSG00412|P|2.5\r" +
        "PID|1||00482913^^^MRN^MR||O'BRIEN^PATRICK^J||19640212|M|||12 ELM ST^^SPRINGFIELD^IL^62704||(217)555-0142'\n" +
        "    KILL: 'MSH|^~\\&|EPIC|MAIN|LAB|MAIN|20241105093013||ADT^A08|MSG00413|P|2.5\r" +
        "PID|1||00482914^^^MRN^MR||D'ANGELO^ROSA||19710609|F|||9 PINE RD^^PEORIA^IL^61602'\n",
      gone: [
        "00482913",
        "O'BRIEN^PATRICK^J",
        "BRIEN",
        "19640212",
        "12 ELM ST",
        "SPRINGFIELD",
        "62704",
        "(217)555-0142",
        "00482914",
        "D'ANGELO^ROSA",
        "ANGELO",
        "19710609",
        "9 PINE RD",
        "PEORIA",
        "61602",
      ],
      kept: ["CONTINUE: '", "KILL: '", "MSG00412", "MSG00413", "20241105093012", "tps_filter_a08"],
    },
    {
      name: "hciroutetest output, non-HL7 message",
      text: "ob_lab_out: 'Patient DUBOIS, ETIENNE MRN 00456789 DOB 08/08/1988 arrived'\n" +
        "ob_rad_out: 'thread adt_in sent 42 messages'\n",
      gone: ["DUBOIS, ETIENNE", "00456789", "08/08/1988"],
      kept: ["ob_lab_out: '", "ob_rad_out: 'thread adt_in sent 42 messages'"],
    },
    {
      name: "Cloverleaf process log",
      text: "[pd  :pdtd:INFO/0:  adt_in:11/05/2024 09:30:12] Thread has gone up\n" +
        "[msg :Msg :ERR /0:   adt_in:11/05/2024 09:30:14] Patient GRUBER, INGRID MRN 05510980 DOB 1961-03-04 not found\n" +
        "[pd  .PDTS.0001] read 2666 bytes from port 5001\n" +
        "[tps :tps :ERR /0:   adt_in:11/05/2024 09:30:15] tps_filter: {MRN 05510981} {NAME {ESPOSITO MATTEO}}\n",
      gone: ["GRUBER, INGRID", "05510980", "1961-03-04", "05510981", "ESPOSITO MATTEO"],
      kept: [
        "[pd  :pdtd:INFO/0:  adt_in:11/05/2024 09:30:12]",
        "[msg :Msg :ERR /0:   adt_in:11/05/2024 09:30:14]",
        "[pd  .PDTS.0001] read 2666 bytes from port 5001",
        "11/05/2024 09:30:15",
      ],
    },
    {
      name: "process log inside a JSON string",
      text: String.raw`{"lines": "[pd  :pdtd:INFO/0:adt_in:11/06/2024 10:00:00] up\n` +
        String.raw`[tps :tps :ERR /0:adt_in:11/06/2024 10:00:01] {MRN 06620011} {NAME {NOVAK PETRA}}\n"}`,
      gone: ["06620011", "NOVAK PETRA"],
      kept: ["11/06/2024 10:00:00", "11/06/2024 10:00:01", "adt_in"],
    },
    {
      name: "Tcl error stack",
      text: "Tcl error:\n        msgId   = message0\n        proc    = 'tps_mrn_check'\n" +
        'can\'t read "dob": no such variable\n    while executing\n' +
        '"keylset pat MRN 00118822 NAME {FONTAINE AUGUSTIN}"\n' +
        '    (procedure "tps_mrn_check" line 12)\n    invoked from within\n' +
        '"tps_mrn_check {MSGID message0} {CONTEXT sms_ib_data} {ARGS {DEBUG 1}}"\n',
      gone: ["00118822", "FONTAINE AUGUSTIN"],
      kept: ['(procedure "tps_mrn_check" line 12)', "sms_ib_data", "message0", "{DEBUG 1}"],
    },
  ];
  for (const c of cases) {
    const out = await through(h.engine, c.text);
    assertGone(out, c.gone, c.name);
    assertKept(out, c.kept, c.name);
  }
});

Deno.test("engine output: a log timestamp is never a date of birth, not later either", async () => {
  await using h = await testEngine("on");
  const log = "[pd  :pdtd:INFO/0:  adt_in:03/04/1961 09:30:12] DOB\n" +
    "2024-11-05 09:30:12 DOB check passed for thread adt_in\n" +
    "[msg :Msg :ERR /0:adt_in:11/05/2024 09:30:14] DOB field empty\n";
  const out = await through(h.engine, log);
  assertKept(out, ["03/04/1961 09:30:12", "2024-11-05 09:30:12", "11/05/2024 09:30:14"], "log");
  // And nothing of it is swept as a known value into a later text.
  const later = await through(h.engine, "the run of 2024-11-05 09:30:12 and 11/05/2024 went fine");
  assertEquals(later, "the run of 2024-11-05 09:30:12 and 11/05/2024 went fine");
});

Deno.test("engine output: NetConfig, statusrpt and SMAT index text stay as they are", async () => {
  await using h = await testEngine("on");
  const plain = [
    "protocol adt_in {\n    { GROUPS {} }\n    { PROCESSNAME adt_proc }\n    { PROTOCOL {\n        { HOST {} }\n" +
    "        { ISSERVER 1 }\n        { PORT 5001 }\n        { TYPE pdl-tcpip }\n    } }\n    { SYMNAME adt_in }\n} \n",
    "{adt_in {PSTATUS up} {ALIVE 1} {OBDATAQD 0} {MSGSIN 4211} {MSGSOUT 4211} {PLASTREAD 1730800212} {ERRORCNT 0}}",
    "{{MID {0 0 4812}} {SRCMID {0 0 4811}} {TYPE DATA} {SOURCECONN adt_in} {DESTCONN lab_out} {TIME 1730800212} " +
    "{OFFSET 0                   } {LENGTH 2666      }}",
    "psummary {adt_proc running {Started at Fri Feb 27 14:05:10 2015}}",
    "Response:\nPlaced 12 msgs from file adt.nl into the ob_post_tps data queue\n",
  ];
  for (const t of plain) assertEquals(await through(h.engine, t), t, t);
});

// ---- generated ------------------------------------------------------------------------------------

const LAST = [
  "ABERNATHY",
  "BLACKWOOD",
  "CASTELLANOS",
  "DUBOIS",
  "ESPOSITO",
  "FONTAINE",
  "GRUBER",
  "HALVORSEN",
];
const FIRST = ["MARGARET", "ETIENNE", "ROSALIND", "TOBIAS", "INGRID", "MATTEO", "SOLVEIG", "AUGUSTIN"];
const THREADS = ["adt_in", "lab_out", "rad_ob", "pharm_in"];

Deno.test("engine output, generated: 200 keyed lists and log lines, 0 values reach the model", async () => {
  await using h = await testEngine("on");
  const rand = mulberry32(4242);
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  let values = 0;
  for (let n = 0; n < 200; n++) {
    const mrn = pad(int(1, 99999999), 8);
    const name = `${pick(rand, LAST)} ${pick(rand, FIRST)}`;
    const dob = `${int(1930, 2005)}${pad(int(1, 12), 2)}${pad(int(1, 28), 2)}`;
    const thread = pick(rand, THREADS);
    const port = String(int(5000, 5999));
    const count = String(int(1, 9999));
    const ts = `${pad(int(1, 12), 2)}/${pad(int(1, 28), 2)}/2024 ${pad(int(0, 23), 2)}:${
      pad(int(0, 59), 2)
    }:${pad(int(0, 59), 2)}`;
    const kl = pick(rand, [
      `{MRN ${mrn}} {NAME {${name}}} {DOB ${dob}} {THREAD ${thread}} {PORT ${port}} {COUNT ${count}}`,
      `{ PATIENT { { MRN ${mrn} } { NAME {${name}} } { DOB ${dob} } } } { SITE site6 } { PORT ${port} }`,
      `keylset pat MRN ${mrn} NAME {${name}} DOB ${dob}; keylset stat THREAD ${thread} PORT ${port}`,
    ]);
    const text = pick(rand, [
      `[tps :tps :INFO/0:${thread}:${ts}] ${kl}`,
      `${kl}\n[pd  :pdtd:INFO/0:${thread}:${ts}] ${count} msgs`,
      `CONTINUE: '${kl}'\n`,
    ]);
    const out = await through(h.engine, text);
    assertGone(out, [mrn, name, dob], `case ${n}`);
    assertKept(out, [thread, ts.slice(0, 10), port].filter((f) => text.includes(f)), `case ${n}`);
    values += 3;
  }
  assert(values === 600);
});

Deno.test("engine output: never throws on noise and truncations", () => {
  const rand = mulberry32(99);
  const pieces = [
    "{",
    "}",
    " ",
    "\n",
    "MRN",
    "NAME",
    "DOB",
    "00123",
    "SMITH JOHN",
    "'",
    '"',
    "\\",
    "[pd  :",
    "]",
    ": '",
    "keylset ",
    "set ",
    "while executing\n",
    "invoked from within\n",
    "x",
  ];
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 50);
    const s = ENGINE_OUTPUT_FORMAT.maybe(t) ? scanEngineOutput(t) : undefined;
    for (const c of s?.structured ?? []) assertEquals(t.slice(c.start, c.end), c.value);
  }
  const full = "[tps :tps :ERR /0:adt_in:11/05/2024 09:30:15] {MRN 05510981} {NAME {ESPOSITO MATTEO}}\n" +
    "CONTINUE: 'MSH|^~\\&|A|B\rPID|1||1^^^H||O'BRIEN^PAT'\n    while executing\n\"keylset pat MRN 0011\"\n";
  for (let i = 0; i <= full.length; i++) scanEngineOutput(full.slice(0, i));
});

Deno.test("engine output: an address or name key followed by a plain list gives each element its value", async () => {
  await using h = await testEngine();
  const t =
    "keylprint of msg metadata:\n{MID {{DOMAIN 0} {HUB 0} {NUM 4412}}} {PATIENT {{NAME {WICKERSHAM DELPHINE A}} " +
    "{MRN 00481233} {DOB 19580214} {ADDR {77 BRIARWOOD LN} {ASHEVILLE} {NC} {28801}}}}";
  const out = await through(h.engine, t);
  assertGone(out, ["WICKERSHAM", "00481233", "19580214", "77 BRIARWOOD LN", "ASHEVILLE", "28801"], "list");
  assertKept(out, ["{NC}", "{NUM 4412}", "{DOMAIN 0}"], "list");
});
