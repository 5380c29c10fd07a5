/**
 * Remote command wrapping, the noise filter, the ssh_exec rendering, and the SMAT scripts, which run
 * here under /bin/sh against a real .smatdb with each sampler in turn (sqlite3, python3, Tcl).
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { tempDir } from "../support/run_assist.ts";
import { filterNoise, pinnedPrefix, shQuote, wrapCommand } from "../../ssh/wrap.ts";
import {
  parseSampleOutput,
  pickSmatdbPath,
  resolveError,
  resolveScript,
  rowsToTsv,
  sampleScript,
  sampleSql,
  timeIso,
} from "../../ssh/smat.ts";
import { exitCodeOf, renderExec } from "../../tools/ssh/exec_render.ts";
import type { ExecResult } from "../../ssh/remote.ts";
import { hl7, writeSmatDb } from "../support/smat_writer.ts";

async function sh(
  script: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const o = await new Deno.Command("/bin/sh", {
    args: ["-c", script],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: o.code, out: d.decode(o.stdout), err: d.decode(o.stderr) };
}

Deno.test("shQuote survives every character through a real shell", async () => {
  const nasty = `a'b"c$d\`e\\f g\nh;|&*?~!#`;
  const r = await sh(`printf '%s' ${shQuote(nasty)}`);
  assertEquals(r.out, nasty);
});

Deno.test("wrapCommand: login shell by default; NOLOGIN prefix; ASSIST_SSH_NO_LOGIN; pin first", async () => {
  const login = wrapCommand("echo $X", { noLogin: false });
  assertEquals(login.how, "login");
  assertEquals(login.command, `exec "\${SHELL:-/bin/sh}" -l -c 'echo $X'`);
  assertEquals(wrapCommand("NOLOGIN uptime", { noLogin: false }), {
    command: "uptime",
    how: "nologin-prefix",
  });
  assertEquals(wrapCommand("  NOLOGIN  uptime", { noLogin: false, hciroot: "/h" }).command, "uptime");
  assertEquals(wrapCommand("NOLOGINX", { noLogin: false }).how, "login");
  assertEquals(wrapCommand("uptime", { noLogin: true }), { command: "uptime", how: "no-login-env" });
  const pinned = wrapCommand("echo $HCIROOT", { noLogin: true, hciroot: "/hci/it's" });
  assertEquals(pinned.how, "pinned");
  assertEquals(pinned.command, pinnedPrefix("/hci/it's") + "echo $HCIROOT");
  // The wrapped forms really run: the login form under a shell reading a profile.
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/.profile`, "X=from-profile; export X\n");
  const r = await sh(login.command, { HOME: tmp.path, SHELL: "/bin/sh" });
  assertEquals(r.out, "from-profile\n");
  const p = await sh(pinned.command);
  assertEquals(p.out, "/hci/it's\n");
});

Deno.test("filterNoise drops sudo prompts, complaints, lecture, tty warnings and banner lines; counts them", () => {
  const err = [
    "[sudo] password for hci: sudo: a terminal is required to read the password; either use the -S option",
    "sudo: a password is required",
    "We trust you have received the usual lecture from the local System",
    "Administrator. It usually boils down to these three things:",
    "    #1) Respect the privacy of others.",
    "stdin: is not a tty",
    "mesg: ttyname failed: Inappropriate ioctl for device",
    "Authorized use only",
    "grep: /x: No such file or directory",
    "",
  ].join("\n");
  const f = filterNoise(err, "Authorized use only\n");
  assertEquals(f.text, "grep: /x: No such file or directory\n");
  assertEquals(f.dropped, 8);
  assertEquals(f.sudo, true);
  assertEquals(filterNoise("plain error\r\n").text, "plain error\n");
  assertEquals(filterNoise("").dropped, 0);
});

function result(over: Partial<ExecResult>): ExecResult {
  return {
    code: 0,
    stdout: new Uint8Array(),
    stderr: new Uint8Array(),
    droppedStdout: 0,
    droppedStderr: 0,
    timedOut: false,
    ...over,
  };
}

Deno.test("renderExec: footer, truncation note, stderr budget, timeout and signal codes", () => {
  const enc = new TextEncoder();
  const o = { alias: "eng1", maxLines: 500, timeoutSeconds: 5, login: true };
  assertEquals(renderExec(result({ stdout: enc.encode("a\nb\n") }), o), "a\nb\n[ssh_exec: exit rc=0]");
  const many = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
  const t = renderExec(result({ stdout: enc.encode(many), stderr: enc.encode("oops\n"), code: 2 }), o);
  const lines = t.split("\n");
  assert(t.includes("[ssh_exec: output truncated: 500 of 1001 lines shown; raise max_lines]"));
  assert(lines.includes("[stderr]") && lines.includes("oops"));
  assertEquals(lines[lines.length - 1], "[ssh_exec: exit rc=2]");
  assertEquals(exitCodeOf({ code: null, timedOut: true }), 124);
  assertEquals(exitCodeOf({ code: null, exitSignal: "KILL", timedOut: false }), 137);
  assertEquals(exitCodeOf({ code: null, timedOut: false }), 255);
  match(
    renderExec(result({ code: null, timedOut: true }), o),
    /timed out after 5 s; killed\]\n\[ssh_exec: exit rc=124\]$/,
  );
  // A sudo-gated login profile: noise filtered, counted, and the pin suggested.
  const sudo = renderExec(
    result({ code: 1, stderr: enc.encode("[sudo] password for hci: \nsudo: a password is required\n") }),
    o,
  );
  assert(sudo.includes("2 line(s) of login/sudo noise filtered"), sudo);
  assert(sudo.includes("/ssh-set-hciroot eng1 <path>"), sudo);
  assert(!sudo.includes("[sudo]"));
  assertEquals(
    renderExec(result({ droppedStdout: 10 }), o),
    "[ssh_exec: 10 further bytes of output discarded]\n[ssh_exec: exit rc=0]",
  );
});

Deno.test("pickSmatdbPath: by prefix, not position; last line as the fallback", () => {
  assertEquals(pickSmatdbPath("motd\nSMATDB_PATH: /a/x.smatdb\nbye\n"), "/a/x.smatdb");
  assertEquals(pickSmatdbPath("SMATDB_PATH: /a/1.smatdb\r\nSMATDB_PATH: /a/2.smatdb\r\n"), "/a/2.smatdb");
  assertEquals(pickSmatdbPath("noise\n/a/y.smatdb\n\n"), "/a/y.smatdb");
  assertEquals(pickSmatdbPath(""), undefined);
  assertEquals(pickSmatdbPath("SMATDB_ERROR: none\n"), undefined);
  assertEquals(resolveError("x\nSMATDB_ERROR: no SMAT database\n"), "no SMAT database");
});

Deno.test("parseSampleOutput and rowsToTsv: markers, noise, hex to base64", () => {
  const out =
    "welcome\nSMAT_SAMPLER: sqlite3 /usr/bin/sqlite3\nSMAT_ROWS_BEGIN\n7\t1700000000000\t4D53487C\n" +
    "8\t1700000000001\t\nbroken\tx\tzz\nSMAT_ROWS_END\n";
  const p = parseSampleOutput(out);
  assertEquals(p.sampler, { name: "sqlite3", program: "/usr/bin/sqlite3" });
  assertEquals(p.complete, true);
  assertEquals(p.rows.length, 2);
  assertEquals(new TextDecoder().decode(p.rows[0].content), "MSH|");
  const tsv = rowsToTsv(p.rows);
  assertEquals(tsv.split("\n")[0], "mid\ttime_in\ttime_iso\tcontent_base64");
  assertEquals(tsv.split("\n")[1], "7\t1700000000000\t2023-11-14T22:13:20.000Z\tTVNIfA==");
  assertEquals(timeIso(1700000000), "2023-11-14T22:13:20.000Z"); // a seconds-era archive
  assertEquals(parseSampleOutput("SMAT_SAMPLER: tcl /x\nSMAT_ROWS_BEGIN\n1\t2\tAA\n").complete, false);
  assert(sampleSql(86_400_000).includes("THEN 86400 ELSE 86400000"));
});

/** A .smatdb with n messages, one per hour back from now. */
function archive(path: string, n: number): void {
  const now = Date.now();
  writeSmatDb(
    path,
    Array.from(
      { length: n },
      (_, i) => ({
        mid: 1 + i,
        time: now - i * 3_600_000,
        source: "adt_in",
        content: hl7("ADT^A01", i, now),
      }),
    ),
  );
}

