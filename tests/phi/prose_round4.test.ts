/**
 * Round 4 of the PHI gate in prose (issue #23 items 8 and 10, the free-text part): Safe Harbor
 * identifiers in operator prose (tickets, e-mail alerts, on-call notes, typed prompts) and the
 * name, phone and id forms of item 10, beside the engine facts that must stay in clear.
 *
 * The hand-made corpus below was written for this test from the shapes an operator meets (a help
 * desk ticket, an alert mail, an on-call hand-off, a typed question, a portal access log line); the
 * values are synthetic (555 phones, 198.51.100.0/24 and 203.0.113.0/24 documentation addresses,
 * invented names and streets). The generated corpus mixes the same kinds of values into sentences
 * from a seeded PRNG (tests/support/prng.ts), each beside engine facts.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { mulberry32, pick } from "../support/prng.ts";
import { findProseIds } from "../../phi/prose_ids.ts";
import { findDefinite } from "../../phi/tier1_definite.ts";

interface Case {
  id: string;
  text: string;
  /** Values that must be tokenized, and their category. */
  phi: [string, string][];
  /** Text that must stay in clear. */
  keep: string[];
}

const CASES: Case[] = [
  {
    id: "ticket",
    text: "INC0041877: Patient Will Hamilton (MRN E123456) called from 217-555-0142; lives at 4127 " +
      "Larkspur Lane Apt 4B, Springfield, IL 62704-1234. Thread adt_epic_in on port 6001 stuck since " +
      "2026-11-26 08:14; 412 messages queued.",
    phi: [
      ["Will Hamilton", "NAME"],
      ["E123456", "MRN"],
      ["217-555-0142", "PHONE"],
      ["4127 Larkspur Lane Apt 4B", "ADDRESS"],
      ["Springfield", "ADDRESS"],
      ["62704-1234", "ADDRESS"],
    ],
    keep: ["INC0041877", "adt_epic_in", "port 6001", "2026-11-26 08:14", "412 messages"],
  },
  {
    id: "on-call note",
    text: "Pt Pat Nguyen, 94-year-old, DL# S530-4127-8812, member id XJH448812390. Portal login from " +
      "203.0.113.45 failed 3 times. Engine host 10.20.30.40:6001 is fine; hcimonitor v6.2.1.0 restarted, " +
      "connected to 10.20.30.41.",
    phi: [
      ["Pat Nguyen", "NAME"],
      ["94", "AGE"],
      ["S530-4127-8812", "LICENSE"],
      ["XJH448812390", "MEMBER"],
      ["203.0.113.45", "IP"],
    ],
    keep: ["10.20.30.40:6001", "v6.2.1.0", "10.20.30.41", "3 times"],
  },
  {
    id: "typed prompt with a date",
    text: "On Thu Nov 26 the lab feed dropped MSH-10 20261126081455123 for 2 hours; can you check why? " +
      "Sent to 2 destinations, forwarded to 10.20.30.40, moved to 2.4.1 last week.",
    phi: [],
    keep: ["Thu Nov 26", "20261126081455123", "2 hours", "2 destinations", "10.20.30.40", "2.4.1"],
  },
  {
    id: "portal access log",
    text: '198.51.100.23 - - [26/Nov/2026:08:14:55 +0000] "GET /portal/results HTTP/1.1" 200 5123\n' +
      "2026-11-26 08:14:55 tcp_acc 10.20.30.40 accepted connection from 10.20.30.77 port 6001",
    phi: [["198.51.100.23", "IP"]],
    keep: ["10.20.30.40", "10.20.30.77", "6001", "200 5123"],
  },
  {
    id: "phones of other layouts",
    text: "Daughter's cell +44 20 7946 0958, office (555) 123 4567 x89, home 555.123.4567. Mobile:\n" +
      "0490 75 40 81\nControl id 2175550199, processed 1 250 000 messages, called hcicmd 3 times, " +
      "phone rang at 14:05:22.",
    phi: [
      ["+44 20 7946 0958", "PHONE"],
      ["(555) 123 4567 x89", "PHONE"],
      ["555.123.4567", "PHONE"],
      ["0490 75 40 81", "PHONE"],
    ],
    keep: ["2175550199", "1 250 000 messages", "3 times", "14:05:22"],
  },
  {
    id: "highlight escape and ages",
    text: "NTE says \\H\\SCOTT, MICHAEL\\N\\ refused the draw; queue age 120 s, message age 95 seconds, " +
      "aged 101, age 94, the 100 years dataset, age 45.",
    phi: [["SCOTT, MICHAEL", "NAME"], ["101", "AGE"], ["94", "AGE"]],
    keep: ["queue age 120 s", "message age 95 seconds", "100 years", "age 45"],
  },
  {
    id: "device, member, licence, account, visit",
    text: "Pump S/N: MX4410-22871, UDI (01)00643169007222(17)260101(21)SN12345, subscriber id " +
      "W2210044531, driver's license D1234-56789-0123, acct 00998877, CSN 440012345, chart E7712345. " +
      "Error 4012 on thread ob_pump_out, 17 retries.",
    phi: [
      ["MX4410-22871", "DEVICE"],
      ["(01)00643169007222(17)260101(21)SN12345", "DEVICE"],
      ["W2210044531", "MEMBER"],
      ["D1234-56789-0123", "LICENSE"],
      ["00998877", "ACCOUNT"],
      ["440012345", "VISIT"],
      ["E7712345", "MRN"],
    ],
    keep: ["Error 4012", "ob_pump_out", "17 retries"],
  },
  {
    id: "engine lines are no postal block",
    text: "Batch 7 results\nUnit 4\npassed\nSuite 12 of the regression ran 340 cases",
    phi: [],
    keep: ["Batch 7 results", "Unit 4", "passed", "Suite 12", "340 cases"],
  },
  {
    id: "common words that are given names",
    text: "Mark Complete on the ticket. Grant Access to the share. Will restart at 5. Rose Tyler called " +
      "about the Hope Street site. June 5 is the cutover.",
    phi: [["Rose Tyler", "NAME"]],
    keep: ["Mark Complete", "Grant Access", "Will restart at 5", "Hope Street site", "June 5"],
  },
  {
    id: "e-mail alert with a postal block",
    text: "Subject: returned mail for the statement run\n\nThe statement for\n\nDana Whitcombe\n" +
      "1840 Quarry Hill Road\nApt. 12\nLebanon, NH 03766\n\nbounced (550 5.1.1) at 02:10; job " +
      "stmt_nightly exit 0, 12 of 12 files sent.",
    phi: [
      ["Dana Whitcombe", "NAME"],
      ["1840 Quarry Hill Road", "ADDRESS"],
      ["Apt. 12", "ADDRESS"],
      ["03766", "ADDRESS"],
    ],
    keep: ["550 5.1.1", "02:10", "stmt_nightly", "exit 0", "12 of 12 files"],
  },
  {
    id: "address cue and PO box",
    text: "She moved to 88 Birchwood Court last spring; mail goes to P.O. Box 4471. Her zip code is " +
      "45419. The interface moved to 3 new servers and the feed was sent to 2 sites.",
    phi: [["88 Birchwood Court", "ADDRESS"], ["P.O. Box 4471", "ADDRESS"], ["45419", "ADDRESS"]],
    keep: ["3 new servers", "2 sites"],
  },
  {
    id: "portal URLs and scan paths",
    text: "Portal link https://portal.example.org/chart/view?mrn=00123456&tab=labs and " +
      "https://portal.example.org/patients/E7712345/results?lang=en; scans /data/scans/00123_SMITH_JOHN.pdf " +
      "and /data/scans/DOE_JANE_00456.tif. Engine log /hci/sites/adt/exec/processes/0001_ADT_IN.log and " +
      "?page=2&limit=50 stay.",
    phi: [
      ["00123456", "MRN"],
      ["E7712345", "MRN"],
      ["00123", "MRN"],
      ["SMITH", "NAME"],
      ["JOHN", "NAME"],
      ["DOE", "NAME"],
      ["JANE", "NAME"],
      ["00456", "MRN"],
    ],
    keep: [
      "https://portal.example.org/chart/view?mrn=",
      "&tab=labs",
      "/results?lang=en",
      "/data/scans/",
      ".pdf",
      "0001_ADT_IN.log",
      "?page=2&limit=50",
    ],
  },
  {
    id: "record numbers in parentheses beside a name",
    text: "Spoke with Will Hamilton (E123456) and Dana Whitcombe (HSP6287305); Rose Tyler (00-123-456) " +
      "too. Epic Bridge (v12345) and the Lab Results feed (2026-11-26) stay.",
    phi: [
      ["Will Hamilton", "NAME"],
      ["E123456", "MRN"],
      ["Dana Whitcombe", "NAME"],
      ["HSP6287305", "MRN"],
      ["Rose Tyler", "NAME"],
      ["00-123-456", "MRN"],
    ],
    keep: ["Epic Bridge (v12345)", "Lab Results feed (2026-11-26)"],
  },
  {
    id: "engine log and operator notes with cue words",
    text: "[pd  .PROT.0001] 11/26/2026 08:14:55 Thread ib_adt_epic: Connected to 10.20.30.40 port 6001\n" +
      "[cmd ] Processing 412 messages from Unit 4 queue\n" +
      "Suite 3 of regression: 120 passed, 2 failed\n" +
      "Site main moved to /hci/sites/main2 on Thu Nov 26 at 14:05\n" +
      "Max message age 95 s; oldest age 120 days\n" +
      "Alert sent to 3 recipients; text sent to 2 on-call phones\n" +
      "Mark the xlate as done; Grant access to lab_user\n" +
      "callback registered for 6 threads; dial 1 for ops; Registered 1 250 000 messages since Nov 1\n" +
      "client thread ob_lab connects to 10.20.30.51:6002\n" +
      "Unit 12\nSuite 400\n" +
      "the ADT holds a test address\nSerial port COM3; serial number check passed; DL queue 12\n" +
      "Member of group hci_admins; policy # is the same; license key checked",
    phi: [],
    keep: [
      "10.20.30.40",
      "Unit 4 queue",
      "Suite 3",
      "Thu Nov 26",
      "Max message age 95 s",
      "120 days",
      "3 recipients",
      "2 on-call phones",
      "Mark the xlate",
      "6 threads",
      "1 250 000 messages",
      "10.20.30.51:6002",
      "Unit 12\nSuite 400",
      "Serial port COM3",
      "DL queue 12",
    ],
  },
  {
    id: "bare phone after a cue on the next line",
    text: "Callback number for the patient's wife:\n2175550199\nMSH-7 20261126081455 and MSH-10 " +
      "MSG00001234 stay as they are.",
    phi: [["2175550199", "PHONE"]],
    keep: ["20261126081455", "MSG00001234"],
  },
];

