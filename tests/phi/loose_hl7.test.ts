/**
 * HL7 written loosely in prose or pasted text: lower-case segment ids (`pid|1||...`) and white space
 * around the separators (`PID | 1 | | 12345 | | DOE^JANE`). The fields are read like a real
 * segment's; ordinary text with pipes stays as it is.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { valueParts } from "./_carriers.ts";
import { hl7Corpus, toolOutputCorpus } from "../support/phi_corpus.ts";

/** Each way of writing a segment loosely: the id in lower case, spaced separators, both, mixed case. */
const LOOSE: Record<string, (seg: string) => string> = {
  lower: (s) => s.slice(0, 3).toLowerCase() + s.slice(3),
  spaced: (s) => s.replaceAll("|", " | "),
  "spaced, lower": (s) => s.slice(0, 3).toLowerCase() + s.slice(3).replaceAll("|", " | "),
  "space before": (s) => s.replaceAll("|", " |"),
  "tab after": (s) => s.slice(0, 3) + s.slice(3).replaceAll("|", "|\t"),
  "title case": (s) => s[0] + s.slice(1, 3).toLowerCase() + s.slice(3),
};

/** The ways such segments reach the gate: one per line, in a sentence, after a prompt line. */
const FRAMES: Record<string, (segs: string[]) => string> = {
  lines: (segs) => segs.join("\n"),
  "in prose": (segs) => segs.map((s, i) => `line ${i + 1} of the pasted message was: ${s}`).join("\n"),
  "after a question": (segs) => `why does this fail in the xlate?\n\n${segs.join("\n")}\n\nthanks`,
  "CRLF": (segs) => segs.join("\r\n"),
};

Deno.test("loose HL7, generated: lower-case ids and spaced pipes in every frame leak no field value, round trip exact", async () => {
  await using h = await testEngine("on");
  const messages = hl7Corpus(24, 515, "\n");
  let checked = 0;
  let k = 0;
  for (const [style, write] of Object.entries(LOOSE)) {
    for (const [frame, put] of Object.entries(FRAMES)) {
      const m = messages[k++ % messages.length];
      const text = put(m.text.split("\n").map(write));
      for (const surface of ["prompt", "tool"] as const) {
        const r = surface === "prompt"
          ? await h.engine.tokenizeUserInput(text)
          : await h.engine.sanitizeToolResult(text, "read_file");
        for (const p of m.phi) {
          for (const v of valueParts(p.value)) {
            checked++;
            assert(!leaks(r.text, v), `${style} / ${frame} (${surface}): ${p.where} ${v} leaked:\n${r.text}`);
          }
        }
        assertEquals(h.engine.detokenize(r.text).text, text, `${style} / ${frame} (${surface})`);
      }
    }
  }
  assert(checked > 1500, `only ${checked} values checked`);
});

Deno.test("loose HL7, handwritten: the brief's forms and a few more", async () => {
  await using h = await testEngine("on");
  const cases: { text: string; raw: string[]; keep: string[] }[] = [
    {
      text: "pid|1||12345678^^^HOSP^MR||vanderhoeven^horatio^q||19800101|M|||12 Elm St^^Springfield^IL^62701",
      raw: ["12345678", "vanderhoeven", "horatio", "19800101", "12 Elm St", "Springfield", "62701"],
      keep: ["pid|1||", "^^^HOSP^MR||", "|M|||", "^IL^"],
    },
    {
      text:
        "Pasted: PID | 1 | | 12345 | | DOE^JANE | | 19800101 | F | | | 12 Elm St^^Springfield | | 217-555-0199",
      raw: ["12345", "DOE^JANE", "19800101", "12 Elm St", "Springfield", "217-555-0199"],
      keep: ["Pasted: PID | 1 | | ", " | | ", " | F | | | "],
    },
    {
      text:
        "the NK1 was nk1|1|ROE^RICHARD|SPO||(312)555-0144\nand the guarantor gt1 | 1 | | KOWALSKI^ANNA | | 55 Oak Ave^^Chicago",
      raw: ["ROE^RICHARD", "(312)555-0144", "KOWALSKI^ANNA", "55 Oak Ave", "Chicago"],
      keep: ["the NK1 was nk1|1|", "|SPO||", "\nand the guarantor gt1 | 1 | | "],
    },
    {
      text:
        "msh|^~\\&|EPIC|H|CL|H|202611240101||ADT^A08|9|P|2.3\rpid|1||66120071^^^H^MR||ABERNATHY^QUINTON||19450707|M",
      raw: ["66120071", "ABERNATHY^QUINTON", "19450707"],
      keep: ["msh|^~\\&|EPIC|H|CL|H|202611240101||ADT^A08|9|P|2.3\rpid|1||", "^^^H^MR||"],
    },
    {
      text: "mrg | 77001234 | | | | | | SMITHERS^WAYLON",
      raw: ["77001234", "SMITHERS^WAYLON"],
      keep: ["mrg | ", " | | | | | | "],
    },
  ];
  for (const c of cases) {
    const r = await h.engine.tokenizeUserInput(c.text);
    for (const v of c.raw) assert(!r.text.includes(v), `${v} leaked:\n${r.text}`);
    for (const v of c.keep) assert(r.text.includes(v), `${JSON.stringify(v)} changed:\n${r.text}`);
    assertEquals(h.engine.detokenize(r.text).text, c.text);
  }
});

Deno.test("loose HL7: ordinary text with pipes and segment-like words is not read as a segment", async () => {
  await using h = await testEngine("on");
  const plain = [
    "the build | 12345 | 2024 is ok; a | b | c; use cut -d'|' -f 3",
    "pid|4211|hcimonitor|running|root|00:01:02",
    "pid | 31337 | hcienginerun | S | 120 MB",
    "| Segment | Field | Name | Type |\n| PID | 3 | Patient Identifier List | CX |\n| PID | 5 | Patient Name | XPN |",
    "PID | 7 | Date/Time of Birth | DTM | 24 | O |",
    "grep 'pid|' /var/log/hci/adt_in.log | wc -l  # 48211 lines",
    "thread adt_in | port 7001 | 4211 msgs | state up | pid 48211",
    "rapid|12|34|56|78|90",
    "msh | the header | is first | always | ok",
    "obx | 12345678 | value | units | 1234",
  ];
  for (const t of plain) {
    for (const surface of ["prompt", "tool"] as const) {
      const r = surface === "prompt"
        ? await h.engine.tokenizeUserInput(t)
        : await h.engine.sanitizeToolResult(t, "bash_exec");
      assertEquals(r.text, t, `${surface}: ${t}`);
    }
  }
  for (const t of toolOutputCorpus(29)) {
    const loosened = t.replace(/\bPID\b/g, "pid");
    const r = await h.engine.sanitizeToolResult(loosened, "bash_exec");
    assertEquals(r.tokenized.filter((x) => x.tier === "hl7_pipeline"), []);
  }
});
