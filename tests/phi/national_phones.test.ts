/**
 * Phone numbers written the national way (trunk `0`, no `+`, no cue), and NANP numbers with the
 * phone cue after them or further before them; never engine numbers (ports, counts, control ids,
 * timestamps, zero-padded sequence numbers).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { PhiFactory, toolOutputCorpus } from "../support/phi_corpus.ts";

/** National forms, from eight random digits `d` (a string of at least 10 digits). */
const NATIONAL: ((d: string) => string)[] = [
  (d) => `07${d[0] === "0" ? "7" : d[0]}${d.slice(1, 3)} ${d.slice(3, 6)} ${d.slice(6, 9)}`, // UK mobile 5-3-3
  (d) => `07${d[0] === "0" ? "7" : d[0]}${d.slice(1, 3)} ${d.slice(3, 9)}`, // UK mobile 5-6
  (d) => `020 ${d.slice(0, 4)} ${d.slice(4, 8)}`, // London
  (d) => `0161 ${d.slice(0, 3)} ${d.slice(3, 7)}`, // UK area code 4-3-4
  (d) => `06 ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 6)} ${d.slice(6, 8)}`, // FR pairs
  (d) => `0${"67"[+d[0] % 2]}${d.slice(1, 9)}`, // FR/NL mobile bare
  (d) => `07${"789"[+d[0] % 3]}${d.slice(1, 9)}`, // UK mobile bare (11 digits)
  (d) => `04${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 8)}`, // AU mobile 4-3-3
  (d) => `04${d.slice(0, 8)}`, // AU mobile bare
  (d) => `(02) ${d.slice(0, 4)} ${d.slice(4, 8)}`, // AU landline
  (d) => `030 ${d.slice(0, 8)}`, // DE Berlin
  (d) => `0151 ${d.slice(0, 8)}`, // DE mobile spaced
  (d) => `0151${d.slice(0, 8)}`, // DE mobile bare
];
const PROSE = [
  (p: string) => `The daughter can be reached on ${p} after six.`,
  (p: string) => `Left a message at ${p}; no answer yet.`,
  (p: string) => `${p} is the number the GP gave us.`,
  (p: string) => `New contact details: ${p}, flat 2.`,
];

Deno.test("national phone numbers without + or a cue are tokenized (generated)", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(5150);
  let checked = 0;
  for (let i = 0; i < NATIONAL.length * 4; i++) {
    const phone = NATIONAL[i % NATIONAL.length](f.uniqueDigits(10));
    const text = PROSE[i % PROSE.length](phone);
    const r = await h.engine.tokenizeUserInput(text);
    assert(!leaks(r.text, phone), `${phone} leaked: ${r.text}`);
    assertEquals(r.tokenized.map((t) => t.category), ["PHONE"], `${text} -> ${r.text}`);
    assertEquals(h.engine.detokenize(r.text).text, text);
    checked++;
  }
  assertEquals(checked, NATIONAL.length * 4);
});

Deno.test("a NANP number with its phone cue after it, or further before it, is tokenized", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(6160);
  const forms = [
    (p: string) => `reach her at ${p} (cell) today`,
    (p: string) => `${p} - mobile`,
    (p: string) => `numbers: ${p} home phone, none at work`,
    (p: string) => `The cell number on file for the patient's mother is ${p}`,
    (p: string) => `Phone (home, listed by the guarantor): ${p}`,
  ];
  for (let i = 0; i < 20; i++) {
    const d = f.uniqueDigits(10);
    const phone = i % 2 ? d : `${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`;
    const text = forms[i % forms.length](phone);
    const r = await h.engine.tokenizeUserInput(text);
    assert(!leaks(r.text, phone), `${phone} leaked: ${r.text}`);
    assertEquals(r.tokenized.map((t) => t.category), ["PHONE"], `${text} -> ${r.text}`);
  }
});

Deno.test("national phones: engine numbers are not phones", async () => {
  const plain = [
    "listening on port 20794 with 0612345678 messages",
    "control id 0612345678 sent; call back re msg id 2175550199",
    "seq 0000012345 and 0100000001 rows; offset 0412345678",
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|0612345678|P|2.5",
    "PID|1||0712345678^^^HOSP^MR",
    "queue depth 0712345678 since 2024-11-24 10:00:00",
    "epoch=1732441234 ts=1732441234567 took 0612 ms",
    "hexdump: 06 12 34 56 78 90 12 34 56 78 9a bc",
    "build 01.02.03.04.05 on 10.0.12.4:7001",
    "2024-11-24 04:12:33.123 [adt_in] 04 12 345 678 retries",
    "file /hci/prod/site1/data/0612345678.hl7 and C:\\cloverleaf\\0712345678\\x.tcl",
    "thread adt_in: 0151 messages, 030 errors, 020 7946 lines",
    "size 0712345678 bytes",
    "sqlite3 adt_in.smatdb 'select count(*) from smat_msgs' => 0712345678",
    "result=0612345678 rc=0",
  ];
  for (const t of plain) {
    await using h = await testEngine("on");
    const r = await h.engine.sanitizeToolResult(t, "bash_exec");
    assertEquals(r.tokenized.filter((x) => x.category === "PHONE"), [], `${t} -> ${r.text}`);
  }
  await using h = await testEngine("on");
  for (const t of toolOutputCorpus(61)) {
    const r = await h.engine.sanitizeToolResult(t.replace(/```[\s\S]*?```/g, ""), "bash_exec");
    assertEquals(r.tokenized.filter((x) => x.category === "PHONE"), [], r.text);
  }
});
