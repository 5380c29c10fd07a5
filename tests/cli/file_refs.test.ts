import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { decodeText, expandFileRefs, fenceFor, fenceLanguage, findFileRefs } from "../../cli/file_refs.ts";
import { READ_LIMIT_BYTES } from "../../tools/files/read_limited.ts";
import { tempDir } from "../support/run_assist.ts";
import { createPhiEngine } from "../../phi/mod.ts";
import { testConfig } from "../phi/_support.ts";

async function workspace(root: string) {
  const home = `${root}/.assist`;
  const work = `${root}/work`;
  for (const d of [home, `${home}/log`, `${home}/sanitize`, work, `${work}/sub dir`, `${work}/folder`]) {
    await Deno.mkdir(d, { recursive: true });
  }
  await Deno.writeTextFile(`${home}/log/auto-phi.log`, "secret log\n");
  await Deno.writeTextFile(`${home}/.oauth.json`, "{}\n");
  await Deno.writeTextFile(`${work}/adt.hl7`, "MSH|^~\\&|A|B\rPID|1||123\r");
  await Deno.writeTextFile(`${work}/proc.tcl`, "proc x {} { return 1 }\n");
  await Deno.writeTextFile(`${work}/cfg.json`, '{"a": 1}');
  await Deno.writeTextFile(`${work}/NetConfig`, "protocol ADT_IN {}\n");
  await Deno.writeTextFile(`${work}/sub dir/my notes.txt`, "spaced\n");
  await Deno.writeFile(`${work}/blob.bin`, new Uint8Array([77, 90, 0, 1, 2, 3]));
  return { home, work };
}

Deno.test("findFileRefs: both forms, e-mail addresses and PHI markers are not references", () => {
  const refs = findFileRefs(
    "see @a.txt, @{sub dir/my notes.txt} and @x; mail me@host.org, @@QUIGLEY @@ROS ALIND@@ {x}@",
  );
  assertEquals(refs.map((r) => [r.raw, r.path, r.braced]), [
    ["@a.txt,", "a.txt,", false],
    ["@{sub dir/my notes.txt}", "sub dir/my notes.txt", true],
    ["@x;", "x;", false],
  ]);
  assertEquals(findFileRefs("@{unclosed path"), []);
  assertEquals(findFileRefs("@ alone, @{}"), []);
  assertEquals(findFileRefs("@first")[0].start, 0);
});

Deno.test("fences: keyed by extension, plain when unknown, longer than any backtick run inside", () => {
  assertEquals(fenceLanguage("x/ADT.HL7"), "hl7");
  assertEquals(fenceLanguage("a.tcl"), "tcl");
  assertEquals(fenceLanguage("a.json"), "json");
  assertEquals(fenceLanguage("NetConfig"), "");
  assertEquals(fenceLanguage(".bashrc"), "");
  assertEquals(fenceLanguage("a.weird"), "");
  assertEquals(fenceFor("no ticks"), "```");
  assertEquals(fenceFor("a ``` b ````` c"), "``````");
});

Deno.test("decodeText: UTF-8 when valid, else Windows-1252 keeping every byte", () => {
  assertEquals(decodeText(new TextEncoder().encode("Zoë")), { text: "Zoë", notes: [] });
  const d = decodeText(new Uint8Array([0x5a, 0x6f, 0xeb, 0x20, 0x80, 0x81]));
  assertEquals(d, { text: "Zo\u00eb \u20ac\u0081", notes: ["not valid UTF-8; read as Windows-1252"] });
});

