/**
 * phi_scan throughput at 1, 4 and 16 MB of generated input (realistic HL7 messages and free-text
 * notes with names, interleaved): MB/s = size / time per iteration; linear time shows as a flat
 * MB/s across the sizes. Comparator: phi_sanitize's engine pass (sanitizeToolResult) over the same
 * 1 MB. Run: deno bench -q -P=test bench/phi_scan.bench.ts
 */
import { hl7RealisticCorpus, notesCorpus } from "../tests/support/phi_corpus.ts";
import { def, run } from "../tools/phi/run/phi_scan.ts";
import { validateInput } from "../tools/args.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { loadConfig } from "../core/config.ts";
import { testConfig } from "../tests/phi/_support.ts";

function generate(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let seed = 1; n < bytes; seed++) {
    const t = [
      ...hl7RealisticCorpus(20, seed).map((m) => m.text),
      ...notesCorpus(40, seed).map((m) => m.text),
    ].join("\n");
    parts.push(t);
    n += t.length + 1;
  }
  return parts.join("\n").slice(0, bytes);
}

const home = await Deno.makeTempDir({ prefix: "assist-bench-scan-" });
const config = { ...loadConfig(), home, phiPort: 1 };
const inputs = new Map<number, string>();
for (const mb of [1, 4, 16]) {
  const path = `${home}/in-${mb}.txt`;
  await Deno.writeTextFile(path, generate(mb * 1_000_000));
  inputs.set(mb, path);
}
const ctx = { config, cwd: home, caller: "manual" as const };
// Warm-up: the lexicon and the rule tables load once per process.
await run(validateInput(def, { path: inputs.get(1)! }), ctx);

const engine = await createPhiEngine({ config: testConfig(home), sidecar: false });
const oneMb = await Deno.readTextFile(inputs.get(1)!);

Deno.bench(
  "phi_sanitize engine pass, 1 MB (comparator)",
  { group: "scan", baseline: true, n: 3 },
  async () => {
    await engine.sanitizeToolResult(oneMb, "phi_sanitize");
  },
);

for (const mb of [1, 4, 16]) {
  Deno.bench(`phi_scan ${mb} MB`, { group: "scan", n: mb === 16 ? 1 : 3, warmup: 0 }, async () => {
    await run(validateInput(def, { path: inputs.get(mb)! }), ctx);
  });
}
