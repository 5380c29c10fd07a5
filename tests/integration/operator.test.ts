/**
 * What a new operator meets at the command line (issue 17): exit codes, help after every form, one
 * way to name a thread, dates, local paths. The program runs as shipped (tests/support/run_assist.ts)
 * on the format-true fixture engine root.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { sharedFixtureRoot, writeFixtureRoot } from "../support/fixture_root.ts";
import { FakeModelApi } from "../support/fake_model_api.ts";

/** One fixture engine root for the tests of this file (read only). */
const root = sharedFixtureRoot("assist-operator-");

function oneLine(text: string): boolean {
  return text.trimEnd().split("\n").length === 1;
}

Deno.test("usage errors of the tools exit 2 with one line: unknown thread, which site, bad path, range", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const thread = await runAssist(["tools", "nc_show", "adt", "no_such_thread"], { env });
  assertEquals(thread.code, 2, thread.stderr);
  assert(oneLine(thread.stderr));
  match(thread.stderr, /no thread, destination or process "no_such_thread" in site adt/);

  // No site: every site, with a SITE column (a thread named alone still needs its one site).
  const site = await runAssist(["tools", "nc_threads"], { env });
  assertEquals(site.code, 0, site.stderr);
  match(site.stdout, /^SITE +THREAD /);

  const msg = `${tmp.path}/a.hl7`;
  await Deno.writeTextFile(msg, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123\r");
  const path = await runAssist(["tools", "hl7_field", msg, "PID.x"], { env });
  assertEquals(path.code, 2, path.stderr);
  assert(oneLine(path.stderr));

  const range = await runAssist(["tools", "read_file", msg, "--start-line", "50"], { env });
  assertEquals(range.code, 2, range.stderr);
  match(
    range.stderr,
    /fewer than 50 lines \(its HL7 segments end in CR, not newlines, so it is one line; hl7_show/,
  );
  await Deno.writeTextFile(`${tmp.path}/n.txt`, "one\ntwo\n");
  const plain = await runAssist(["tools", "read_file", `${tmp.path}/n.txt`, "--start-line", "5"], { env });
  assertEquals([plain.code, plain.stderr], [
    2,
    `assist: read_file: ${tmp.path}/n.txt has fewer than 5 lines\n`,
  ]);

  // A tool that ran and failed on something other than its input still exits 1.
  const missing = await runAssist(["tools", "read_file", `${tmp.path}/nothing.txt`], { env });
  assertEquals(missing.code, 1, missing.stderr);
});

Deno.test("hl7_diff and nc_diff_interface --exit-code: 1 when the sides differ, 0 when not", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const a = `${tmp.path}/a.hl7`, b = `${tmp.path}/b.hl7`;
  await Deno.writeTextFile(a, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH\r");
  await Deno.writeTextFile(b, "MSH|^~\\&|A|B|C|D|20240102||ADT^A01|2|P|2.5\rPID|1||123||SMYTH\r");
  const differ = await runAssist(["tools", "hl7_diff", a, b, "--exit-code"], { env });
  assertEquals(differ.code, 1, differ.stderr);
  match(differ.stdout, /PID\.5 +SMITH -> SMYTH/);
  assertEquals(differ.stderr, "");
  const same = await runAssist(["tools", "hl7_diff", a, a, "--exit-code"], { env });
  assertEquals(same.code, 0, same.stderr);
  // Without the flag a difference is no failure.
  assertEquals((await runAssist(["tools", "hl7_diff", a, b], { env })).code, 0);

  const nc = await runAssist(
    [
      "tools",
      "nc_diff_interface",
      "adt_in.adt",
      "--to-netconfig",
      `${hci}/adt/version/NetConfig/1.1/NetConfig`,
      "--exit-code",
    ],
    { env },
  );
  assertEquals(nc.code, 1, nc.stderr);
  match(nc.stdout, /\[nc_diff_interface: \d+ difference/);
  const ncSame = await runAssist(
    ["tools", "nc_diff_interface", "adt_in.adt", "--to-netconfig", `${hci}/adt/NetConfig`, "--exit-code"],
    { env },
  );
  assertEquals(ncSame.code, 0, ncSame.stderr);
  match(ncSame.stdout, /no differences/);
});

Deno.test("--help after every group, operation and form: usage on stdout, exit 0", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.path };
  const cases: Array<[string[], RegExp]> = [
    [["ssh", "add", "--help"], /^usage: assist ssh add <alias> <user@host\[:port\]>\n/],
    [["ssh", "add", "eng1", "--help"], /^usage: assist ssh add /],
    [["auth", "--help"], /^usage: assist auth <op> \[args\]\n/],
    [["auth", "status", "--help"], /^usage: assist auth status\n/],
    [["phi-sidecar", "--help"], /^usage: assist phi-sidecar /],
    [["phi-sidecar", "ensure", "--help"], /^usage: assist phi-sidecar /],
    [["tools", "list", "--help"], /^usage: assist tools list\n/],
    [["tools", "--help"], /^usage: assist tools list\n/],
    [["tools", "nc_show", "adt", "--help"], /^usage: assist tools nc_show /],
    [["--resume", "--help"], /^assist \S+: operator assistant/],
  ];
  for (const [args, want] of cases) {
    const r = await runAssist(args, { env });
    assertEquals(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    match(r.stdout, want, args.join(" "));
    assertEquals(r.stderr, "", args.join(" "));
  }
});

Deno.test("-p: --help is help and sends nothing; its options come in any order", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const env = { HOME: tmp.path, ASSIST_API_KEY: "sk-ant-test-key", ASSIST_MODEL_API_URL: fake.url };
  for (const args of [["-p", "--help"], ["--json", "-p", "--help"], ["-p", "why?", "--help"]]) {
    const r = await runAssist(args, { env, cwd: tmp.path });
    assertEquals(r.code, 0, r.stderr);
    match(r.stdout, /^usage: assist -p <prompt> \[--json\] \[--model <id>\]\n/);
  }
  assertEquals(fake.messageRequests.length, 0, "a help request reached the model API");

  fake.replies.push({ text: "first" });
  const before = await runAssist(["--json", "-p", "hello"], { env, cwd: tmp.path });
  assertEquals(before.code, 0, before.stderr);
  assert(JSON.parse(before.stdout), "--json before -p gives the JSON transcript");
  fake.replies.push({ text: "second" });
  const after = await runAssist(["-p", "hello", "--json"], { env, cwd: tmp.path });
  assertEquals(after.code, 0, after.stderr);
  assertEquals(Object.keys(JSON.parse(after.stdout)).sort(), Object.keys(JSON.parse(before.stdout)).sort());
  fake.replies.push({ text: "third" });
  const between = await runAssist(["-p", "--json", "hello"], { env, cwd: tmp.path });
  assertEquals(between.code, 0, between.stderr);
  assert(JSON.parse(between.stdout), "--json between -p and its prompt gives the JSON transcript");
  assertEquals(fake.messageRequests.length, 3);
  assert(fake.messageRequests[2].body.includes('"hello"'), "the prompt after --json was sent");
  const twice = await runAssist(["-p", "a", "b"], { env, cwd: tmp.path });
  assertEquals(twice.code, 2);
  assertEquals(fake.messageRequests.length, 3);
});

