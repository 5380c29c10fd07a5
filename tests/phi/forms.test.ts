/**
 * The detection forms of issues #14 (PHI second round: tier 1, tier 2, birth dates, tier 4, false
 * tokenizations, one token per value) and #18 (phones with extensions, whole-word keywords, "born",
 * payment cards). Each class is checked on hand-written cases and on generated ones (seeded, so a
 * failure reproduces), positive and negative.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { detectAuto, KnownIndex } from "../../phi/detect.ts";
import { protectedSpans } from "../../phi/exclusions.ts";
import { LookupTable } from "../../phi/lookup.ts";
import { luhnValid, npiValid } from "../../phi/tier1_definite.ts";
import { tempDir } from "../support/run_assist.ts";
import { mulberry32 } from "../support/prng.ts";
import { toolOutputCorpus } from "../support/phi_corpus.ts";
import { FENCED_VALUES, leaks, outsideFences, testEngine } from "./_support.ts";

const found = (text: string, known?: KnownIndex) =>
  detectAuto(text, { protect: protectedSpans(text), known }).map((c) => [c.category, c.value]);

/** The one candidate `text` gives, as [category, value]; fails when there is not exactly one. */
function one(text: string): string[] {
  const f = found(text);
  assertEquals(f.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(f)}`);
  return f[0];
}

const rand = mulberry32(1418);
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const digits = (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join("");

/** Digits of `prefix` plus random digits to `length`, with a Luhn check digit at the end. */
function luhnNumber(prefix: string, length: number): string {
  const body = prefix + digits(length - prefix.length - 1);
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error("unreachable");
}

/** A number that fails the Luhn check (the last digit off by one). */
const luhnBroken = (n: string) => n.slice(0, -1) + String((Number(n.at(-1)) + 1) % 10);

function npi(): string {
  const body = pick(["1", "2"]) + digits(8);
  for (let d = 0; d <= 9; d++) if (npiValid(body + d)) return body + d;
  throw new Error("unreachable");
}

const area = () => String(int(200, 899)).replace(/^666$/, "667");
const nanp = () => [String(int(2, 9)) + digits(2), String(int(2, 9)) + digits(2), digits(4)];

// ---- tier 1 ---------------------------------------------------------------------------------------

Deno.test("tier 1 phones: international, space-separated after +1 or a phone cue, extensions, suffixes (hand-written)", () => {
  for (
    const [text, value] of [
      ["+1 555 123 4567", "+1 555 123 4567"],
      ["call +1 555 123 4567 now", "+1 555 123 4567"],
      ["UK office +44 20 7946 0958.", "+44 20 7946 0958"],
      ["Zurich: +41 (0)44 668 18 00", "+41 (0)44 668 18 00"],
      ["Fax: +46 (0)8 123 456 78", "+46 (0)8 123 456 78"],
      ["+33 1 42 68 53 00", "+33 1 42 68 53 00"],
      ["Phone: 555 123 4567", "555 123 4567"],
      ["tel 5551234567", "5551234567"],
      ["Fax: 345-899-3560x4587", "345-899-3560x4587"],
      ["Desk: +1-903-140-4508x769", "+1-903-140-4508x769"],
      ["Office\\,751-954-9268-Fax", "751-954-9268"],
      ["(555) 123-4567 ext. 12", "(555) 123-4567 ext. 12"],
      ["(555) 123-4567 extension 3", "(555) 123-4567 extension 3"],
      ["(579)888-3058 fax", "(579)888-3058"],
      ["Desk: (898)666-3621x0135", "(898)666-3621x0135"],
      ["fax 259.735.7502x459", "259.735.7502x459"],
      ["001-518-555-0143", "001-518-555-0143"],
    ]
  ) assertEquals(one(text), ["PHONE", value], text);
  for (
    const text of [
      "rows 555 123 4567", // spaced, no cue: a table of numbers
      "+12 items", // too short for a phone
      "offset +0100",
      "555-123-45678", // too long
      "v1.555.123.4567",
    ]
  ) assertEquals(found(text), [], text);
});

Deno.test("tier 1 phones: generated NANP shapes with extensions and suffixes, and international numbers", () => {
  for (let i = 0; i < 400; i++) {
    const [a, b, c] = nanp();
    const core = pick([
      `(${a}) ${b}-${c}`,
      `(${a})${b}-${c}`,
      `${a}-${b}-${c}`,
      `${a}.${b}.${c}`,
      `+1-${a}-${b}-${c}`,
      `+1 ${a}-${b}-${c}`,
      `+1 ${a} ${b} ${c}`,
      `1-${a}-${b}-${c}`,
    ]);
    const ext = pick([
      "",
      `x${digits(int(1, 5))}`,
      ` ext. ${digits(int(1, 4))}`,
      ` x ${digits(3)}`,
      ` ext ${digits(2)}`,
    ]);
    const suffix = pick(["", "-Fax", "-Office", " mobile", ".", ","]);
    const lead = pick(["Phone: ", "call ", "", "Desk: ", "reach me at ", "\\,"]);
    const value = core + ext;
    const text = `${lead}${value}${suffix} thanks`;
    assertEquals(one(text), ["PHONE", value], text);
  }
  for (let i = 0; i < 200; i++) {
    const cc = pick(["44", "49", "33", "41", "46", "61", "91", "353"]);
    const groups = Array.from({ length: int(2, 4) }, () => digits(int(2, 4)));
    while (cc.length + groups.join("").length < 9) groups.push(digits(3));
    while (cc.length + groups.join("").length > 15) groups.pop(); // E.164: 15 digits at most
    const value = `+${cc}${pick([" ", "-", " (0)"])}${groups.join(pick([" ", "-", "."]))}`;
    assertEquals(one(`contact ${value} today`), ["PHONE", value], value);
  }
});

Deno.test("tier 1 SSNs: spaces, dots, en dashes, and 9 bare digits after an SSN cue", () => {
  for (
    const [text, value] of [
      ["SSN 123 45 6789", "123 45 6789"],
      ["ssn: 123.45.6789", "123.45.6789"],
      ["SSN 123\u201345\u20136789", "123\u201345\u20136789"],
      ["SSN: 123456789", "123456789"],
      ["SS# 123456789", "123456789"],
      ["social security number 123456789.", "123456789"],
      ["Social Security No 219 09 9999", "219 09 9999"],
    ]
  ) assertEquals(one(text), ["SSN", value], text);
  for (
    const text of [
      "order 123456789", // 9 digits without a cue
      "SSN 000 12 3456", // no area 000
      "ssn 666.12.3456", // no area 666
      "SSN 123-45 6789", // mixed separators are not one SSN
      "version 1.2.3 and 123 45",
      "Suite 680 36 4022 Oakridge", // spaces without an SSN cue: an address
    ]
  ) assert(!found(text).some(([c]) => c === "SSN"), text);
  for (let i = 0; i < 300; i++) {
    const [a, g, s] = [area(), String(int(1, 99)).padStart(2, "0"), String(int(1, 9999)).padStart(4, "0")];
    const sep = pick([" ", ".", "\u2013", "-"]);
    const value = `${a}${sep}${g}${sep}${s}`;
    const lead = sep === " "
      ? pick(["SSN ", "ssn: ", "SS# ", "Social Security number "])
      : pick(["SSN ", "on file ", "", "ss: "]);
    assertEquals(one(`${lead}${value}${pick([".", "", " today", ";"])}`), [
      "SSN",
      value,
    ]);
    const bare = `${a}${g}${s}`;
    assertEquals(one(`${pick(["SSN: ", "SSN ", "ssn#", "Social Security Number: "])}${bare}`), ["SSN", bare]);
  }
});

Deno.test("tier 1 e-mail: inside a URL query string or path, also as %40; the rest of the URL stays", () => {
  for (
    const [text, value] of [
      ["see https://portal.example.org/q?email=jane.doe@example.com&x=1", "jane.doe@example.com"],
      ["GET /api/users/jane.doe@example.com/profile HTTP/1.1", "jane.doe@example.com"],
      ["https://x.example.org/reset?user=jane%40example.com", "jane%40example.com"],
      ["mailto:jane@example.com", "jane@example.com"],
    ]
  ) assertEquals(one(text), ["EMAIL", value], text);
  // A URL's user part is not an address, and paths without one stay whole.
  assertEquals(found("ssh://hci@engine01.example.org/x"), []);
  assertEquals(found("see https://docs.example.com/record/12345678?visit=7654321"), []);
  for (let i = 0; i < 100; i++) {
    const user = `${pick(["jane", "j.doe", "bob_smith", "a.b-c"])}${int(1, 999)}`;
    const host = pick(["example.org", "mail.example.com", "example.co.uk"]);
    const at = pick(["@", "%40"]);
    const value = `${user}${at}${host}`;
    const url = pick([
      `https://app.example.net/login?next=/home&email=${value}&r=1`,
      `https://app.example.net/u/${value}/settings`,
      `/var/spool/mail/${value}/inbox`,
    ]);
    assertEquals(one(`curl ${url}`), ["EMAIL", value], url);
  }
});

