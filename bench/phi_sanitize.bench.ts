/**
 * PHI gate throughput on HL7 (target: at least 20 MB/s on one core). MB/s = size / time per
 * iteration; the sizes are in the bench names. Run: deno bench -q -P=test bench/phi_sanitize.bench.ts
 *
 * Warm: every value is in the lookup table already (the steady state: the table persists across
 * turns and sessions, and the same patients come back). Cold: every value is new, so each one also
 * mints a token (a locked append to lookup.tsv), writes an audit record and enters the tier-4 index.
 * Dense is a stress corpus (one PHI value per ~35 bytes); realistic has result panels, allergies,
 * diagnoses and charges as well (one per ~63 bytes).
 */
import { hl7Corpus, hl7RealisticCorpus, notesCorpus, toolOutputCorpus } from "../tests/support/phi_corpus.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { testConfig } from "../tests/phi/_support.ts";
import { scanHl7 } from "../phi/hl7_sanitize.ts";

const mb = (s: string) => `${(new TextEncoder().encode(s).length / 1e6).toFixed(2)} MB`;

// About 0.8 MB of HL7, one message per line (SMAT-like dump). Dense: the four kinds with little but
// PHI in them (one value per ~35 bytes). Realistic: result panels, allergies, diagnoses, charges as
// well (one value per ~63 bytes).
const batch = hl7Corpus(850, 101).map((m) => m.text).join("\n");
const mixed = hl7RealisticCorpus(500, 303).map((m) => m.text).join("\n");
// Fresh batches with values not yet in the table, for the cold runs.
const coldBatches = Array.from(
  { length: 6 },
  (_, i) => hl7Corpus(850, 2000 + i).map((m) => m.text).join("\n"),
);
const coldMixed = Array.from(
  { length: 6 },
  (_, i) => hl7RealisticCorpus(500, 4000 + i).map((m) => m.text).join("\n"),
);
const text = [...notesCorpus(2500, 5).map((n) => n.text), ...toolOutputCorpus(6)].join("\n").slice(
  0,
  1_000_000,
);

const warmHome = await Deno.makeTempDir({ prefix: "assist-bench-" });
const warm = await createPhiEngine({ config: testConfig(warmHome), sidecar: false });
await warm.sanitizeToolResult(batch, "bash_exec");
await warm.sanitizeToolResult(mixed, "bash_exec");
await warm.sanitizeToolResult(text, "bash_exec");

Deno.bench(`HL7 field policy scan only (dense), ${mb(batch)}`, { group: "hl7", n: 30 }, () => {
  scanHl7(batch);
});

Deno.bench(`sanitizeToolResult realistic HL7, values known (warm table), ${mb(mixed)}`, {
  group: "hl7",
  n: 20,
}, async () => {
  await warm.sanitizeToolResult(mixed, "bash_exec");
});

Deno.bench(`sanitizeToolResult dense HL7, values known (warm table), ${mb(batch)}`, {
  group: "hl7",
  baseline: true,
  n: 20,
}, async () => {
  await warm.sanitizeToolResult(batch, "bash_exec");
});

/** One pass of a fresh engine over each batch in turn (every value new to its table). */
function coldBench(batches: string[]): (b: Deno.BenchContext) => Promise<void> {
  let next = 0;
  return async (b) => {
    const home = await Deno.makeTempDir({ prefix: "assist-bench-" });
    const engine = await createPhiEngine({ config: testConfig(home), sidecar: false });
    const input = batches[next++ % batches.length];
    b.start();
    await engine.sanitizeToolResult(input, "bash_exec");
    b.end();
    await Deno.remove(home, { recursive: true });
  };
}

Deno.bench(
  `sanitizeToolResult realistic HL7, all values new (cold table), ${mb(coldMixed[0])}`,
  { group: "hl7", n: 6, warmup: 0 },
  coldBench(coldMixed),
);

Deno.bench(
  `sanitizeToolResult dense HL7, all values new (cold table), ${mb(coldBatches[0])}`,
  { group: "hl7", n: 6, warmup: 0 },
  coldBench(coldBatches),
);

Deno.bench(
  `sanitizeToolResult free text and tool output (not HL7), ${mb(text)}`,
  { group: "text", n: 20 },
  async () => {
    await warm.sanitizeToolResult(text, "bash_exec");
  },
);

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(warmHome, { recursive: true });
  } catch { /* gone */ }
});
