/**
 * The program on Windows, as an operator there runs it: Deno's Windows build, `-P=assist`, paths
 * with drive letters and backslashes, the protected places under `%USERPROFILE%\.assist` by every
 * Windows spelling, `bash_exec` through cmd.exe, and a `-p` turn against the local Messages API.
 * Windows only: `.ci/windows.sh` runs this folder under Wine 10 (the Linux run leaves it out).
 * Every check here passes under Wine as on Windows; what Wine cannot do (symbolic links, the
 * console) is listed by .ci/windows.sh.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { REPO_ROOT, runAssist, tempDir } from "../support/run_assist.ts";

const WINDOWS = Deno.build.os === "windows";

/** The environment a Windows program needs besides ours: Winsock needs SystemRoot, cmd.exe ComSpec. */
function winEnv(profile: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { USERPROFILE: profile, NO_COLOR: "1" };
  for (const name of ["SystemRoot", "ComSpec", "TEMP", "TMP", "PATHEXT", "windir"]) {
    const v = Deno.env.get(name);
    if (v) env[name] = v;
  }
  return { ...env, ...extra };
}

const back = (p: string) => p.replaceAll("/", "\\");
const fwd = (p: string) => p.replaceAll("\\", "/");

const MSG = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||SMITH^JO\r";

Deno.test({
  name: "windows: --version and tools list from Deno's Windows build",
  ignore: !WINDOWS,
  async fn() {
    const v = await runAssist(["--version"], { env: winEnv(REPO_ROOT) });
    assertEquals(v.code, 0, v.stderr);
    const version = (await Deno.readTextFile(`${REPO_ROOT}VERSION`)).trim();
    assertEquals(v.stdout, `assist ${version}\n`);
    const list = await runAssist(["tools", "list"], { env: winEnv(REPO_ROOT) });
    assertEquals(list.code, 0, list.stderr);
    for (const n of ["read_file", "hl7_field", "bash_exec", "grep_files"]) {
      match(list.stdout, new RegExp(`^${n}\\s`, "m"));
    }
  },
});

Deno.test({
  name: "windows: read_file and hl7_field take drive-letter, backslash and mixed paths",
  ignore: !WINDOWS,
  async fn() {
    await using tmp = await tempDir();
    const dir = back(tmp.path);
    assert(/^[A-Za-z]:\\/.test(dir), `a drive path: ${dir}`);
    await Deno.mkdir(`${dir}\\feed`);
    await Deno.writeTextFile(`${dir}\\feed\\a.hl7`, MSG);
    const env = winEnv(dir);
    for (
      const path of [`${dir}\\feed\\a.hl7`, fwd(`${dir}\\feed\\a.hl7`), `${dir}\\feed/a.hl7`, "feed\\a.hl7"]
    ) {
      const r = await runAssist(["tools", "read_file", path], { env, cwd: dir });
      assertEquals([r.code, r.stderr], [0, ""], path);
      match(r.stdout, /PID\|1\|\|123\|\|SMITH\^JO/, path);
      const f = await runAssist(["tools", "hl7_field", path, "PID.5"], { env, cwd: dir });
      assertEquals([f.code, f.stdout], [0, "PID.5\nSMITH^JO\n"], `${path}: ${f.stderr}`);
    }
    // `..` and a lower-case drive letter resolve as Windows does.
    const up = `${dir[0].toLowerCase()}${dir.slice(1)}\\feed\\..\\feed\\a.hl7`;
    const r = await runAssist(["tools", "read_file", up], { env, cwd: dir });
    assertEquals(r.code, 0, r.stderr);
    // A missing file: one line naming the path as given, no `.new` or stack.
    const missing = await runAssist(["tools", "read_file", `${dir}\\feed\\nope.hl7`], { env, cwd: dir });
    assertEquals(missing.code, 1);
    assertEquals(missing.stderr.trimEnd().split("\n").length, 1, missing.stderr);
  },
});

