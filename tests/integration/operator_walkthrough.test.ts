/**
 * Findings of an operator's walk-through of the tools, end to end: the program runs as shipped
 * (tests/support/run_assist.ts) with HOME, ASSIST_HOME and HCIROOT set, on the fixture engine root.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { sharedFixtureRoot } from "../support/fixture_root.ts";
import { writeRegressionEngine } from "../ssh/_regression_env.ts";
import { call, contextFor } from "../tools/support.ts";
import { phiSanitizeTool } from "../../tools/phi/phi_sanitize_tool.ts";
import { reveal } from "../../cli/commands/_reveal.ts";
import type { CommandContext } from "../../cli/commands/types.ts";
import { loadConfig } from "../../core/config.ts";

/** Latin-1 bytes of `text` (every character below U+0100). */
function latin1(text: string): Uint8Array {
  return Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
}

Deno.test("phi-reveal gives a Latin-1 message back byte for byte after phi_sanitize; ~ and missing files", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, ASSIST_HOME: `${tmp.path}/.assist` };
  // 0xDC (Ü) in NTE stays untouched by the sanitizer; the name in PID-5 is tokenized and restored.
  const original = latin1(
    "MSH|^~\\&|LAB|H|CL|H|20261124||ADT^A01|77|P|2.5|||||||8859/1\r" +
      "PID|1||4711^^^H^MR||Müller^Jürgen||19700101|M\r" +
      "NTE|1||ÜBERWEISUNG folgt\r",
  );
  await Deno.writeFile(`${tmp.path}/latin1.hl7`, original);
  const s = await runAssist(["tools", "phi_sanitize", "latin1.hl7", "--output", "l1.deid.hl7"], {
    env,
    cwd: tmp.path,
  });
  assertEquals(s.code, 0, s.stderr);
  const deid = await Deno.readFile(`${tmp.path}/l1.deid.hl7`);
  assert(!new TextDecoder("latin1").decode(deid).includes("Müller"), "the name was tokenized");
  assert(deid.includes(0xdc), "the untouched Latin-1 byte is kept by phi_sanitize");
  const r = await runAssist(["phi-reveal", "l1.deid.hl7", "--output", "rev.hl7"], { env, cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readFile(`${tmp.path}/rev.hl7`), original);

  // ~ in the input and in --output is the home folder, not a folder named "~".
  const t = await runAssist(["phi-reveal", "~/l1.deid.hl7", "--output", "~/rev2.hl7"], {
    env,
    cwd: tmp.path,
  });
  assertEquals(t.code, 0, t.stderr);
  assertEquals(await Deno.readFile(`${tmp.path}/rev2.hl7`), original);
  assert(!(await exists(`${tmp.path}/~`)), "no literal ~ folder");

  // A missing input: one clean line, not Deno's wording.
  const m = await runAssist(["phi-reveal", "~/nosuch.hl7", "--output", "x.hl7"], { env, cwd: tmp.path });
  assert(m.code !== 0);
  assertEquals(m.stderr, "assist: no such file or folder: ~/nosuch.hl7\n");
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** One fixture engine root for the tests of this file (read only). */
const root = sharedFixtureRoot("assist-walkthrough-");

Deno.test("--exit-code: a failure exits 2 or higher, never 1 (1 is only 'the sides differ')", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const a = `${tmp.path}/a.hl7`;
  await Deno.writeTextFile(a, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH\r");
  const missing = await runAssist(["tools", "hl7_diff", a, `${tmp.path}/nosuch.hl7`, "--exit-code"], { env });
  assert(missing.code >= 2, `exit ${missing.code}: ${missing.stderr}`);
  match(missing.stderr, /nosuch\.hl7/);
  const nc = await runAssist(
    ["tools", "nc_diff_interface", "adt_in", "--to-netconfig", `${tmp.path}/nonexist`, "--exit-code"],
    { env },
  );
  assert(nc.code >= 2, `exit ${nc.code}: ${nc.stderr}`);
  // Without the flag the same failure exits 1, as every failed tool does.
  const plain = await runAssist(["tools", "hl7_diff", a, `${tmp.path}/nosuch.hl7`], { env });
  assertEquals(plain.code, 1, plain.stderr);
});

Deno.test("nc_route_test --output ~/x writes under the home folder, not a folder named ~", async () => {
  await using tmp = await tempDir();
  const hci = `${tmp.path}/hci`;
  await writeRegressionEngine(hci, { sites: ["adt", "hub"], inboundsPerSite: 1, messages: 2 }, {
    source: true,
  });
  await Deno.mkdir(`${tmp.path}/home`);
  await Deno.mkdir(`${tmp.path}/cwd`);
  const env = { HOME: `${tmp.path}/home`, HCIROOT: hci };
  const r = await runAssist(
    ["tools", "nc_route_test", "in0.adt", "--hciroot", hci, "--dry-run", "--output", "~/rt"],
    { env, cwd: `${tmp.path}/cwd` },
  );
  assertEquals(r.code, 0, r.stderr);
  assert(await exists(`${tmp.path}/home/rt/plan.md`), r.stdout);
  assert(!(await exists(`${tmp.path}/cwd/~`)), "no literal ~ folder");
});

Deno.test("phi_sanitize on a terminal shows the segments on their own lines; piped, the exact CRs", async () => {
  await using tmp = await tempDir();
  const msg = "MSH|^~\\&|LAB|H|CL|H|20261124||ADT^A01|77|P|2.5\rPID|1||4711^^^H^MR||Doe^Jane\rPV1|1|I\r";
  await Deno.writeTextFile(`${tmp.path}/m.hl7`, msg);
  const base = contextFor(`${tmp.path}/.assist`, tmp.path);
  const ctx = { ...base, caller: "manual" as const, notice: () => {} };
  const screen = await call(phiSanitizeTool, { path: "m.hl7" }, { ...ctx, terminal: true });
  assert(!screen.isError, screen.text);
  assertEquals(screen.text.split("\n").map((l) => l.slice(0, 4)), ["MSH|", "PID|", "PV1|", ""]);
  assert(!screen.text.includes("\r"));
  const piped = await call(phiSanitizeTool, { path: "m.hl7" }, { ...ctx, terminal: false });
  assertEquals(piped.text, screen.text.replaceAll("\n", "\r"));
});

Deno.test("phi-reveal shown on the screen: HL7 segments on their own lines", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/r.hl7`, "MSH|^~\\&|A|B\rPID|1||[[MRN_404]]\r");
  const shown: string[] = [];
  const ctx: CommandContext = {
    config: { ...loadConfig(), home: `${tmp.path}/.assist` },
    io: { front: "repl", out: (t) => shown.push(t), warn: () => {}, readSecret: () => Promise.reject() },
  };
  const line = await reveal([`${tmp.path}/r.hl7`], ctx);
  assertEquals(shown, ["MSH|^~\\&|A|B\nPID|1||[[MRN_404]]\n"]);
  match(line, /1 token\(s\) not in the lookup table/);
});

Deno.test("hints name commands in the caller's form: assist origin on the command line", async () => {
  await using tmp = await tempDir();
  const r = await runAssist(["origin", "bogus"], {
    env: { HOME: tmp.path, ASSIST_HOME: `${tmp.path}/.assist` },
  });
  assertEquals(r.code, 2, r.stderr);
  match(r.stderr, /usage: assist origin \[gitea\|auto\|https:\/\/<host>\/\.\.\.\] \(got "bogus"/);
  assert(!r.stderr.includes("/origin"), r.stderr);
});

Deno.test("nc_msgs --hl7 with a bad condition or path is a usage error (exit 2, one line)", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  for (const cond of ["PID.5", "PID.x=1"]) {
    const r = await runAssist(["tools", "nc_msgs", "adt_in", "--hl7", cond], { env });
    assertEquals(r.code, 2, r.stderr);
    assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    match(r.stderr, new RegExp(`--hl7 ${cond.replace(".", "\\.")}: `));
  }
  const good = await runAssist(["tools", "nc_msgs", "adt_in", "--hl7", "PID.5.1=NOBODY"], { env });
  assertEquals(good.code, 0, good.stderr);
});

Deno.test("nc_revisions --system: --site defaults to $HCISITE; --site '*' is every site", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const sitesOf = (out: string) =>
    new Set(out.split("\n").filter((l) => /^\d{4}-/.test(l)).map((l) => l.split(/\s{2,}/)[2]));
  const env = { HOME: tmp.path, HCIROOT: hci, HCISITE: "adt" };
  const one = await runAssist(["tools", "nc_revisions", "--system"], { env });
  assertEquals(one.code, 0, one.stderr);
  assertEquals(sitesOf(one.stdout), new Set(["adt"]));
  const every = await runAssist(["tools", "nc_revisions", "--system", "--site", "*"], { env });
  assertEquals(every.code, 0, every.stderr);
  assert(sitesOf(every.stdout).size > 1, every.stdout);
  const unset = await runAssist(["tools", "nc_revisions", "--system"], {
    env: { HOME: tmp.path, HCIROOT: hci },
  });
  assertEquals(sitesOf(unset.stdout), sitesOf(every.stdout));
});

Deno.test("piped standard input without -: hl7_show, phi_scan and phi_sanitize read it", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, ASSIST_HOME: `${tmp.path}/.assist`, ASSIST_PHI_PORT: "9" };
  const msg = "MSH|^~\\&|LAB|H|CL|H|20261124||ADT^A01|77|P|2.5\rPID|1||4711^^^H^MR||Doe^Jane||19700101|F\r";
  const show = await runAssist(["tools", "hl7_show"], { env, cwd: tmp.path, stdin: msg });
  assertEquals(show.code, 0, show.stderr);
  match(show.stdout, /PID\.5/);
  assertEquals(
    show.stdout,
    (await runAssist(["tools", "hl7_show", "-"], { env, cwd: tmp.path, stdin: msg })).stdout,
  );
  const scan = await runAssist(["tools", "phi_scan"], { env, cwd: tmp.path, stdin: msg });
  assertEquals(scan.code, 0, scan.stderr);
  assertEquals(
    scan.stdout,
    (await runAssist(["tools", "phi_scan", "-"], { env, cwd: tmp.path, stdin: msg })).stdout,
  );
  const san = await runAssist(["tools", "phi_sanitize"], { env, cwd: tmp.path, stdin: msg });
  assertEquals(san.code, 0, san.stderr);
  assert(san.stdout.startsWith("MSH|") && !san.stdout.includes("Doe^Jane"), san.stdout);
  // --text stays the input when given; no file is taken from the pipe then.
  const text = await runAssist(["tools", "hl7_show", "--text", msg], { env, cwd: tmp.path, stdin: "junk" });
  assertEquals(text.code, 0, text.stderr);
  assertEquals(text.stdout, show.stdout);
});

Deno.test("nc_show <no site> <thread>: the first word is called a site that does not exist", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const r = await runAssist(["tools", "nc_show", "nosuchsite", "adt_in"], { env });
  assertEquals(r.code, 2, r.stderr);
  match(r.stderr, /no site "nosuchsite" under .* \(sites: [^)]*adt[^)]*\)/);
  // A first word that is a thread still takes a key path after it.
  const shifted = await runAssist(["tools", "nc_show", "adt_in", "PROTOCOL.PORT"], { env });
  assertEquals(shifted.code, 0, shifted.stderr);
  // Neither word a thread: the thread is what is missing.
  const neither = await runAssist(["tools", "nc_show", "nosuch", "PROTOCOL.PORT"], { env });
  assertEquals(neither.code, 2, neither.stderr);
  match(neither.stderr, /no site has a thread, destination or process "nosuch"/);
});

Deno.test("hints name commands in the caller's form: an unknown SSH alias by hand", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  // An alias that names nothing is a usage error (exit 2), as an unknown site or thread is, and
  // every tool that takes an alias says how to add it in the command line's form.
  for (
    const args of [
      ["nc_threads", "adt", "--alias", "nosuch"],
      ["ssh_status", "nosuch"],
      ["ssh_exec", "nosuch", "true"],
      ["ssh_pull", "nosuch", "/etc/hostname", `${tmp.path}/x`],
    ]
  ) {
    const r = await runAssist(["tools", ...args], { env });
    assertEquals(r.code, 2, `${args[0]}: ${r.stderr}`);
    match(r.stderr, /unknown SSH alias "nosuch" \(add it with assist ssh add nosuch <user@host\[:port\]>\)/);
    assert(!r.stderr.includes("/ssh-add"), r.stderr);
  }
});

Deno.test("nc_diff_interface takes `site thread other` as every thread tool takes `site thread`", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const want = "--- lab/lab_in\n+++ lab/lab_from_hub\n";
  for (
    const words of [
      ["lab", "lab_in", "lab_from_hub"],
      ["lab_in", "lab_from_hub"],
      ["lab_in", "lab_from_hub", "--site", "lab"],
      ["lab_in.lab", "lab_from_hub.lab"],
    ]
  ) {
    const r = await runAssist(["tools", "nc_diff_interface", ...words], { env });
    assertEquals(r.code, 0, `${words.join(" ")}: ${r.stderr}`);
    assert(r.stdout.startsWith(want), `${words.join(" ")}:\n${r.stdout}`);
    match(r.stdout, /^- DATAXLATE\[ADT_A01\]: route: xlate lab_adt\.xlt -> lab_sys_out$/m);
  }
  // `site thread` alone names one side only: the same thread, so nothing to compare.
  const same = await runAssist(["tools", "nc_diff_interface", "lab", "lab_in"], { env });
  assertEquals(same.code, 2, same.stderr);
  match(same.stderr, /both sides are the same thread/);
  // A thread missing from a NetConfig file is said to be missing from that file, not from a "site".
  const nc = `${hci}/lab/NetConfig`;
  const inFile = await runAssist(["tools", "nc_diff_interface", "nosuch", "--netconfig", nc], { env });
  assertEquals(inFile.code, 2, inFile.stderr);
  assertEquals(inFile.stderr.trim(), `assist: nc_diff_interface: no thread "nosuch" in the NetConfig ${nc}`);
  // A site given as the first thread by name (the form the command line once shifted) still reads.
  const siteFirst = await runAssist(
    ["tools", "nc_diff_interface", "--json", '{"thread":"lab","other":"lab_in","to_site":"lab"}'],
    { env },
  );
  assertEquals(siteFirst.code, 2, siteFirst.stderr);
  match(siteFirst.stderr, /both sides are the same thread/);
  // The model's named form is unchanged.
  const named = await runAssist(
    ["tools", "nc_diff_interface", "--json", '{"thread":"lab_in","other":"lab_from_hub","site":"lab"}'],
    { env },
  );
  assertEquals(named.code, 0, named.stderr);
  assert(named.stdout.startsWith(want), named.stdout);
});

Deno.test("nc_show reads a key as nc_diff_interface writes it: a route by TRXID, elements by [n]", async () => {
  const hci = await root();
  await using tmp = await tempDir();
  const env = { HOME: tmp.path, HCIROOT: hci };
  const show = (path: string) => runAssist(["tools", "nc_show", "lab", "lab_in", path], { env });
  const dest = await show("DATAXLATE[ADT_A01].ROUTE_DETAILS[1].DEST");
  assertEquals([dest.code, dest.stdout, dest.stderr], [0, "lab_sys_out\n", ""]);
  // TRXIDs read case-insensitively, as keys do; a number in brackets is the element's position.
  assertEquals((await show("DATAXLATE[adt_a01].ROUTE_DETAILS[1].XLATE")).stdout, "lab_adt.xlt\n");
  assertEquals(
    (await show("DATAXLATE[ADT_A01].ROUTE_DETAILS[1].XLATE")).stdout,
    (await show("DATAXLATE.1.ROUTE_DETAILS.1.XLATE")).stdout,
  );
  // A TRXID that is not there: the routes there are named.
  const missing = await show("DATAXLATE[ADT_A99]");
  assertEquals(missing.code, 2, missing.stderr);
  match(
    missing.stderr,
    /has no DATAXLATE\[ADT_A99\] \(DATAXLATE has 2 elements: by TRXID \[ADT_A01\] \[ADT_A03\]/,
  );
  const past = await show("DATAXLATE[ADT_A01].ROUTE_DETAILS[5]");
  assertEquals(past.code, 2, past.stderr);
  match(past.stderr, /ROUTE_DETAILS has 1 element: 1 to 1\)/);
});
