/**
 * Throughput of the extract and engine-output scans (phi/extracts.ts, phi/engine_output.ts) on 1 MB
 * of generated input each: CSV/TSV/pipe/Markdown tables with person columns, key=value log lines,
 * and Cloverleaf process logs with keyed lists and Tcl stacks; also 1 MB of prose and HL7 where
 * neither finds anything (the cost every other text pays). MB/s = 1 / time per iteration in
 * seconds. Comparator: the whole engine pass over the extract input. Run:
 * deno bench -q -P=test bench/phi_extracts.bench.ts
 */
import { scanExtracts } from "../phi/extracts.ts";
import { scanEngineOutput } from "../phi/engine_output.ts";
import { createPhiEngine } from "../phi/mod.ts";
import { testConfig } from "../tests/phi/_support.ts";
import { mulberry32, pick } from "../tests/support/prng.ts";
import { hl7RealisticCorpus, notesCorpus } from "../tests/support/phi_corpus.ts";

const LAST = ["ABERNATHY", "BLACKWOOD", "CASTELLANOS", "DUBOIS", "ESPOSITO", "FONTAINE", "GRUBER"];
const FIRST = ["MARGARET", "ETIENNE", "ROSALIND", "TOBIAS", "INGRID", "MATTEO", "SOLVEIG"];
const THREADS = ["adt_in", "lab_out", "rad_ob", "pharm_in"];

function extracts(bytes: number): string {
  const rand = mulberry32(1);
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const d = pick(rand, [",", "\t", "|", "md", "kv"]);
    const rows: string[] = [];
    const row = () => [
      pad(int(1, 9999999), 8),
      pick(rand, LAST),
      pick(rand, FIRST),
      `${int(1930, 2005)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}`,
      `${int(201, 989)}-555-${pad(int(0, 9999), 4)}`,
      pick(rand, THREADS),
      "SENT",
      `MSG${pad(int(1, 999999), 6)}`,
    ];
    const header = ["MRN", "Last Name", "First", "DOB", "Phone", "Thread", "Status", "Control ID"];
    if (d === "kv") {
      for (let i = 0; i < 40; i++) {
        const r = row();
        rows.push(
          `2024-11-05 09:30:12 INFO mrn=${r[0]} name=${r[1]},${r[2]} dob=${r[3]} thread=${r[5]} port=5001`,
        );
      }
    } else if (d === "md") {
      rows.push(`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`);
      for (let i = 0; i < 40; i++) rows.push(`| ${row().join(" | ")} |`);
    } else {
      rows.push(header.join(d));
      for (let i = 0; i < 40; i++) rows.push(row().map((v) => (rand() < 0.1 ? `"${v}"` : v)).join(d));
    }
    const t = rows.join("\n") + "\n\n";
    parts.push(t);
    n += t.length;
  }
  return parts.join("").slice(0, bytes);
}

function engineLogs(bytes: number): string {
  const rand = mulberry32(2);
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const thread = pick(rand, THREADS);
    const ts = `11/${pad(int(1, 28), 2)}/2024 ${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}:${
      pad(int(0, 59), 2)
    }`;
    const t = pick(rand, [
      `[pd  :pdtd:INFO/0:${thread}:${ts}] Thread has gone up`,
      `[msg :Msg :ERR /0:${thread}:${ts}] Patient ${pick(rand, LAST)}, ${pick(rand, FIRST)} not found`,
      `[tps :tps :INFO/0:${thread}:${ts}] {MRN ${pad(int(1, 9999999), 8)}} {NAME {${pick(rand, LAST)} ${
        pick(rand, FIRST)
      }}} {PORT 5001}`,
      `CONTINUE: 'keyed {MRN ${pad(int(1, 9999999), 8)}} done'`,
      `    while executing\n"keylset pat MRN ${pad(int(1, 9999999), 8)}"\n    (procedure "tps_x" line 12)`,
    ]) + "\n";
    parts.push(t);
    n += t.length;
  }
  return parts.join("").slice(0, bytes);
}

function others(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let seed = 1; n < bytes; seed++) {
    const t = [
      ...hl7RealisticCorpus(10, seed).map((m) => m.text),
      ...notesCorpus(20, seed).map((m) => m.text),
    ]
      .join("\n");
    parts.push(t);
    n += t.length + 1;
  }
  return parts.join("\n").slice(0, bytes);
}

const MB = 1_000_000;
const ex = extracts(MB);
const logs = engineLogs(MB);
const prose = others(MB);

Deno.bench("extract scan, 1 MB of tables and key=value lines", { group: "extract", baseline: true }, () => {
  scanExtracts(ex);
});
Deno.bench("extract scan, 1 MB of HL7 and notes (nothing to find)", { group: "extract" }, () => {
  scanExtracts(prose);
});
Deno.bench("engine_output scan, 1 MB of engine logs, keyed lists, stacks", { group: "engine" }, () => {
  scanEngineOutput(logs);
});
Deno.bench("engine_output scan, 1 MB of HL7 and notes (nothing to find)", { group: "engine" }, () => {
  scanEngineOutput(prose);
});

const home = await Deno.makeTempDir({ prefix: "assist-bench-extracts-" });
const engine = await createPhiEngine({ config: testConfig(home), sidecar: false });
Deno.bench("engine pass over the 1 MB of extracts (comparator)", { group: "pass", n: 3 }, async () => {
  await engine.sanitizeToolResult(ex, "read_file");
});