for (const surface of ["prompt", "tool result"] as const) {
  Deno.test(`prose round 4 (${surface}): hand-made operator prose`, async () => {
    await using h = await testEngine("on");
    const bad: string[] = [];
    for (const c of CASES) {
      const r = surface === "prompt"
        ? await h.engine.tokenizeUserInput(c.text)
        : await h.engine.sanitizeToolResult(c.text, "read_file");
      for (const [value, category] of c.phi) {
        if (leaks(r.text, value)) bad.push(`${c.id}: ${value} leaked`);
        const t = r.tokenized.find((x) => x.value === value || x.value.includes(value));
        if (t && t.category !== category) bad.push(`${c.id}: ${value} is ${t.category}, not ${category}`);
      }
      for (const k of c.keep) if (!r.text.includes(k)) bad.push(`${c.id}: "${k}" was tokenized: ${r.text}`);
      if (h.engine.detokenize(r.text).text !== c.text) bad.push(`${c.id}: round trip`);
    }
    assertEquals(bad, []);
  });
}

Deno.test("prose round 4: a value wrongly near a cue is not swept into later text", async () => {
  await using h = await testEngine("on");
  // The thread name, the host and the version stay in the first text; nothing of them is known later.
  await h.engine.tokenizeUserInput("Patient portal v12.1.0.4 on host 10.20.30.40; call 555-201-7788.");
  const later = "Upgrade to v12.1.0.4 on 10.20.30.40 tonight; 412 messages queued.";
  assertEquals((await h.engine.sanitizeToolResult(later, "read_file")).text, later);
});

