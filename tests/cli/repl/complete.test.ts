import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createCompleter, matchCommands, subsequenceAlongWords } from "../../../cli/repl/complete.ts";
import { tempDir } from "../../support/run_assist.ts";

const COMMANDS = [
  "help",
  "quit",
  "show-last-tool",
  "ssh",
  "ssh-add",
  "ssh-close",
  "ssh-hosts",
  "ssh-pass",
  "ssh-remove",
  "ssh-set-direct",
  "ssh-set-hciroot",
  "ssh-setup",
  "ssh-status",
  "status",
  "sites",
].map((name) => ({ name, summary: `summary of ${name}` }));

const values = (r: { candidates: { value: string }[] }) => r.candidates.map((c) => c.value);

async function workspace(root: string) {
  const home = `${root}/.assist`;
  const work = `${root}/work`;
  for (const d of [`${home}/log`, `${home}/sessions`, `${work}/sub dir`, `${work}/siteA/tclprocs`]) {
    await Deno.mkdir(d, { recursive: true });
  }
  await Deno.writeTextFile(`${home}/.oauth.json`, "{}");
  await Deno.writeTextFile(`${home}/.history`, "");
  await Deno.writeTextFile(`${home}/log/headers.log`, "");
  for (const f of ["adt.hl7", "adt2.hl7", ".hidden", "sub dir/my notes.txt", "siteA/NetConfig"]) {
    await Deno.writeTextFile(`${work}/${f}`, "x");
  }
  await Deno.symlink(`${home}/log`, `${work}/logs`);
  return { home, work };
}

Deno.test("matchCommands: exact wins, then prefix, then subsequence along word starts, then any subsequence", () => {
  const names = (t: string) => matchCommands(t, COMMANDS).map((c) => c.name);
  assertEquals(names("ssh"), ["ssh"]);
  assertEquals(names("ss"), [
    "ssh",
    "ssh-add",
    "ssh-close",
    "ssh-hosts",
    "ssh-pass",
    "ssh-remove",
    "ssh-set-direct",
    "ssh-set-hciroot",
    "ssh-setup",
    "ssh-status",
  ]);
  assertEquals(names("ssh-s"), ["ssh-set-direct", "ssh-set-hciroot", "ssh-setup", "ssh-status"]);
  assertEquals(names("shl"), ["show-last-tool"]);
  assertEquals(names("ssd"), ["ssh-set-direct"]);
  assertEquals(names("qt"), ["quit"]);
  assertEquals(names("xyz"), []);
  assertEquals(names("").length, COMMANDS.length);
  assert(subsequenceAlongWords("sst", "ssh-status"));
  assert(!subsequenceAlongWords("shl", "ssh-close"));
});

Deno.test("slash commands at the start of the line, with their summaries", async () => {
  const complete = createCompleter({ commands: () => COMMANDS, cwd: "/" });
  const r = await complete("/shl", 4);
  assertEquals(r, {
    start: 0,
    end: 4,
    candidates: [{ value: "/show-last-tool", description: "summary of show-last-tool" }],
    appendSpace: true,
  });
  const ssh = await complete("/ssh", 4);
  assertEquals(values(ssh), ["/ssh"]);
  const ss = await complete("  /ss", 5);
  assertEquals(ss.start, 2);
  assertEquals(ss.candidates.length, 10);
  assertEquals(ss.appendSpace, false);
  // Not at the start of the line: no command completion.
  assertEquals(values(await complete("see /ss", 7)), []);
  // The cursor decides the word: completing in the middle of a line.
  const mid = await complete("/qu and more", 3);
  assertEquals([mid.start, mid.end, values(mid)], [0, 3, ["/quit"]]);
});

Deno.test("HL7 words anywhere: segments, fields, components; Z-segments get the site-specific hint", async () => {
  const complete = createCompleter({ commands: () => COMMANDS, cwd: "/" });
  const ob = await complete("why does OB", 11);
  assertEquals([ob.start, ob.end, values(ob)], [9, 11, ["OBR", "OBX"]]);
  assertEquals(ob.candidates[1].description, "Observation/Result");
  const pid5 = await complete("check (PID.5", 12);
  assertEquals([pid5.start, values(pid5)], [7, ["PID.5"]]);
  assertEquals(pid5.candidates[0].description, "Patient Name (XPN)");
  const msh9 = await complete("MSH.9.", 6);
  assertEquals(values(msh9), ["MSH.9.1", "MSH.9.2", "MSH.9.3"]);
  const z = await complete("what is ZPI", 11);
  assertEquals(values(z), ["ZPI"]);
  assert(/site-specific/.test(z.candidates[0].description!));
  assertEquals(values(await complete("hello there", 11)), []);
  assertEquals(values(await complete("trailing ", 9)), []);
});

Deno.test("@path: relative to cwd, folders end in /, spaces switch to @{...}, hidden only when asked", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  const complete = createCompleter({ commands: () => COMMANDS, cwd: work, home, userHome: tmp.path });
  const adt = await complete("summarize @ad", 13);
  assertEquals([adt.start, adt.end, values(adt)], [10, 13, ["@adt.hl7", "@adt2.hl7"]]);
  const all = await complete("@", 1);
  assertEquals(values(all), ["@adt.hl7", "@adt2.hl7", "@siteA/", "@{sub dir/"]);
  assertEquals(all.candidates[2].description, "folder");
  assertEquals(values(await complete("@.h", 3)), ["@.hidden"]);
  const inside = await complete("@siteA/", 7);
  assertEquals(values(inside), ["@siteA/NetConfig", "@siteA/tclprocs/"]);
  const net = await complete("@siteA/N", 8);
  assertEquals(net.appendSpace, true);
  const spaced = await complete("read @{sub dir/my", 17);
  assertEquals([spaced.start, values(spaced), spaced.appendSpace], [5, ["@{sub dir/my notes.txt}"], true]);
  const tilde = await complete("@~/work/si", 10);
  assertEquals(values(tilde), ["@~/work/siteA/"]);
  assertEquals(values(await complete("mail a@b", 8)), []);
  assertEquals(values(await complete("@@SMI", 5)), []);
  assertEquals(values(await complete("@nowhere/x", 10)), []);
});

Deno.test("@path never lists the protected places of $ASSIST_HOME, nor inside them", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  const complete = createCompleter({ commands: () => COMMANDS, cwd: work, home, userHome: tmp.path });
  assertEquals(values(await complete(`@${home}/`, home.length + 2)), []);
  assertEquals(values(await complete(`@${home}/.`, home.length + 3)), [`@${home}/.history`]);
  assertEquals(values(await complete(`@${home}/log/`, home.length + 6)), []);
  assertEquals(values(await complete("@logs/", 6)), []);
  assertEquals(values(await complete("@lo", 3)), []);
  assertEquals(values(await complete("@../.assist/s", 13)), []);
});
