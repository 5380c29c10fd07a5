/**
 * Delimited and fixed-width extracts (phi/extracts.ts, issue #23 item 5), through the real engine.
 *
 * Corpora:
 * - handwritten: the layouts operators pull, written by hand from RFC 4180 (quoted fields, doubled
 *   quotes, embedded line breaks, CRLF), Excel's UTF-8 CSV (a BOM), TSV, pipe and semicolon exports,
 *   GitHub-flavoured Markdown tables, psql and mysql result tables, a fixed-width report with a
 *   dashed rule, and `key=value` / `key: value` log records. Synthetic values only.
 * - generated: tables from a seeded PRNG (tests/support/prng.ts) over every delimiter, header
 *   spelling, quoting and line ending, each with person values that must go and engine facts that
 *   must stay.
 * Every case checks the round trip `detokenize(out) === input`, byte for byte.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { columnCategory, EXTRACT_FORMAT, scanExtracts } from "../../phi/extracts.ts";
import { assertGone, assertKept, testEngine, through as throughAs } from "./_support.ts";
import { mulberry32, pick, randomText } from "../support/prng.ts";

type Engine = Awaited<ReturnType<typeof testEngine>>["engine"];
const through = (engine: Engine, text: string) => throughAs(engine, text, "read_file");

Deno.test("extract vocabulary: column names by category, case and punctuation ignored", () => {
  const cat = (n: string) => {
    const k = columnCategory(n);
    return k?.kind === "phi" ? k.category : k?.kind;
  };
  const expect: Record<string, string | undefined> = {
    "MRN": "MRN",
    "MR#": "MRN",
    "Medical Record": "MRN",
    "medical_record_number": "MRN",
    "Patient ID": "MRN",
    "pat_id": "MRN",
    "chart": "MRN",
    "Name": "NAME",
    "Patient Name": "NAME",
    "LAST": "NAME",
    "last_name": "NAME",
    "lname": "NAME",
    "Surname": "NAME",
    "First": "NAME",
    "fname": "NAME",
    "given": "NAME",
    "middle": "NAME",
    "DOB": "DOB",
    "D.O.B.": "DOB",
    "Birth Date": "DOB",
    "birthdate": "DOB",
    "pt-dob": "DOB",
    "SSN": "SSN",
    "Social": "SSN",
    "phone": "PHONE",
    "Tel": "PHONE",
    "mobile": "PHONE",
    "cell": "PHONE",
    "FAX": "PHONE",
    "home_phone": "PHONE",
    "e-mail": "EMAIL",
    "Address": "ADDRESS",
    "addr1": "ADDRESS",
    "Street": "ADDRESS",
    "City": "ADDRESS",
    "County": "ADDRESS",
    "ZIP": "ADDRESS",
    "zip code": "ADDRESS",
    "postal": "ADDRESS",
    "Account": "ACCOUNT",
    "acct#": "ACCOUNT",
    "FIN": "ACCOUNT",
    "Encounter": "VISIT",
    "visit_id": "VISIT",
    "CSN": "VISIT",
    "Member ID": "MEMBER",
    "subscriber": "MEMBER",
    "Policy": "MEMBER",
    "insurance id": "MEMBER",
    "Admit Date": "DATE",
    "discharge_date": "DATE",
    "service date": "DATE",
    "DOS": "DATE",
    "death date": "DATE",
    "age": "AGE",
    "licence": "LICENSE",
    "License Number": "LICENSE",
    "device": "DEVICE",
    "serial": "DEVICE",
    "ip": "IP",
    "NPI": "NPI",
    "comment": "free",
    "Notes": "free",
    "description": "free",
    "reason": "free",
    "status": "safe",
    "code": "safe",
    "count": "safe",
    "thread": "safe",
    "site": "safe",
    "msg type": "safe",
    "control id": "safe",
    "timestamp": "safe",
    "port": "safe",
    "size": "safe",
    "state": "safe",
    "Disch Dt": "DATE",
    "Zip+4": "ADDRESS",
    "Person ID": "MRN",
    "Provider NPI": "NPI",
    "Error Count": "safe",
    "Message Control ID": "safe",
    "visit type": "safe",
    "widget": undefined,
  };
  for (const [name, want] of Object.entries(expect)) assertEquals(cat(name), want, name);
});

Deno.test("extracts, handwritten: every layout, every row, values go and engine facts stay", async () => {
  await using h = await testEngine("on");
  const cases: { name: string; text: string; gone: string[]; kept: string[] }[] = [
    {
      name: "CSV, RFC 4180 quoting, CRLF, BOM",
      text: "\uFEFFMRN,Last Name,First Name,DOB,Phone,Status,Thread,Msg Type,Control ID\r\n" +
        '00482913,"O\'BRIEN",PATRICK,1964-02-12,217-555-0142,SENT,adt_in,ADT^A08,MSG00412\r\n' +
        '00511207,"VAN DER BERG, JR",MARIA,03/04/1961,(217) 555-0199,ERROR,adt_in,ADT^A04,MSG00413\r\n' +
        '00623340,"SMITH ""SMITTY""",ALAN,19700102,2175550111,SENT,lab_out,ORU^R01,MSG00414\r\n',
      gone: [
        "00482913",
        "O'BRIEN",
        "PATRICK",
        "1964-02-12",
        "217-555-0142",
        "00511207",
        "VAN DER BERG, JR",
        "MARIA",
        "03/04/1961",
        "(217) 555-0199",
        "00623340",
        'SMITH ""SMITTY""',
        "ALAN",
        "19700102",
        "2175550111",
      ],
      kept: ["SENT", "ERROR", "adt_in", "lab_out", "ADT^A08", "ORU^R01", "MSG00412", "MSG00413", "MSG00414"],
    },
    {
      name: "TSV with a free comment column (embedded line break)",
      text: "pat_id\tpatient name\tbirth date\tssn\tcomment\tcount\n" +
        'E778812\tGARCIA, ROSA\t1958-11-30\t123-45-6789\t"called back, ok"\t3\n' +
        'E778813\tNGUYEN, THANH\t1990-07-04\t223-45-6780\t"moved to\nSpringfield"\t12\n',
      gone: [
        "E778812",
        "GARCIA, ROSA",
        "1958-11-30",
        "123-45-6789",
        "E778813",
        "NGUYEN, THANH",
        "1990-07-04",
      ],
      kept: ["called back, ok", "\t3\n", "\t12\n"],
    },
    {
      name: "pipe-delimited MPI extract (no HL7 segment ids)",
      text: "MR#|LNAME|FNAME|ADDR1|CITY|STATE|ZIP|ACCT|ADMIT DATE|FACILITY\n" +
        "00012345|KOWALSKI|ANNA|455 OAK AVE|DENVER|CO|80202|A99817733|2024-10-01|MAIN\n" +
        "00012346|OKAFOR|CHIDI|12 ELM ST APT 4|AURORA|CO|80010|A99817734|2024-10-02|EAST\n",
      gone: [
        "00012345",
        "KOWALSKI",
        "ANNA",
        "455 OAK AVE",
        "DENVER",
        "80202",
        "A99817733",
        "00012346",
        "OKAFOR",
        "CHIDI",
        "12 ELM ST APT 4",
        "AURORA",
        "80010",
        "A99817734",
      ],
      kept: ["|CO|", "MAIN", "EAST", "FACILITY"],
    },
    {
      name: "billing export with spelled-out headers",
      text:
        "Account #,Pt Last,Pt First,Admit Dt,Disch Dt,Attending,Ins Member ID,Total Charges,Payer,Visit Type\n" +
        'HAR40012231,LINDQVIST,BRITTA,11/01/2024,11/04/2024,"HOUSE, GREGORY",YHM882211457,1450.00,BCBS IL,INPATIENT\n' +
        'HAR40012232,ADEYEMI,TUNDE,11/02/2024,11/02/2024,"CAMERON, ALLISON",YHM882211458,310.25,AETNA,OUTPATIENT\n',
      gone: [
        "HAR40012231",
        "LINDQVIST",
        "BRITTA",
        "11/01/2024",
        "11/04/2024",
        "HOUSE, GREGORY",
        "YHM882211457",
        "ADEYEMI",
        "TUNDE",
        "CAMERON, ALLISON",
        "YHM882211458",
      ],
      kept: ["1450.00", "310.25", "BCBS IL", "AETNA", "INPATIENT", "OUTPATIENT"],
    },
    {
      name: "semicolon export",
      text: "member id;surname;given;dob;plan;status\n" +
        "W123456789;FISCHER;LENA;12.05.1977;GOLD;active\n" +
        "W223456789;WEBER;JONAS;01.02.1985;SILVER;termed\n",
      gone: ["W123456789", "FISCHER", "LENA", "12.05.1977", "W223456789", "WEBER", "JONAS", "01.02.1985"],
      kept: ["GOLD", "SILVER", "active", "termed"],
    },
    {
      name: "Markdown table after prose",
      text: "Here are the three patients whose A08s failed overnight:\n\n" +
        "| MRN | Patient | DOB | Encounter | Error |\n|---|:---|---|---|---|\n" +
        "| 00733120 | THOMAS, BARBARA | 1962-04-14 | V5512001 | PID-3 missing |\n" +
        "| 00733121 | LEE, KWAN | 1949-12-24 | V5512002 | timeout after 30 s |\n\nPlease advise.",
      gone: [
        "00733120",
        "THOMAS, BARBARA",
        "1962-04-14",
        "V5512001",
        "00733121",
        "LEE, KWAN",
        "1949-12-24",
        "V5512002",
      ],
      kept: ["PID-3 missing", "timeout after 30 s", "Please advise.", "|---|:---|"],
    },
    {
      name: "psql result",
      text: " mrn      | name          | dob        | thread  | msgs\n" +
        "----------+---------------+------------+---------+------\n" +
        " 00912001 | PATEL,ANJALI  | 1982-06-15 | adt_in  |   42\n" +
        " 00912002 | MORENO,LUIS   | 1975-09-09 | adt_in  |    7\n(2 rows)\n",
      gone: ["00912001", "PATEL,ANJALI", "1982-06-15", "00912002", "MORENO,LUIS", "1975-09-09"],
      kept: ["adt_in", "42", "(2 rows)"],
    },
    {
      name: "mysql boxed result",
      text:
        "+----------+-----------+--------+\n| chart    | last_name | status |\n+----------+-----------+--------+\n" +
        "| C0045112 | ABERNATHY | OPEN   |\n| C0045113 | BLACKWOOD | CLOSED |\n+----------+-----------+--------+\n",
      gone: ["C0045112", "ABERNATHY", "C0045113", "BLACKWOOD"],
      kept: ["OPEN", "CLOSED"],
    },
    {
      name: "fixed-width report",
      text: "MRN       LAST NAME     FIRST     DOB         SITE     COUNT\n" +
        "--------  ------------  --------  ----------  -------  -----\n" +
        "00123456  QUILLFEATHER  MARGARET  1944-01-30  site6    14\n" +
        "00123457  DUBOIS        ETIENNE   1988-08-08  site6    3\n",
      gone: [
        "00123456",
        "QUILLFEATHER",
        "MARGARET",
        "1944-01-30",
        "00123457",
        "DUBOIS",
        "ETIENNE",
        "1988-08-08",
      ],
      kept: ["site6", "14", "COUNT"],
    },
    {
      name: "key=value log records",
      text:
        "2024-11-05 09:30:12,114 INFO  [adt_in] mrn=00123987 name=DOE,JANE dob=1963-05-24 thread=adt_in port=5001\n" +
        "2024-11-05 09:30:13,007 WARN  [adt_in] mrn=00123988 last_name=ROE first_name=RICHARD phone=217-555-0100 retries=3\n",
      gone: ["00123987", "DOE,JANE", "1963-05-24", "00123988", "ROE", "RICHARD", "217-555-0100"],
      kept: ["2024-11-05 09:30:12,114", "2024-11-05 09:30:13,007", "thread=adt_in", "port=5001", "retries=3"],
    },
    {
      name: "key: value form (one pair a line)",
      text: "Patient Name: WASHINGTON, GEORGIA\nMRN: 00556677\nDOB: Jun 9, 1957\nAddress: 77 PINE RD\n" +
        "Thread: adt_in\nControl ID: 8812345\n",
      gone: ["WASHINGTON, GEORGIA", "00556677", "Jun 9, 1957", "77 PINE RD"],
      kept: ["adt_in", "8812345"],
    },
    {
      name: "key=value records inside a JSON string",
      text: String
        .raw`{"stdout": "mrn=00335577 name=NAKAMURA,HIROSHI\ndob=1947-07-07\nthread=adt_in count=9"}`,
      gone: ["00335577", "NAKAMURA,HIROSHI", "1947-07-07"],
      kept: ["thread=adt_in count=9", '{"stdout": "'],
    },
    {
      name: "a CSV inside a JSON string (written-out line breaks, escaped quotes)",
      text: String.raw`{"stdout": "MRN,Last,First,Status\n00441100,O\u0027NEIL,\"AOIFE, M\",SENT\n` +
        String.raw`00441101,BRANDT,KLAUS,HELD\n", "rc": 0}`,
      gone: ["00441100", String.raw`O\u0027NEIL`, "AOIFE, M", "00441101", "BRANDT", "KLAUS"],
      kept: ["SENT", "HELD", '"rc": 0'],
    },
    {
      name: "keyed list printed one key a line (KEY = value)",
      text: "MRN = 00884411\nNAME = LINDGREN ASTRID\nDOB = 19580214\nTHREAD = adt_in\nMSGS = 42\n",
      gone: ["00884411", "LINDGREN ASTRID", "19580214"],
      kept: ["THREAD = adt_in", "MSGS = 42"],
    },
  ];
  for (const c of cases) {
    const out = await through(h.engine, c.text);
    assertGone(out, c.gone, c.name);
    assertKept(out, c.kept, c.name);
  }
});

Deno.test("extracts: a table with no header is read by the shapes of its columns", async () => {
  await using h = await testEngine("on");
  const text = "00482001,DOE^JANE,123-45-6789,1961-03-04,SENT\n" +
    "00482002,ROE^RICHARD,223-45-6789,1970-01-02,SENT\n" +
    "00482003,POE^EDGAR,323-45-6789,1980-05-06,ERROR\n";
  const out = await through(h.engine, text);
  assertGone(
    out,
    ["00482001", "DOE^JANE", "123-45-6789", "1961-03-04", "ROE^RICHARD", "1980-05-06"],
    "no header",
  );
  assertKept(out, ["SENT", "ERROR"], "no header");
  // An unlabelled date column with no name column is a transaction date: it stays.
  const log = "adt_in,2024-11-01,412,1200\nadt_in,2024-11-02,398,1187\nlab_out,2024-11-03,77,300\n";
  assertEquals(await through(h.engine, log), log);
  assertEquals(scanExtracts(log), undefined);
});

Deno.test("extracts: tables that name no person, prose, and HL7 stay as they were", async () => {
  await using h = await testEngine("on");
  const plain = [
    "thread,process,port,status,msgs in,msgs out\nadt_in,adt_proc,5001,up,4211,4211\nlab_out,lab_proc,5002,down,0,77\n",
    "| Segment | Field | Name | Type |\n|---|---|---|---|\n| PID | 5 | Patient Name | XPN |\n",
    "name,host,ip,port\nadt_in,engine01,10.1.2.3,5001\nlab_out,engine02,10.1.2.4,5002\n",
    "Hello, we restarted the thread, then the queue drained.\nIt took 20 minutes, about 4000 messages, no errors.\n" +
    "Next, we cycled the logs, as usual.\n",
    "site;thread;state\nsite6;adt_in;up\nsite6;lab_out;up\n",
  ];
  for (const t of plain) {
    assertEquals(await through(h.engine, t), t, t);
  }
  // A pipe table of HL7 segments is HL7's: the extract scan claims none of it.
  const hl7 = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\nPID|1||12345678^^^H^MR||DOE^JANE||19610304\n" +
    "PV1|1|I|W^1^1\n";
  const s = scanExtracts(hl7);
  assertEquals(s?.structured ?? [], []);
  const out = await through(h.engine, hl7);
  assertGone(out, ["12345678", "DOE^JANE", "19610304"], "hl7");
});

Deno.test("extracts: tables found after prose, after a log prefix and several in one text", async () => {
  await using h = await testEngine("on");
  const text = "The query returned:\nMRN,Last,First\n00111222,HARTLEY,JUNE\n00111223,MBEKI,SIPHO\n\n" +
    "and the second site:\nacct|surname|status\nACC-7781|ZIELINSKI|open\nACC-7782|FONTAINE|closed\n" +
    '{"result": "mrn=00999111 name=KAPOOR,ARJUN dob=1966-06-06"}\n';
  const out = await through(h.engine, text);
  assertGone(
    out,
    [
      "00111222",
      "HARTLEY",
      "JUNE",
      "MBEKI",
      "SIPHO",
      "ACC-7781",
      "ZIELINSKI",
      "FONTAINE",
      "00999111",
      "KAPOOR,ARJUN",
    ],
    "several",
  );
  assertKept(out, ["open", "closed", "The query returned:", "and the second site:"], "several");
});

Deno.test("extracts: typed prompts are read the same way", async () => {
  await using h = await testEngine("on");
  const text = "why did these fail?\nmrn,dob,zip\n00712001,1950-01-01,60601\n00712002,1951-02-02,60602\n";
  const out = await h.engine.tokenizeUserInput(text);
  assertGone(out.text, ["00712001", "1950-01-01", "60601", "00712002", "60602"], "prompt");
  assertEquals(h.engine.detokenize(out.text).text, text);
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
const CITY = ["SPRINGFIELD", "ROCKFORD", "PEORIA", "NAPERVILLE", "JOLIET"];
const STREET = ["OAK AVE", "ELM ST", "PINE RD", "MAPLE DR", "CEDAR LN"];
const THREADS = ["adt_in", "lab_out", "rad_ob", "pharm_in"];
const STATUS = ["SENT", "ERROR", "HELD", "RESENT"];

interface GenTable {
  text: string;
  values: string[];
  facts: string[];
}

/** One generated extract: random delimiter, header spellings, quoting and line ending. */
function genTable(rand: () => number): GenTable {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const delim = pick(rand, [",", "\t", "|", ";"]);
  const eol = pick(rand, ["\n", "\r\n"]);
  const columns: { names: string[]; value: (i: number) => string; phi: boolean }[] = [
    {
      names: ["MRN", "mr#", "Medical Record", "patient_id", "Chart"],
      value: () => pad(int(1, 9999999), 8),
      phi: true,
    },
    { names: ["LAST", "last_name", "Surname", "LNAME"], value: () => pick(rand, LAST), phi: true },
    { names: ["FIRST", "first name", "Given", "FNAME"], value: () => pick(rand, FIRST), phi: true },
    {
      names: ["DOB", "Birth Date", "birthdate", "D.O.B."],
      value: () => `${int(1930, 2005)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}`,
      phi: true,
    },
    {
      names: ["SSN", "social"],
      value: () => `${int(100, 665)}-${pad(int(1, 99), 2)}-${pad(int(1, 9999), 4)}`,
      phi: true,
    },
    {
      names: ["phone", "Tel", "mobile"],
      value: () => `${int(201, 989)}-555-${pad(int(0, 9999), 4)}`,
      phi: true,
    },
    { names: ["addr1", "Street"], value: () => `${int(1, 9999)} ${pick(rand, STREET)}`, phi: true },
    { names: ["city"], value: () => pick(rand, CITY), phi: true },
    { names: ["account", "acct", "FIN"], value: () => `A${pad(int(1, 99999999), 8)}`, phi: true },
    { names: ["member id", "policy"], value: () => `XZ${pad(int(1, 999999999), 9)}`, phi: true },
    {
      names: ["admit date", "DOS"],
      value: () => `2024-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}`,
      phi: true,
    },
    { names: ["thread", "Thread Name"], value: () => pick(rand, THREADS), phi: false },
    { names: ["status"], value: () => pick(rand, STATUS), phi: false },
    { names: ["control id", "msg id"], value: () => `CTL${pad(int(1, 999999), 7)}`, phi: false },
    { names: ["port"], value: () => String(int(5000, 5999)), phi: false },
  ];
  // The MRN column always; the others at random.
  const chosen = [columns[0], ...columns.slice(1).filter(() => rand() < 0.55)];
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  }
  const quote = (v: string) => {
    if (v.includes(delim) || v.includes('"') || rand() < 0.15) return `"${v.replaceAll('"', '""')}"`;
    return v;
  };
  const lines = [chosen.map((c) => pick(rand, c.names)).join(delim)];
  const values: string[] = [];
  const facts: string[] = [];
  const rows = int(1, 12);
  for (let r = 0; r < rows; r++) {
    const cells = chosen.map((c) => {
      const v = c.value(r);
      (c.phi ? values : facts).push(v);
      return v;
    });
    lines.push(cells.map(quote).join(delim));
  }
  const bom = rand() < 0.1 ? "\uFEFF" : "";
  return { text: bom + lines.join(eol) + (rand() < 0.5 ? eol : ""), values, facts };
}