Deno.test("one way to name a thread: site thread, thread.site and thread alone agree in every tool", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const forms = (site: string, thread: string) => [[site, thread], [`${thread}.${site}`], [thread]];
  const cases: Array<[string, string, string, string[]]> = [
    ["nc_show", "adt", "adt_in", ["PROTOCOL.PORT"]],
    ["nc_routes", "lab", "lab_in", []],
    ["nc_paths", "adt", "adt_in", []],
    ["nc_revisions", "lab", "lab_in", ["--limit", "3"]],
    ["nc_docs", "adt", "adt_in", []],
    ["nc_msgs", "adt", "adt_in", ["--limit", "2"]],
    ["nc_diff_interface", "adt", "adt_in", ["--to-netconfig", `${hci}/adt/version/NetConfig/1.1/NetConfig`]],
  ];
  for (const [tool, site, thread, extra] of cases) {
    const outs: string[] = [];
    for (const words of forms(site, thread)) {
      const r = await runAssist(["tools", tool, ...words, ...extra], { env });
      assertEquals(r.code, 0, `${tool} ${words.join(" ")}: ${r.stderr}`);
      outs.push(r.stdout);
    }
    assertEquals(outs[1], outs[0], `${tool}: thread.site differs from site thread`);
    assertEquals(outs[2], outs[0], `${tool}: thread alone differs from site thread`);
  }
  // nc_paths --to takes the same forms.
  const to = await Promise.all(
    ["lab lab_sys_out", "lab_sys_out.lab", "lab_sys_out"].map((t) =>
      runAssist(["tools", "nc_paths", "adt", "adt_in", "--to", t], { env })
    ),
  );
  for (const r of to) assertEquals([r.code, r.stdout], [0, to[0].stdout]);
  match(to[0].stdout, /reaching lab\/lab_sys_out/);
});