// ---- generated ----------------------------------------------------------------------------------

const GIVEN = ["Will", "Pat", "Rose", "Mark", "Hope", "Grace", "Faith", "June", "Bill", "Sue", "Art"];
const FAMILY = ["Hamilton", "Nguyen", "Okafor", "Lindqvist", "Brennan", "Castillo", "Whitcombe", "Abernathy"];
const STREETS = [
  "Larkspur Lane",
  "Quarry Hill Road",
  "Birchwood Court",
  "Old Mill Drive",
  "Harbor View Avenue",
];
const CUES = ["spoke with", "patient", "called back:", "per", "cc:"];
const ENGINE = [
  "thread ib_adt_in restarted on port 6001",
  "412 messages queued since 2026-11-26 08:14",
  "MSH-10 MSG20261126000123 acked",
  "host 10.20.30.40:6001 up, hciengine v6.2.1.0",
  "error 4012 on ob_lab_out after 17 retries",
];

function phone(rand: () => number): string {
  const d = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join("");
  return pick(rand, [
    () => `+44 20 ${d(4)} ${d(4)}`,
    () => `(555) ${d(3)} ${d(4)} x${d(2)}`,
    () => `555.${d(3)}.${d(4)}`,
    () => `+33 6 ${d(2)} ${d(2)} ${d(2)} ${d(2)}`,
  ])();
}

