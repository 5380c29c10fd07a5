import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { findMarkers, stripNoPhi } from "../../phi/markers.ts";
import { testEngine } from "./_support.ts";

const values = (text: string) => findMarkers(text).map((m) => [m.value, text.slice(m.start, m.end)]);

Deno.test("markers: the three forms, bracketed first, trailing punctuation not part of @@VALUE", () => {
  assertEquals(values("pt @@12345678, seen"), [["12345678", "@@12345678"]]);
  assertEquals(values("pt @@John Smith@@ today"), [["John Smith", "@@John Smith@@"]]);
  assertEquals(values("x {{phi: Jane Q Doe }} y"), [["Jane Q Doe", "{{phi: Jane Q Doe }}"]]);
  assertEquals(values("@@john@example.org@@."), [["john@example.org", "@@john@example.org@@"]]);
  assertEquals(values("a @@123 and @@456."), [["123", "@@123"], ["456", "@@456"]]);
  assertEquals(values("{{phi:@@x@@}} @@y"), [["@@x@@", "{{phi:@@x@@}}"], ["y", "@@y"]]);
  assertEquals(values("mail me@@home and a@@b"), [], "preceded by a word character");
  assertEquals(values("@@ @@@@ {{phi:}}"), []);
});

Deno.test("!nophi: only as the prompt's first characters, with the space", () => {
  assertEquals(stripNoPhi("!nophi MRN 123"), { text: "MRN 123", nophi: true });
  assertEquals(stripNoPhi(" !nophi MRN"), { text: " !nophi MRN", nophi: false });
  assertEquals(stripNoPhi("!nophiMRN"), { text: "!nophiMRN", nophi: false });
});

Deno.test("markers win over auto detection and get the auto-detected category", async () => {
  await using h = await testEngine("on");
  const r = await h.engine.tokenizeUserInput(
    "check @@123-45-6789 and {{phi:Doe, Jane}} and @@1980-03-15@@ and @@Springfield",
  );
  assertEquals(r.text, "check [[SSN_1]] and [[NAME_1]] and [[DOB_1]] and [[MANUAL_1]]");
  assertEquals(r.tokenized.map((t) => t.tier), ["manual", "manual", "manual", "manual"]);
  assertEquals(r.notice, undefined, "manual markers are not auto-tokenizations");
  assertEquals(
    h.engine.detokenize(r.text).text,
    "check 123-45-6789 and Doe, Jane and 1980-03-15 and Springfield",
  );
  // The same name typed another way later gets the same token (canonical lookup).
  const again = await h.engine.tokenizeUserInput("and @@Jane Doe@@ again");
  assertEquals(again.text, "and [[NAME_1]] again");
});

Deno.test("!nophi skips the automatic tiers for the turn, markers still apply", async () => {
  await using h = await testEngine("on");
  const r = await h.engine.tokenizeUserInput("!nophi MRN 12345678 for @@Jane Doe@@");
  assertEquals(r.nophi, true);
  assertEquals(r.text, "MRN 12345678 for [[NAME_1]]");
  const tool = await h.engine.sanitizeToolResult("Patient MRN 87654321", "bash_exec");
  assertEquals(tool.text, "Patient MRN 87654321", "tool results of the same turn too");
  const next = await h.engine.tokenizeUserInput("MRN 12345678");
  assertEquals(next.text, "MRN [[MRN_1]]", "the next turn is back to normal");
});

Deno.test("!nophi: one notice line; values tokenized earlier in the session stay tokenized", async () => {
  await using h = await testEngine("on");
  const first = await h.engine.tokenizeUserInput(
    "MRN 12345678 for @@Horatio Vanderhoeven@@, call 217-555-0199",
  );
  assertEquals(first.warnings, []);
  const r = await h.engine.tokenizeUserInput(
    "!nophi so 12345678, Horatio Vanderhoeven and 2175550199? MRN 55554444",
  );
  assertEquals(r.warnings.filter((w) => w.includes("!nophi")).length, 1, r.warnings.join("\n"));
  assert(!r.warnings.some((w) => /12345678|Vanderhoeven|55554444/.test(w)), "no value in the notice");
  for (const v of ["12345678", "Horatio Vanderhoeven", "2175550199"]) assert(!r.text.includes(v), r.text);
  assert(r.text.includes("MRN 55554444"), `a new value is the operator's to send: ${r.text}`);
  const tool = await h.engine.sanitizeToolResult(
    "Horatio Vanderhoeven, MRN 12345678, also 55554444",
    "bash_exec",
  );
  assert(!tool.text.includes("Vanderhoeven") && !tool.text.includes("12345678"), tool.text);
});