Deno.test("a thread in two sites: the candidates are named (exit 2); HCISITE or a site decides", async () => {
  await using tmp = await tempDir();
  const hci = `${tmp.path}/hci`;
  await writeFixtureRoot(hci);
  // A copy of site adt as site adt2: every adt thread is now in two sites.
  await Deno.mkdir(`${hci}/adt2`);
  await Deno.copyFile(`${hci}/adt/NetConfig`, `${hci}/adt2/NetConfig`);
  const ini = await Deno.readTextFile(`${hci}/server/server.ini`);
  await Deno.writeTextFile(`${hci}/server/server.ini`, ini.trimEnd() + `;${hci}/adt2\n`);
  const env = { HOME: tmp.path, HCIROOT: hci };
  for (const tool of ["nc_show", "nc_routes", "nc_docs", "nc_revisions"]) {
    const r = await runAssist(["tools", tool, "adt_in"], { env });
    assertEquals(r.code, 2, `${tool}: ${r.stderr}`);
    match(r.stderr, /"adt_in" is in sites adt, adt2: name one \(adt_in\.adt or adt adt_in\)\n$/);
  }
  const home = await runAssist(["tools", "nc_show", "adt_in"], { env: { ...env, HCISITE: "adt2" } });
  assertEquals(home.code, 0, home.stderr);
  match(home.stdout, /^protocol adt_in \(site adt2, /);
  const named = await runAssist(["tools", "nc_show", "adt_in.adt"], { env: { ...env, HCISITE: "adt2" } });
  match(named.stdout, /^protocol adt_in \(site adt, /);
  // A thread only one site has is found there whatever HCISITE says.
  const lab = await runAssist(["tools", "nc_show", "lab_in"], { env: { ...env, HCISITE: "adt2" } });
  match(lab.stdout, /^protocol lab_in \(site lab, /);
  const neither = await runAssist(["tools", "nc_routes", "adtt_in"], { env });
  assertEquals(neither.code, 2);
  match(
    neither.stderr,
    /no site or thread "adtt_in" under .* \(sites: adt, lab, hub, pharm, adt2\); did you mean .*adt_in/,
  );
});

Deno.test("dates: impossible ones exit 2; --since/--until take the same forms; local zone or --utc", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci, TZ: "America/Chicago" };
  for (
    const args of [
      ["nc_msgs", "adt", "adt_in", "--since", "2024-13-45"],
      ["nc_msgs", "adt", "adt_in", "--until", "2024-02-30"],
      ["nc_revisions", "lab_in", "--since", "2024-13-45"],
      ["nc_revisions", "lab_in", "--until", "2024-10-07T25:00"],
    ]
  ) {
    const r = await runAssist(["tools", ...args], { env });
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    match(r.stderr, /: expected a date \(2024-11-20\), a date and time .*an age \(90m, 36h, 7d\)\n$/);
    assert(oneLine(r.stderr));
  }
  // The same forms in both tools: a date, a date-time with a zone, an age.
  for (const since of ["2024-11-20", "2024-11-20T08:05-06:00", "36500d", "876000h", "52560000m"]) {
    for (const tool of [["nc_msgs", "adt", "adt_in"], ["nc_revisions", "lab_in"]]) {
      const r = await runAssist(["tools", ...tool, "--since", since], { env });
      assertEquals(r.code, 0, `${tool[0]} --since ${since}: ${r.stderr}`);
    }
  }
  // Messages are at 2024-11-20T08:00Z and later: Chicago shows them at 02:00-06:00.
  const local = await runAssist(["tools", "nc_msgs", "adt", "adt_in", "--limit", "1"], { env });
  match(local.stdout, /\n2024-11-20T02:11:00-06:00 /);
  const utc = await runAssist(["tools", "nc_msgs", "adt", "adt_in", "--limit", "1", "--utc"], { env });
  match(utc.stdout, /\n2024-11-20T08:11:00Z /);
  // --until a bare date in local time: the whole day, Chicago's.
  const until = await runAssist(["tools", "nc_msgs", "adt", "adt_in", "--until", "2024-11-19"], { env });
  assertEquals(until.code, 0, until.stderr);
  match(until.stdout, /\[nc_msgs: 0 messages .*until 2024-11-19T23:59:59-06:00/);
  const rev = await runAssist(["tools", "nc_revisions", "lab_in", "--limit", "1"], { env });
  match(rev.stdout, /\n2024-10-28T09:10:00-05:00 /);
  const revUtc = await runAssist(["tools", "nc_revisions", "lab_in", "--limit", "1", "--utc"], { env });
  match(revUtc.stdout, /\n2024-10-28T14:10:00Z /);
  const window = await runAssist(
    ["tools", "nc_revisions", "lab_in", "--since", "2024-10-07", "--until", "2024-10-07"],
    { env },
  );
  match(window.stdout, /version 1\.3 /);
  // No row outside the window (the footer still says which saved version is live).
  assert(!window.stdout.split("\n[nc_revisions")[0].includes("version 1.10"), window.stdout);
  match(window.stdout, /; the live NetConfig is version 1\.10\]/);
});

Deno.test("local paths expand ~ in every tool; a folder that is no engine root says so", async () => {
  await using tmp = await tempDir();
  const hci = `${tmp.path}/hci`;
  await writeFixtureRoot(hci);
  const env = { HOME: tmp.path };
  await Deno.writeTextFile(
    `${tmp.path}/a.hl7`,
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH^JO\r",
  );
  const cases: Array<[string[], RegExp]> = [
    [["read_file", "~/a.hl7"], /PID\|1\|\|123/],
    [["hl7_field", "~/a.hl7", "PID.5"], /^PID\.5\nSMITH\^JO\n$/],
    [["hl7_show", "~/a.hl7"], /SMITH/],
    [["list_dir", "~"], /a\.hl7/],
    [["list_sites", "--hciroot", "~/hci"], /\[list_sites: 4 sites from /],
    [["nc_threads", "adt", "--hciroot=~/hci"], /adt_in/],
    [["nc_msgs", "--file", "~/hci/adt/exec/processes/adt_proc/adt_in.smatdb", "--limit", "1"], /adt_in/],
    [
      ["nc_diff_interface", "adt_in.adt", "--hciroot", "~/hci", "--to-netconfig", "~/hci/adt/NetConfig"],
      /no differences/,
    ],
  ];
  for (const [args, want] of cases) {
    const r = await runAssist(["tools", ...args], { env, cwd: `${tmp.path}/hci/lab` });
    assertEquals(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    match(r.stdout, want, args.join(" "));
  }
  await Deno.mkdir(`${tmp.path}/other/sub`, { recursive: true });
  const other = await runAssist(["tools", "list_sites", "--hciroot", `${tmp.path}/other`], { env });
  assertEquals(other.code, 2);
  match(
    other.stderr,
    /other is no engine root: it has no server\/server\.ini and no site folder with a NetConfig\n$/,
  );
  const site = await runAssist(["tools", "nc_threads", "--hciroot", `${hci}/adt`], { env });
  assertEquals(site.code, 2);
  match(
    site.stderr,
    /hci\/adt is no engine root: .* it is a site folder: its engine root is probably the folder above\n$/,
  );
});

Deno.test("hl7_field: SEG.N positionals are paths, with --text or messages piped in", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.path };
  const msg = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH^JO\r";
  const piped = await runAssist(["tools", "hl7_field", "PID.5", "MSH.9"], { env, stdin: msg, cwd: tmp.path });
  assertEquals([piped.code, piped.stdout], [0, "PID.5\tMSH.9\nSMITH^JO\tADT^A01\n"], piped.stderr);
  const text = await runAssist(["tools", "hl7_field", "PID.5", "MSH.9", "--text", msg], {
    env,
    cwd: tmp.path,
  });
  assertEquals([text.code, text.stdout], [0, "PID.5\tMSH.9\nSMITH^JO\tADT^A01\n"], text.stderr);
  // A file that happens to be named like a path is still the file.
  await Deno.writeTextFile(`${tmp.path}/PID.5`, msg.replace("SMITH", "JONES"));
  const named = await runAssist(["tools", "hl7_field", "PID.5", "PID.5"], { env, cwd: tmp.path });
  assertEquals(named.stdout, "PID.5\nJONES^JO\n");
});

Deno.test("messages that mislead: a damaged .smatdb is not called encrypted; NetConfig bytes escaped", async () => {
  await using tmp = await tempDir();
  const hci = `${tmp.path}/hci`;
  await writeFixtureRoot(hci);
  const env = { HOME: tmp.path, HCIROOT: hci };
  const proc = `${hci}/adt/exec/processes/adt_proc`;
  // Cut short: the SQLite header gone, a few bytes of text.
  await Deno.writeTextFile(`${tmp.path}/cut.smatdb`, "MSH|^~\\&|half a message");
  const cut = await runAssist(["tools", "nc_msgs", "--file", `${tmp.path}/cut.smatdb`], { env });
  assertEquals(cut.code, 1);
  match(cut.stderr, /cut\.smatdb is not a SQLite database \(damaged, cut short, or another kind of file\)/);
  assert(!/encrypt/i.test(cut.stderr), cut.stderr);
  // Zeros, a whole number of pages: still no encrypted archive.
  await Deno.writeFile(`${tmp.path}/zeros.smatdb`, new Uint8Array(4096));
  const zeros = await runAssist(["tools", "nc_msgs", "--file", `${tmp.path}/zeros.smatdb`], { env });
  assert(!/encrypt/i.test(zeros.stderr), zeros.stderr);
  // The fixture's encrypted archive is still called that.
  const enc = await runAssist(["tools", "nc_msgs", "hub", "hub_from_adt"], { env });
  match(enc.stderr, /is an encrypted SMAT database/);
  // A plain archive is read as before.
  assertEquals((await runAssist(["tools", "nc_msgs", "--file", `${proc}/adt_in.smatdb`], { env })).code, 0);

  await Deno.mkdir(`${tmp.path}/bin/s`, { recursive: true });
  await Deno.writeFile(
    `${tmp.path}/bin/s/NetConfig`,
    new TextEncoder().encode(
      "prologue\n    type:\tnet\nend_prologue\nprotocol x {\n    { PROCESSNAME {p}\x1b[2J\x07 }\n}\n",
    ),
  );
  const bad = await runAssist(["tools", "nc_threads", "s", "--hciroot", `${tmp.path}/bin`], { env });
  assertEquals(bad.code, 1);
  // deno-lint-ignore no-control-regex -- the check: no raw control byte reached the terminal
  assert(!/[\x00-\x08\x0b-\x1f\x7f]/.test(bad.stderr), JSON.stringify(bad.stderr));
  match(bad.stderr, /followed by "\\x1b\[2J\\x07" instead of space/);
});

Deno.test("phi-sidecar ensure names the interpreter it runs before it runs it", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(`${tmp.path}/bin`);
  // A stand-in interpreter that fails at once: the build is not what is tested here.
  await Deno.writeTextFile(`${tmp.path}/bin/python3`, "#!/bin/sh\necho 'no index' >&2\nexit 3\n", {
    mode: 0o755,
  });
  const r = await runAssist(["phi-sidecar", "ensure"], {
    env: { HOME: tmp.path, PATH: `${tmp.path}/bin:/usr/bin:/bin` },
  });
  assertEquals(r.code, 1, r.stderr);
  match(
    r.stdout,
    new RegExp(`^interpreter: python3 \\(${tmp.path}/bin/python3\\); venv: ${tmp.path}/\\.assist/phi-venv\n`),
  );
  match(r.stdout, /ensure failed \(exit 3\)/);
});