Deno.test("tier 1 NPI: after NPI without a colon only with a valid check digit (80840 prefix)", () => {
  assert(npiValid("1234567893"));
  assert(!npiValid("1234567890"));
  assertEquals(one("NPI 1234567893"), ["NPI", "1234567893"]);
  assertEquals(one("ordering NPI# 1234567893."), ["NPI", "1234567893"]);
  assertEquals(found("NPI 1234567890"), [], "a failing check digit is not an NPI (and stays an epoch shape)");
  assertEquals(one("NPI: 1234567890"), ["NPI", "1234567890"], "an explicit NPI: label needs no check");
  for (let i = 0; i < 200; i++) {
    const n = npi();
    const text = `${pick(["NPI ", "NPI#", "npi number ", "NPI = ", "NPI-"])}${n}${
      pick(["", ".", " on file"])
    }`;
    assertEquals(one(text), ["NPI", n], text);
    assertEquals(found(text.replace(n, luhnBroken(n))).filter(([c]) => c === "NPI"), [], text);
  }
});

// ---- payment cards --------------------------------------------------------------------------------

const NETWORKS = [
  ["4", 16],
  ["4", 13],
  ["4", 19],
  ["51", 16],
  ["55", 16],
  ["2221", 16],
  ["2720", 16],
  [
    "34",
    15,
  ],
  ["37", 15],
  ["6011", 16],
  ["65", 16],
  ["3528", 16],
  ["3589", 16],
  ["36", 14],
  ["300", 14],
] as const;