Deno.test("expandFileRefs: files appended as fenced blocks; the prompt text stays as typed", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  const prompt = "compare @adt.hl7 with @proc.tcl, @cfg.json, @NetConfig and @{sub dir/my notes.txt}";
  const r = await expandFileRefs(prompt, { cwd: work, home });
  assertEquals(r.warnings, []);
  assert(r.tip);
  assert(r.text.startsWith(`${prompt}\n\n`));
  assertEquals(r.files.map((f) => f.path), [
    `${work}/adt.hl7`,
    `${work}/proc.tcl`,
    `${work}/cfg.json`,
    `${work}/NetConfig`,
    `${work}/sub dir/my notes.txt`,
  ]);
  assertEquals(r.files[2], { path: `${work}/cfg.json`, bytes: 8, truncated: false });
  match(
    r.text,
    /File @adt\.hl7 \(.*adt\.hl7, 24 bytes\):\n```hl7 assist-attached-file\nMSH\|\^~\\&\|A\|B\rPID\|1\|\|123\r\n```\n/,
  );
  match(r.text, /```tcl assist-attached-file\nproc x \{\} \{ return 1 \}\n```\n/);
  match(r.text, /```json assist-attached-file\n\{"a": 1\}\n```\n/);
  match(r.text, /File @NetConfig \(.*\):\n``` assist-attached-file\nprotocol ADT_IN \{\}\n```\n/);
  match(r.text, /File @\{sub dir\/my notes\.txt\} \(.*\):\n``` assist-attached-file\nspaced\n```\n$/);
});

Deno.test("expandFileRefs: missing, folder, binary, protected are skipped with a warning and left literal", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  const prompt = `look at @nope.txt @folder @blob.bin @${home}/log/auto-phi.log @../.assist/.oauth.json`;
  const r = await expandFileRefs(prompt, { cwd: work, home });
  assertEquals(r.text, prompt);
  assertEquals(r.files, []);
  assert(r.tip);
  assertEquals(r.warnings.length, 5, r.warnings.join("\n"));
  match(r.warnings[0], /^@nope\.txt: no such file; left as typed$/);
  match(r.warnings[1], /^@folder: folder is a folder; skipped/);
  match(r.warnings[2], /^@blob\.bin: blob\.bin is a binary file \(6 bytes\); skipped$/);
  match(r.warnings[3], /refused: .*auto-phi\.log is inside the protected log\/ of \$ASSIST_HOME/);
  match(r.warnings[4], /refused: \.\.\/\.assist\/\.oauth\.json is inside the protected \.oauth\.json/);
  assert(!r.text.includes("secret log"));
});

Deno.test("expandFileRefs: de-duplicated by real path; trailing punctuation; ~ and relative paths", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  await Deno.symlink(`${work}/cfg.json`, `${work}/link.json`);
  const r = await expandFileRefs(
    "@cfg.json then @./cfg.json, @link.json and @~/work/cfg.json. Also @nope @nope",
    { cwd: work, home, userHome: tmp.path },
  );
  assertEquals(r.files.length, 1);
  assertEquals((r.text.match(/```json/g) ?? []).length, 1);
  assertEquals(r.warnings, ["@nope: no such file; left as typed"]);
  const sub = await expandFileRefs("@../proc.tcl.", { cwd: `${work}/folder`, home });
  assertEquals(sub.files.map((f) => f.path), [`${work}/proc.tcl`]);
  match(sub.text, /^@\.\.\/proc\.tcl\.\n\nFile @\.\.\/proc\.tcl \(/);
});

Deno.test("expandFileRefs: over 250 KB is cut with read_file's footer", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  await Deno.writeTextFile(`${work}/big.log`, ("y".repeat(99) + "\n").repeat(5000));
  const r = await expandFileRefs("@big.log", { cwd: work, home });
  assertEquals(r.files, [{ path: `${work}/big.log`, bytes: 256000, truncated: true }]);
  assert(r.files[0].bytes <= READ_LIMIT_BYTES);
  match(
    r.text,
    /\n\[@file: truncated at 250 KB of 500000 bytes; lines 1-2560 shown; continue with read_file start_line 2561\]\n```\n$/,
  );
  match(r.warnings[0], /^@big\.log: larger than 250 KB; cut with a footer note$/);
});

Deno.test("expandFileRefs: Windows-1252 content is kept byte for byte with a warning; backticks get a longer fence", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  await Deno.writeFile(`${work}/legacy.txt`, new Uint8Array([0x4e, 0xe9, 0x65, 0x0a, 0x80, 0x0a]));
  await Deno.writeTextFile(`${work}/doc.md`, "text\n```tcl\ncode\n```\n");
  const r = await expandFileRefs("@legacy.txt @doc.md", { cwd: work, home });
  assertEquals(r.warnings, ["@legacy.txt: not valid UTF-8; read as Windows-1252"]);
  assert(r.text.includes("``` assist-attached-file\nNée\n€\n```\n"));
  assert(r.text.includes("````markdown assist-attached-file\ntext\n```tcl\ncode\n```\n````\n"));
});

