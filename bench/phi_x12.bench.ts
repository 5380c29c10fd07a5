/**
 * Throughput of the X12 and NCPDP record formats (phi/x12.ts, phi/ncpdp.ts) on generated input
 * (tests/support/x12_ncpdp_gen.ts: one person per interchange or claim, mixed terminators and
 * separator spellings): each format's scan at 1 and 4 MB (MB/s = size / time per iteration; a
 * flat MB/s across sizes shows linear time), the engine pass (sanitizeToolResult) over 1 MB of
 * each, and the cost of both `maybe()` tests on 1 MB of realistic HL7 and notes (texts that are
 * neither). Run: deno bench -q -P=test bench/phi_x12.bench.ts
 */
import { x12 } from "../phi/x12.ts";
import { ncpdp } from "../phi/ncpdp.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { testConfig } from "../tests/phi/_support.ts";
import { generatedNcpdp, generatedX12 } from "../tests/support/x12_ncpdp_gen.ts";
import { hl7RealisticCorpus, notesCorpus } from "../tests/support/phi_corpus.ts";

function build(bytes: number, gen: (seed: number) => { text: string }, sep: string): string {
  const parts: string[] = [];
  let n = 0;
  for (let seed = 1; n < bytes; seed++) {
    const t = `2024-03-15 12:53:07 [thread_${seed % 7}] received ${gen(seed).text}`;
    parts.push(t);
    n += t.length + sep.length;
  }
  return parts.join(sep);
}

const X12 = new Map<number, string>();
const NCPDP = new Map<number, string>();
for (const mb of [1, 4]) {
  X12.set(mb, build(mb * 1_000_000, generatedX12, "\n"));
  NCPDP.set(mb, build(mb * 1_000_000, generatedNcpdp, "\n"));
}
const other: string[] = [];
for (let seed = 1, n = 0; n < 1_000_000; seed++) {
  const t = [...hl7RealisticCorpus(20, seed).map((m) => m.text), ...notesCorpus(40, seed).map((m) => m.text)]
    .join("\n");
  other.push(t);
  n += t.length + 1;
}
const neither = other.join("\n").slice(0, 1_000_000);

for (const mb of [1, 4]) {
  const x = X12.get(mb)!;
  Deno.bench(`x12.scan ${mb} MB (${(x.length / 1e6).toFixed(2)} MB)`, { group: "x12", n: 5 }, () => {
    x12.scan(x);
  });
  const p = NCPDP.get(mb)!;
  Deno.bench(`ncpdp.scan ${mb} MB (${(p.length / 1e6).toFixed(2)} MB)`, { group: "ncpdp", n: 5 }, () => {
    ncpdp.scan(p);
  });
}

Deno.bench("x12.maybe + ncpdp.maybe on 1 MB of HL7 and notes", { group: "maybe", n: 20 }, () => {
  x12.maybe(neither);
  ncpdp.maybe(neither);
});
Deno.bench(
  "x12.scan + ncpdp.scan on 1 MB of HL7 and notes (when maybe says yes)",
  { group: "maybe", n: 5 },
  () => {
    x12.scan(neither);
    ncpdp.scan(neither);
  },
);

const home = await Deno.makeTempDir({ prefix: "assist-bench-x12-" });
const engine = await createPhiEngine({ config: testConfig(home), sidecar: false });
const x1 = X12.get(1)!, p1 = NCPDP.get(1)!;
await engine.sanitizeToolResult(x1.slice(0, 20_000), "read_file"); // warm-up: lexicons, tables
Deno.bench("engine pass, 1 MB of X12", { group: "engine", n: 3 }, async () => {
  await engine.sanitizeToolResult(x1, "read_file");
});
Deno.bench("engine pass, 1 MB of NCPDP", { group: "engine", n: 3 }, async () => {
  await engine.sanitizeToolResult(p1, "read_file");
});
