import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { readFileTool } from "../../../tools/files/read_file_tool.ts";
import { READ_LIMIT_BYTES } from "../../../tools/files/read_limited.ts";
import { grepFilesTool } from "../../../tools/files/grep_files_tool.ts";
import { boundedPattern, splitLines } from "../../../tools/files/match_lines.ts";
import { globFilesTool } from "../../../tools/files/glob_files_tool.ts";
import { listDirTool } from "../../../tools/files/list_dir_tool.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor, errorOf } from "../support.ts";

async function workspace(root: string) {
  const home = `${root}/home/.assist`;
  for (const d of ["log", "sanitize", "sessions", "logbook", ".ssh-creds"]) {
    await Deno.mkdir(`${home}/${d}`, { recursive: true });
  }
  await Deno.writeTextFile(`${home}/log/auto-phi.log`, '{"value":"SMITH^JOHN"}\n');
  await Deno.writeTextFile(`${home}/sanitize/lookup.tsv`, "[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n");
  await Deno.writeTextFile(`${home}/sessions/s1.log.md`, "SMITH^JOHN was here\n");
  await Deno.writeTextFile(`${home}/.oauth.json`, '{"access_token":"SMITH^JOHN"}');
  await Deno.writeTextFile(`${home}/.env`, "X=SMITH^JOHN\n");
  await Deno.writeTextFile(`${home}/.ssh-creds/prod`, "SMITH^JOHN\n");
  await Deno.writeTextFile(`${home}/logbook/ok.txt`, "SMITH^JOHN in the logbook\n");
  await Deno.writeTextFile(`${home}/.history`, "SMITH^JOHN history\n");
  await Deno.mkdir(`${root}/work/sub`, { recursive: true });
  await Deno.writeTextFile(`${root}/work/a.txt`, "alpha\nSMITH^JOHN work\n");
  await Deno.writeTextFile(`${root}/work/sub/b.tcl`, "proc x {} {}\n");
  await Deno.writeFile(`${root}/work/bin.dat`, new Uint8Array([83, 77, 73, 84, 72, 0, 1, 2]));
  await Deno.symlink(`${home}/log`, `${root}/work/logs-link`);
  await Deno.symlink(`${home}/sanitize/lookup.tsv`, `${root}/work/table.tsv`);
  return { home, ctx: contextFor(home, `${root}/work`) };
}

Deno.test("read_file: truncation at 250 KB with a continuation footer that works", async () => {
  await using tmp = await tempDir();
  const { ctx } = await workspace(tmp.path);
  const line = "x".repeat(99) + "\n";
  await Deno.writeTextFile(`${tmp.path}/work/big.txt`, line.repeat(5000)); // 500 KB
  const r = await call(readFileTool, { path: "big.txt" }, ctx);
  const footer = r.text.slice(r.text.lastIndexOf("\n") + 1);
  match(
    footer,
    /^\[read_file: truncated at 250 KB of 500000 bytes; lines 1-2560 shown; continue with start_line 2561\]$/,
  );
  assert(r.text.length - footer.length <= READ_LIMIT_BYTES);
  assertEquals(r.text.split("\n").length, 2561);
  const next = await call(readFileTool, { path: "big.txt", start_line: 2561 }, ctx);
  assertEquals(next.text, line.repeat(5000 - 2560));
  const tail = await call(readFileTool, { path: "big.txt", start_line: 4999, end_line: 5000 }, ctx);
  assertEquals(tail.text, line + line);
});

Deno.test("read_file: a cut never splits a UTF-8 character", async () => {
  await using tmp = await tempDir();
  const { ctx } = await workspace(tmp.path);
  await Deno.writeTextFile(`${tmp.path}/work/u.txt`, "é".repeat(READ_LIMIT_BYTES)); // one long line, 2 bytes each
  const r = await call(readFileTool, { path: "u.txt" }, ctx);
  assert(!r.text.includes("\uFFFD"));
  match(r.text, /line 1 alone is longer than 250 KB/);
});

Deno.test("read_file: binary, folder, missing, bad range are structured errors", async () => {
  await using tmp = await tempDir();
  const { ctx } = await workspace(tmp.path);
  assertEquals(errorOf(await call(readFileTool, { path: "bin.dat" }, ctx)).error, "binary_file");
  assertEquals(errorOf(await call(readFileTool, { path: "sub" }, ctx)).error, "is_directory");
  assertEquals(errorOf(await call(readFileTool, { path: "nope.txt" }, ctx)).error, "not_found");
  assertEquals(
    errorOf(await call(readFileTool, { path: "a.txt", start_line: 5, end_line: 2 }, ctx)).error,
    "bad_range",
  );
  assertEquals(errorOf(await call(readFileTool, { path: "a.txt", start_line: 9 }, ctx)).error, "bad_range");
});

