import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { testEngine } from "./_support.ts";

Deno.test("hl7_field table: every repetition of a component column is tokenized, even next to a tier-2 match", async () => {
  await using h = await testEngine("on");
  // PID.3.1 repetitions joined with "~"; the second one is also preceded by "MRN" (tier 2).
  const table = "PID.5\tPID.3.1\tPID.7\nTESTPATIENT^ALPHA^Q~NICK^AL\tMRN100001~900001234\t19800215\n";
  const r = await h.engine.sanitizeToolResult(table, "hl7_field");
  for (const raw of ["TESTPATIENT", "MRN100001", "900001234", "19800215"]) {
    assert(!r.text.includes(raw), `${raw} leaked: ${r.text}`);
  }
  const row = r.text.split("\n")[1].split("\t");
  assertEquals(row[1].split("~").length, 2);
  assert(row[1].split("~").every((v) => /^\[\[MRN_\d+\]\]$/.test(v)), row[1]);
  assertEquals(h.engine.detokenize(r.text).text, table);
});