Deno.test("extracts, generated: 150 tables over every delimiter, 0 values reach the model, facts stay", async () => {
  await using h = await testEngine("on");
  const rand = mulberry32(2311);
  let values = 0, facts = 0;
  for (let n = 0; n < 150; n++) {
    const t = genTable(rand);
    const out = await through(h.engine, t.text);
    assertGone(out, t.values, `table ${n}`);
    // A fact equal to a person value elsewhere in the table may share its token; count the rest.
    const kept = t.facts.filter((f) => !t.values.includes(f));
    assertKept(out, kept, `table ${n}`);
    values += t.values.length;
    facts += kept.length;
  }
  assert(values > 1500 && facts > 300, `${values} values, ${facts} facts`);
});

Deno.test("extracts: never throws, finds nothing in noise, maybe() is cheap", () => {
  const rand = mulberry32(77);
  const pieces = [
    ",",
    "\t",
    "|",
    ";",
    '"',
    '""',
    "\n",
    "\r\n",
    "\r",
    "MRN",
    "DOB",
    "name",
    "=",
    ": ",
    " ",
    "  ",
    "|---|",
    "00123",
    "DOE",
    "\uFEFF",
    "{",
    "x",
  ];
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 60);
    const s = EXTRACT_FORMAT.maybe(t) ? scanExtracts(t) : undefined;
    for (const c of s?.structured ?? []) assertEquals(t.slice(c.start, c.end), c.value);
  }
  // Truncations of a real extract.
  const full = genTable(mulberry32(5)).text;
  for (let i = 0; i <= full.length; i += 3) scanExtracts(full.slice(0, i));
  assertEquals(EXTRACT_FORMAT.maybe("short"), false);
});

Deno.test("extracts: a CSV export whose message column holds HL7 keeps every row's person columns", async () => {
  await using h = await testEngine();
  const csv = "acct_id,last_name,first_name,member_no,msg\n" +
    'A10001,Quenby,Orrin,ZX99001,"MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5"\n' +
    "A10002,Thistlewood,Marisol,ZX99002,ok\nA10003,Pellworth,Ignatius,ZX99003,done\n";
  const out = await through(h.engine, csv);
  assertGone(
    out,
    ["A10001", "Quenby", "Orrin", "ZX99001", "Thistlewood", "Marisol", "ZX99002", "Pellworth"],
    "csv",
  );
  assertKept(out, ["ADT^A01", "20240101", ",ok", ",done"], "csv");
});
