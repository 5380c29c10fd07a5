/**
 * The built-in tier 5's cost: the name recognizer alone over about 1 MB of generated free text
 * (notes with names, tool output), and a whole phi_sanitize engine pass over the same text with the
 * recognizer off (the comparator, `ASSIST_PHI_NAMES=off`) and on. MB/s = size / time per iteration.
 * Run: deno bench -q -P=test bench/phi_names.bench.ts
 */
import { notesCorpus, toolOutputCorpus } from "../tests/support/phi_corpus.ts";
import { generatedNames, HANDWRITTEN } from "../tests/support/names_corpus.ts";
import { nameFinder } from "../phi/names/mod.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { testConfig } from "../tests/phi/_support.ts";

const parts = [
  ...notesCorpus(2500, 5).map((n) => n.text),
  ...toolOutputCorpus(6),
  ...HANDWRITTEN.map((h) => h.text),
  ...generatedNames(2000, 9).map((g) => g.text),
];
let text = "";
for (let k = 0; text.length < 1_000_000; k++) text += parts[k % parts.length] + "\n";
text = text.slice(0, 1_000_000);
const mb = `${(new TextEncoder().encode(text).length / 1e6).toFixed(2)} MB`;

const find = await nameFinder(undefined);
find(text);
const off = await createPhiEngine({
  config: { ...testConfig(await Deno.makeTempDir()), phiNames: "off" },
  sidecar: false,
});
const on = await createPhiEngine({ config: testConfig(await Deno.makeTempDir()), sidecar: false });
await off.sanitizeToolResult(text, "bash_exec");
await on.sanitizeToolResult(text, "bash_exec");

Deno.bench(`name recognizer alone, ${mb}`, { group: "names", n: 10 }, () => {
  find(text);
});

Deno.bench(`sanitize free text, built-in names off (comparator), ${mb}`, {
  group: "names",
  baseline: true,
  n: 10,
}, async () => {
  await off.sanitizeToolResult(text, "bash_exec");
});

Deno.bench(`sanitize free text, built-in names on, ${mb}`, { group: "names", n: 10 }, async () => {
  await on.sanitizeToolResult(text, "bash_exec");
});
