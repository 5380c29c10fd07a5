/**
 * Nine digits first read as an MRN that the same text also shows as an SSN (dashed, or after an SSN
 * cue) get one SSN token everywhere in that text; a value the table already holds keeps its token.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { testEngine } from "./_support.ts";
import { PhiFactory } from "../support/phi_corpus.ts";

const FORMS = [
  (d: string, s: string) => `MRN ${d} was merged; SSN ${s} on the guarantor record`,
  (d: string, s: string) => `Patient ${d} called. SSN: ${s.replaceAll("-", "")} confirmed`,
  (d: string, s: string) => `PID|1||${d}^^^HOSP^MR||DOE^JANE||19800101\nnote: social security number ${s}`,
  (d: string, s: string) => `Account ${d}\nss# ${s.replaceAll("-", " ")}`,
  (d: string, s: string) => `SSN ${s} and later MRN ${d}`,
  (d: string, s: string) => `{"mrn":"${d}","note":"ssn ${s}"}`,
];

Deno.test("an MRN-read value the same text shows as an SSN gets one SSN token (generated)", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(4321);
  let checked = 0;
  for (let i = 0; i < 60; i++) {
    const s = f.ssn();
    const d = s.replaceAll("-", "");
    const text = FORMS[i % FORMS.length](d, s);
    const r = await h.engine.tokenizeUserInput(text);
    const mine = r.tokenized.filter((t) => t.canonical === d || t.value.replace(/\D/g, "") === d);
    assert(mine.length >= 1, `${text} -> ${r.text}`);
    assertEquals([...new Set(mine.map((t) => t.category))], ["SSN"], `${text} -> ${r.text}`);
    assertEquals(new Set(mine.map((t) => t.token)).size, 1, `${text} -> ${r.text}`);
    assert(!r.text.includes(d) && !r.text.includes(s), r.text);
    checked++;
  }
  assertEquals(checked, 60);
});

Deno.test("prefer SSN: without SSN evidence an id stays an MRN; a value with a token keeps it", async () => {
  await using h = await testEngine("on");
  // (The first keyword names the category: an account number, a visit number.)
  for (
    const [t, cat] of [["MRN 234567891 and acct 234567891", "MRN"], [
      "Visit 345678123 for Patient 345678123",
      "VISIT",
    ]]
  ) {
    const r = await h.engine.tokenizeUserInput(t);
    assertEquals([...new Set(r.tokenized.map((x) => x.category))], [cat], r.text);
  }
  // A phone or another dashed shape with the same digits is not SSN evidence.
  const r = await h.engine.tokenizeUserInput("MRN 456789012, fax 456-789-012");
  assert(r.tokenized.some((x) => x.category === "MRN" && x.value === "456789012"), r.text);
  // Minted as an MRN in an earlier turn: the table has one row per value, so the token stays.
  const first = await h.engine.tokenizeUserInput("MRN 567123890");
  const later = await h.engine.tokenizeUserInput("SSN 567-12-3890");
  assertEquals(later.tokenized[0].token, first.tokenized[0].token);
});
