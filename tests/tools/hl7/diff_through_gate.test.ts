/**
 * Differences a token hides (issue #24 item 6): hl7_diff says how two values differ when they are one
 * value written two ways, before the PHI gate, and the note reaches the model beside the tokens.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { howDiffer } from "../../../hl7/diff.ts";
import { def, run } from "../../../tools/hl7/run/hl7_diff.ts";
import { validateInput } from "../../../tools/args.ts";
import type { ToolContext } from "../../../tools/types.ts";
import { leaks, testEngine } from "../../phi/_support.ts";

const LEFT = "MSH|^~\\&|ADT|H|R|H|20261123083000||ADT^A08|1|P|2.5.1\r" +
  "PID|1||00815566^^^HOSP^MR||QUILLFEATHER^MARGARET^J||19610304|F|||||(309)555-0187|||||ACCT0042\r";
const RIGHT = "MSH|^~\\&|ADT|H|R|H|20261123083000||ADT^A08|2|P|2.5.1\r" +
  "PID|1||815566^^^HOSP^MR||QUILLFEATHER MARGARET^^J||19610304|F|||||3095550187|||||acct0042\r";

Deno.test("howDiffer: leading zeros, punctuation, case, white space; different values say nothing", () => {
  assertEquals(howDiffer("00815566", "815566"), "same number, leading zeros differ: 8 digits vs 6");
  assertEquals(howDiffer("(309)555-0187", "3095550187"), "same characters, other punctuation or spacing");
  assertEquals(howDiffer("ACCT0042", "acct0042"), "same apart from case");
  assertEquals(howDiffer("ELM  ST", "ELM ST"), "same apart from white space");
  assertEquals(
    howDiffer("0081-5566", "815566"),
    "same number, leading zeros differ: 8 digits vs 6, other punctuation",
  );
  assertEquals(howDiffer("815566", "815567"), undefined);
  assertEquals(howDiffer("SMITH", "SMYTH"), undefined);
  assertEquals(howDiffer("", "SMITH"), undefined);
  // A measurement's punctuation is its value: never "one value written two ways".
  for (const [a, b] of [["0.5", "5"], ["1.5", "15"], ["-5", "5"], ["<5", "5"], ["10.0", "100"]]) {
    assertEquals(howDiffer(a, b), undefined, `${a} vs ${b}`);
  }
});

Deno.test("hl7_diff through the PHI gate: the model sees how tokenized values differ, no value", async () => {
  const out = await run(validateInput(def, { left_text: LEFT, right_text: RIGHT }), {} as ToolContext);
  assert(out.text, "diff text");
  await using h = await testEngine();
  const seen = await h.engine.sanitizeToolResult(out.text, "hl7_diff");
  const lines = seen.text.split("\n");
  const line = (path: string) => lines.find((l) => l.trimStart().startsWith(`${path} `)) ?? "";
  assert(
    /\[\[MRN_\d+\]\] -> \[\[MRN_\d+\]\] {2}\(same number, leading zeros differ: 8 digits vs 6\)$/.test(
      line("PID.3.1"),
    ),
    seen.text,
  );
  assert(line("PID.13").endsWith("(same characters, other punctuation or spacing)"), seen.text);
  assert(line("PID.5.1").endsWith("(same text, other component layout)"), seen.text);
  assert(line("PID.18").endsWith("(same apart from case)"), seen.text);
  for (
    const v of [
      "00815566",
      "815566",
      "QUILLFEATHER",
      "MARGARET",
      "3095550187",
      "(309)555-0187",
      "ACCT0042",
      "acct0042",
    ]
  ) {
    assert(!leaks(seen.text, v), `${v} reached the model: ${seen.text}`);
  }
  // The operator reads the values back exactly, but for one phone written two ways: one number, one
  // token, shown in the form first seen (README, "PHI": the note says how the sides were written).
  assertEquals(
    h.engine.detokenize(seen.text).text,
    out.text.replace("-> 3095550187", "-> (309)555-0187"),
  );
});
