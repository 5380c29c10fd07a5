/**
 * Family names with particles (`Maria de la Cruz`, `Ludwig van Beethoven`, `Omar al-Rashid`) and
 * hyphenated or apostrophe family names after a cue: the whole name is one token, nothing of it is
 * left in the text.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { toolOutputCorpus } from "../support/phi_corpus.ts";

const GIVEN = ["Maria", "Ludwig", "Omar", "Jan", "Anna", "Kofi", "Lucia", "Pieter", "Fatima", "Hana", "Sean"];
const FAMILY = [
  "de la Cruz",
  "van Beethoven",
  "al-Rashid",
  "van der Berg",
  "di Stefano",
  "von Trapp",
  "del Toro",
  "da Silva",
  "du Pont",
  "bin Laden",
  "De La Hoya",
  "Van Dyke",
  "el-Amin",
  "dos Santos",
  "O'Brien",
  "Smith-Jones",
  "ter Horst",
];
const CUES = [
  (n: string) => `Patient is ${n}.`,
  (n: string) => `Patient: ${n}, follow-up next week`,
  (n: string) => `spoke with ${n} about the ADT resend`,
  (n: string) => `The patient's name is ${n}; MRN to follow`,
  (n: string) => `per ${n}, the address changed`,
  (n: string) => `Dr. ${n} signed the order`,
  (n: string) => `called ${n} twice`,
  (n: string) => `cc: ${n}`,
];

Deno.test("names with particles after a cue: one token, no part left (generated)", async () => {
  await using h = await testEngine("on");
  let checked = 0;
  for (let g = 0; g < GIVEN.length; g++) {
    for (let f = 0; f < FAMILY.length; f++) {
      const name = `${GIVEN[g]} ${FAMILY[f]}`;
      const text = CUES[(g + f) % CUES.length](name);
      const r = await h.engine.tokenizeUserInput(text);
      const family = FAMILY[f].split(/[ -]/).filter((w) => /^\p{Lu}/u.test(w) && w.length > 2);
      for (const part of [name, FAMILY[f], ...family]) {
        assert(!leaks(r.text, part), `${part} leaked: ${text} -> ${r.text}`);
      }
      // The name is one value: one token, and the particles went with it.
      const names = r.tokenized.filter((t) => t.category === "NAME");
      assertEquals(names.map((t) => t.value), [name], `${text} -> ${r.text}`);
      assertEquals(h.engine.detokenize(r.text).text, text);
      checked++;
    }
  }
  assertEquals(checked, GIVEN.length * FAMILY.length);
});

Deno.test("particles: words like de, la, van and von in operator text are not names", async () => {
  await using h = await testEngine("on");
  const plain = [
    "the van arrived with the tapes; de-duplication is on",
    "set la_route to adt_in and restart the thread",
    "Route de Prod is the French site name; ADT de la nuit batch",
    "al-rashid_feed thread is down (see adt_out)",
    "Use the von Neumann layout? No: use cis2022.09 root",
  ];
  for (const t of plain) {
    const r = await h.engine.tokenizeUserInput(t);
    assertEquals(
      r.tokenized.filter((x) => x.tier === "names" && /\b(?:de|la|van|von|al)\b/i.test(x.value)),
      [],
      t,
    );
  }
  for (const t of toolOutputCorpus(43)) {
    const r = await h.engine.sanitizeToolResult(t, "bash_exec");
    assertEquals(r.tokenized.filter((x) => x.tier === "names"), [], t);
  }
});
