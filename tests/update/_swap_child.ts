/** Child for tests/update/swap.test.ts: one Unix swap, stoppable at its crash points. */
import { swapBinary } from "../../update/swap.ts";
await swapBinary(Deno.args[0], Deno.args[1], "linux");
