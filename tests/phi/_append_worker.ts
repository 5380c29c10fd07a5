/**
 * A second process for the lookup-table concurrency test: appends `count` values (the first `shared`
 * of them common to both workers) one batch at a time and prints the tokens it got as JSON.
 * Usage: deno run -A _append_worker.ts <table> <prefix> <count> <shared> <startAtMs>
 */
import { LookupTable } from "../../phi/lookup.ts";

const [path, prefix, countS, sharedS, startS] = Deno.args;
const count = Number(countS), shared = Number(sharedS);
const table = await LookupTable.open(path);
const wait = Number(startS) - Date.now();
if (wait > 0) await new Promise((r) => setTimeout(r, wait));
const got: Record<string, string> = {};
for (let i = 0; i < count; i++) {
  const value = i < shared ? `shared-${i}` : `${prefix}-${i}`;
  const category = i % 3 === 0 ? "MRN" : i % 3 === 1 ? "NAME" : "EMP";
  const batch = [{ category, canonical: value, original: `orig ${value}` }];
  if (i % 10 === 0) batch.push({ category: "MRN", canonical: `${value}-b`, original: `orig ${value}-b` });
  const tokens = await table.assign(batch);
  got[value] = tokens[0];
  if (batch[1]) got[`${value}-b`] = tokens[1];
}
console.log(JSON.stringify(got));
