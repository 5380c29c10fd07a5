/**
 * The engine tools on a remote engine host, against a real sshd whose user's home holds the engine
 * tests' synthetic root: `list_sites <alias>` and `nc_* --alias` give exactly what the same tools
 * give on that root locally (the root is a local path too, so the two can be compared byte for
 * byte); pulled archives are cached by size and mtime; the root comes from the login shell, the pin
 * or --hciroot; a sudo-gated profile without a pin, a closed master and direct mode behave.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { Sshd } from "../support/sshd.ts";
import { assist, envFor, killPid, masterPid, SecretWatch } from "./_support.ts";

Deno.test("engine tools on a remote engine host over SSH equal the same tools run locally", async (t) => {
  await using sshd = await Sshd.start();
  const watch = new SecretWatch(sshd.password);
  const home = await Deno.makeTempDir({ prefix: "assist-ssh-engine-" });
  const env = envFor(home);
  const root = sshd.hciroot;
  const masters: number[] = [];
  const outputs: string[] = [];
  const run = async (args: string[], stdin?: string, extra: Record<string, string> = {}) => {
    const r = await assist(args, { ...env, ...extra }, stdin);
    outputs.push(r.all);
    return r;
  };
  // The same tool locally: the root by HCIROOT, HCISITE as the host's login profile sets it.
  const local = (args: string[]) => run(["tools", ...args], undefined, { HCIROOT: root, HCISITE: "adt" });
  try {
    await run(["ssh", "add", "e1", sshd.target]);
    await run(["ssh", "pass", "e1"], sshd.password + "\n");
    const setup = await run(["ssh", "setup", "e1"]);
    assertEquals(setup.code, 0, setup.all);
    masters.push(masterPid(setup.stdout));

    const cases: Array<[string, string[]]> = [
      ["list_sites", []],
      ["list_sites", ["--format", "json"]],
      ["nc_threads", ["adt"]],
      ["nc_threads", []], // every site (no site named)
      ["nc_show", ["adt", "adt_in"]],
      ["nc_routes", ["adt", "adt_in"]],
      ["nc_paths", ["adt", "adt_in"]],
      ["nc_revisions", ["adt_in.adt"]],
      ["nc_refs", ["--proc", "tps_add_zpi"]],
      ["nc_msgs", ["adt", "adt_in"]],
      ["nc_msgs", ["lab", "lab_in"]],
      ["nc_docs", ["lab"]],
    ];
    for (const [tool, args] of cases) {
      await t.step(`${tool} ${args.join(" ")}`, async () => {
        const here = await local([tool, ...args]);
        const there = tool === "list_sites"
          ? await run(["tools", tool, "e1", ...args])
          : await run(["tools", tool, ...args, "--alias", "e1"]);
        assertEquals(there.code, here.code, there.all);
        assertEquals(there.stdout, here.stdout);
        assertEquals(there.stderr, here.stderr);
        assert(here.code !== 0 || here.stdout.trim() !== "", "the local run produced something");
      });
    }

    await t.step(
      "nc_diff_interface across environments: this machine against the host (--to-alias)",
      async () => {
        const same = await local(["nc_diff_interface", "adt_in", "--site", "adt", "--to-alias", "e1"]);
        assertEquals(same.code, 0, same.all);
        match(same.stdout, /no differences/i);
        match(same.stdout, new RegExp(`e1:${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
        const other = await local([
          "nc_diff_interface",
          "adt_in",
          "lab_out",
          "--site",
          "adt",
          "--to-alias",
          "e1",
        ]);
        assertEquals(other.code, 0, other.all);
        assert(/^[~+-] /m.test(other.stdout), other.stdout);
      },
    );

    await t.step("an archive pulled for the SQLite reader is reused while unchanged", async () => {
      const dir = `${env.TMPDIR}/assist-pulls`;
      const copies = () =>
        [...Deno.readDirSync(dir)].filter((e) => /^e1\.adt_in\.[0-9a-f]{16}\.smatdb$/.test(e.name)).map((e) =>
          e.name
        );
      assertEquals(copies().length, 1);
      const path = `${dir}/${copies()[0]}`;
      const before = await Deno.stat(path);
      await run(["tools", "nc_msgs", "adt", "adt_in", "--alias", "e1"]);
      const after = await Deno.stat(path);
      assertEquals(after.ino, before.ino, "not pulled again");
      // A changed archive (new size and time) is pulled again.
      const remote = `${root}/adt/exec/processes/adt_proc/adt_in.smatdb`;
      await Deno.writeFile(remote, new Uint8Array(4096), { append: true });
      await Deno.utime(remote, new Date(), new Date(Date.now() + 5000));
      await run(["tools", "nc_msgs", "adt", "adt_in", "--alias", "e1"]);
      const changed = await Deno.stat(path);
      assert(changed.ino !== before.ino && changed.size === before.size + 4096, "pulled again");
    });

    await t.step("bare dates mean the engine host's zone: its login TZ", async () => {
      const profile = `${sshd.home}/.bash_profile`;
      const plain = await Deno.readTextFile(profile);
      await Deno.writeTextFile(profile, plain + "TZ=America/Chicago; export TZ\n");
      try {
        // lab_in's messages are 08:30Z + 5 min steps: 02:40-03:00 Chicago is 08:40Z-09:00Z.
        const r = await run([
          "tools",
          "nc_msgs",
          "lab",
          "--since",
          "2024-11-20T02:40",
          "--until",
          "2024-11-20T03:00",
          "--alias",
          "e1",
        ]);
        assertEquals(r.code, 0, r.all);
        assertEquals(r.stdout.match(/^2024-11-20T0[23]:\d\d:00-06:00 /gm)?.length, 5, r.stdout);
        match(
          r.stdout,
          /since 2024-11-20T02:40:00-06:00 \(2024-11-20T08:40:00Z\).*times in America\/Chicago \(the engine host's TZ\)/,
        );
      } finally {
        await Deno.writeTextFile(profile, plain);
      }
    });

    await t.step("the root: --hciroot wins; a sudo-gated profile needs the pin", async () => {
      const given = await run(["tools", "list_sites", "e1", "--hciroot", `${root}/adt`, "--format", "tsv"]);
      // A site folder given as the root: no engine root, and the operator is told so.
      assertEquals(given.code, 2, given.all);
      match(given.stderr, /adt is no engine root: .*it is a site folder/);
      await sshd.setProfile("sudo-gated");
      const gated = await run(["tools", "list_sites", "e1"]);
      assertEquals(gated.code, 2);
      assertEquals(
        gated.stderr,
        "assist: list_sites: no engine root on e1: its login shell sets no HCIROOT; pass --hciroot <path> or pin " +
          "one with assist ssh set-hciroot e1 <path>\n",
      );
      await run(["ssh", "set-hciroot", "e1", root]);
      const pinned = await run(["tools", "list_sites", "e1", "--format", "tsv"]);
      assertEquals(pinned.code, 0, pinned.all);
      assertEquals(pinned.stdout.trim().split("\n").length, 5);
      await run(["ssh", "set-hciroot", "e1", ""]);
      await sshd.setProfile("plain");
    });

    await t.step("direct mode works the same; a closed master says to run setup", async () => {
      await run(["ssh", "set-direct", "e1"]);
      const direct = await run(["tools", "nc_threads", "adt", "--alias", "e1"]);
      assertEquals(direct.stdout, (await local(["nc_threads", "adt"])).stdout);
      await run(["ssh", "set-multiplex", "e1"]);
      for (const args of [["list_sites", "e1"], ["nc_threads", "adt", "--alias", "e1"]]) {
        const r = await run(["tools", ...args]);
        assertEquals([r.code, r.stderr], [
          1,
          `assist: ${args[0]}: open the master with assist ssh setup e1 first\n`,
        ]);
      }
      const unknown = await run(["tools", "list_sites", "nope"]);
      match(unknown.stderr, /unknown SSH alias "nope"/);
    });
  } finally {
    for (const pid of masters) killPid(pid);
    const w = await watch.stop();
    await t.step("the password was in no argv, environment or output", () => {
      assertEquals(w.hits, []);
      for (const o of outputs) assert(!o.includes(sshd.password));
    });
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(`${home}-tmp`, { recursive: true }).catch(() => {});
  }
});
