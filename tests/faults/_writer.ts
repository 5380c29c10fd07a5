/**
 * A second (third, ...) process writing one state file, for tests/faults/state_files.test.ts: waits
 * for `<dir>/go` (so all writers start together), then makes `count` separate changes, each one
 * locked write. Exit 0 when every write landed, else 1 with the operator's line on stderr.
 *
 *   deno run -P=test _writer.ts history <file> <prefix> <count>
 *   deno run -P=test _writer.ts dotenv <file> <prefix> <count>
 */
import { History } from "../../cli/repl/history.ts";
import { updateDotenv } from "../../core/dotenv.ts";
import { describeError } from "../../core/errors.ts";

const [kind, file, prefix, countText] = Deno.args;
const count = Number(countText);
const dir = file.slice(0, file.lastIndexOf("/"));
await Deno.writeTextFile(`${dir}/ready.${prefix}`, "");
for (;;) {
  try {
    await Deno.stat(`${dir}/go`);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 2));
  }
}
try {
  if (kind === "history") {
    const h = await History.load(file, () => false);
    for (let i = 0; i < count; i++) {
      h.add(`${prefix} line ${i}`);
      await h.flush(); // one locked write per line: the most chances to collide
    }
  } else {
    for (let i = 0; i < count; i++) await updateDotenv(file, { [`${prefix}_${i}`]: String(i) });
  }
} catch (err) {
  console.error(describeError(err));
  Deno.exit(1);
}