Deno.test("cards: Luhn-valid 13-19 digits after a card cue, bare or grouped; never a number failing Luhn", () => {
  assertEquals(one("card 4111111111111111"), ["CARD", "4111111111111111"]);
  assertEquals(one("My credit card 4131034282458809939 is expiring"), ["CARD", "4131034282458809939"]);
  assertEquals(one("cc 4111 1111 1111 1111 exp 12/29"), ["CARD", "4111 1111 1111 1111"]);
  assertEquals(one("Amex 3782-822463-10005"), ["CARD", "3782-822463-10005"]);
  assertEquals(found("card 4111111111111112"), [], "fails Luhn");
  for (let i = 0; i < 400; i++) {
    const [prefix, len] = pick(NETWORKS);
    const n = luhnNumber(prefix, len);
    const cue = pick([
      "card ",
      "my card # ",
      "credit card: ",
      "cc ",
      "Visa ending ",
      "What's your credit card? ",
    ]);
    const grouped = len === 15 && prefix.startsWith("3")
      ? `${n.slice(0, 4)} ${n.slice(4, 10)} ${n.slice(10)}`
      : n.match(/.{1,4}/g)!.join(pick([" ", "-"]));
    const value = pick([n, grouped]);
    const text = `${cue}${value}${pick(["", ".", " is lost", "?"])}`;
    assertEquals(one(text), ["CARD", value], text);
    assertEquals(found(text.replace(value, luhnBroken(value))).filter(([c]) => c === "CARD"), [], text);
  }
});

