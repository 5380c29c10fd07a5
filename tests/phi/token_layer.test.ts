/**
 * The token layer (issue #24 items 2-4): no row's value ever holds a token, a token the operator typed
 * is never minted for another value, and short known identifiers are swept in later text.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { LookupTable } from "../../phi/lookup.ts";
import { MINTED_TOKEN_RE } from "../../phi/token.ts";
import { mulberry32, pick } from "../support/prng.ts";
import { leaks, testEngine } from "./_support.ts";

const PV1_MSG = [
  "MSH|^~\\&|ADT|HOSP|RAD|HOSP|20261123083000||ADT^A01|MSG00001|P|2.5.1",
  "EVN|A01|20261123083000",
  "PID|1||00815566^^^HOSP^MR||QUILLFEATHER^MARGARET^J||19610304|F|||455 OAK AVE^^DENVER^CO^80202",
  "PV1|1|I|4W^401^A|||||1234567^HOUSE^GREGORY^^^DR|7654321^WILSON^JAMES^^^DR||MED",
].join("\r") + "\r";

async function rowsOf(home: string): Promise<string[][]> {
  const text = await Deno.readTextFile(`${home}/sanitize/lookup.tsv`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => l.split("\t"));
}

Deno.test("token layer: a /load-ed HL7 message asked about again gains no nested token", async () => {
  await using h = await testEngine();
  const loaded = await h.engine.tokenizeUserInput(PV1_MSG);
  const asked = await h.engine.tokenizeUserInput(`Why is PV1-7 wrong here?\n${loaded.text}`);
  assertEquals(asked.text, `Why is PV1-7 wrong here?\n${loaded.text}`, "tokenized text passes unchanged");
  const result = await h.engine.sanitizeToolResult(loaded.text, "read_file");
  assertEquals(result.text, loaded.text);
  for (const row of await rowsOf(h.home)) {
    assert(!row[2].includes("[[") && !(row[3] ?? "").includes("[["), `row holds a token: ${row.join(" | ")}`);
  }
  assertEquals(h.engine.detokenize(asked.text).text, `Why is PV1-7 wrong here?\n${PV1_MSG}`);
});

Deno.test("token layer: a token the operator typed is never minted for a new value", async () => {
  await using h = await testEngine();
  const out = await h.engine.tokenizeUserInput("[[MRN_1]] and MRN 4455667, also [[NAME_1]] for @@Jane Roe@@");
  const m = /MRN (\[\[MRN_\d+\]\])/.exec(out.text);
  assert(m, out.text);
  assert(m[1] !== "[[MRN_1]]", `minted the typed token: ${out.text}`);
  assert(!out.text.includes("[[NAME_1]] for [[NAME_1]]"), out.text);
  assert(!leaks(out.text, "4455667") && !leaks(out.text, "Jane Roe"), out.text);
  // The typed token still means nothing; the minted ones come back.
  const back = h.engine.detokenize(out.text);
  assertEquals(back.text, "[[MRN_1]] and MRN 4455667, also [[NAME_1]] for Jane Roe");
});

Deno.test("token layer: the table skips typed tokens when it mints, in memory too", async () => {
  await using h = await testEngine();
  const table = await LookupTable.open(`${h.home}/sanitize/lookup.tsv`);
  const avoid = new Set(["[[MRN_1]]", "[[MRN_2]]", "[[MRN_4]]"]);
  const rows = await table.assignRows([
    { category: "MRN", canonical: "111111", original: "111111" },
    { category: "MRN", canonical: "222222", original: "222222" },
  ], avoid);
  assertEquals(rows.map((r) => r.token), ["[[MRN_3]]", "[[MRN_5]]"]);
  const mem = table.rememberRows([{ category: "MRN", canonical: "333333", original: "333333" }]);
  const own = /^\[\[(MRN_m[a-z2-7]{6})_1\]\]$/.exec(mem[0].token)?.[1];
  assert(own !== undefined, mem[0].token);
  const next = table.rememberRows(
    [{ category: "MRN", canonical: "444444", original: "444444" }],
    new Set([`[[${own}_2]]`]),
  );
  assertEquals(next[0].token, `[[${own}_3]]`);
});

Deno.test("token layer: short known identifiers and marked values are caught in later prompts", async () => {
  await using h = await testEngine();
  const first = await h.engine.tokenizeUserInput("MRN 44556 failed at the ADT hub");
  assert(!leaks(first.text, "44556"), first.text);
  const later = await h.engine.tokenizeUserInput("what about 44556 now? 120 messages, port 4455, year 2026");
  assert(!leaks(later.text, "44556"), later.text);
  for (const fact of ["120", "4455", "2026"]) assert(leaks(later.text, fact), `${fact} kept: ${later.text}`);
  const marked = await h.engine.tokenizeUserInput("@@E-4411 is the badge");
  assert(!leaks(marked.text, "E-4411"), marked.text);
  const again = await h.engine.tokenizeUserInput("E-4411 again at 08:30");
  assert(!leaks(again.text, "E-4411"), again.text);
  assert(again.text.includes("08:30"), again.text);
});

Deno.test("token layer fuzz: texts with tokens, markers and HL7 never give a row holding a token", async () => {
  await using h = await testEngine();
  const rand = mulberry32(2411);
  const pieces = [
    "[[MRN_1]]",
    "[[NAME_2]]^^^DR",
    "[[NAME_3]] Smith",
    "PID|1||[[MRN_1]]^^^H^MR||[[NAME_1]]^JOHN||19610304",
    "PV1|1|I|||||[[NPI_1]]^[[NAME_2]]^^^DR",
    "@@[[MRN_1]] 1234@@",
    "MRN [[MRN_9]]",
    "patient Jane Roe",
    "NK1|1|ROE^JANE|SPO",
    "{{phi:[[NAME_4]]}}",
    "chart 00123456",
    "[[ADDRESS_1]]^^DENVER^CO^80202",
    " and ",
    "\r",
    "\n",
  ];
  for (let i = 0; i < 120; i++) {
    const n = 1 + Math.floor(rand() * 8);
    let text = "";
    for (let k = 0; k < n; k++) text += pick(rand, pieces);
    const out = i % 2 === 0
      ? await h.engine.tokenizeUserInput(text)
      : await h.engine.sanitizeToolResult(text, "read_file");
    // Every token the text held stays as it was.
    for (const t of text.match(MINTED_TOKEN_RE) ?? []) assert(out.text.includes(t), `${t} lost: ${out.text}`);
  }
  for (const row of await rowsOf(h.home)) {
    assert(!row[2].includes("[[") && !(row[3] ?? "").includes("[["), `row holds a token: ${row.join(" | ")}`);
  }
});

Deno.test("token layer: a field holding a token and more gets the rest tokenized, never the token", async () => {
  await using h = await testEngine();
  await h.engine.tokenizeUserInput("@@Quenby^Orrin@@");
  const msg =
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||99887766^^^H^MR||[[NAME_1]]^Marisol^Q||19800102|M\r";
  const out = await h.engine.sanitizeToolResult(msg, "read_file");
  assert(!leaks(out.text, "Marisol"), out.text);
  assert(out.text.includes("[[NAME_1]]^[[NAME_"), out.text);
  const marked = await h.engine.tokenizeUserInput("please use @@[[NAME_1]] Vanderhoeven@@ here");
  assert(!leaks(marked.text, "Vanderhoeven"), marked.text);
  assert(marked.text.includes("[[NAME_1]]"), marked.text);
  for (const row of await rowsOf(h.home)) assert(!row[3]?.includes("[["), row.join(" | "));
});

Deno.test("token layer: a typed token is avoided in base64 inside the same text, and in later turns", async () => {
  await using h = await testEngine();
  const inner = "Patient MRN 55512345 was admitted. ".repeat(8);
  const text = `note [[MRN_1]] (ticket ref)\nattachment: ${btoa(inner)}\n`;
  const out = await h.engine.sanitizeToolResult(text, "read_file");
  const decoded = atob(out.text.split("attachment: ")[1].trim());
  assert(!decoded.includes("55512345") && !decoded.includes("[[MRN_1]]"), decoded);
  const later = await h.engine.tokenizeUserInput("and MRN 44455566 now");
  assert(!later.text.includes("[[MRN_1]]"), later.text);
});
