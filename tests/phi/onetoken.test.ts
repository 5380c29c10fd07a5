/**
 * One token per name (issue #14 item 9, names): `Vanderhoeven^Horatio^Q` in PID.5 and `Horatio
 * Vanderhoeven` (or `Horatio Q Vanderhoeven`, `Vanderhoeven, Horatio`, `HORATIO VANDERHOEVEN`) in a
 * note get the same NAME token in either order, and every text still comes back exactly: the
 * lookup table keeps each spelling as an alias row, and detokenization picks the HL7 form inside an
 * HL7 field and the prose form seen last in prose.
 */
import { deepStrictEqual as assertEquals, notDeepStrictEqual as assertNotEquals } from "node:assert/strict";
import { LookupTable, readableXpn } from "../../phi/lookup.ts";
import { inHl7Field } from "../../phi/detokenize.ts";
import { nameWithoutInitials } from "../../phi/normalize.ts";
import { PhiFactory, toolOutputCorpus } from "../support/phi_corpus.ts";
import { tempDir } from "../support/run_assist.ts";
import { testEngine } from "./_support.ts";

const MSH = "MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|MSG0001|P|2.5\r";
const message = (xpn: string, mrn = "E9988776") => `${MSH}PID|1||${mrn}^^^HOSP^MR||${xpn}||19800101|M\r`;
/** The token in PID.5 of a tokenized `message`. */
const pid5 = (text: string) => /PID\|1\|\|[^|]*\|\|(\[\[[^\]]+\]\])\|/.exec(text)?.[1];
const title = (w: string) => w[0] + w.slice(1).toLowerCase();

/** The prose spellings of a person the issue names, each with a sentence around it. */
function variants(p: { first: string; last: string; middle: string }): string[] {
  const [f, l] = [title(p.first), title(p.last)];
  return [
    `Seen today: ${f} ${l} was admitted.`,
    `Called ${f} ${p.middle} ${l} back`,
    `${l}, ${f} has a new allergy`,
    `ask about ${p.first} ${p.last} please`,
  ];
}

Deno.test("one name token: HL7 first, then every prose spelling; exact round trips both ways", async () => {
  await using h = await testEngine("on");
  const msg = message("Vanderhoeven^Horatio^Q");
  const out = await h.engine.sanitizeToolResult(msg, "read_file");
  const token = pid5(out.text)!;
  assertEquals(token, "[[NAME_1]]");
  for (
    const note of [
      "Horatio Vanderhoeven was seen",
      "Horatio Q Vanderhoeven",
      "pt Vanderhoeven, Horatio fell",
      "HORATIO VANDERHOEVEN",
      "Mr. Vanderhoeven called",
      "Horatio Vanderhoeven's chart",
    ]
  ) {
    const n = await h.engine.tokenizeUserInput(note);
    assertEquals(n.text.includes(token), true, `${note} -> ${n.text}`);
    assertEquals(n.text.includes("Horatio") || n.text.includes("HORATIO"), false, n.text);
    assertEquals(h.engine.detokenize(n.text).text, note);
    // The message still comes back with its own spelling, whatever prose came since.
    assertEquals(h.engine.detokenize(out.text).text, msg);
  }
  // A model reply in prose gets the prose form seen last.
  await h.engine.tokenizeUserInput("Vanderhoeven, Horatio again");
  assertEquals(h.engine.detokenize(`${token} was discharged.`).text, "Vanderhoeven, Horatio was discharged.");
  assertEquals(h.engine.detokenizeToolInput({ q: `${token}` }).value, { q: "Vanderhoeven, Horatio" });
});

Deno.test("one name token: prose first (tokenized by tier 3 or a marker), then the HL7 message", async () => {
  for (
    const [note, typed] of [
      ["PID.5 = Horatio Vanderhoeven", "Horatio Vanderhoeven"],
      ["PID.5: HORATIO Q VANDERHOEVEN", "HORATIO Q VANDERHOEVEN"],
      ["{{phi:Vanderhoeven, Horatio}} fell", "Vanderhoeven, Horatio"],
    ]
  ) {
    await using h = await testEngine("on");
    const n = await h.engine.tokenizeUserInput(note);
    assertEquals(n.text.includes("[[NAME_1]]"), true, `${note} -> ${n.text}`);
    const msg = message("Vanderhoeven^Horatio^Q");
    const out = await h.engine.sanitizeToolResult(msg, "read_file");
    assertEquals(pid5(out.text), "[[NAME_1]]", out.text);
    assertEquals(h.engine.detokenize(out.text).text, msg);
    // The note comes back as typed (a marker's syntax is not part of the text sent).
    assertEquals(h.engine.detokenize(n.text).text, note.replace(/\{\{phi:([^}]*)\}\}/, "$1"));
    assertEquals(h.engine.detokenize("[[NAME_1]] is stable").text, `${typed} is stable`);
  }
});

Deno.test("one name token: a reply in prose with only the HL7 form known reads `Given Family`", async () => {
  await using h = await testEngine("on");
  const out = await h.engine.sanitizeToolResult(message("VANDERHOEVEN^HORATIO^Q"), "read_file");
  const token = pid5(out.text)!;
  assertEquals(
    h.engine.detokenize(`Patient ${token} is stable`).text,
    "Patient HORATIO Q VANDERHOEVEN is stable",
  );
  assertEquals(readableXpn("Vanderhoeven^Horatio"), "Horatio Vanderhoeven");
  assertEquals(readableXpn("Vanderhoeven"), "Vanderhoeven");
  assertEquals(inHl7Field(out.text, out.text.indexOf(token), out.text.indexOf(token) + token.length), true);
  // Pipes alone do not make an HL7 field: a table cell, a pipe-separated line with no segment.
  for (
    const [text, at] of [["| [[NAME_1]] |", 2], ["a|[[NAME_1]]|b", 2], ["PID|x [[NAME_1]]|", 6]] as const
  ) {
    assertEquals(inHl7Field(text, at, at + 10), false, text);
  }
  assertEquals(h.engine.detokenize(`a|${token}|b`).text, "a|HORATIO Q VANDERHOEVEN|b");
});

