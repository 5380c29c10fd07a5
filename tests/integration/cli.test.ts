/** The program as an operator runs it: a subprocess under exactly the shipped permission set. */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { CONFIG, REPO_ROOT, runAssist, tempDir } from "../support/run_assist.ts";

const oneLine = (s: string) => s.trim().split("\n").length === 1;

Deno.test("--version prints the embedded version, equal to the VERSION file", async () => {
  const version = (await Deno.readTextFile(`${REPO_ROOT}VERSION`)).trim();
  const r = await runAssist(["--version"]);
  assertEquals(r.code, 0);
  assertEquals(r.stdout, `assist ${version}\n`);
  assertEquals(r.stderr, "");
});

Deno.test("--help lists every form, every ASSIST_* variable of the spec and the exit codes", async () => {
  const r = await runAssist(["--help"]);
  assertEquals(r.code, 0);
  for (
    const form of [
      "assist --version",
      "assist --help",
      "assist tools list",
      "assist tools <name> [args]",
      "assist tools <name> --help",
    ]
  ) {
    assert(r.stdout.includes(form), `help lacks ${form}`);
  }
  // The spec's environment table, kept in the repo (a missing file fails the test, never skips it).
  const spec = await Deno.readTextFile(`${REPO_ROOT}tests/fixtures/spec/environment.md`);
  const specVars = new Set(spec.match(/`(ASSIST_[A-Z_]+|ORIGIN_TOKEN)`/g)?.map((v) => v.slice(1, -1)) ?? []);
  assert(specVars.size >= 18, `tests/fixtures/spec/environment.md names only ${specVars.size} variables`);
  for (
    const v of [
      "ASSIST_HOME",
      "ASSIST_AUTO_PHI",
      "ASSIST_PHI_PORT",
      "ASSIST_TOOL_RESULT_REVIEW_THRESHOLD",
      ...specVars,
    ]
  ) {
    if (v === "ORIGIN_TOKEN") continue; // documented beside ASSIST_ORIGIN_TOKEN
    assert(r.stdout.includes(v), `help lacks ${v}`);
  }
  match(r.stdout, /exit codes:[\s\S]*\b2\b.*usage/);
});

Deno.test("tools list: every tool with an aligned one-line description", async () => {
  const r = await runAssist(["tools", "list"]);
  assertEquals(r.code, 0);
  const lines = r.stdout.trimEnd().split("\n");
  const names = lines.map((l) => l.split(/\s+/)[0]);
  for (const n of ["read_file", "grep_files", "glob_files", "list_dir", "bash_exec"]) {
    assert(names.includes(n), n);
  }
  const columns = new Set(lines.map((l) => l.match(/^\S+\s+/)![0].length));
  assertEquals(columns.size, 1, "descriptions start in one column");
});