Deno.test("cards: without a cue only in a card layout with a network prefix; long ids in logs and HL7 stay", () => {
  assertEquals(one("paid with 4111 1111 1111 1111"), ["CARD", "4111 1111 1111 1111"]);
  assertEquals(one("ref 5500-0000-0000-0004 declined"), ["CARD", "5500-0000-0000-0004"]);
  let luhnIds = 0;
  for (let i = 0; i < 600; i++) {
    // Bare 13-19 digit runs (control ids, timestamps, sequence numbers), a tenth of them Luhn-valid.
    const id = pick([digits(int(13, 19)), luhnNumber(pick(["4", "5", "37", "6011"]), int(13, 19))]);
    if (luhnValid(id)) luhnIds++;
    for (
      const text of [
        `MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|${id}|P|2.5`,
        `2024-01-01 12:00:00 msgid=${id} thread adt_in`,
        `seq ${id} written to recovery db`,
        `${id}`,
      ]
    ) assertEquals(found(text).filter(([c]) => c === "CARD"), [], text);
  }
  assert(luhnIds > 250, `${luhnIds} Luhn-valid ids tried`);
  // Grouped like a card but with no network prefix, or in groups no card uses.
  assertEquals(found("id 1234 5678 9012 3452"), []);
  assertEquals(found("0000 0000 0000 0000"), []);
  assertEquals(found("range 4111 11111 1111 111"), []);
});

// ---- tier 2 ---------------------------------------------------------------------------------------

/** The category tier 2 gives an identifier by its keyword: an account, a visit, else an MRN. */
function idCategory(text: string): string {
  const kw = /^(?:the |re: )?([a-z]+)/i.exec(text)?.[1].toLowerCase() ?? "";
  if (/^acc(?:oun)?ts?$/.test(kw)) return "ACCOUNT";
  if (kw === "visit") return "VISIT";
  return "MRN";
}

Deno.test("tier 2: keywords are whole words in either case; joined, camel-case, next-line, alphanumeric, lists", () => {
  for (
    const text of [
      "Dobson Street 1394",
      "we recorded 4211 messages",
      "visitors: 120 this week",
      "Recorded 1500 messages in the last hour",
      "the accountant filed 20231231",
      "Patientenakte 12345678",
      "DOBSON 12345678",
      "revisited 12345678",
      "birthplace 12345678",
    ]
  ) assertEquals(found(text), [], text);
  for (
    const [text, value] of [
      ["Mrn-12345678", "12345678"],
      ["MRN#12345678", "12345678"],
      ["mrn12345678", "12345678"],
      ["PatientMRN12345678", "12345678"],
      ["PatientID: E1234567", "E1234567"],
      ["MRN:\n12345678", "12345678"],
      ["Account number:\r\n  700912345", "700912345"],
      ["MRN: HOSP00012345", "HOSP00012345"],
      ["acct no. AC-0099887766", "AC-0099887766"],
      ["Visit # V20931177 got", "V20931177"],
      ["visit 20380117 closed", "20380117"],
    ]
  ) assertEquals(one(text), [idCategory(text), value], text);
  assertEquals(found("MRNs 12345678, 23456789, 34567890"), [["MRN", "12345678"], ["MRN", "23456789"], [
    "MRN",
    "34567890",
  ]]);
  assertEquals(found("accounts 1234567; 2345678 and 3456789."), [["ACCOUNT", "1234567"], [
    "ACCOUNT",
    "2345678",
  ], [
    "ACCOUNT",
    "3456789",
  ]]);
});

Deno.test("tier 2 (generated): keyword forms, case, separators and lists", () => {
  const keywords = [
    "MRN",
    "Mrn",
    "mrn",
    "Account",
    "ACCT",
    "acct",
    "Visit",
    "Record",
    "Patient",
    "patient id",
  ];
  for (let i = 0; i < 500; i++) {
    const kw = pick(keywords);
    const id = pick([
      digits(int(6, 10)).replace(/^[01]/, "7"),
      `${pick(["E", "HOSP", "V", "AC"])}${digits(int(5, 9))}`,
    ]);
    const sep = pick([" ", ": ", "#", "-", ":\n", " number ", " no. ", ": \r\n"]);
    const text = `${pick(["", "the ", "Re: "])}${kw}${sep}${id}${pick(["", ".", " was merged", ","])}`;
    assertEquals(one(text), [idCategory(text), id], JSON.stringify(text));
    const more = Array.from({ length: int(1, 3) }, () => digits(8).replace(/^[01]/, "4"));
    const head = /^(?:mrn|account|acct)$/i.test(kw) ? `${kw}s` : kw;
    const list = `${head} ${[id, ...more].join(pick([", ", "; ", " and ", ", and "]))}`;
    assertEquals(found(list).map(([, v]) => v), [id, ...more], list);
  }
});

