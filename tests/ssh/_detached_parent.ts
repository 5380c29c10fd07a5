/**
 * The process that stands in for `assist ssh setup` in tests/ssh/spawn_detached.test.ts: starts a
 * master through ssh/spawn.ts (with a fake master's command), prints its handshake and exits at once.
 * Argument: the folder the fake master watches.
 */
import { fileURLToPath } from "node:url";
import { spawnMaster } from "../../ssh/spawn.ts";

const dir = Deno.args[0];
const fake = new URL("./_fake_master.ts", import.meta.url);
const h = await spawnMaster(dir, "detached", 60_000, {
  programs: [Deno.execPath()],
  args: [
    "run",
    "-q",
    "--no-prompt",
    "-P=test",
    "--config",
    fileURLToPath(new URL("../../deno.json", import.meta.url)),
    fake.href,
    dir,
  ],
  standalone: false,
});
console.log(JSON.stringify(h));
Deno.exit(0);
