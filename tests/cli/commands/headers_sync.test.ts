/**
 * `/headers-sync` in-process: status, on, off, target (settings in `.env`, unknown lines kept), the
 * usage line, and `now` without a target or with a closed master (one warning, nothing crashes).
 * The pushes themselves run against a real sshd in tests/ssh/headers_sync.test.ts.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { runSlash } from "../../../cli/commands/table.ts";
import { readDotenv } from "../../../core/dotenv.ts";
import { tempDir } from "../../support/run_assist.ts";
import { replContext } from "./_support.ts";

async function addAlias(home: string, alias: string): Promise<void> {
  await Deno.writeTextFile(`${home}/.ssh-hosts.tsv`, `${alias}\tops@127.0.0.1:2222\n`, { mode: 0o600 });
}

Deno.test("/headers-sync status, on, off, target: settings persist in .env, other lines kept", async () => {
  await using tmp = await tempDir();
  const home = tmp.path;
  await Deno.writeTextFile(`${home}/.env`, "# mine\nOTHER=1\n");
  const { io, ctx } = replContext(home);
  await runSlash("/headers-sync status", ctx);
  match(io.outs[0], /^headers-sync: off\ntarget: no target \(set one with \/headers-sync target <alias>\)\n/);
  match(io.outs[0], /\npushed: nothing yet; log\/headers\.log holds 0 bytes$/);

  await runSlash("/headers-sync target eng1", ctx);
  match(io.warns[0], /^unknown SSH alias "eng1" \(add it with \/ssh-add eng1 /);
  await addAlias(home, "eng1");
  await runSlash("/headers-sync target eng1", ctx);
  const host = Deno.hostname().replace(/[^A-Za-z0-9._-]/g, "_");
  assertEquals(
    io.outs[1],
    `headers-sync target: eng1:~/.assist-headers/headers-${host}.jsonl (the sync is off: /headers-sync on to push at exit)`,
  );
  await runSlash("/headers-sync on", ctx);
  assertEquals(
    io.outs[2],
    `headers-sync on: new header blocks go to eng1:~/.assist-headers/headers-${host}.jsonl at exit (and on /headers-sync now)`,
  );
  assertEquals(await readDotenv(`${home}/.env`), {
    OTHER: "1",
    HEADERS_SYNC_TARGET: "eng1",
    HEADERS_SYNC: "on",
  });
  assertEquals((await Deno.readTextFile(`${home}/.env`)).split("\n").slice(0, 2), ["# mine", "OTHER=1"]);
  assertEquals((await Deno.stat(`${home}/.env`)).mode! & 0o777, 0o600);
  await runSlash("/headers-sync status", ctx);
  match(io.outs[3], /^headers-sync: on \(pushes at exit\)\ntarget: eng1:~\/\.assist-headers\/headers-/);
  await runSlash("/headers-sync off", ctx);
  assertEquals(io.outs[4], "headers-sync off: nothing is pushed at exit");
  assertEquals((await readDotenv(`${home}/.env`)).HEADERS_SYNC, "off");
  assertEquals(io.warns.length, 1);
});

Deno.test("/headers-sync target: a new alias clears the mark (the whole log goes there next)", async () => {
  await using tmp = await tempDir();
  const home = tmp.path;
  await Deno.writeTextFile(`${home}/.ssh-hosts.tsv`, "eng1\tops@127.0.0.1:2222\neng2\tops@127.0.0.1:2223\n");
  await Deno.writeTextFile(
    `${home}/.env`,
    "HEADERS_SYNC_TARGET=eng1\nHEADERS_SYNC_FILE_ID=1:2:3\nHEADERS_SYNC_OFFSET=99\nHEADERS_SYNC_HEAD=64:ab\n",
  );
  const { io, ctx } = replContext(home);
  await runSlash("/headers-sync target eng1", ctx);
  assertEquals(
    (await readDotenv(`${home}/.env`)).HEADERS_SYNC_OFFSET,
    "99",
    "the same target keeps its mark",
  );
  await runSlash("/headers-sync target eng2", ctx);
  match(io.outs[1], /^headers-sync target: eng2:.* \(the whole local log goes there at the next push\)/);
  assertEquals(await readDotenv(`${home}/.env`), { HEADERS_SYNC_TARGET: "eng2" });
});

Deno.test("/headers-sync now: no target, unknown alias, closed master: one warning each, nothing changes", async () => {
  await using tmp = await tempDir();
  const home = tmp.path;
  await Deno.mkdir(`${home}/log`, { recursive: true });
  await Deno.writeTextFile(`${home}/log/headers.log`, '{"ts":"t","status":"HTTP 200","headers":{}}\n');
  const { io, ctx } = replContext(home);
  await runSlash("/headers-sync now", ctx);
  assertEquals(io.warns, ["headers-sync: no target alias (set one with /headers-sync target <alias>)"]);
  await Deno.writeTextFile(`${home}/.env`, "HEADERS_SYNC_TARGET=gone\n");
  await runSlash("/headers-sync now", ctx);
  match(io.warns[1], /^headers-sync: not pushed: unknown SSH alias "gone"/);
  await addAlias(home, "eng1");
  await Deno.writeTextFile(`${home}/.env`, "HEADERS_SYNC_TARGET=eng1\n");
  await runSlash("/headers-sync now", ctx);
  assertEquals(io.warns[2], "headers-sync: not pushed: open the master with /ssh-setup eng1 first");
  assertEquals(io.warns.length, 3);
  assertEquals(io.outs, []);
  assertEquals(await Deno.readTextFile(`${home}/.env`), "HEADERS_SYNC_TARGET=eng1\n", "no mark was written");
});

Deno.test("/headers-sync usage: a wrong form prints the usage line", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  for (
    const line of ["/headers-sync", "/headers-sync target", "/headers-sync on now", "/headers-sync maybe"]
  ) {
    await runSlash(line, ctx);
  }
  assertEquals(io.warns, Array(4).fill("usage: /headers-sync on|off|status|target <alias>|now"));
});
