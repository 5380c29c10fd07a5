import { hl7RealisticCorpus } from "./tests/support/phi_corpus.ts";
import { scanHl7 } from "./phi/hl7_sanitize.ts";
import { embeddedScan } from "./phi/embedded_hl7.ts";
import { isHl7Shaped } from "./phi/_hl7.ts";
const mixed = hl7RealisticCorpus(500, 303).map((m) => m.text).join("\n");
for (let i = 0; i < 3; i++) { const s = scanHl7(mixed); embeddedScan(mixed, s); }
let t = performance.now(); let sc; for (let i = 0; i < 10; i++) sc = scanHl7(mixed); console.log("scanHl7", ((performance.now() - t) / 10).toFixed(1));
t = performance.now(); for (let i = 0; i < 10; i++) embeddedScan(mixed, sc); console.log("embedded", ((performance.now() - t) / 10).toFixed(1));
t = performance.now(); for (let i = 0; i < 10; i++) isHl7Shaped(mixed); console.log("shape", ((performance.now() - t) / 10).toFixed(1));
console.log(mixed.length, sc!.segments.length, sc!.structured.length);