Deno.test("expandFileRefs: an HL7 file is read in the set its MSH-18 declares; a UTF-8 mark is left out", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  const head = new TextEncoder().encode("MSH|^~\\&|A|B|||||ADT^A01|1|P|2.5|||||NLD|8859/15\rNTE|1||12 ");
  // 0xA4 is the euro sign in ISO-8859-15 (Windows-1252 would read it as a currency sign).
  await Deno.writeFile(`${work}/eur.hl7`, new Uint8Array([...head, 0xa4, 0x0d]));
  await Deno.writeFile(`${work}/bom.txt`, new Uint8Array([0xef, 0xbb, 0xbf, 0x5a, 0x6f, 0xc3, 0xab, 0x0a]));
  const r = await expandFileRefs("@eur.hl7 @bom.txt", { cwd: work, home });
  assertEquals(r.warnings, []);
  assert(r.text.includes("NTE|1||12 €\r"));
  assert(r.text.includes("``` assist-attached-file\nZoë\n```\n"));
});

Deno.test("expandFileRefs: a prompt without references is returned as is, tip false", async () => {
  await using tmp = await tempDir();
  const r = await expandFileRefs("write to ops@example.org about @@SMITH", { cwd: tmp.path, home: tmp.path });
  assertEquals(r, { text: "write to ops@example.org about @@SMITH", files: [], warnings: [], tip: false });
});

Deno.test("@file content passes the PHI gate: neither the attachment fence nor a fence in the file shields it; operator code fences still do", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  await Deno.writeTextFile(
    `${work}/notes.txt`,
    "Caller SSN 512-44-9087, email jane.doe@example.org, MRN 55120987, phone (570) 555-0142.\n",
  );
  await Deno.writeTextFile(
    `${work}/runbook.md`,
    "Steps:\n```sh\nMRN 44556677 stays as written here\n```\nMRN 99887766\n",
  );
  const r = await expandFileRefs("summarize @notes.txt and @runbook.md", { cwd: work, home });
  const phi = await createPhiEngine({ config: testConfig(home) });
  const out = await phi.tokenizeUserInput(r.text);
  for (const raw of ["512-44-9087", "jane.doe@example.org", "55120987", "555-0142", "99887766", "44556677"]) {
    assert(!out.text.includes(raw), `raw value in an attachment reached the model: ${raw}`);
  }
  // A fence inside the attached file is file content, not code the operator typed (issue #14):
  // its values are tokenized, as they are in read_file's result.
  assert(out.text.includes("stays as written here"));
  // A fence the operator typed protects its code too.
  const typed = await phi.tokenizeUserInput("run this:\n```\nMRN 12345678\n```\n");
  assert(typed.text.includes("MRN 12345678"));
});

Deno.test("@file: a stray fence in one file or in the prompt never shields the next attachment", async () => {
  await using tmp = await tempDir();
  const { home, work } = await workspace(tmp.path);
  await Deno.writeTextFile(`${work}/a.md`, "half a snippet:\n```\nhcicmd -p adt_in\n");
  await Deno.writeTextFile(`${work}/b.txt`, "SSN 512-44-9087, jane.doe@example.org, MRN 55120987\n");
  const phi = await createPhiEngine({ config: testConfig(home) });
  const raws = ["512-44-9087", "jane.doe@example.org", "55120987"];
  for (
    const prompt of [
      "look at @a.md and @b.txt",
      "why does this fail\n```\nhcicmd -p adt_in\n\nsee @b.txt",
      "look at @b.txt and @a.md", // the stray fence last: b.txt is before it
    ]
  ) {
    const r = await expandFileRefs(prompt, { cwd: work, home });
    const out = await phi.tokenizeUserInput(r.text);
    for (const raw of raws) assert(!out.text.includes(raw), `${raw} reached the model for: ${prompt}`);
  }
});
