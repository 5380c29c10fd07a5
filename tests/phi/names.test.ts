/**
 * The built-in tier 5 (phi/names/): recall and precision on a names-in-free-text corpus
 * (tests/support/names_corpus.ts: hand-written and generated), no loss of engine vocabulary, names
 * entering the lookup table (a later mention gets the same token), the ASSIST_PHI_NAMES switch, and
 * the coverage line the surfaces print.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { generatedNames, HANDWRITTEN, type NamesText } from "../support/names_corpus.ts";
import { leaks, testEngine } from "./_support.ts";
import { namesCoverage } from "../../phi/mod.ts";
import { engineVocabulary, identifierParts } from "../../phi/names/vocabulary.ts";
// A literal import: the lexicon packages join the test run's module graph, so a fresh module cache
// installs them before any test (the engine loads this module lazily).
import { nameFinder } from "../../phi/names/mod.ts";
import { writeFixtureRoot } from "../support/fixture_root.ts";
import { tempDir } from "../support/run_assist.ts";

async function measure(corpus: NamesText[]) {
  await using h = await testEngine("on");
  let names = 0, caught = 0, tokens = 0, falseTokens = 0, lostKeep = 0;
  const misses: string[] = [];
  for (const c of corpus) {
    const out = await h.engine.sanitizeToolResult(c.text, "read_file");
    for (const n of c.names) {
      names++;
      if (leaks(out.text, n)) misses.push(n);
      else caught++;
    }
    for (const k of c.keep) if (!out.text.includes(k)) lostKeep++;
    for (const t of out.tokenized) {
      if (t.category !== "NAME") continue;
      tokens++;
      if (!c.names.some((n) => n.includes(t.value) || t.value.includes(n))) {
        falseTokens++;
        if (Deno.env.get("NAMES_DEBUG")) console.log("false:", t.value, "in", JSON.stringify(c.text));
      }
    }
    assertEquals(h.engine.detokenize(out.text).text, c.text);
  }
  return { names, caught, tokens, falseTokens, lostKeep, misses };
}

Deno.test("built-in tier 5: recall >= 90% on the hand-written and generated corpus, no engine word lost", async () => {
  const corpus = [...HANDWRITTEN, ...generatedNames(200)];
  const m = await measure(corpus);
  const recall = m.caught / m.names;
  const precision = (m.tokens - m.falseTokens) / m.tokens;
  console.log(
    `names corpus: ${m.names} names, recall ${(recall * 100).toFixed(1)}%, precision ${
      (precision * 100).toFixed(1)
    }% (${m.falseTokens} of ${m.tokens} NAME tokens false), engine words lost ${m.lostKeep}`,
  );
  assert(recall >= 0.9, `recall ${recall}: missed ${m.misses.slice(0, 10).join(", ")}`);
  assertEquals(m.lostKeep, 0);
  assert(precision >= 0.9, `precision ${precision}`);
});

Deno.test("built-in tier 5: a name found once gets the same token when mentioned again", async () => {
  await using h = await testEngine("on");
  const a = await h.engine.tokenizeUserInput("Spoke with Dana Whitfield about the resend.");
  const token = a.tokenized.find((t) => t.value === "Dana Whitfield")?.token;
  assert(token, a.text);
  const b = await h.engine.sanitizeToolResult("ticket 7 assigned to Dana Whitfield\n", "bash_exec");
  assert(b.text.includes(token!), b.text);
  assert(!b.text.includes("Whitfield"));
});

Deno.test("built-in tier 5: ASSIST_PHI_NAMES=off turns it off; fenced code and vocabulary are kept", async () => {
  await using off = await testEngine("on", { config: { phiNames: "off" } });
  const o = await off.engine.tokenizeUserInput("Spoke with Dana Whitfield.");
  assert(o.text.includes("Dana Whitfield"));
  await using on = await testEngine("on");
  const fenced = "see\n```\nSpoke with Dana Whitfield\n```\n";
  assertEquals((await on.engine.tokenizeUserInput(fenced)).text, fenced);
  for (const t of ["Per Epic, the feed is down.", "Spoke with Quest support.", "cc: Cerner Interface Team"]) {
    assertEquals((await on.engine.tokenizeUserInput(t)).text, t);
  }
});

Deno.test("built-in tier 5: names inside fences are found in tool results and attached files, not in typed code", async () => {
  await using h = await testEngine("on");
  const fenced = "see\n```\nSpoke with Dana Whitfield\n```\n";
  const tool = await h.engine.sanitizeToolResult(fenced, "bash_exec");
  assert(!tool.text.includes("Whitfield"), tool.text);
  const attached = "look at this\n\n```txt assist-attached-file\n```\nSpoke with Dana Whitfield\n```\n```\n";
  const typed = await h.engine.tokenizeUserInput(attached);
  assert(!typed.text.includes("Whitfield"), typed.text);
  assertEquals((await h.engine.tokenizeUserInput(fenced)).text, fenced);
});

Deno.test("built-in tier 5: the engine root's thread, proc and Xlate names are never names", async () => {
  await using tmp = await tempDir("assist-names-root-");
  await writeFixtureRoot(tmp.path);
  const words = await engineVocabulary(tmp.path);
  assert(words.has("adt"), [...words].slice(0, 20).join(" "));
  assert(identifierParts("ib_QuestLab-in").includes("quest"));
  assert(words.size > 20);
});

Deno.test("names coverage: a line only when the sidecar is down and the built-in recognizer is off", async () => {
  const down = { health: () => Promise.resolve(undefined), address: "127.0.0.1:9" };
  const regex = {
    health: () => Promise.resolve({ status: "ok", engine: "regex", entities: ["US_SSN"] }),
    address: "127.0.0.1:9",
  };
  const presidio = {
    health: () => Promise.resolve({ status: "ok", engine: "presidio", entities: ["PERSON"] }),
    address: "127.0.0.1:9",
  };
  assertEquals(await namesCoverage({ phiPort: 9, phiNames: "auto" }, down), undefined);
  match((await namesCoverage({ phiPort: 9, phiNames: "off" }, down))!, /NOT covered.*not reachable/);
  match(
    (await namesCoverage({ phiPort: 9, phiNames: "off" }, regex))!,
    /regex engine has no person recognizer/,
  );
  assertEquals(await namesCoverage({ phiPort: 9, phiNames: "off" }, presidio), undefined);
});

Deno.test("built-in tier 5: each rule on its own", async () => {
  const find = await nameFinder(undefined);
  const names = (t: string) => find(t).map((s) => `${t.slice(s.start, s.end)}/${s.rule}`);
  assertEquals(names("could you correct it to Dr. Cettina Fanucci?"), ["Cettina Fanucci/title"]);
  assertEquals(names("spoke with Dana Whitfield about the Epic feed"), ["Dana Whitfield/cue"]);
  assertEquals(names("James Talbot restarted it"), ["James Talbot/pair"]);
  assertEquals(names("SMITH, John called about PID.5"), ["SMITH, John/last_first"]);
  assertEquals(names("KOWALSKI HANA in room 4"), ["KOWALSKI HANA/caps"]);
  assertEquals(names("Thanks,\nPriya Natarajan\n"), ["Priya Natarajan/pair"]);
  assertEquals(names("Kevin had given Alma his address"), ["Kevin/context", "Alma/cue"]);
  for (
    const t of [
      "Thread Status Error Count",
      "Message Type ORU^R01",
      "Sending Facility",
      "Per Epic and Cerner",
    ]
  ) {
    assertEquals(names(t), [], t);
  }
});