Deno.test("engine tool output an operator reads right the first time", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const t = async (...args: string[]) => {
    const r = await runAssist(["tools", ...args], { env, cwd: tmp.path });
    assertEquals(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  // nc_routes: the route's state and its detail's state, labelled; a disabled route reads disabled.
  const routes = await t("nc_routes", "adt");
  match(routes, /^THREAD +FOR +TRXID +ROUTE_STATE +DETAIL +DETAIL_STATE +TYPE +DEST /);
  match(routes, /\nadt_in +data +ADT_A03 +off +1 +on \(route off\) +raw /);
  match(
    routes,
    /\[nc_routes: 4 routes in site adt; 1 disabled \(ROUTE_STATE off: none of its details runs\)\]/,
  );
  // nc_paths: the TRXID of each chain, and --trxid keeps those.
  const all = await t("nc_paths", "adt", "adt_in");
  match(all, /^SITE +THREAD +TRXID +HOPS +PATH\n/);
  const a08 = await t("nc_paths", "adt", "adt_in", "--trxid", "adt_a08");
  const rows = a08.split("\n\n")[0].split("\n").slice(1);
  assert(rows.length > 0 && rows.every((r) => /^adt +adt_in +ADT_A08 /.test(r)), a08);
  assert(rows.length < all.split("\n\n")[0].split("\n").length - 1);
  match(a08, /chains? with TRXID adt_a08 from adt\/adt_in\]/);
  // nc_docs: a thread fed only through a disabled route says so.
  match(await t("nc_docs", "adt", "legacy_out"), /Fed by: +adt_in \(disabled\)\n/);
  // nc_show: the keys at the level asked.
  const key = await runAssist(["tools", "nc_show", "adt", "adt_in", "PROTOCOL.NOPE"], { env });
  assertEquals(key.code, 2);
  match(key.stderr, /adt_in has no PROTOCOL\.NOPE \(keys of PROTOCOL: HOST ISSERVER .*PORT/);
  const elem = await runAssist(["tools", "nc_show", "adt", "adt_in", "DATAXLATE.9"], { env });
  match(elem.stderr, /has no DATAXLATE\.9 \(DATAXLATE has 3 elements, 1 to 3\)/);
  // nc_revisions: revisions that change nothing (only the prologue) are not counted.
  const rev = await t("nc_revisions", "--system", "--site", "lab");
  assert(!rev.includes("no change"), rev);
  match(
    rev,
    /\[nc_revisions: 4 changes to the NetConfig of lab, .* 6 saved without a change to any record, not counted \(version 1\.\d+(, version 1\.\d+)+\); the live NetConfig is version 1\.10\]/,
  );
  // nc_msgs: says when more matched than were shown, and not when all were.
  match(await t("nc_msgs", "adt", "adt_in", "--limit", "3"), /; more matched: the newest 3 shown \(--limit/);
  assert(!(await t("nc_msgs", "adt", "adt_in", "--limit", "12")).includes("more matched"));
});

Deno.test("hl7_show: values in one column whatever the length of the field names", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(
    `${tmp.path}/l.hl7`,
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH^JO^Q^JR||19600101|M||||||||||||||||||||||DL123^CA\r",
  );
  const r = await runAssist(["tools", "hl7_show", `${tmp.path}/l.hl7`], { env: { HOME: tmp.path } });
  assertEquals(r.code, 0, r.stderr);
  const rows = r.stdout.split("\n").filter((l) => /^ {2,}[A-Z]{3}\.\d/.test(l));
  const starts = new Set(rows.map((l) => l.length - l.replace(/^ +\S+ +.*? {2,}(?=\S+$)/, "").length));
  assertEquals(starts.size, 1, r.stdout);
  match(r.stdout, /PID\.5\.3 +Second and Further Given Names or… +Q\n/);
});

Deno.test("nc_refs: a name nothing uses gets the closest names of the sites' files", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const typo = await runAssist(["tools", "nc_refs", "sex_code"], { env });
  assertEquals(typo.code, 0, typo.stderr);
  match(typo.stdout, /\[nc_refs: 0 uses of sex_code .*\]\n\[nc_refs: did you mean sex_codes\? /);
  const file = await runAssist(["tools", "nc_refs", "adt_a01_to_lab.xl"], { env });
  match(file.stdout, /did you mean adt_a01_to_lab\.xlt\?/);
  const used = await runAssist(["tools", "nc_refs", "sex_codes"], { env });
  assert(!used.stdout.includes("did you mean"), used.stdout);
});