Deno.test("false tokenizations: counts with a unit after a keyword, a bare :port, ordinary dates", () => {
  for (
    const text of [
      "MRN lookup took 12345 ms",
      "Patient import: 8000 rows",
      "we recorded 4211 messages",
      "Account feed moved 123456 bytes",
      "Visit queue 5000 msgs behind",
      "listening on :8080",
      "patient api :8443 and :9090",
      "Visit on 03/15/2024",
      "Patient seen 2024-03-15",
      "Visit on January 5, 2024",
      "record of 5 Jan 2024 meeting",
      "born in 1977",
    ]
  ) assertEquals(found(text), [], text);
  for (let i = 0; i < 300; i++) {
    const unit = pick([
      "ms",
      "s",
      "seconds",
      "rows",
      "messages",
      "msgs",
      "bytes",
      "KB",
      "MB",
      "files",
      "errors",
      "%",
    ]);
    const text = `${pick(["MRN", "Patient", "Account", "Visit", "Acct"])} ${
      pick(["lookup took", "import:", "feed", "queue"])
    } ${int(1000, 999999)} ${unit}`;
    assertEquals(found(text), [], text);
    assertEquals(found(`${pick(["proxy", "server up", "bind"])} :${int(1, 65535)}`), []);
  }
});

// ---- dates of birth -------------------------------------------------------------------------------

