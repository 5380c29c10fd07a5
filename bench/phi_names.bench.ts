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

// A 450 KB pasted prompt (notes, tool output and operator prose pasted into one message): the whole
// prompt pass, and the prose recognizers of issue #23 (Safe Harbor ids in prose, phi/prose_ids.ts)
// alone over the same text.
const paste = text.slice(0, 450_000);
const pasteKb = `${Math.round(new TextEncoder().encode(paste).length / 1000)} KB`;
const prompt = await createPhiEngine({ config: testConfig(await Deno.makeTempDir()), sidecar: false });
await prompt.tokenizeUserInput(paste);
const proseIds = await import("../phi/prose_ids.ts").then((m) => m.findProseIds).catch(() => undefined);

Deno.bench(`tokenizeUserInput, a ${pasteKb} pasted prompt`, { group: "paste", n: 10 }, async () => {
  await prompt.tokenizeUserInput(paste);
});

if (proseIds) {
  Deno.bench(`prose ids alone (phi/prose_ids.ts), ${pasteKb}`, { group: "paste", n: 10 }, () => {
    proseIds(paste);
  });
}