Deno.test("read_file refuses every protected file, by any route; reads the neighbours", async (t) => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  for (
    const p of [
      `${home}/log/auto-phi.log`,
      `${home}/sanitize/lookup.tsv`,
      `${home}/sessions/s1.log.md`,
      `${home}/.oauth.json`,
      `${home}/.env`,
      `${home}/.ssh-creds/prod`,
      "logs-link/auto-phi.log",
      "table.tsv",
      "../home/.assist/./log/../sanitize/lookup.tsv",
      `${home}/log/not-yet-there.log`,
    ]
  ) {
    await t.step(`refused: ${p}`, async () => {
      const r = await call(readFileTool, { path: p }, ctx);
      const e = errorOf(r);
      assertEquals(e.error, "protected_path");
      assert(!r.text.includes("SMITH"));
    });
  }
  await t.step("allowed: logbook and history", async () => {
    match((await call(readFileTool, { path: `${home}/logbook/ok.txt` }, ctx)).text, /logbook/);
    match((await call(readFileTool, { path: `${home}/.history` }, ctx)).text, /history/);
  });
});

Deno.test("grep_files never reads inside protected places, even from the home or through links", async () => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  const fromRoot = await call(grepFilesTool, { pattern: "SMITH", path: tmp.path }, ctx);
  const hits = fromRoot.text.split("\n").filter((l) => !l.startsWith("["));
  assertEquals(hits.sort(), [
    `${tmp.path}/home/.assist/.history:1:SMITH^JOHN history`,
    `${tmp.path}/home/.assist/logbook/ok.txt:1:SMITH^JOHN in the logbook`,
    `${tmp.path}/work/a.txt:2:SMITH^JOHN work`,
  ]);
  match(fromRoot.text, /binary file\(s\) skipped/);
  match(fromRoot.text, /protected path\(s\) not searched/);
  assertEquals(
    errorOf(await call(grepFilesTool, { pattern: "SMITH", path: `${home}/sanitize` }, ctx)).error,
    "protected_path",
  );
  assertEquals(
    errorOf(await call(grepFilesTool, { pattern: "x", path: "logs-link" }, ctx)).error,
    "protected_path",
  );
  const glob = await call(grepFilesTool, { pattern: "proc", glob: "*.tcl" }, ctx);
  assertEquals(glob.text, "sub/b.tcl:1:proc x {} {}\n[grep_files: 2 protected path(s) not searched]");
  assertEquals(errorOf(await call(grepFilesTool, { pattern: "(" }, ctx)).error, "bad_pattern");
  const capped = await call(grepFilesTool, { pattern: ".", max_results: 1 }, ctx);
  match(capped.text, /stopped at 1 matches/);
});

Deno.test("glob_files never lists inside protected places", async () => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  const all = await call(globFilesTool, { pattern: "**", path: `${home}` }, ctx);
  const listed = all.text.split("\n").filter((l) => !l.startsWith("["));
  assertEquals(listed, [`${home}/.history`, `${home}/logbook/`, `${home}/logbook/ok.txt`]);
  match(all.text, /protected path\(s\) not listed/);
  const pattern = await call(globFilesTool, { pattern: `${home}/log/*` }, ctx);
  assertEquals(errorOf(pattern).error, "protected_path");
  const dotdot = await call(globFilesTool, { pattern: "../home/.assist/sanitize/*" }, ctx);
  assertEquals(errorOf(dotdot).error, "protected_path");
  const tcl = await call(globFilesTool, { pattern: "**/*.{tcl,txt}" }, ctx);
  assertEquals(tcl.text, "a.txt\nsub/b.tcl\n[glob_files: 2 protected path(s) not listed]");
});

Deno.test("list_dir marks protected entries and never opens them", async () => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  const r = await call(listDirTool, { path: home }, ctx);
  match(r.text, /^d\t-\t-\tlog\/\t\[protected\]$/m);
  match(r.text, /^f\t-\t-\t\.oauth\.json\t\[protected\]$/m);
  match(r.text, /^d\t-\t\S+\tlogbook\/$/m);
  match(r.text, /^f\t\d+\t\S+\t\.history$/m);
  assertEquals(errorOf(await call(listDirTool, { path: `${home}/sessions` }, ctx)).error, "protected_path");
  assertEquals(errorOf(await call(listDirTool, { path: "logs-link" }, ctx)).error, "protected_path");
  const work = await call(listDirTool, { path: "." }, ctx);
  match(work.text, /^l\t-\t-\tlogs-link\t\[protected\]$/m);
  await Deno.symlink(`${tmp.path}/work/a.txt`, `${tmp.path}/work/plain-link`);
  match((await call(listDirTool, { path: "." }, ctx)).text, /^l\t\d+\t\S+\tplain-link -> .*\/work\/a\.txt$/m);
});