Deno.test("tools read_file reads a file; a range; --json form", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/a.txt`, "one\ntwo\nthree\n");
  const env = { HOME: tmp.path };
  const all = await runAssist(["tools", "read_file", `${tmp.path}/a.txt`], { env });
  assertEquals(all.code, 0);
  assertEquals(all.stdout, "one\ntwo\nthree\n");
  const range = await runAssist(["tools", "read_file", "a.txt", "--start-line=2", "--end-line", "2"], {
    env,
    cwd: tmp.path,
  });
  assertEquals(range.stdout, "two\n");
  const json = await runAssist([
    "tools",
    "read_file",
    "--json",
    JSON.stringify({ path: "a.txt", start_line: 3 }),
  ], { env, cwd: tmp.path });
  assertEquals(json.stdout, "three\n");
});

Deno.test("tools read_file refuses a protected path with a one-line reason and exit 1", async () => {
  await using tmp = await tempDir();
  const home = `${tmp.path}/.assist`;
  await Deno.mkdir(`${home}/sanitize`, { recursive: true });
  await Deno.writeTextFile(`${home}/sanitize/lookup.tsv`, "[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n");
  const r = await runAssist(["tools", "read_file", `${home}/sanitize/lookup.tsv`], {
    env: { HOME: tmp.path },
  });
  assertEquals(r.code, 1);
  assertEquals(r.stdout, "");
  assert(oneLine(r.stderr));
  match(r.stderr, /refused: .* protected sanitize\//);
  assert(!r.stderr.includes("SMITH"));
});

Deno.test("an unknown tool: one line, exit 2, with a suggestion", async () => {
  const r = await runAssist(["tools", "read_fil"]);
  assertEquals(r.code, 2);
  assert(oneLine(r.stderr));
  match(r.stderr, /unknown tool: read_fil .*did you mean read_file/);
});

Deno.test("bad arguments: one line, exit 2", async (t) => {
  for (
    const [name, args, pattern] of [
      ["non-integer", ["tools", "read_file", "x", "--start-line", "abc"], /start_line must be an integer/],
      ["unknown option", ["tools", "read_file", "x", "--bogus"], /unknown option --bogus/],
      ["missing required", ["tools", "read_file"], /missing path/],
      ["extra positional", ["tools", "read_file", "a", "b"], /unexpected argument "b"/],
      ["bad --json", ["tools", "read_file", "--json", "{nope"], /not valid JSON/],
      [
        "below minimum",
        ["tools", "bash_exec", "true", "--timeout-seconds", "0"],
        /timeout_seconds must be an integer from 1/,
      ],
      ["unknown command", ["--frobnicate"], /unknown command or option: --frobnicate/],
    ] as const
  ) {
    await t.step(name, async () => {
      const r = await runAssist([...args]);
      assertEquals(r.code, 2, r.stderr);
      assert(oneLine(r.stderr), r.stderr);
      match(r.stderr, pattern);
    });
  }
});

Deno.test("a bad ASSIST_* value: one clear line, exit 2; a CR-terminated integer is accepted", async () => {
  await using tmp = await tempDir();
  const bad = await runAssist(["tools", "list_dir", tmp.path], {
    env: { HOME: tmp.path, ASSIST_AUTO_PHI: "maybe" },
  });
  assertEquals(bad.code, 2);
  assert(oneLine(bad.stderr));
  match(bad.stderr, /ASSIST_AUTO_PHI must be one of .*confirm, strict \(got "maybe"\)/);
  const cr = await runAssist(["tools", "list_dir", tmp.path], {
    env: { HOME: tmp.path, ASSIST_PHI_PORT: "41190\r" },
  });
  assertEquals(cr.code, 0, cr.stderr);
});

Deno.test("tools <name> --help prints usage and arguments", async () => {
  const r = await runAssist(["tools", "grep_files", "--help"]);
  assertEquals(r.code, 0);
  match(r.stdout, /^usage: assist tools grep_files <PATTERN> \[PATH\] \[options\]/);
  match(r.stdout, /--max-results N/);
});

Deno.test(
  "$ASSIST_HOME is created 0700 with private folders 0700",
  { ignore: Deno.build.os === "windows" },
  async () => {
    await using tmp = await tempDir();
    const home = `${tmp.path}/custom-home`;
    const r = await runAssist(["tools", "list_dir", tmp.path], { env: { ASSIST_HOME: home } });
    assertEquals(r.code, 0, r.stderr);
    for (const d of ["", "/log", "/sanitize", "/sessions", "/.ssh-creds", "/.ssh-sockets"]) {
      assertEquals((await Deno.stat(`${home}${d}`)).mode! & 0o777, 0o700, `${home}${d}`);
    }
  },
);

Deno.test("bash_exec: the child never sees our secrets", async () => {
  await using tmp = await tempDir();
  const env = {
    HOME: tmp.path,
    ASSIST_API_KEY: "sk-ant-TESTKEY-123",
    ASSIST_ORIGIN_TOKEN: "origin-TOKEN-456",
    ORIGIN_TOKEN: "plain-TOKEN-789",
    HCIROOT: "/hci/root",
  };
  const r = await runAssist(["tools", "bash_exec", 'env; echo "[$ASSIST_API_KEY$ORIGIN_TOKEN]"'], { env });
  assertEquals(r.code, 0, r.stderr);
  for (const secret of Object.values(env).slice(1, 4)) assert(!r.stdout.includes(secret), `leaked ${secret}`);
  assert(!/ASSIST_/.test(r.stdout));
  match(r.stdout, /HCIROOT=\/hci\/root/);
  match(r.stdout, /\[\]\n\[bash_exec: exit rc=0\]\n$/);
});

Deno.test("the permission set refuses what is outside it", async (t) => {
  const probe = `${REPO_ROOT}tests/support/permission_probe.ts`;
  const run = async (what: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=assist", "--config", CONFIG, probe, what],
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "", AWS_SECRET_ACCESS_KEY: "x" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  await t.step(
    "an environment variable not in the list",
    async () => assertEquals(await run("env"), "NotCapable"),
  );
  await t.step("a program not in the list", async () => assertEquals(await run("run"), "NotCapable"));
  await t.step("FFI", async () => assertEquals(await run("ffi"), "NotCapable"));
  await t.step(
    "a listed variable is readable (the probe itself works)",
    async () => assertEquals(await run("env-ok"), "ok"),
  );
});

Deno.test("deno.json: one permission set, no -A, no FFI, scoped env/run/sys; every run/compile task uses it", async () => {
  const text = await Deno.readTextFile(CONFIG);
  const json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
  const set = json.permissions.assist;
  assert(Array.isArray(set.env) && Array.isArray(set.run) && Array.isArray(set.sys));
  assertEquals(set.ffi, false);
  assertEquals(set.all, undefined);
  for (const [name, task] of Object.entries<string>(json.tasks)) {
    assert(!/\s-A\b|--allow-all/.test(task), `${name} uses -A`);
    if (name === "assist" || name.startsWith("compile:")) {
      assert(task.includes("-P=assist"), `${name} does not use the assist set`);
      assert(!/--allow-/.test(task), `${name} adds its own flags`);
    }
  }
  // Every variable the program documents (and so reads) is readable under the set.
  const { ENV_DOC } = await import("../../core/config.ts");
  for (const [name] of ENV_DOC) {
    assert(set.env.includes(name), `${name} is documented but not in the env list`);
  }
  const { CHILD_ENV_NAMES } = await import("../../core/child_env.ts");
  for (const name of CHILD_ENV_NAMES) {
    assert(set.env.includes(name), `${name} is passed to children but not readable`);
  }
  const targets = Object.keys(json.tasks).filter((k) => k.startsWith("compile:")).map((k) =>
    json.tasks[k].match(/--target (\S+)/)[1]
  );
  assertEquals(targets.sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
});

Deno.test("assist phi-sidecar: the lifecycle by hand (status when stopped; usage errors)", async () => {
  await using tmp = await tempDir();
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String((l.addr as Deno.NetAddr).port);
  l.close();
  const env = { HOME: tmp.path, ASSIST_PHI_PORT: port };
  const status = await runAssist(["phi-sidecar", "status"], { env });
  assertEquals(status.code, 1);
  match(
    status.stdout,
    new RegExp(`^not running on 127\\.0\\.0\\.1:${port}; start it with assist phi-sidecar start\\n$`),
  );
  const bad = await runAssist(["phi-sidecar", "launch"], { env });
  assertEquals(bad.code, 2);
  match(
    bad.stderr,
    /^assist: usage: assist phi-sidecar start\|stop\|status\|health\|ensure \(got "launch"\)\n$/,
  );
});

Deno.test("on a terminal the error prefix is coloured, and NO_COLOR turns it off (run under script(1))", async () => {
  await using tmp = await tempDir();
  const { assistCommandArgs } = await import("../support/run_assist.ts");
  const line = [Deno.execPath(), ...assistCommandArgs(["tools", "nope"])].map((a) => `'${a}'`).join(" ");
  const onTty = async (noColor: boolean) => {
    const out = await new Deno.Command("script", {
      args: ["-qec", line, "/dev/null"],
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: tmp.path,
        ...(noColor ? { NO_COLOR: "1" } : {}),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout);
  };
  const coloured = await onTty(false);
  assert(coloured.startsWith("\x1b[31massist:\x1b[39m unknown tool: nope"), JSON.stringify(coloured));
  match(await onTty(true), /^assist: unknown tool: nope/);
});

Deno.test("bash_exec under the shipped permissions: a timeout kills the command and all it started", async () => {
  // Deno.kill(-pid) needs unrestricted run permission, which the assist set does not grant: the
  // process group must still die (no late output, no wait for the sleep), and no permission text.
  await using tmp = await tempDir();
  const r = await runAssist(
    ["tools", "bash_exec", "--command", "sleep 30 & sleep 30; echo late", "--timeout_seconds", "1"],
    { env: { HOME: tmp.path } },
  );
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.includes("[bash_exec: timed out after 1 s; killed]"), r.stdout);
  assert(!r.stdout.includes("late") && !r.stdout.includes("still holds the output"), r.stdout);
  assert(!/allow-run|permission/i.test(r.stdout + r.stderr), r.stderr);
});
