/**
 * The SSH master outlives the command that started it (issue 26 item 9): on Windows Deno puts every
 * child that is not `detached` in a job object that kills it when Deno exits, so the master died
 * with `assist ssh setup`. A real parent process starts a (fake) master through ssh/spawn.ts and
 * exits; the master must still answer afterwards. Meant for Windows too (the Wine job runs it).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { MASTER_SPAWN } from "../../ssh/spawn.ts";
import { tempDir } from "../support/run_assist.ts";

Deno.test("spawnMaster: the master runs detached on every OS", () => {
  assertEquals(MASTER_SPAWN.detached, true);
});

Deno.test("spawnMaster: the master keeps running after the process that started it exits", async () => {
  await using tmp = await tempDir("assist-detached-");
  const parent = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=test", new URL("./_detached_parent.ts", import.meta.url).href, tmp.path],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(parent.stdout);
  assertEquals(parent.code, 0, out + new TextDecoder().decode(parent.stderr));
  const h = JSON.parse(out.trim().split("\n").pop()!);
  assertEquals(h.ok, true, out);
  // The starter has exited; only now is the master asked to answer.
  await Deno.writeTextFile(`${tmp.path}/go`, "");
  let alive: string | undefined;
  for (let i = 0; i < 300 && alive === undefined; i++) {
    alive = await Deno.readTextFile(`${tmp.path}/alive`).catch(() => undefined);
    if (alive === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  assert(alive !== undefined, "the master died with the process that started it");
  assertEquals(Number(alive.trim()), h.pid);
});