Deno.test("DOB: birth context wins over timestamps and ISO dates; month names are one token; D.O.B. and born", () => {
  for (
    const [text, value] of [
      ["DOB: 19800101000000", "19800101000000"],
      ["Date of Birth: 1980-01-01T00:00:00", "1980-01-01T00:00:00"],
      ['"birth_date": "19990101000000"', "19990101000000"],
      ["DOB: January 5, 1950", "January 5, 1950"],
      ["dob 18-Dec-1986", "18-Dec-1986"],
      ["Birthdate 5 Jan 1950", "5 Jan 1950"],
      ["D.O.B. 03/15/1980", "03/15/1980"],
      ["She was born on 2/8/1935. Her", "2/8/1935"],
      ["born March 3rd, 1971", "March 3rd, 1971"],
      ["Born: 1971-03-03", "1971-03-03"],
      ["date of birth. It's 6/24/1991", "6/24/1991"],
    ]
  ) assertEquals(one(text), ["DOB", value], text);
  const months = [
    "January",
    "Feb",
    "Mar.",
    "April",
    "May",
    "Jun",
    "July",
    "Aug",
    "Sept",
    "October",
    "Nov",
    "December",
  ];
  for (let i = 0; i < 400; i++) {
    const [y, m, d] = [int(1925, 2010), int(1, 12), int(1, 28)];
    const date = pick([
      `${m}/${d}/${y}`,
      `${String(m).padStart(2, "0")}/${String(d).padStart(2, "0")}/${y}`,
      `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
      `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}T00:00:00`,
      `${y}${String(m).padStart(2, "0")}${String(d).padStart(2, "0")}${pick(["", "0000", "000000"])}`,
      `${months[m - 1]} ${d}, ${y}`,
      `${d} ${months[m - 1]} ${y}`,
      `${d}-${months[m - 1].slice(0, 3)}-${y}`,
    ]);
    const cue = pick([
      "DOB: ",
      "DOB ",
      "D.O.B. ",
      "Date of Birth: ",
      "born on ",
      "Born ",
      "birthdate ",
      '"birth_date": "',
    ]);
    const text = `${cue}${date}${pick(["", ".", " per chart", '"'])}`;
    assertEquals(one(text), ["DOB", date], text);
    // Without a birth cue: an ordinary date stays (no half of it becomes an MRN either).
    assertEquals(found(`Visit on ${date.includes(" ") || date.includes("/") ? date : `${m}/${d}/${y}`}`), []);
  }
});

// ---- tier 4 ---------------------------------------------------------------------------------------

Deno.test("tier 4: a known name split by a line break, Last/First, possessive, title, initial, _, case; a known date in another format", async () => {
  await using h = await testEngine("on");
  const hl7 =
    "MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|MSG0001|P|2.5\rPID|1||E9988776^^^HOSP^MR||Vanderhoeven^Horatio^Q||19800304|M\r";
  const first = await h.engine.sanitizeToolResult(hl7, "read_file");
  const name = first.tokenized.find((t) => t.category === "NAME")!.token;
  const dob = first.tokenized.find((t) => t.category === "DOB")!.token;
  for (
    const [text, token] of [
      ["seen: Horatio Q\nVanderhoeven today", name],
      ["file is under Vanderhoeven/Horatio/Q", name],
      ["Horatio Q. Vanderhoeven's chart", name],
      ["Mr. Vanderhoeven called", name],
      ["Dr Horatio", name],
      ["H. Vanderhoeven called", name],
      ["Q Vanderhoeven", name],
      ["echo Vanderhoeven_Horatio_Q", name],
      ["HORATIO Q VANDERHOEVEN", name],
      ["vanderhoeven, horatio q", name],
      ["the birthday March 4, 1980 is on file", dob],
      ["on 03/04/1980", dob],
      ["on 4 Mar 1980", dob],
      ["19800304", dob],
    ]
  ) {
    const out = await h.engine.tokenizeUserInput(text);
    assert(out.text.includes(token), `${JSON.stringify(text)} -> ${out.text}`);
    assert(!/vanderhoeven|horatio|1980/i.test(out.text), `${JSON.stringify(text)} -> ${out.text}`);
  }
  // An initial that is not the name's, a title before an unknown word, an ordinary date: tier 4 leaves
  // them alone (the built-in tier 5 is off here: a title before a capitalized word is its cue).
  await using t4 = await testEngine("on", { config: { phiNames: "off" } });
  await t4.engine.sanitizeToolResult(hl7, "read_file");
  for (const text of ["Z. Vanderhoevenx", "Mr. Smith", "on 03/05/1980", "B Horatiox"]) {
    assertEquals((await t4.engine.tokenizeUserInput(text)).text, text);
  }
});

Deno.test("tier 4 (generated): known names in other forms map to the name's token", async () => {
  const tmp = await tempDir();
  try {
    const table = await LookupTable.open(`${tmp.path}/lookup.tsv`);
    const lasts = ["Okonkwo", "Lindqvist", "Abernathy", "Castellano", "Whitfield", "Pemberton", "Quintero"];
    const firsts = ["Adeline", "Barnaby", "Cordelia", "Desmond", "Isadora", "Leopold", "Theodora"];
    const rows = lasts.map((l, i) => ({
      category: "NAME",
      canonical: [firsts[i].toLowerCase(), l.toLowerCase(), "m"].sort().join(" "),
      original: `${l.toUpperCase()}^${firsts[i].toUpperCase()}^M`,
    }));
    const tokens = await table.assign(rows);
    const k = new KnownIndex(table);
    for (let i = 0; i < 300; i++) {
      const j = int(0, lasts.length - 1);
      const [l, f] = [lasts[j], firsts[j]];
      const form = pick([
        `${f} M ${l}`,
        `${l}, ${f} M`,
        `${l}/${f}`,
        `${f}\n${l}`,
        `${f} ${l}'s`,
        `Mr. ${l}`,
        `Mrs ${l}`,
        `${f[0]}. ${l}`,
        `${l}_${f}_M`,
        `${f.toUpperCase()} M ${l.toUpperCase()}`,
      ]);
      const text = `${pick(["note: ", "", "cc "])}${form}${pick(["", " called.", "\n"])}`;
      const got = detectAuto(text, { protect: protectedSpans(text), known: k });
      assertEquals(got.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(got.map((c) => c.value))}`);
      const row = table.get(got[0].canonical);
      assertEquals(row?.token ?? tokens[j], tokens[j], JSON.stringify(text));
      assert(!got[0].value.endsWith("'s"), "the possessive stays outside the token");
    }
  } finally {
    await tmp[Symbol.asyncDispose]();
  }
});

// ---- one token per value --------------------------------------------------------------------------

Deno.test("one token per value: the SSN in PID.3 (type SS) and PID.19, and after SSN: in a note", async () => {
  await using h = await testEngine("on");
  const msg =
    "MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|MSG0001|P|2.5\rPID|1||219-09-9999^^^SSA^SS~E9988776^^^HOSP^MR||DOE^JANE||19800101|F|||||||||||219-09-9999\r";
  const out = await h.engine.sanitizeToolResult(msg, "read_file");
  const ssnTokens = new Set(out.text.match(/\[\[[A-Z]+_\d+\]\](?=\^\^\^SSA|\r$)/g));
  assertEquals(ssnTokens.size, 1, out.text);
  const [token] = [...ssnTokens];
  for (const text of ["SSN: 219099999", "SSN 219 09 9999", "ssn 219-09-9999", "SSN 219.09.9999"]) {
    const note = await h.engine.tokenizeUserInput(text);
    assert(note.text.includes(token), `${text} -> ${note.text}`);
  }
  assertEquals(h.engine.detokenize(out.text).text, msg);
});

// ---- the never-tokenize corpus --------------------------------------------------------------------

Deno.test("never-tokenize corpus (extended): nothing tokenized as a prompt; only the fenced values as a tool result", async () => {
  await using h = await testEngine("on");
  for (const text of toolOutputCorpus(77)) {
    const a = await h.engine.sanitizeToolResult(text, "bash_exec");
    // A tool result has no fenced-code exemption (that is for what the operator types): the values
    // of the corpus's one fenced block are tokenized, nothing outside it.
    assertEquals(a.tokenized.map((t) => `${t.tier} ${t.category}`), FENCED_VALUES);
    assertEquals(outsideFences(a.text), outsideFences(text));
    await using p = await testEngine("on");
    const b = await p.engine.tokenizeUserInput(text);
    assertEquals(b.text, text);
  }
});

Deno.test("corpus-style sentences (presidio-like): every phone, card, SSN, e-mail and birth date caught", async () => {
  await using h = await testEngine("on");
  for (let i = 0; i < 150; i++) {
    const [a, b, c] = nanp();
    const phone = `${a}-${b}-${c}${pick(["", `x${digits(3)}`])}`;
    const card = luhnNumber(pick(["4", "5", "37", "6011", "3528"]), pick([15, 16]));
    const ssn = `${area()}-${String(int(10, 99))}-${String(int(1000, 9999))}`;
    const dob = `${int(1, 12)}/${int(1, 28)}/${int(1930, 2005)}`;
    const text = `Desk: ${phone}${pick(["-Fax", " fax", ""])}\nI have lost my card ${card}. ` +
      `My SSN is ${ssn}; she was born on ${dob}. Write to p${i}@example.org.`;
    const out = await h.engine.tokenizeUserInput(text);
    for (const v of [phone, card, ssn, dob, `p${i}@example.org`]) {
      assert(!leaks(out.text, v), `${v} in ${out.text}`);
    }
    assertEquals(h.engine.detokenize(out.text).text, text);
  }
});

Deno.test("a value found once in a text is tokenized wherever else it stands in that text", async () => {
  await using h = await testEngine("on");
  for (
    const [text, value] of [
      ["MRN 12345678 here\nagain MR# 12345678", "12345678"],
      ["MRNs 11122233, 77788899\nthe second one, 77788899, was merged", "77788899"],
      ["Call 217-555-0199 today; 217-555-0199 is the daughter's", "217-555-0199"],
      ["Spoke with Dana Whitfield. Later Dana Whitfield called back.", "Dana Whitfield"],
    ] as const
  ) {
    const out = await h.engine.sanitizeToolResult(text, "bash_exec");
    assert(!leaks(out.text, value), `${JSON.stringify(text)} -> ${out.text}`);
    assertEquals(h.engine.detokenize(out.text).text, text);
  }
  // Only whole values: a longer number that contains it is another value.
  const out = await h.engine.sanitizeToolResult("MRN 12345678; ticket 9912345678 is unrelated", "bash_exec");
  assert(out.text.includes("9912345678"), out.text);
});
