/**
 * A value already seen (in this text's HL7, after a cue, or in the lookup table) written in another
 * shape: a birth date as `01JAN1980`, a street with its suffix spelled out, one word of a person's
 * name alone after the whole name was seen in the same text.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { hl7Corpus, PhiFactory, toolOutputCorpus } from "../support/phi_corpus.ts";
import { parseDate } from "../../phi/normalize.ts";
import { streetForms } from "../../phi/known_index.ts";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const LONG = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const pad = (n: number) => String(n).padStart(2, "0");

Deno.test("dates: day, three-letter month and year written together parse", () => {
  assertEquals(parseDate("01JAN1980"), "1980-01-01");
  assertEquals(parseDate("3Feb1975"), "1975-02-03");
  assertEquals(parseDate("28dec1999"), "1999-12-28");
  assertEquals(parseDate("15MAR85")?.slice(5), "03-15");
  assertEquals(parseDate("32JAN1980"), undefined);
  assertEquals(parseDate("01XYZ1980"), undefined);
});

Deno.test("a known birth date in every written form gets the HL7 value's token (generated)", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(88);
  for (let i = 0; i < 40; i++) {
    const d = f.dob();
    const hl7 = `${d.y}${pad(d.m)}${pad(d.d)}`;
    const forms = [
      `${pad(d.d)}${MONTHS[d.m - 1]}${d.y}`,
      `${d.d}${MONTHS[d.m - 1].toLowerCase()}${d.y}`,
      `${d.m}/${d.d}/${String(d.y).slice(2)}`,
      `${LONG[d.m - 1]} ${d.d}, ${d.y}`,
      `${d.d} ${LONG[d.m - 1]} ${d.y}`,
      `${pad(d.d)}-${MONTHS[d.m - 1]}-${d.y}`,
    ];
    const text = `PID|1||${f.mrn()}^^^H^MR||ROE${i}^RICK||${hl7}|M\nnote: seen ${forms.join(", then ")}.`;
    const r = await h.engine.tokenizeUserInput(text);
    const token = r.tokenized.find((t) => t.category === "DOB")?.token;
    assert(token !== undefined, r.text);
    for (const form of forms) assert(!leaks(r.text, form), `${form} leaked:\n${r.text}`);
    assertEquals(r.text.split(token).length - 1, forms.length + 1, r.text);
  }
  // After a birth cue, with nothing known.
  for (const t of ["DOB 01JAN1980", "born 3Feb75 at home", "D.O.B.: 28DEC1999"]) {
    const r = await h.engine.tokenizeUserInput(t);
    assert(/\[\[DOB_\d+\]\]/.test(r.text), `${t} -> ${r.text}`);
  }
  // Not a birth date: a build tag, a release date without a birth cue, a code.
  for (const t of ["build 01JAN2024 released", "code 12MAR99 in the table", "deployed 05NOV2025 to prod"]) {
    assertEquals((await h.engine.tokenizeUserInput(t)).text, t);
  }
});

Deno.test("street forms: suffixes and directions the other way", () => {
  const forms = streetForms("12 elm st");
  assert(forms.includes("12 elm street"), forms.join("|"));
  assert(!forms.includes("12 elm st"));
  assert(streetForms("400 n main ave apt 3").includes("400 north main avenue apartment 3"));
  assert(streetForms("9 nw 4th st").includes("9 northwest 4th street"));
  assertEquals(streetForms("elm st"), []);
  assertEquals(streetForms("12 elm"), []);
  assert(streetForms("12 a b c d e st ave rd dr ln blvd").length <= 16);
});

Deno.test("a known street written with the suffix spelled the other way gets the same token (generated)", async () => {
  await using h = await testEngine("on");
  const swap: Record<string, string> = { ST: "Street", AVE: "Avenue", RD: "Road", LN: "Lane" };
  let checked = 0;
  for (const m of hl7Corpus(30, 616)) {
    const street = m.phi.find((p) => p.where === "PID.11.1")!.value; // "1234 OAK ST"
    const words = street.split(" ");
    const long = [...words.slice(0, -1), swap[words[words.length - 1]]].join(" ");
    const title = long.replace(/\b([A-Z])([A-Z]+)\b/g, (_, a, b) => a + b.toLowerCase());
    const text = `${m.text}\n\nMoved from ${title} last year. Mail to ${long.toLowerCase()} was returned.`;
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    const token = r.tokenized.find((t) => t.value === street)?.token;
    assert(token !== undefined);
    assert(!leaks(r.text, title) && !leaks(r.text, long.toLowerCase()), r.text);
    assertEquals(r.text.split(token).length - 1, 3, r.text);
    checked++;
  }
  assertEquals(checked, 30);
});

Deno.test("one word of a name alone after the whole name in the same text gets its token", async () => {
  await using h = await testEngine("on");
  const cases: { text: string; raw: string[]; keep: string[] }[] = [
    {
      text:
        "PID|1||12345678^^^H^MR||Vanderhoeven^Horatio^Q||19800101\nNote: Vanderhoeven called back. Horatio said ok. HORATIO again.",
      raw: ["Vanderhoeven", "Horatio", "HORATIO"],
      keep: ["Note: ", " called back. ", " said ok. ", " again."],
    },
    {
      text: "Patient is Maria Smith. Later Maria called; the Smith family agreed. May 5 is fine.",
      raw: ["Maria", "Smith"],
      keep: ["May 5 is fine", "the ", " family agreed"],
    },
    {
      text: "MRN 44120987 belongs to @@Ingrid Oyelaran-Baptiste@@; Oyelaran-Baptiste was discharged",
      raw: ["Ingrid", "Oyelaran-Baptiste"],
      keep: [" was discharged"],
    },
  ];
  for (const c of cases) {
    const r = await h.engine.tokenizeUserInput(c.text);
    for (const v of c.raw) assert(!leaks(r.text, v), `${v} leaked:\n${r.text}`);
    for (const k of c.keep) assert(r.text.includes(k), `${k} changed:\n${r.text}`);
    const tokens = new Set(r.tokenized.filter((t) => t.category === "NAME").map((t) => t.token));
    assertEquals(tokens.size, 1, `one token per person: ${r.text}`);
  }
});

Deno.test("name words alone: generated persons, every word form; no other word taken", async () => {
  await using h = await testEngine("on");
  let checked = 0;
  for (const m of hl7Corpus(40, 717)) {
    const name = m.phi.find((p) => p.where === "PID.5")!.value; // LAST^FIRST^M
    const [last, first] = name.split("^");
    const cap = (w: string) => w[0] + w.slice(1).toLowerCase();
    const note = `Called ${cap(last)} at home; ${cap(first)} confirmed. ${last} will bring the card. ` +
      `Thread adt_in resent control id 4211 on port 7001.`;
    const r = await h.engine.sanitizeToolResult(`${m.text}\n${note}`, "read_file");
    for (const w of [cap(last), cap(first), last]) {
      checked++;
      assert(!leaks(r.text, w), `${w} leaked:\n${r.text}`);
    }
    assert(
      r.text.includes("will bring the card. Thread adt_in resent control id 4211 on port 7001."),
      r.text,
    );
  }
  assertEquals(checked, 120);
  // Only names tokenized in the same text lend their words: a new text with the words alone stays.
  const r = await h.engine.sanitizeToolResult("Called Vanderhoeven and Horatio today.", "read_file");
  assertEquals(r.text, "Called Vanderhoeven and Horatio today.");
});

Deno.test("name words alone: operator text around a name keeps its ordinary and HL7 words", async () => {
  await using h = await testEngine("on");
  // Names whose words are also words of the HL7 schema, months or common words.
  const text = [
    "PID|1||12345678^^^H^MR||STATE^MAY^J||19800101",
    "PID.11.4 (State) is IL; May releases go out on Friday.",
    "Will Grant review the thread? State of the route: up.",
  ].join("\n");
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  assert(r.text.includes("PID.11.4 (State) is IL; May releases go out on Friday."), r.text);
  assert(r.text.includes("State of the route: up."), r.text);
  // A name word the same text also writes in lower case is an ordinary word there.
  const server = "Patient is Server von Prod. The Server restarted; the server is fine.";
  const out = await h.engine.tokenizeUserInput(server);
  assert(out.text.endsWith("The Server restarted; the server is fine."), out.text);
  for (const t of toolOutputCorpus(31)) {
    const withName = `PID|1||77120044^^^H^MR||PATIENT^ACCOUNT^R||19800101\n${t}`;
    const out = await h.engine.sanitizeToolResult(withName, "bash_exec");
    assertEquals(out.tokenized.filter((x) => x.context === "name word"), [], out.text);
  }
});

Deno.test("a known phone in every written form, with or without +1, gets one token (generated)", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(99);
  for (let i = 0; i < 30; i++) {
    const d = f.uniqueDigits(10).replace(/^./, String(2 + (i % 8)));
    const a = d.slice(0, 3), b = d.slice(3, 6), c = d.slice(6);
    const forms = [
      `${a} ${b} ${c}`,
      `(${a})${b}-${c}`,
      `(${a}) ${b}-${c}`,
      d,
      `${a}.${b}.${c}`,
      `+1 ${a} ${b} ${c}`,
      `1-${a}-${b}-${c}`,
      `+1${d}`,
      `${a} ${b}-${c}`,
    ];
    const text = `PID|1||${f.mrn()}^^^H^MR||ROE${i}^RICK||19700101|M|||||${a}-${b}-${c}\nnote: ${
      forms.map((x, k) => `form ${k} is ${x}`).join("; ")
    }.`;
    const r = await h.engine.tokenizeUserInput(text);
    const phones = new Set(r.tokenized.filter((t) => t.category === "PHONE").map((t) => t.token));
    assertEquals(phones.size, 1, r.text);
    for (const x of forms) assert(!leaks(r.text, x), `${x} leaked: ${r.text}`);
    assert(!r.text.includes(c), r.text);
  }
});
