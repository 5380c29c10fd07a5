import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { coerceInt, stripCr } from "../../core/clean.ts";
import { atomicWrite } from "../../core/atomic_write.ts";
import { AssistError, describeError, EXIT } from "../../core/errors.ts";
import { colorAllowed, styler } from "../../core/term.ts";
import { VERSION } from "../../core/version.ts";
import { expandTilde, posixEmulation, windowsDrivePath } from "../../core/tilde.ts";
import { streamingWanted } from "../../cli/build_agent.ts";
import { REPO_ROOT, tempDir } from "../support/run_assist.ts";

Deno.test("stripCr / coerceInt", () => {
  assertEquals(stripCr("a\r\nb\r"), "a\nb");
  assertEquals(coerceInt("42\r"), 42);
  assertEquals(coerceInt(" -7 "), -7);
  assertEquals(coerceInt(7), 7);
  assertEquals(coerceInt(7.5), undefined);
  assertEquals(coerceInt("7.5"), undefined);
  assertEquals(coerceInt(""), undefined);
  assertEquals(coerceInt("0x10"), undefined);
  assertEquals(coerceInt("5", { min: 6 }), undefined);
  assertEquals(coerceInt("9", { max: 8 }), undefined);
  assertEquals(coerceInt(null), undefined);
});

Deno.test("atomicWrite: mode at creation, no .new left, old file kept when validation fails", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using tmp = await tempDir();
  const p = `${tmp.path}/state.json`;
  await atomicWrite(p, '{"a":1}', { mode: 0o600 });
  assertEquals(await Deno.readTextFile(p), '{"a":1}');
  assertEquals((await Deno.stat(p)).mode! & 0o777, 0o600);
  // A stale, world-readable .new from a crash must not leak its mode into the new file.
  await Deno.writeTextFile(`${p}.new`, "stale", { mode: 0o644 });
  await Deno.chmod(`${p}.new`, 0o644);
  await atomicWrite(p, '{"a":2}', { mode: 0o600 });
  assertEquals((await Deno.stat(p)).mode! & 0o777, 0o600);
  await rejects(() => Deno.stat(`${p}.new`));
  await rejects(
    () =>
      atomicWrite(p, "not json", {
        validate: (b) => JSON.parse(new TextDecoder().decode(b)),
      }),
  );
  assertEquals(await Deno.readTextFile(p), '{"a":2}');
});

Deno.test("atomicWrite: a symlink planted at <path>.new is not followed", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/victim.txt`, "keep me");
  await Deno.symlink(`${tmp.path}/victim.txt`, `${tmp.path}/out.txt.new`);
  await atomicWrite(`${tmp.path}/out.txt`, "new content", { mode: 0o600 });
  assertEquals(await Deno.readTextFile(`${tmp.path}/victim.txt`), "keep me");
  assertEquals((await Deno.lstat(`${tmp.path}/out.txt`)).isSymlink, false);
  assertEquals(await Deno.readTextFile(`${tmp.path}/out.txt`), "new content");
});

Deno.test("errors: one line, level-driven exit codes, stack only in debug", () => {
  const e = new AssistError("bad\r\nthing\n  here", { level: "usage" });
  assertEquals(e.message, "bad thing here");
  assertEquals(e.exitCode, EXIT.usage);
  assertEquals(new AssistError("x", { level: "io" }).exitCode, EXIT.failure);
  assertEquals(describeError(new TypeError("boom\nline")), "unexpected error: boom line");
  assert(describeError(new TypeError("boom"), true).includes("at "));
  assertEquals(describeError(e), "bad thing here");
});

Deno.test("terminal: NO_COLOR and non-TTY disable styling", () => {
  assertEquals(colorAllowed("stdout", "1"), false);
  assertEquals(styler(false).red("x"), "x");
  assertEquals(styler(true).red("x"), "\x1b[31mx\x1b[39m");
});

Deno.test("the embedded version equals the VERSION file", async () => {
  assertEquals(VERSION, (await Deno.readTextFile(`${REPO_ROOT}VERSION`)).trim());
});

Deno.test("POSIX emulation on Windows: drive paths typed in Git Bash or Cygwin open the same file", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assert(posixEmulation(env({ MSYSTEM: "MINGW64" })));
  assert(posixEmulation(env({ TERM: "cygwin" })));
  assert(!posixEmulation(env({ TERM: "xterm-256color" })));
  assertEquals(windowsDrivePath("/c/Users/op/adt.hl7"), "C:\\Users\\op\\adt.hl7");
  assertEquals(windowsDrivePath("/cygdrive/d/hci/NetConfig"), "D:\\hci\\NetConfig");
  assertEquals(windowsDrivePath("/c"), "C:\\");
  assertEquals(windowsDrivePath("/tmp/x"), "/tmp/x", "not a drive form: left for the caller");
  assertEquals(windowsDrivePath("/cc/x"), "/cc/x");
  // Only on Windows inside an emulation; `~` still expands; POSIX hosts never translate.
  assertEquals(expandTilde("/c/hci/a.hl7", "C:\\Users\\op", true, true), "C:\\hci\\a.hl7");
  assertEquals(expandTilde("/c/hci/a.hl7", "C:\\Users\\op", true, false), "/c/hci/a.hl7");
  assertEquals(expandTilde("/c/hci/a.hl7", "/home/op", false, true), "/c/hci/a.hl7");
  assertEquals(expandTilde("~/a.hl7", "C:\\Users\\op", true, true), "C:\\Users\\op\\a.hl7");
  // The same detection turns streaming off by default there (ASSIST_NO_STREAM automatic).
  assertEquals(streamingWanted(undefined, "windows", env({ MSYSTEM: "MINGW64" })), false);
  assertEquals(streamingWanted(undefined, "windows", env({})), true);
  assertEquals(streamingWanted(false, "windows", env({ MSYSTEM: "MINGW64" })), true);
});