/** A profile with the protected places filled in: `%USERPROFILE%\.assist\...`. */
async function protectedProfile(dir: string): Promise<string> {
  const home = `${dir}\\.assist`;
  await Deno.mkdir(`${home}\\sanitize`, { recursive: true });
  await Deno.mkdir(`${home}\\log`, { recursive: true });
  await Deno.writeTextFile(`${home}\\sanitize\\lookup.tsv`, "[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n");
  await Deno.writeTextFile(`${home}\\log\\auto-phi.log`, "SMITH^JOHN\n");
  await Deno.writeTextFile(`${home}\\.oauth.json`, '{"access_token":"tok-secret"}\n');
  await Deno.writeTextFile(`${home}\\notes.txt`, "an ordinary file\n");
  return home;
}

Deno.test({
  name: "windows: protected places are refused by case, trailing-dot, stream and separator variants",
  ignore: !WINDOWS,
  async fn() {
    await using tmp = await tempDir();
    const dir = back(tmp.path);
    const home = await protectedProfile(dir);
    const env = winEnv(dir);
    const variants = [
      `${home}\\sanitize\\lookup.tsv`,
      `${home.toUpperCase()}\\SANITIZE\\LOOKUP.TSV`,
      `${home}\\Sanitize\\Lookup.Tsv`,
      `${home}\\sanitize.\\lookup.tsv`,
      `${home}\\sanitize\\lookup.tsv.`,
      `${home}\\sanitize\\lookup.tsv::$DATA`,
      `${home}\\sanitize \\lookup.tsv`,
      fwd(`${home}\\sanitize\\lookup.tsv`),
      `${home}\\log\\..\\sanitize\\lookup.tsv`,
      `${home}\\LOG\\auto-phi.log`,
      `${home}\\log.\\auto-phi.log`,
      `${home}\\.OAUTH.JSON`,
      `${home}\\.oauth.json.`,
    ];
    for (const path of variants) {
      const r = await runAssist(["tools", "read_file", path], { env, cwd: dir });
      assertEquals(r.code, 1, `${path} was read: ${r.stdout}`);
      assertEquals(r.stdout, "", path);
      match(r.stderr, /refused: .*protected/, path);
      assert(!/SMITH|tok-secret/.test(r.stderr), path);
    }
    // The neighbours stay readable.
    const ok = await runAssist(["tools", "read_file", `${home.toUpperCase()}\\NOTES.TXT`], { env, cwd: dir });
    assertEquals([ok.code, ok.stdout], [0, "an ordinary file\n"], ok.stderr);
  },
});

Deno.test({
  name: "windows: a protected place by its 8.3 short name is refused",
  ignore: !WINDOWS,
  async fn() {
    await using tmp = await tempDir();
    const dir = back(tmp.path);
    const home = await protectedProfile(dir);
    // cmd.exe's `for %I in (...) do echo %~sI` prints the short form of a path (`.assist` has one:
    // it is no valid 8.3 name).
    const out = await new Deno.Command("cmd.exe", {
      args: ["/d", "/c", `for %I in ("${home}\\sanitize\\lookup.tsv") do @echo %~sI`],
      windowsRawArguments: true,
      stdout: "piped",
    }).output();
    const short = new TextDecoder().decode(out.stdout).trim();
    assert(short.includes("~") && !short.includes(".assist"), `a short name: ${short}`);
    assertEquals(await Deno.readTextFile(short), "[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n");
    const r = await runAssist(["tools", "read_file", short], { env: winEnv(dir), cwd: dir });
    assertEquals(r.code, 1, `${short} was read: ${r.stdout}`);
    assertEquals(r.stdout, "");
    match(r.stderr, /refused: .*protected/);
  },
});

Deno.test({
  name: "windows: bash_exec runs its command through cmd.exe",
  ignore: !WINDOWS,
  async fn() {
    await using tmp = await tempDir();
    const dir = back(tmp.path);
    await Deno.writeTextFile(`${dir}\\a.txt`, "from a file\n");
    const env = winEnv(dir);
    const r = await runAssist(["tools", "bash_exec", `echo hello& type "${dir}\\a.txt"& exit /b 3`], {
      env,
      cwd: dir,
    });
    assertEquals(r.code, 0, r.stderr);
    match(r.stdout, /hello\r?\n/);
    match(r.stdout, /from a file/);
    match(r.stdout, /\[bash_exec: exit rc=3\]\n$/);
    // cmd.exe's own variable syntax, not bash's: the secret is not in the child's environment.
    const secret = await runAssist(["tools", "bash_exec", "echo [%ASSIST_API_KEY%]"], {
      env: { ...env, ASSIST_API_KEY: "sk-ant-never-in-child" },
      cwd: dir,
    });
    assertEquals(secret.code, 0, secret.stderr);
    assert(!secret.stdout.includes("sk-ant-never-in-child"), secret.stdout);
  },
});

