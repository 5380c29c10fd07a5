/**
 * The headers push against a real OpenSSH sshd: `assist ssh add/pass/setup` (subprocesses) open the
 * master, then the push runs in this process as the REPL runs it. Two pushes append only the new
 * blocks, a push of nothing new contacts no host, a shrunk log re-seeds, a rotated log sends the
 * rest of `headers.log.1` then the new file, and a closed master is one warning line with the mark
 * unchanged.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { pushHeaders, syncHeadersAtExit } from "../../cli/headers_sync/sync.ts";
import { readSettings, writeSettings } from "../../cli/headers_sync/settings.ts";
import { HeadersLog } from "../../cli/model/headers_log.ts";
import { testConfig } from "../cli/commands/_support.ts";
import { Sshd } from "../support/sshd.ts";
import { assist, envFor, killPid, masterPid } from "./_support.ts";

const HOST = "ws-test.example";

Deno.test("headers sync over a real master: incremental, no-op, re-seed, rotation, closed master", async (t) => {
  await using sshd = await Sshd.start({}, "plain");
  const home = await Deno.makeTempDir({ prefix: "assist-hsync-" });
  const env = envFor(home);
  const remoteFile = `${sshd.home}/.assist-headers/headers-${HOST}.jsonl`;
  const remoteLines = async () =>
    (await Deno.readTextFile(remoteFile)).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const logPath = `${home}/log/headers.log`;
  let n = 0;
  const log = new HeadersLog({ path: logPath, oauth: false });
  /** Appends blocks whose retry-after header numbers them. */
  const write = async (count: number, to = log) => {
    for (let i = 0; i < count; i++) await to.record(200, new Headers({ "retry-after": String(++n) }));
  };
  const numbers = (lines: Array<{ headers: Record<string, string> }>) =>
    lines.map((l) => Number(l.headers["retry-after"]));
  const push = () => pushHeaders(home, { hostname: HOST });
  let pid: number | undefined;
  try {
    assertEquals((await assist(["ssh", "add", "e1", sshd.target], env)).code, 0);
    assertEquals((await assist(["ssh", "pass", "e1"], env, sshd.password + "\n")).code, 0);
    const setup = await assist(["ssh", "setup", "e1"], env);
    assertEquals(setup.code, 0, setup.all);
    pid = masterPid(setup.stdout);
    await writeSettings(home, { target: "e1", enabled: true });

    await t.step("two pushes append only the new blocks; a line being written waits", async () => {
      await write(2);
      const a = await push();
      assert(a.ok, a.line);
      assertEquals(
        a.line,
        `headers-sync: pushed 2 header blocks to e1:~/.assist-headers/headers-${HOST}.jsonl`,
      );
      assertEquals(numbers(await remoteLines()), [1, 2]);
      await write(1);
      await Deno.writeTextFile(logPath, '{"ts":"x","status":"HTTP 200","hea', { append: true });
      const b = await push();
      assertEquals([b.ok, b.blocks], [true, 1], b.line);
      const lines = await remoteLines();
      assertEquals(numbers(lines), [1, 2, 3]);
      assertEquals(Object.keys(lines[0]), ["host", "ts", "status", "headers"]);
      assertEquals([lines[2].host, lines[2].status], [HOST, "HTTP 200"]);
      // The line is finished: it goes with the next push.
      await Deno.writeTextFile(logPath, 'ders":{"retry-after":"3.5"}}\n', { append: true });
      assertEquals((await push()).blocks, 1);
      assertEquals(numbers(await remoteLines()), [1, 2, 3, 3.5]);
      const st = await Deno.stat(remoteFile);
      assertEquals(st.mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(`${sshd.home}/.assist-headers`)).mode! & 0o777, 0o700);
      const left = [...Deno.readDirSync(`${sshd.home}/.assist-headers`)].map((e) => e.name);
      assertEquals(left, [`headers-${HOST}.jsonl`], "no temporary chunk left behind");
    });

    await t.step("nothing new: nothing is sent (the push does not even need the master)", async () => {
      const before = await Deno.readTextFile(remoteFile);
      const mtime = (await Deno.stat(remoteFile)).mtime;
      const r = await push();
      assertEquals(r, { ok: true, line: "headers-sync: nothing new", blocks: 0 });
      assertEquals(await Deno.readTextFile(remoteFile), before);
      assertEquals((await Deno.stat(remoteFile)).mtime, mtime);
    });

    await t.step("the local log shrinks: the push starts over from its first byte", async () => {
      await Deno.writeTextFile(logPath, ""); // truncated in place: same inode, smaller than the mark
      await write(1);
      const r = await push();
      assertEquals([r.ok, r.blocks], [true, 1], r.line);
      match(r.line, /\(the local log was shrunk; started over\)$/);
      assertEquals(numbers(await remoteLines()), [1, 2, 3, 3.5, 4]);
      assertEquals((await push()).line, "headers-sync: nothing new");
    });

    await t.step(
      "the local log rotates at its cap: the rest of headers.log.1, then the new file",
      async () => {
        // Blocks are 80 to 90 bytes: the file holds 4 now, 5 or 6 fit under 500, so 5 more rotate it once.
        const small = new HeadersLog({ path: logPath, oauth: false, maxBytes: 500 });
        await write(3, small);
        assertEquals((await push()).blocks, 3); // the mark is inside the file about to rotate
        await write(5, small);
        const rotated = Deno.readTextFileSync(`${logPath}.1`).trim().split("\n");
        const fresh = Deno.readTextFileSync(logPath).trim().split("\n");
        assertEquals(rotated.length + fresh.length, 9, "one rotation, nothing lost locally");
        assert(fresh.length > 0 && rotated.length > 4, "the marked file became headers.log.1");
        const r = await push();
        assertEquals([r.ok, r.blocks], [true, 5], r.line);
        match(r.line, /\(the local log was rotated; started over\)$/);
        assertEquals(numbers(await remoteLines()), [1, 2, 3, 3.5, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assertEquals((await push()).line, "headers-sync: nothing new");
      },
    );

    await t.step(
      "a closed master: one warning line, the mark unchanged, the exit hook quiet otherwise",
      async () => {
        assertEquals((await assist(["ssh", "close", "e1"], env)).code, 0);
        pid = undefined;
        await write(1);
        const mark = (await readSettings(home)).mark;
        const r = await push();
        assertEquals(r, {
          ok: false,
          line: "headers-sync: not pushed: open the master with /ssh-setup e1 first",
          blocks: 0,
        });
        assertEquals((await readSettings(home)).mark, mark);
        const warned: string[] = [];
        await syncHeadersAtExit(testConfig(home), (l) => warned.push(l));
        assertEquals(warned, ["headers-sync: not pushed: open the master with /ssh-setup e1 first"]);
        await writeSettings(home, { enabled: false });
        await syncHeadersAtExit(testConfig(home), (l) => warned.push(l));
        assertEquals(warned.length, 1, "off: the exit hook does nothing");
      },
    );
  } finally {
    killPid(pid);
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});
