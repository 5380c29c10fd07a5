/** What the lookup-table fault tests share: a patient's message, the table as a fresh process reads it. */
import { LookupTable } from "../../phi/lookup.ts";
import { createPhiEngine } from "../../phi/mod.ts";
import { testConfig } from "../phi/_support.ts";

/** Every row of the table at `path`, as a fresh process reads it: token → the values it stands for. */
export async function valuesByToken(path: string): Promise<Map<string, Set<string>>> {
  const t = await LookupTable.open(path);
  const out = new Map<string, Set<string>>();
  for (const r of t.rows()) {
    if (!out.has(r.token)) out.set(r.token, new Set());
    out.get(r.token)!.add(`${r.category}\u0000${r.canonical}`);
  }
  return out;
}

/** What a fresh process reveals `text` to with the table of `home`. */
export async function reveal(home: string, text: string): Promise<string> {
  const engine = await createPhiEngine({ sidecar: false, config: testConfig(home, { autoPhi: "on" }) });
  return engine.detokenize(text).text;
}

/** An HL7 ADT with one patient's values; `n` makes every value its own. */
export function adt(n: number): { text: string; values: string[] } {
  const mrn = String(5_120_000 + n * 37);
  const family = ["QUIGLEY", "OKAFOR", "BRANDT", "LINDQVIST", "MORENO", "HALVORSEN"][n % 6] +
    "X".repeat(n % 3);
  const given = ["ROSALIND", "TOBIAS", "INGRID", "MATEO", "SIGRID", "AMARA"][(n * 5) % 6];
  const ssn = `${500 + n}-${String(10 + (n % 80)).padStart(2, "0")}-${String(1000 + n * 7).slice(-4)}`;
  const phone = `(217)555-${String(1000 + n).slice(-4)}`;
  const text = `MSH|^~\\&|REG|MAIN|ADT|HUB|20261124083000||ADT^A08|C${n}|P|2.5\r` +
    `PID|1||${mrn}^^^MAIN^MR||${family}^${given}^Q||1961${String(1 + (n % 12)).padStart(2, "0")}14|F|||` +
    `12 ELM ST^^SPRINGDALE^IL^62701||${phone}|||||A${mrn}|${ssn}\r` +
    `PV1|1|I|4W^401^A\r`;
  return { text, values: [mrn, family, given, ssn] };
}