Deno.test({
  name: "windows: a -p turn against the local Messages API reads a file by its drive path",
  ignore: !WINDOWS,
  async fn() {
    await using tmp = await tempDir();
    await using fake = new FakeModelApi();
    const dir = back(tmp.path);
    await Deno.writeTextFile(`${dir}\\thread.log`, "adt_in: up since 08:00\r\n");
    fake.replies.push({
      text: "Reading it.",
      toolCalls: [{ name: "read_file", input: { path: `${dir}\\thread.log` } }],
    });
    fake.replies.push({ text: "The thread adt_in is up." });
    const r = await runAssist(["-p", "Is adt_in up? See thread.log."], {
      env: winEnv(dir, { ASSIST_API_KEY: "sk-ant-test-key", ASSIST_MODEL_API_URL: fake.url }),
      cwd: dir,
    });
    assertEquals(r.code, 0, r.stderr);
    match(r.stdout, /The thread adt_in is up\./);
    assertEquals(fake.messageRequests.length, 2);
    // The tool result that went back to the model holds the file's text.
    match(fake.messageRequests[1].body, /adt_in: up since 08:00/);
  },
});

/** The sshd .ci/windows.sh runs on the Linux side (tests/windows/_sshd_host.ts); absent: none. */
const SSHD_INFO = Deno.env.get("ASSIST_TEST_SSHD_INFO");

Deno.test({
  name: "windows: ssh setup opens a master over loopback and a token; it outlives setup and serves tools",
  // Needs the Linux sshd of .ci/windows.sh: only that job sets ASSIST_TEST_SSHD_INFO.
  ignore: !WINDOWS || SSHD_INFO === undefined,
  async fn() {
    const host = JSON.parse(await Deno.readTextFile(SSHD_INFO!)) as {
      target: string;
      password: string;
      hciroot: string;
    };
    await using tmp = await tempDir();
    const dir = back(tmp.path);
    const env = winEnv(dir, { ASSIST_HOME: `${dir}\\.assist` });
    const run = (args: string[], stdin?: string) => runAssist(args, { env, cwd: dir, stdin });
    let pid: number | undefined;
    try {
      assertEquals((await run(["ssh", "add", "e1", host.target])).code, 0);
      const pass = await run(["ssh", "pass", "e1"], host.password + "\n");
      assertEquals(pass.code, 0, pass.stderr);
      const setup = await run(["ssh", "setup", "e1"]);
      assertEquals(setup.code, 0, setup.stderr);
      pid = Number(/master for e1 open \(.*, pid (\d+)\)/.exec(setup.stdout)?.[1]);
      assert(pid > 0, setup.stdout);
      // On Windows the master listens on loopback and checks a token file (no Unix socket).
      const addr = JSON.parse(await Deno.readTextFile(`${dir}\\.assist\\.ssh-sockets\\e1.sock`));
      assertEquals([addr.transport, addr.pid, /^[0-9a-f]{64}$/.test(addr.token)], ["tcp", pid, true]);
      // `assist ssh setup` has exited: the master still serves the next commands.
      const status = await run(["ssh", "status", "e1"]);
      match(status.stdout, new RegExp(`open \\(pid ${pid}\\)`));
      const exec = await run(["tools", "ssh_exec", "e1", "echo out; exit 7"]);
      assertEquals([exec.code, exec.stdout], [0, "out\n[ssh_exec: exit rc=7]\n"], exec.stderr);
      const all = [pass, setup, status, exec].map((r) => r.stdout + r.stderr).join("\n");
      assert(!all.includes(host.password), "the password was printed");
      const close = await run(["ssh", "close", "e1"]);
      assertEquals(close.code, 0, close.stderr);
      pid = undefined;
    } finally {
      if (pid) await run(["ssh", "close", "e1"]).catch(() => {});
    }
  },
});
