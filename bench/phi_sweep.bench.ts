/**
 * The known-value sweep (phi/sweep.ts) alone: on realistic HL7 (every value of the person looked
 * for again in its message), and on a text with no messages where thousands of values start alike
 * (a TSV of phones: the case a per-prefix list would make quadratic).
 * Run: deno bench -q -P=test bench/phi_sweep.bench.ts
 */
import { hl7RealisticCorpus } from "../tests/support/phi_corpus.ts";
import { scanHl7 } from "../phi/hl7_sanitize.ts";
import { candidate } from "../phi/candidate.ts";
import { sweepKnown } from "../phi/sweep.ts";

const mb = (s: string) => `${(new TextEncoder().encode(s).length / 1e6).toFixed(2)} MB`;

const hl7 = hl7RealisticCorpus(500, 303).map((m) => m.text).join("\n");
const scanned = [...scanHl7(hl7).structured].sort((a, b) => a.start - b.start);
const person = scanned.filter((c) => /^(PID|PD1|MRG|NK1|GT1|IN1|IN2)/.test(c.context ?? ""));

const phones = Array.from({ length: 20_000 }, (_, i) => `217555${String(i).padStart(4, "0")}`);
const rows = phones.map((p, i) => `row${i}\t${p}`);
const tsv = `${rows.join("\n")}\n${phones.join(" ")}\n`;
let offset = 0;
const tsvKnown = rows.map((row, i) => {
  const at = offset + row.length - phones[i].length;
  offset += row.length + 1;
  return candidate(at, at + phones[i].length, phones[i], "PHONE", phones[i], "contextual", "TSV");
});

Deno.bench(`sweep, realistic HL7 (${person.length} values of the person), ${mb(hl7)}`, { n: 30 }, () => {
  sweepKnown(hl7, person, scanned, false);
});

Deno.bench(`sweep, 20,000 phones alike in a TSV, ${mb(tsv)}`, { n: 10 }, () => {
  sweepKnown(tsv, tsvKnown, tsvKnown, false);
});