Deno.test("the SMAT scripts run: resolve by name, site, path; sample with sqlite3, python3 and Tcl", async (t) => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await Deno.mkdir(`${root}/adt/exec/processes/p1`, { recursive: true });
  await Deno.mkdir(`${root}/lab/exec/processes/p2`, { recursive: true });
  archive(`${root}/adt/exec/processes/p1/adt_in.smatdb`, 60);
  archive(`${root}/lab/exec/processes/p2/lab_in.smatdb`, 3);
  const env = { HCIROOT: root };

  await t.step("resolve", async () => {
    const byName = await sh(resolveScript({ hciroot: "", target: "adt_in" }), env);
    assertEquals(pickSmatdbPath(byName.out), `${root}/adt/exec/processes/p1/adt_in.smatdb`);
    const bySite = await sh(resolveScript({ hciroot: root, site: "lab" }), {});
    assertEquals(pickSmatdbPath(bySite.out), `${root}/lab/exec/processes/p2/lab_in.smatdb`);
    const abs = await sh(
      resolveScript({ hciroot: "", target: `${root}/lab/exec/processes/p2/lab_in.smatdb` }),
      {},
    );
    assertEquals(pickSmatdbPath(abs.out), `${root}/lab/exec/processes/p2/lab_in.smatdb`);
    const none = await sh(resolveScript({ hciroot: root, target: "nope" }), {});
    assertEquals(none.code, 3);
    match(resolveError(none.out) ?? "", /no SMAT database nope under/);
    const noRoot = await sh(resolveScript({ hciroot: "" }), {});
    match(resolveError(noRoot.out) ?? "", /HCIROOT is not set/);
  });

  // Stubs that make a sampler look absent (a broken program is skipped too).
  const stubs = `${tmp.path}/stubs`;
  await Deno.mkdir(stubs);
  const path = `${root}/adt/exec/processes/p1/adt_in.smatdb`;
  const cutoff = Date.now() - 24 * 3_600_000 - 60_000; // one day back: 25 messages
  const samplers: Array<[string, string[]]> = [["sqlite3", []], ["python3", ["sqlite3"]], ["tcl", [
    "sqlite3",
    "python3",
  ]]];
  for (const [name, hide] of samplers) {
    await t.step(`sample with ${name}`, async () => {
      for (const h of ["sqlite3", "python3"]) await Deno.remove(`${stubs}/${h}`).catch(() => {});
      for (const h of hide) {
        await Deno.writeTextFile(`${stubs}/${h}`, "#!/bin/sh\nexit 127\n", { mode: 0o755 });
      }
      const r = await sh(sampleScript(path, cutoff, root), { PATH: `${stubs}:${Deno.env.get("PATH")}` });
      assertEquals(r.code, 0, r.err);
      const p = parseSampleOutput(r.out);
      assertEquals(p.sampler?.name, name);
      assertEquals(p.complete, true);
      assertEquals(p.rows.length, 25);
      assert(p.rows[0].timeIn > p.rows[1].timeIn, "newest first");
      assert(new TextDecoder().decode(p.rows[0].content).startsWith("MSH|^~\\&|"));
    });
  }
  await t.step("the 1000 cap", async () => {
    archive(`${root}/adt/exec/processes/p1/big.smatdb`, 1200);
    const r = await sh(sampleScript(`${root}/adt/exec/processes/p1/big.smatdb`, 0, root));
    assertEquals(parseSampleOutput(r.out).rows.length, 1000);
  });
  await t.step("no reader at all", async () => {
    const r = await sh(sampleScript(path, cutoff, ""), { PATH: stubs + ":/nonexistent" });
    assertEquals(r.code, 5);
    match(parseSampleOutput(r.out).error ?? "", /no SQLite reader on the engine host/);
  });
});