Deno.test("grep_files never reads a hard link to a protected file, found by walking a folder", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  await Deno.mkdir(`${tmp.path}/work/hl`);
  await Deno.link(`${home}/.ssh-creds/prod`, `${tmp.path}/work/hl/creds`);
  await Deno.link(`${home}/sanitize/lookup.tsv`, `${tmp.path}/work/hl/lk`);
  const r = await call(grepFilesTool, { pattern: "SMITH", path: "hl" }, ctx);
  assert(!r.text.includes("SMITH^JOHN"), r.text);
  match(r.text, /2 protected path\(s\) not searched/);
  assertEquals(errorOf(await call(readFileTool, { path: "hl/creds" }, ctx)).error, "protected_path");
});

Deno.test("write targets: nothing under $ASSIST_HOME, by any route; phi_sanitize --output obeys it", async () => {
  await using tmp = await tempDir();
  const { home, ctx } = await workspace(tmp.path);
  const { checkWriteTarget } = await import("../../../tools/files/guard.ts");
  for (
    const p of [
      `${home}/.origin`,
      `${home}/.ssh-hosts.tsv`,
      `${home}/logbook/x`,
      `../home/.assist/new-file`,
      home,
    ]
  ) {
    const r = await checkWriteTarget(p, ctx);
    assert(!r.ok, `${p} was allowed`);
  }
  assert((await checkWriteTarget(`${tmp.path}/work/out.txt`, ctx)).ok);
  const { phiSanitizeTool } = await import("../../../tools/phi/phi_sanitize_tool.ts");
  await Deno.writeTextFile(`${tmp.path}/work/in.txt`, "SSN 512-44-9087\n");
  const refused = await call(phiSanitizeTool, { path: "in.txt", output: `${home}/.origin` }, ctx);
  assertEquals(errorOf(refused).error, "protected_path");
  await rejects(() => Deno.stat(`${home}/.origin`));
});

Deno.test("grep_files: a catastrophically backtracking pattern is stopped at its deadline, not hung", async () => {
  await using tmp = await tempDir();
  const { ctx } = await workspace(tmp.path);
  await Deno.writeTextFile(`${tmp.path}/work/redos.txt`, "a".repeat(40) + "!\n");
  const started = Date.now();
  const r = await call(grepFilesTool, { pattern: "(a+)+$", path: "redos.txt", timeout_seconds: 1 }, ctx);
  assert(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  assertEquals(errorOf(r).error, "pattern_timeout");
  // An ordinary pattern still matches.
  match((await call(grepFilesTool, { pattern: "a{3}!", path: "redos.txt" }, ctx)).text, /^redos\.txt:1:a+!$/);
});

Deno.test("grep_files: only patterns of bounded work skip the worker; backtracking ones never do", () => {
  const bounded = [
    "PID",
    "ICLSERVERPORT|PROTOCOL\\.PORT",
    "MSH\\|",
    "a\\*b",
    "[*+?{]x",
    "(?:ADT|ORM)\\^A0[1-4]",
    "(?<seg>PV1)\\|",
    "\\p{L}x",
    "\\u{1F600}",
    "^PID\\|1\\|$",
  ];
  const unbounded = [
    "(a+)+$",
    "a*b",
    "MSH.*ADT",
    "x+",
    "y?z",
    "a{3}!",
    "(a)\\1",
    "(?<n>a)\\k<n>",
    "[abc",
    "a\\",
    Array.from({ length: 18 }, () => "(a|a)").join(""),
  ];
  for (const p of bounded) assertEquals(boundedPattern(p), true, p);
  for (const p of unbounded) assertEquals(boundedPattern(p), false, p);
});

Deno.test("grep_files: HL7 segments ended by a lone CR are lines of their own, on both matching paths", async () => {
  await using tmp = await tempDir();
  const { ctx } = await workspace(tmp.path);
  await Deno.writeTextFile(
    `${tmp.path}/work/adt.hl7`,
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||DOE^JOHN\rPV1|1|I\r" +
      "MSH|^~\\&|A|B|C|D|20240101||ADT^A08|2|P|2.5\r\nPID|1||456||ROE^JANE\nPV1|1|O\r",
  );
  const want = "adt.hl7:2:PID|1||123||DOE^JOHN\nadt.hl7:5:PID|1||456||ROE^JANE";
  // `PID\|` runs in-process; `PID\|1+` (a quantifier) in the worker: the same lines either way.
  assertEquals((await call(grepFilesTool, { pattern: "PID\\|", path: "adt.hl7" }, ctx)).text, want);
  assertEquals((await call(grepFilesTool, { pattern: "PID\\|1+", path: "adt.hl7" }, ctx)).text, want);
  assertEquals(
    (await call(grepFilesTool, { pattern: "ADT\\^A08", path: "adt.hl7" }, ctx)).text,
    "adt.hl7:4:MSH|^~\\&|A|B|C|D|20240101||ADT^A08|2|P|2.5",
  );
  assertEquals(splitLines("a\r\nb\rc\nd"), ["a", "b", "c", "d"]);
});