Deno.test("prose round 4: generated names, phones, addresses and ages beside engine facts", async () => {
  await using h = await testEngine("on");
  const rand = mulberry32(2304);
  const bad: string[] = [];
  for (let n = 0; n < 60; n++) {
    const name = `${pick(rand, GIVEN)} ${pick(rand, FAMILY)}`;
    const ph = phone(rand);
    const street = `${100 + Math.floor(rand() * 9000)} ${pick(rand, STREETS)}`;
    const age = 90 + Math.floor(rand() * 15);
    const fact = pick(rand, ENGINE);
    const text = `${pick(rand, CUES)} ${name}, ${age}-year-old, cell ${ph}; lives at ${street}. ` +
      `Meanwhile ${fact}.`;
    const r = await h.engine.tokenizeUserInput(text);
    for (const v of [name, ph, street, String(age)]) if (leaks(r.text, v)) bad.push(`${v} leaked: ${r.text}`);
    if (!r.text.includes(fact)) bad.push(`"${fact}" changed: ${r.text}`);
    if (h.engine.detokenize(r.text).text !== text) bad.push(`round trip: ${text}`);
  }
  assertEquals(bad, []);
});

Deno.test("tier 4: a CJK name known from its caret form is found joined in CJK running text", async () => {
  await using h = await testEngine("on");
  const text = "MSH|^~\\&|A|B|C|D|20261126081455||ADT^A01|MSG00001|P|2.5.1\r" +
    "PID|1||12345678^^^H^MR||王^小明||19800101|M\rNK1|1|山田^太郎|SPO\rNK1|2|김^민준|CHD\r\n" +
    "患者王小明的检查结果已发送。配偶者は山田太郎さん、김민준님.";
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  for (const v of ["王小明", "山田太郎", "김민준"]) assert(!r.text.includes(v), `${v}: ${r.text}`);
  assert(r.text.includes("患者") && r.text.includes("的检查结果已发送"), r.text);
  assert(r.text.includes("20261126081455") && r.text.includes("MSG00001"), r.text);
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("prose ids: IPs are a person's only in a person's context", () => {
  const ips = (t: string) => findProseIds(t).filter((c) => c.category === "IP").map((c) => c.value);
  assertEquals(ips("client_ip = 198.51.100.7 blocked"), ["198.51.100.7"]);
  assertEquals(ips("I can't browse to your site, keep getting address 203.0.113.9 blocked"), ["203.0.113.9"]);
  assertEquals(ips("X-Forwarded-For: 198.51.100.20"), ["198.51.100.20"]);
  assertEquals(ips("connect to 10.20.30.40 failed; host 10.1.1.1; 10.2.2.2:5000"), []);
  assertEquals(ips("Patient module v2.9.6 and 12.1.0.4"), []);
  assertEquals(ips("fe80::1 and 2001:db8::ff00:42:8329 in the route table"), []);
});

Deno.test("phones: other layouts after a cue, never counts, ids or times", () => {
  const phones = (t: string) => findDefinite(t).filter((c) => c.category === "PHONE").map((c) => c.value);
  assertEquals(phones("They're not answering at 374 780 163"), ["374 780 163"]);
  assertEquals(phones("Phone: (99) 645-791"), ["(99) 645-791"]);
  assertEquals(phones("416 60 039 office"), ["416 60 039"]);
  assertEquals(phones("call count 1234567, called 3 times, call at 14:05:22, call 2026-11-26"), []);
  assertEquals(phones("mobile team moved 1 250 000 messages"), []);
  assertEquals(phones("registered 12 345 rows"), []);
});

Deno.test("prose ids: never throw on random and truncated input", () => {
  const rand = mulberry32(77);
  const alphabet = "0123456789 .,:-/()#\nApt Suite Box PO address lives at age aged S/N DL# (01)(21)client ";
  for (let n = 0; n < 300; n++) {
    let s = "";
    const len = Math.floor(rand() * 200);
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    const found = findProseIds(s);
    for (const c of found) assert(c.start >= 0 && c.end <= s.length && s.slice(c.start, c.end) === c.value);
  }
  for (const c of CASES) for (let k = 0; k < c.text.length; k += 7) findProseIds(c.text.slice(0, k));
});
