/**
 * The FHIR and CDA record scans (phi/fhir.ts, phi/cda.ts) at 1 and 4 MB of generated records
 * (tests/phi/_fhir_cda_gen.ts: Bundles of three patients, C-CDA documents; pretty-printed and one
 * line, some after a log prefix or inside a JSON string): MB/s = size / time per iteration; a flat
 * MB/s across the sizes shows linear time. `maybe()` on 1 MB of other text (a HL7 and notes corpus)
 * shows the cost of asking. Comparator: the engine pass (sanitizeToolResult) over the same 1 MB.
 * Run: deno bench -q -P=test bench/phi_fhir_cda.bench.ts
 */
import { scanFhir } from "../phi/fhir.ts";
import { scanCda } from "../phi/cda.ts";
import { RECORD_FORMATS } from "../phi/records.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { testConfig } from "../tests/phi/_support.ts";
import { cdaDocument, fhirBundle } from "../tests/phi/_fhir_cda_gen.ts";
import { hl7RealisticCorpus, notesCorpus } from "../tests/support/phi_corpus.ts";

function generate(bytes: number, one: (seed: number) => string): string {
  const parts: string[] = [];
  let n = 0;
  for (let seed = 1; n < bytes; seed++) {
    const t = one(seed);
    parts.push(t);
    n += t.length + 1;
  }
  return parts.join("\n");
}

const fhirOne = (seed: number) => {
  const t = fhirBundle(seed, 3, seed % 2 === 0).text;
  return seed % 5 === 0
    ? JSON.stringify({ thread: "ib_fhir", msg: t })
    : `2026-11-03 10:00:00 ib_fhir recv ${t}`;
};
const cdaOne = (seed: number) => {
  const t = cdaDocument(seed, seed % 2 === 1).text;
  return seed % 5 === 0
    ? JSON.stringify({ thread: "ob_cda", msg: t })
    : `2026-11-03 10:00:00 ob_cda send ${t}`;
};

const inputs = {
  fhir: new Map([1, 4].map((mb) => [mb, generate(mb * 1_000_000, fhirOne)])),
  cda: new Map([1, 4].map((mb) => [mb, generate(mb * 1_000_000, cdaOne)])),
};
const other = [...hl7RealisticCorpus(200, 3).map((m) => m.text), ...notesCorpus(400, 3).map((m) => m.text)]
  .join("\n").slice(0, 1_000_000);

for (const mb of [1, 4]) {
  const f = inputs.fhir.get(mb)!;
  Deno.bench(
    `scanFhir ${mb} MB (${(f.length / 1e6).toFixed(2)} MB)`,
    { group: "fhir", n: mb === 4 ? 5 : 10 },
    () => {
      scanFhir(f);
    },
  );
  const c = inputs.cda.get(mb)!;
  Deno.bench(
    `scanCda ${mb} MB (${(c.length / 1e6).toFixed(2)} MB)`,
    { group: "cda", n: mb === 4 ? 5 : 10 },
    () => {
      scanCda(c);
    },
  );
}

Deno.bench("maybe() of every record format, 1 MB of HL7 and notes", { group: "maybe" }, () => {
  for (const f of RECORD_FORMATS) f.maybe(other);
});

const home = await Deno.makeTempDir({ prefix: "assist-bench-fhircda-" });
const engine = await createPhiEngine({ config: testConfig(home), sidecar: false });
for (const kind of ["fhir", "cda"] as const) {
  const t = inputs[kind].get(1)!;
  await engine.sanitizeToolResult(t, "read_file"); // warm: the lexicon, the rule tables, the tokens
  Deno.bench(`engine pass, 1 MB of ${kind} (comparator)`, { group: `engine`, n: 3 }, async () => {
    await engine.sanitizeToolResult(t, "read_file");
  });
}
