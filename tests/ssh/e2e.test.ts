/**
 * The whole SSH feature as an operator uses it, against a real OpenSSH sshd on loopback: `assist ssh
 * add/pass/setup`, then `assist tools ssh_exec|ssh_pull|ssh_push|ssh_pull_smat|ssh_status`, the
 * login-shell rules, the sudo-gated profile and the engine-root pin, direct mode, `assist ssh close`.
 * Every `assist` is a subprocess under the shipped permission set. While the suite runs, every
 * process on the machine is watched for the password in its argv or environment; at the end no
 * output and no file we wrote may contain it.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { Sshd } from "../support/sshd.ts";
import { alive } from "./_proc.ts";
import {
  assist,
  envFor,
  filesContaining,
  killPid,
  masterPid,
  SecretWatch,
  seenPids,
  until,
} from "./_support.ts";

/** Random bytes of any length (getRandomValues gives at most 64 KiB at a time). */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) {
    crypto.getRandomValues(out.subarray(off, Math.min(n, off + 65536)));
  }
  return out;
}

Deno.test("ssh end to end against a real sshd: setup, tools, login rules, pin, direct mode, close; no password anywhere", async (t) => {
  await using sshd = await Sshd.start({}, "plain");
  const watch = new SecretWatch(sshd.password);
  const home = await Deno.makeTempDir({ prefix: "assist-ssh-e2e-" });
  const env = envFor(home);
  const outputs: string[] = [];
  const masters: number[] = [];
  const run = async (args: string[], stdin?: string, extraEnv: Record<string, string> = {}) => {
    const r = await assist(args, { ...env, ...extraEnv }, stdin);
    outputs.push(r.all);
    return r;
  };
  const tool = (name: string, ...args: string[]) => run(["tools", name, ...args]);
  const root = sshd.hciroot;
  try {
    await t.step("add, pass (stdin), setup: the master opens and records the host key", async () => {
      const add = await run(["ssh", "add", "e1", sshd.target]);
      assertEquals(add.code, 0, add.all);
      assertEquals(
        add.stdout,
        `added e1 → ${sshd.target} (next: assist ssh pass e1, then assist ssh setup e1)\n`,
      );
      const pass = await run(["ssh", "pass", "e1"], sshd.password + "\n");
      assertEquals([pass.code, pass.stdout], [0, "password stored for e1 (next: assist ssh setup e1)\n"]);
      assertEquals((await Deno.stat(`${home}/.ssh-creds/e1`)).mode! & 0o777, 0o600);
      const setup = await run(["ssh", "setup", "e1"]);
      assertEquals(setup.code, 0, setup.all);
      match(
        setup.stdout,
        new RegExp(`^master for e1 open \\(${sshd.target.replace(/[.]/g, "\\.")}, pid \\d+\\)\n`),
      );
      match(setup.stdout, /new host key of 127\.0\.0\.1:\d+ recorded: SHA256:[A-Za-z0-9+/]{43}\n$/);
      masters.push(masterPid(setup.stdout));
      assert(await alive(masters[0]), "the master outlives the setup command");
      const sock = await Deno.lstat(`${home}/.ssh-sockets/e1.sock`);
      assertEquals([sock.isFile, sock.mode! & 0o777], [false, 0o600]);
      assertEquals((await Deno.stat(`${home}/.ssh-sockets`)).mode! & 0o777, 0o700);
      const again = await run(["ssh", "setup", "e1"]);
      match(again.stdout, new RegExp(`already open \\(pid ${masters[0]},`));
      const status = await run(["ssh", "status"]);
      match(
        status.stdout,
        new RegExp(
          `^e1 +${sshd.target.replace(/[.]/g, "\\.")} +multiplex +open \\(pid ${masters[0]}\\) +present +-$`,
          "m",
        ),
      );
      const st = await tool("ssh_status");
      assertEquals(st.code, 0);
      assert(st.stdout.includes("open (pid"));
    });

    await t.step("ssh_exec: login shell sets the engine environment; footer; exit code; stubs", async () => {
      const r = await tool(
        "ssh_exec",
        "e1",
        'hcisitectl; echo "root=$HCIROOT site=$HCISITE"; hcicmd -c psummary',
      );
      assertEquals(r.code, 0, r.all);
      assertEquals(
        r.stdout,
        "Lockmgr    is running on pid 18831\nhcimonitord is running on pid 18826\n" +
          `root=${root} site=adt\nResponse:\npsummary {adt_proc running {Started at Fri Feb 27 14:05:10 2015}}\n` +
          "[ssh_exec: exit rc=0]\n",
      );
      const rc = await tool("ssh_exec", "e1", "echo out; echo err >&2; exit 7");
      assertEquals([rc.code, rc.stdout], [0, "out\n[stderr]\nerr\n[ssh_exec: exit rc=7]\n"]);
      const json = await run([
        "tools",
        "ssh_exec",
        "--json",
        JSON.stringify({ alias: "e1", command: "printf 'a b'" }),
      ]);
      assertEquals(json.stdout, "a b\n[ssh_exec: exit rc=0]\n");
    });

    await t.step("ssh_exec: NOLOGIN prefix and ASSIST_SSH_NO_LOGIN=1 skip the profile", async () => {
      const nologin = await tool("ssh_exec", "e1", 'NOLOGIN echo "root=$HCIROOT"');
      assertEquals(nologin.stdout, "root=\n[ssh_exec: exit rc=0]\n");
      const env1 = await run(["tools", "ssh_exec", "e1", 'echo "root=$HCIROOT"'], undefined, {
        ASSIST_SSH_NO_LOGIN: "1",
      });
      assertEquals(env1.stdout, "root=\n[ssh_exec: exit rc=0]\n");
    });

    await t.step(
      "ssh_exec: max_lines (default 500) with a truncation note; a timeout kills the command",
      async () => {
        const r = await tool("ssh_exec", "e1", "seq 1 2000");
        const lines = r.stdout.trimEnd().split("\n");
        assertEquals(lines.length, 502);
        assertEquals(lines[499], "500");
        assertEquals(lines[500], "[ssh_exec: output truncated: 500 of 2000 lines shown; raise max_lines]");
        assertEquals(lines[501], "[ssh_exec: exit rc=0]");
        const few = await tool("ssh_exec", "e1", "seq 1 20", "--max-lines", "5");
        assert(few.stdout.includes("5 of 20 lines shown"));
        const t0 = Date.now();
        const slow = await tool("ssh_exec", "e1", "echo started; sleep 30", "--timeout-seconds", "1");
        assert(Date.now() - t0 < 10_000, `bounded: ${Date.now() - t0} ms`);
        assertEquals(
          slow.stdout,
          "started\n[ssh_exec: timed out after 1 s; killed]\n[ssh_exec: exit rc=124]\n",
        );
      },
    );

    await t.step(
      "ssh_pull: pull cache by default (same remote file, same local file), verified; errors",
      async () => {
        const r = await tool("ssh_pull", "e1", "$HCIROOT/server/server.ini");
        assertEquals(r.code, 0, r.all);
        const [local, note] = r.stdout.trimEnd().split("\n");
        match(local, new RegExp(`^${env.TMPDIR}/assist-pulls/e1\\.server\\.[0-9a-f]{16}\\.ini$`));
        const expected = await Deno.readTextFile(`${root}/server/server.ini`);
        assertEquals(await Deno.readTextFile(local), expected);
        assertEquals(
          note,
          `[ssh_pull: ${expected.length} bytes from e1:${root}/server/server.ini; byte count verified]`,
        );
        assertEquals((await Deno.stat(local)).mode! & 0o777, 0o600);
        assertEquals((await Deno.stat(`${env.TMPDIR}/assist-pulls`)).mode! & 0o777, 0o700);
        const again = await tool("ssh_pull", "e1", `${root}/server/server.ini`);
        assertEquals(again.stdout.split("\n")[0], local);
        const dir = await Deno.makeTempDir({ dir: `${home}-tmp` });
        const intoDir = await tool("ssh_pull", "e1", "~/hci/cis20.1/integrator/adt/NetConfig", dir);
        assertEquals(intoDir.stdout.split("\n")[0], `${dir}/NetConfig`);
        assertEquals(
          await Deno.readTextFile(`${dir}/NetConfig`),
          await Deno.readTextFile(`${root}/adt/NetConfig`),
        );
        const missing = await tool("ssh_pull", "e1", "/no/such/file");
        assertEquals([missing.code, missing.stderr], [
          1,
          "assist: ssh_pull: no such file on e1: /no/such/file\n",
        ]);
        const folder = await tool("ssh_pull", "e1", root);
        match(folder.stderr, /is a folder, not a file/);
        const guarded = await tool(
          "ssh_pull",
          "e1",
          "$HCIROOT/server/server.ini",
          `${home}/.ssh-known-hosts`,
        );
        assertEquals(guarded.code, 1);
        match(guarded.stderr, /refused: .* is inside the assistant's home folder/);
        const creds = await tool("ssh_pull", "e1", "$HCIROOT/server/server.ini", `${home}/.ssh-creds/x`);
        match(creds.stderr, /refused/);
      },
    );

    await t.step(
      "ssh_push: bytes arrive intact, via a temporary name; a missing folder is an error",
      async () => {
        const data = randomBytes(65536 * 20 + 123);
        const local = `${home}-tmp/upload.bin`;
        await Deno.writeFile(local, data);
        const r = await tool("ssh_push", "e1", local, "~/incoming.bin");
        assertEquals([r.code, r.stdout], [
          0,
          `pushed ${data.length} bytes to e1:incoming.bin (byte count verified)\n`,
        ]);
        assertEquals(await Deno.readFile(`${sshd.home}/incoming.bin`), data);
        const leftovers = [...Deno.readDirSync(sshd.home)].filter((e) => e.name.includes("assist-part"));
        assertEquals(leftovers, []);
        const bad = await tool("ssh_push", "e1", local, "/no/such/dir/x.bin");
        match(bad.stderr, /no such folder on e1 for \/no\/such\/dir\/x\.bin/);
        const protectedLocal = await tool("ssh_push", "e1", `${home}/.ssh-creds/e1`, "/tmp/x");
        assertEquals(protectedLocal.code, 1);
        match(protectedLocal.stderr, /refused/);
      },
    );

    await t.step(
      "ssh_pull_smat: full copy and days_back samples (sqlite3, python3, the engine's Tcl)",
      async () => {
        const full = await tool("ssh_pull_smat", "e1", "adt_in");
        assertEquals(full.code, 0, full.all);
        const fl = full.stdout.trimEnd().split("\n");
        assertEquals(fl[0], `SMATDB_PATH: ${root}/adt/exec/processes/adt_proc/adt_in.smatdb`);
        const copy = fl[1].replace(/^local: /, "");
        assertEquals(
          await Deno.readFile(copy),
          await Deno.readFile(`${root}/adt/exec/processes/adt_proc/adt_in.smatdb`),
        );
        match(fl[2], /^\[ssh_pull_smat: full copy, \d+ bytes; byte count verified\]$/);

        const check = async (days: number, sampler: RegExp) => {
          const r = await tool("ssh_pull_smat", "e1", "adt_recent", "--days-back", String(days));
          assertEquals(r.code, 0, r.all);
          const lines = r.stdout.trimEnd().split("\n");
          assertEquals(lines[0], `SMATDB_PATH: ${root}/adt/exec/processes/adt_proc/adt_recent.smatdb`);
          match(lines[1], sampler);
          const n = Number(lines[2].match(/^messages: (\d+) /)![1]);
          const want = Math.min(1000, Sshd.recentCount(days));
          assert(n === want || n === want - 1, `${n} messages, expected about ${want}`);
          const tsv = (await Deno.readTextFile(lines[3].replace(/^tsv: /, ""))).trimEnd().split("\n");
          assertEquals(tsv[0], "mid\ttime_in\ttime_iso\tcontent_base64");
          assertEquals(tsv.length, n + 1);
          const first = tsv[1].split("\t");
          assert(new TextDecoder().decode(Uint8Array.fromBase64(first[3])).startsWith("MSH|^~\\&|ADTSYS|"));
          assert(Number(tsv[1].split("\t")[1]) >= Number(tsv[2].split("\t")[1]), "newest first");
          return n;
        };
        await check(7, /^sampler: sqlite3 on the engine host \(\/usr\/bin\/sqlite3\)$/);
        assertEquals(await check(60, /^sampler: sqlite3 /), 1000);
        // Take sqlite3 away on the host (a stub that fails, first on the login PATH): python3 samples.
        await sshd.putFile("hci/cis20.1/integrator/bin/sqlite3", "#!/bin/sh\nexit 127\n", 0o755);
        await check(3, /^sampler: python3 on the engine host \(.*python3\)$/);
        // And python3 too: the engine's Tcl (hcitcl) samples.
        await sshd.putFile("hci/cis20.1/integrator/bin/python3", "#!/bin/sh\nexit 127\n", 0o755);
        await sshd.putFile("hci/cis20.1/integrator/bin/hcitcl", '#!/bin/sh\nexec tclsh "$@"\n', 0o755);
        await check(3, new RegExp(`^sampler: tcl on the engine host \\(${root}/bin/hcitcl\\)$`));
        for (const f of ["sqlite3", "python3", "hcitcl"]) await Deno.remove(`${root}/bin/${f}`);

        const enc = await tool("ssh_pull_smat", "e1", "hub_from_adt", "--days-back", "1");
        assertEquals(enc.code, 1);
        match(enc.stderr, /not a plain SQLite file \(an encrypted archive needs the site's key\)/);
        const none = await tool("ssh_pull_smat", "e1", "nope", "--days-back", "1");
        match(none.stderr, /no SMAT database nope under /);
      },
    );

    await t.step(
      "sudo-gated profile: noise filtered, the pin suggested; the pin bypasses it; cleared again",
      async () => {
        await sshd.setProfile("sudo-gated");
        const gated = await tool("ssh_exec", "e1", "hcisitectl");
        assertEquals(gated.code, 0);
        assert(!gated.stdout.includes("[sudo]") && !gated.stdout.includes("sudo:"), gated.stdout);
        assert(gated.stdout.includes("line(s) of login/sudo noise filtered from stderr"), gated.stdout);
        assert(
          gated.stdout.includes("pin the engine root with assist ssh set-hciroot e1 <path>"),
          gated.stdout,
        );
        assert(gated.stdout.endsWith("[ssh_exec: exit rc=1]\n"), gated.stdout);
        const pin = await run(["ssh", "set-hciroot", "e1", root]);
        assertEquals(pin.code, 0, pin.all);
        const pinned = await tool("ssh_exec", "e1", 'hcisitectl; echo "root=$HCIROOT"');
        assertEquals(
          pinned.stdout,
          `Lockmgr    is running on pid 18831\nhcimonitord is running on pid 18826\nroot=${root}\n[ssh_exec: exit rc=0]\n`,
        );
        // The pin also resolves $HCIROOT paths and finds archives.
        const smat = await tool("ssh_pull_smat", "e1", "adt_in");
        assertEquals(smat.code, 0, smat.all);
        match(
          (await run(["ssh", "status", "e1"])).stdout,
          new RegExp(` ${root.replace(/[.]/g, "\\.")}$`, "m"),
        );
        await run(["ssh", "set-hciroot", "e1", ""]);
        const unpinned = await tool("ssh_exec", "e1", "hcisitectl");
        assert(unpinned.stdout.endsWith("[ssh_exec: exit rc=1]\n"));
        await sshd.setProfile("plain");
      },
    );

    await t.step(
      "direct mode: one connection per command, banner never in the output; back to the master",
      async () => {
        const d = await run(["ssh", "set-direct", "e1"]);
        assertEquals(d.code, 0, d.all);
        assert(d.stdout.startsWith("closed the master for e1\n"), d.stdout);
        await until(async () => !(await alive(masters[0])), 5000, "the master to exit");
        await sshd.restart({ banner: "Authorized use only. Activity is monitored.\n" });
        match((await run(["ssh", "status", "e1"])).stdout, /^e1 .* direct +- +present/m);
        const before = (await sshd.log()).split("Accepted password").length;
        const r = await tool("ssh_exec", "e1", "hcisitectl >/dev/null; echo ok");
        assertEquals(r.stdout, "ok\n[ssh_exec: exit rc=0]\n");
        assert(!r.all.includes("Authorized use only"));
        const p = await tool("ssh_pull", "e1", "$HCIROOT/server/server.ini");
        assertEquals(p.code, 0, p.all);
        const after = (await sshd.log()).split("Accepted password").length;
        assertEquals(after - before, 2, "each command authenticated with the password on its own connection");
        const check = await run(["ssh", "setup", "e1"]);
        match(check.stdout, /^e1 is in direct mode: connection and password work/);
        const back = await run(["ssh", "set-multiplex", "e1"]);
        assertEquals(back.stdout, "e1 is multiplexed again (open the master with assist ssh setup e1)\n");
        const closed = await tool("ssh_exec", "e1", "true");
        assertEquals([closed.code, closed.stderr], [
          1,
          "assist: ssh_exec: open the master with assist ssh setup e1 first\n",
        ]);
      },
    );

    await t.step("close: the master ends, its socket goes, the tools say to run setup", async () => {
      const setup = await run(["ssh", "setup", "e1"]);
      assertEquals(setup.code, 0, setup.all);
      assert(!setup.stdout.includes("new host key"), "the key is known now");
      masters.push(masterPid(setup.stdout));
      const before = (await sshd.log()).split("Accepted password").length;
      for (let i = 0; i < 3; i++) assertEquals((await tool("ssh_exec", "e1", "true")).code, 0);
      assertEquals((await sshd.log()).split("Accepted password").length, before, "no new authentication");
      const close = await run(["ssh", "close", "e1"]);
      assertEquals([close.code, close.stdout], [0, "closed the master for e1\n"]);
      await until(async () => !(await alive(masters[1])), 5000, "the master to exit");
      await Deno.lstat(`${home}/.ssh-sockets/e1.sock`).then(() => assert(false, "socket left"), () => {});
      for (const name of ["ssh_exec", "ssh_pull", "ssh_push", "ssh_pull_smat"]) {
        const args = name === "ssh_push" ? ["e1", `${home}-tmp/upload.bin`, "/tmp/x"] : ["e1", "/x"];
        const r = await tool(name, ...args);
        assertEquals([r.code, r.stderr], [
          1,
          `assist: ${name}: open the master with assist ssh setup e1 first\n`,
        ]);
      }
      assertEquals((await run(["ssh", "close", "e1"])).stdout, "no master open for e1\n");
      match((await run(["ssh", "status"])).stdout, /^e1 .* multiplex +closed +present/m);
    });

    await t.step("remove: host, credential and socket", async () => {
      const r = await run(["ssh", "remove", "e1"]);
      assertEquals([r.code, r.stdout], [0, "removed e1 (host, credential and socket)\n"]);
      await Deno.stat(`${home}/.ssh-creds/e1`).then(() => assert(false, "credential left"), () => {});
      match((await run(["ssh", "hosts"])).stdout, /^no SSH hosts/);
      const unknown = await tool("ssh_exec", "e1", "true");
      // By hand, the hint names the command line's form.
      match(unknown.stderr, /unknown SSH alias "e1" \(add it with assist ssh add e1 <user@host\[:port\]>\)/);
    });
  } finally {
    for (const pid of masters) killPid(pid);
    const w = await watch.stop();
    await t.step("the password was in no argv, environment, output or file", async () => {
      assertEquals(w.hits, [], "processes with the password in /proc/<pid>/cmdline or environ");
      assert(w.scans > 20, `the watch ran (${w.scans} scans of ${w.pids} processes)`);
      for (const m of masters) assert(w.seen.has(m), `the master ${m} was scanned`);
      const ours = [...seenPids];
      const scanned = ours.filter((p) => w.seen.has(p));
      assert(
        scanned.length >= ours.length / 2,
        `most assist processes were scanned (${scanned.length}/${ours.length})`,
      );
      for (const o of outputs) assert(!o.includes(sshd.password), "an output holds the password");
      assertEquals(await filesContaining(home, sshd.password, [`${home}/.ssh-creds`]), []);
      assertEquals(await filesContaining(`${home}-tmp`, sshd.password), []);
      assert(!(await sshd.log()).includes(sshd.password));
    });
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(`${home}-tmp`, { recursive: true }).catch(() => {});
  }
});
