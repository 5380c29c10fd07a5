/**
 * NetConfig parsing: a 10 MB file of 3,000 threads (20.1 IDE layout, routes on most inbound
 * threads). Target: under 200 ms per parse.
 */
import { parseNetConfig } from "../tools/engine/netconfig/mod.ts";
import { bigNetConfig } from "./_gen_engine.ts";

const TEXT = bigNetConfig(3000);
const MB = (TEXT.length / 1e6).toFixed(1);
const check = parseNetConfig(TEXT);
if (check.protocols.length !== 3000 || check.issues.length !== 0) {
  throw new Error("generator and parser disagree");
}

Deno.bench(`parseNetConfig: ${MB} MB, 3,000 threads`, { group: "parse", baseline: true }, () => {
  parseNetConfig(TEXT);
});

Deno.bench(
  `parseNetConfig, every record read the general way (exact path): ${MB} MB`,
  { group: "parse" },
  () => {
    parseNetConfig(TEXT, { exact: true });
  },
);
