import { hl7RealisticCorpus } from "./tests/support/phi_corpus.ts";
import { createPhiEngine } from "./phi/mod.ts";
import { testConfig } from "./tests/phi/_support.ts";
import { scanRecords } from "./phi/records.ts";
import { RECORD_FORMATS } from "./phi/records.ts";
const mixed = hl7RealisticCorpus(500, 303).map((m) => m.text).join("\n");
const home = await Deno.makeTempDir();
const warm = await createPhiEngine({ config: testConfig(home), sidecar: false });
await warm.sanitizeToolResult(mixed, "bash_exec");
await warm.sanitizeToolResult(mixed, "bash_exec");
const g = globalThis as unknown as { __st?: Record<string, number> };
g.__st = {};
const t0 = performance.now();
for (let i = 0; i < 10; i++) await warm.sanitizeToolResult(mixed, "bash_exec");
console.log("total per pass", ((performance.now() - t0) / 10).toFixed(1));
for (const [k, v] of Object.entries(g.__st)) console.log(k.padEnd(20), (v / 10).toFixed(1));
for (const f of RECORD_FORMATS) { const t = performance.now(); for (let i=0;i<10;i++){ if (f.maybe(mixed)) f.scan(mixed);} console.log("fmt", f.name, f.maybe(mixed), ((performance.now()-t)/10).toFixed(1)); }
