import { hl7RealisticCorpus } from "./tests/support/phi_corpus.ts";
import { scanHl7 } from "./phi/hl7_sanitize.ts";
import { scanRecords } from "./phi/records.ts";
const mixed = hl7RealisticCorpus(500, 303).map((m) => m.text).join("\n");
const sc = scanHl7(mixed);
for (let i = 0; i < 3; i++) scanRecords(mixed, sc);
const t = performance.now(); for (let i = 0; i < 10; i++) scanRecords(mixed, sc); console.log("records", ((performance.now() - t) / 10).toFixed(1));