Deno.test("one name token: generated persons, both orders, every spelling, exact round trips", async () => {
  const f = new PhiFactory(914);
  for (let i = 0; i < 40; i++) {
    const p = f.person();
    const xpn = i % 2 === 0
      ? `${p.last}^${p.first}^${p.middle}`
      : `${title(p.last)}^${title(p.first)}^${p.middle}`;
    const msg = message(xpn, f.mrn());
    // HL7 first, then each prose spelling.
    {
      await using h = await testEngine("on");
      const out = await h.engine.sanitizeToolResult(msg, "read_file");
      const token = pid5(out.text)!;
      for (const note of variants(p)) {
        const n = await h.engine.tokenizeUserInput(note);
        assertEquals(n.text.match(/\[\[NAME_\d+\]\]/g), [token], `${xpn}: ${note} -> ${n.text}`);
        assertEquals(h.engine.detokenize(n.text).text, note);
      }
      assertEquals(h.engine.detokenize(out.text).text, msg);
      assertEquals(h.engine.detokenize(`${token}.`).text, `${p.first} ${p.last}.`);
    }
    // Prose first (a field listing tier 3 reads), then the message.
    {
      await using h = await testEngine("on");
      const note = `PID.5 = ${title(p.first)} ${title(p.last)}`;
      const n = await h.engine.tokenizeUserInput(note);
      const token = n.text.match(/\[\[NAME_\d+\]\]/)?.[0];
      const out = await h.engine.sanitizeToolResult(msg, "read_file");
      assertEquals(pid5(out.text), token, `${note} then ${xpn}`);
      assertEquals(h.engine.detokenize(out.text).text, msg);
      assertEquals(h.engine.detokenize(n.text).text, note);
    }
  }
});

Deno.test("lookup table: alias rows share the token, persist in four columns, and keep each spelling", async () => {
  await using tmp = await tempDir("assist-onetoken-");
  const path = `${tmp.path}/sanitize/lookup.tsv`;
  const t = await LookupTable.open(path);
  const [a] = await t.assign([{
    category: "NAME",
    canonical: "horatio q vanderhoeven",
    original: "Vanderhoeven^Horatio^Q",
  }]);
  const [b] = await t.assign([{
    category: "NAME",
    canonical: "horatio vanderhoeven",
    original: "Horatio Vanderhoeven",
  }]);
  assertEquals(b, a);
  // Another middle initial is another person; another HL7 spelling keeps its own token (one message
  // could hold both, and each must come back).
  const [c] = await t.assign([{
    category: "NAME",
    canonical: "horatio r vanderhoeven",
    original: "Horatio R Vanderhoeven",
  }]);
  const [d] = await t.assign([{
    category: "NAME",
    canonical: "horatio vanderhoeven x",
    original: "X^Horatio",
  }]);
  assertNotEquals(c, a);
  assertNotEquals(d, a);
  const [e] = await t.assign([{ category: "NAME", canonical: "vanderhoeven", original: "Vanderhoeven" }]);
  assertNotEquals(e, a, "one word is not enough to join a name");
  const rows = (await Deno.readTextFile(path)).trim().split("\n").map((l) => l.split("\t"));
  assertEquals(rows.slice(0, 2), [
    [a, "NAME", "horatio q vanderhoeven", "Vanderhoeven^Horatio^Q"],
    [a, "NAME", "horatio vanderhoeven", "Horatio Vanderhoeven"],
  ]);
  const again = await LookupTable.open(path);
  assertEquals(again.valueOf(a), "Vanderhoeven^Horatio^Q", "column 4 of the token's first row");
  assertEquals(again.valueOf(a, true), "Vanderhoeven^Horatio^Q");
  assertEquals(again.valueOf(a, false), "Horatio Vanderhoeven");
  assertEquals(again.get("horatio vanderhoeven")?.token, a);
  // The other order: prose first, then the HL7 form joins it.
  const [p] = await again.assign([{ category: "NAME", canonical: "ada lovelace", original: "Ada Lovelace" }]);
  const [q] = await again.assign([{
    category: "NAME",
    canonical: "a ada lovelace",
    original: "LOVELACE^ADA^A",
  }]);
  assertEquals(q, p);
  assertEquals(again.valueOf(p, true), "LOVELACE^ADA^A");
  assertEquals(again.valueOf(p, false), "Ada Lovelace");
});

Deno.test("one name token: with many known names, the never-tokenize corpus still loses nothing", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(915);
  for (let i = 0; i < 60; i++) {
    const p = f.person();
    await h.engine.sanitizeToolResult(message(`${p.last}^${p.first}^${p.middle}`, f.mrn()), "read_file");
    await h.engine.tokenizeUserInput(`PID.5 = ${title(p.first)} ${title(p.last)}`);
  }
  for (const text of toolOutputCorpus(78)) {
    assertEquals((await h.engine.tokenizeUserInput(text)).text, text);
  }
});

Deno.test("nameWithoutInitials: the one-token key drops one-letter words only", () => {
  for (
    const [c, k] of [
      ["horatio q vanderhoeven", "horatio vanderhoeven"],
      ["a jane doe", "jane doe"],
      ["doe jane z", "doe jane"],
      ["jane doe", "jane doe"],
      ["q", ""],
      ["ab cd", "ab cd"],
    ]
  ) assertEquals(nameWithoutInitials(c), k, c);
});
