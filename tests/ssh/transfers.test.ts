/**
 * What an operator does with pulled and pushed files (issue 17, items 6 and 7), against a real sshd
 * on loopback: ssh_pull and ssh_push to a folder write inside it; a pulled SMAT archive (whole, or
 * its sampled TSV) is read by nc_msgs, hl7_show and hl7_field, and the pull names the next command;
 * errors name the target, never a temporary file.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { Sshd } from "../support/sshd.ts";
import { assist, envFor, killPid, masterPid } from "./_support.ts";
import { withoutTempNames } from "../../tools/ssh/run/_remote.ts";
import { sshPullSmatTool } from "../../tools/ssh/ssh_pull_smat_tool.ts";
import { call, contextFor } from "../tools/support.ts";

Deno.test("pulls and pushes into folders; pulled SMAT archives and samples read by the tools", async (t) => {
  await using sshd = await Sshd.start();
  const home = await Deno.makeTempDir({ prefix: "assist-ssh-transfers-" });
  const env = envFor(home);
  const root = sshd.hciroot;
  const masters: number[] = [];
  const tool = (...args: string[]) => assist(["tools", ...args], env);
  try {
    await assist(["ssh", "add", "e1", sshd.target], env);
    await assist(["ssh", "pass", "e1"], env, sshd.password + "\n");
    const setup = await assist(["ssh", "setup", "e1"], env);
    assertEquals(setup.code, 0, setup.all);
    masters.push(masterPid(setup.stdout));
    const work = `${home}-tmp/work`;
    await Deno.mkdir(work, { recursive: true });

    await t.step("ssh_pull to a path ending in / creates the folder and writes inside it", async () => {
      const r = await tool("ssh_pull", "e1", "$HCIROOT/adt/NetConfig", `${work}/new/`);
      assertEquals(r.code, 0, r.all);
      assertEquals(r.stdout.split("\n")[0], `${work}/new/NetConfig`);
      assertEquals(
        await Deno.readTextFile(`${work}/new/NetConfig`),
        await Deno.readTextFile(`${root}/adt/NetConfig`),
      );
      // Into the existing folder again: the same name inside it, nothing beside it.
      const again = await tool("ssh_pull", "e1", "$HCIROOT/adt/siteInfo", `${work}/new`);
      assertEquals(again.stdout.split("\n")[0], `${work}/new/siteInfo`);
      assertEquals([...Deno.readDirSync(`${work}/new`)].map((e) => e.name).sort(), ["NetConfig", "siteInfo"]);
    });

    await t.step("ssh_push to a remote folder (existing, or ending in /) writes inside it", async () => {
      const local = `${work}/upload.hl7`;
      await Deno.writeTextFile(local, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\r");
      // The folder is the engine host user's own.
      assertEquals((await tool("ssh_exec", "e1", "mkdir inbox")).code, 0);
      const r = await tool("ssh_push", "e1", local, "~/inbox");
      assertEquals(
        [r.code, r.stdout],
        [0, "pushed 43 bytes to e1:inbox/upload.hl7 (byte count verified)\n"],
        r.all,
      );
      assertEquals(await Deno.readTextFile(`${sshd.home}/inbox/upload.hl7`), await Deno.readTextFile(local));
      const slash = await tool("ssh_push", "e1", local, `${sshd.home}/inbox/`);
      assertEquals(slash.code, 0, slash.all);
      match(slash.stdout, /to e1:.*\/inbox\/upload\.hl7 /);
      const leftovers = [...Deno.readDirSync(`${sshd.home}/inbox`)].map((e) => e.name);
      assertEquals(leftovers, ["upload.hl7"]);
      const missing = await tool("ssh_push", "e1", local, "/no/such/dir/");
      assertEquals(missing.code, 1);
      match(missing.stderr, /no such folder on e1 for \/no\/such\/dir\/upload\.hl7\n$/);
      assert(!missing.stderr.includes("assist-part"), missing.stderr);
    });

    await t.step(
      "a whole SMAT archive: cached with its extension, read by nc_msgs, hl7_show, hl7_field",
      async () => {
        const r = await tool("ssh_pull_smat", "e1", "adt_in");
        assertEquals(r.code, 0, r.all);
        const lines = r.stdout.trimEnd().split("\n");
        const copy = lines[1].replace(/^local: /, "");
        match(copy, /\/assist-pulls\/e1\.adt_in\.[0-9a-f]{16}\.smatdb$/);
        assertEquals(lines[3], `next: assist tools nc_msgs --file ${copy} (or hl7_show, hl7_field on it)`);
        const msgs = await tool("nc_msgs", "--file", copy, "--limit", "50");
        assertEquals(msgs.code, 0, msgs.all);
        const count = Number(msgs.stdout.match(/\[nc_msgs: (\d+) messages? from /)![1]);
        assert(count > 0);
        const show = await tool("hl7_show", copy);
        assertEquals(show.code, 0, show.all);
        match(show.stdout, /MSH/);
        const field = await tool("hl7_field", copy, "MSH.10");
        assertEquals(field.code, 0, field.all);
        assertEquals(field.stdout.trimEnd().split("\n").length, count + 1);
        // The same archive under a name without an extension is recognised by its content.
        await Deno.copyFile(copy, `${work}/archive`);
        const contents = async (file: string) => {
          const j = await tool("nc_msgs", "--file", file, "--limit", "50", "--output", "json");
          assertEquals(j.code, 0, j.all);
          return JSON.parse(j.stdout).messages.map((m: { content: string }) => m.content);
        };
        assertEquals(await contents(`${work}/archive`), await contents(copy));
        const renamedField = await tool("hl7_field", `${work}/archive`, "MSH.10");
        assertEquals(renamedField.stdout, field.stdout);
      },
    );

    await t.step("for the model the next step is a tool call in JSON, not `assist tools`", async () => {
      const ctx = { ...contextFor(home, work), caller: "model" as const };
      const dest = `${work}/for_model.smatdb`;
      const r = await call(sshPullSmatTool, { alias: "e1", smatdb: "adt_in", local_path: dest }, ctx);
      assertEquals(r.isError, undefined, r.text);
      const lines = r.text.split("\n");
      assertEquals(lines[1], `local: ${dest}`);
      assertEquals(lines[3], `next: nc_msgs {"file":${JSON.stringify(dest)}} (or hl7_show, hl7_field on it)`);
      assert(!r.text.includes("assist tools"), r.text);
    });

    await t.step(
      "a sampled TSV: read by nc_msgs, hl7_show and hl7_field; the pull names the next command",
      async () => {
        const r = await tool("ssh_pull_smat", "e1", "adt_recent", "--days-back", "7");
        assertEquals(r.code, 0, r.all);
        const lines = r.stdout.trimEnd().split("\n");
        const tsv = lines[3].replace(/^tsv: /, "");
        const n = Number(lines[2].match(/^messages: (\d+) /)![1]);
        assertEquals(lines[5], `next: assist tools nc_msgs --file ${tsv} (or hl7_show, hl7_field on it)`);
        const msgs = await tool("nc_msgs", "--file", tsv, "--limit", "5");
        assertEquals(msgs.code, 0, msgs.all);
        match(msgs.stdout, /\[nc_msgs: 5 messages from .*\.tsv, newest first/);
        const field = await tool("hl7_field", tsv, "MSH.9");
        assertEquals(field.code, 0, field.all);
        assertEquals(field.stdout.trimEnd().split("\n").length, n + 1);
        assert(
          field.stdout.split("\n").slice(1, -1).every((l) => l === "ADT^A08"),
          field.stdout.slice(0, 200),
        );
        const show = await tool("hl7_show", tsv, "--message", "1");
        assertEquals(show.code, 0, show.all);
      },
    );
  } finally {
    for (const pid of masters) killPid(pid);
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(`${home}-tmp`, { recursive: true }).catch(() => {});
  }
});

Deno.test("transfer errors name the target, never the temporary name beside it", () => {
  assertEquals(
    withoutTempNames(
      "unexpected error: Is a directory (os error 21): rename '/x/a.db.part-0a1b2c3d' -> '/x/a.db'",
    ),
    "unexpected error: Is a directory (os error 21): rename '/x/a.db' -> '/x/a.db'",
  );
  assertEquals(
    withoutTempNames("permission denied on e1: /opt/in/.file.hl7.assist-part-deadbeef"),
    "permission denied on e1: /opt/in/file.hl7",
  );
  assertEquals(withoutTempNames("no such file on e1: /a/b.part-x"), "no such file on e1: /a/b.part-x");
});
