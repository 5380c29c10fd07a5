import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { bashExecTool } from "../../../tools/bash/bash_exec_tool.ts";
import { render } from "../../../tools/bash/run/bash_exec.ts";
import { childEnv } from "../../../core/child_env.ts";
import { ARGV_COMMAND_LIMIT, shellFor } from "../../../tools/bash/shell.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor } from "../support.ts";

Deno.test(
  "bash_exec: output, stderr section and exit footer",
  { ignore: Deno.build.os === "windows" },
  async () => {
    await using tmp = await tempDir();
    const ctx = contextFor(`${tmp.path}/.assist`, tmp.path);
    const r = await call(bashExecTool, { command: "echo out; echo err >&2; exit 7" }, ctx);
    assertEquals(r.text, "out\n[stderr]\nerr\n[bash_exec: exit rc=7]");
  },
);

Deno.test("bash_exec: the timeout kills the whole process group and says so", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using tmp = await tempDir();
  const ctx = contextFor(`${tmp.path}/.assist`, tmp.path);
  const started = Date.now();
  // The grandchild keeps stdout open: only a group kill ends the call.
  const r = await call(bashExecTool, {
    command: `(sleep 30; echo late) & echo started; sleep 30`,
    timeout_seconds: 1,
  }, ctx);
  assert(Date.now() - started < 10_000, "returned long after the timeout");
  match(r.text, /^started\n\[bash_exec: timed out after 1 s; killed\]\n\[bash_exec: exit rc=124\]$/);
});

Deno.test(
  "bash_exec: cancel through the context signal",
  { ignore: Deno.build.os === "windows" },
  async () => {
    await using tmp = await tempDir();
    const ab = new AbortController();
    const ctx = { ...contextFor(`${tmp.path}/.assist`, tmp.path), signal: ab.signal };
    setTimeout(() => ab.abort(), 200);
    const r = await call(bashExecTool, { command: "sleep 30" }, ctx);
    match(r.text, /\[bash_exec: cancelled; killed\]/);
  },
);

Deno.test("bash_exec: max_lines caps output with a note, stderr keeps its share", () => {
  const out = { text: Array.from({ length: 100 }, (_, i) => `o${i}`).join("\n") + "\n", dropped: 0 };
  const err = { text: Array.from({ length: 10 }, (_, i) => `e${i}`).join("\n") + "\n", dropped: 0 };
  const text = render(out, err, 0, 20, undefined, 120);
  const lines = text.split("\n");
  assertEquals(lines.slice(0, 15), Array.from({ length: 15 }, (_, i) => `o${i}`));
  assertEquals(lines[15], "[stderr]");
  assertEquals(lines.slice(16, 21), ["e0", "e1", "e2", "e3", "e4"]);
  assertEquals(lines.slice(21), [
    "[bash_exec: output truncated: 20 of 110 lines shown; raise max_lines]",
    "[bash_exec: exit rc=0]",
  ]);
  assertEquals(
    render({ text: "a\r\nb\r\n", dropped: 0 }, { text: "", dropped: 5 }, 1, 500, undefined, 1),
    "a\nb\n[bash_exec: 5 further bytes of output discarded]\n[bash_exec: exit rc=1]",
  );
});

Deno.test("child environment: named variables only, never secrets or ASSIST_*", () => {
  const parent: Record<string, string> = {
    PATH: "/bin",
    HOME: "/h",
    HCIROOT: "/hci",
    ASSIST_API_KEY: "k",
    ASSIST_HOME: "/h/.assist",
    ORIGIN_TOKEN: "t",
    ASSIST_ORIGIN_TOKEN: "t2",
    AWS_SECRET_ACCESS_KEY: "aws",
  };
  assertEquals(childEnv((n) => parent[n]), { PATH: "/bin", HOME: "/h", HCIROOT: "/hci" });
});

Deno.test("shell choice per OS", () => {
  assertEquals(shellFor("linux", "ls"), { program: "bash", args: ["-c", "ls"], raw: false });
  assertEquals(shellFor("windows", 'findstr "ADT A01" "C:\\hci\\x.log"'), {
    program: "cmd.exe",
    args: ["/d", "/s", "/c", '"findstr "ADT A01" "C:\\hci\\x.log""'],
    raw: true,
  });
});

Deno.test("bash_exec: a detached background process holding the pipes does not hold the call", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using tmp = await tempDir();
  const ctx = contextFor(`${tmp.path}/.assist`, tmp.path);
  const started = Date.now();
  const r = await call(bashExecTool, { command: "setsid sleep 20 & echo started", timeout_seconds: 30 }, ctx);
  assert(Date.now() - started < 5_000, `waited ${Date.now() - started} ms for a background process`);
  match(
    r.text,
    /^started\n\[bash_exec: a background process still holds the output open; not waited for\]\n\[bash_exec: exit rc=0\]$/,
  );
});

Deno.test(
  "bash_exec: a command too long for argv runs from a 0600 script file, removed afterwards",
  { ignore: Deno.build.os === "windows" },
  async () => {
    await using tmp = await tempDir();
    const ctx = contextFor(`${tmp.path}/.assist`, tmp.path);
    // 600 KB: Linux refuses a single argument over 128 KiB ("Argument list too long").
    const body = Array.from({ length: 3000 }, (_, i) => `PID|1||${String(i).repeat(60)}`).join("\n");
    const command =
      `printf '%s\\n' "$0" | grep -c assist-bash- ; wc -l <<'EOF'\n${body}\nEOF\necho "args=$#"`;
    assert(command.length > 4 * ARGV_COMMAND_LIMIT);
    const before = new Set([...Deno.readDirSync(Deno.env.get("TMPDIR") ?? "/tmp")].map((e) => e.name));
    const r = await call(bashExecTool, { command }, ctx);
    assertEquals(r.isError, undefined, r.text);
    assertEquals(r.text, "1\n3000\nargs=0\n[bash_exec: exit rc=0]");
    const left = [...Deno.readDirSync(Deno.env.get("TMPDIR") ?? "/tmp")]
      .filter((e) => e.name.startsWith("assist-bash-") && !before.has(e.name));
    assertEquals(left, [], "the script file is removed");
    // A short command still runs through `bash -c`, as before ($0 is bash itself, not a script).
    match(
      (await call(bashExecTool, { command: 'echo "$0"' }, ctx)).text,
      /^(\/\S*\/)?bash\n\[bash_exec: exit rc=0\]$/,
    );
  },
);
