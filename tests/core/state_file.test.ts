/**
 * Locked read-modify-write of state files (core/state_file.ts, issue #29 item 4) and the operator's
 * line for a file-system error (core/io_error.ts, item 10). The multi-process and full-disk cases
 * are in tests/faults/.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { updateStateFile } from "../../core/state_file.ts";
import { ioErrorLine, ioFault, ioReason } from "../../core/io_error.ts";
import { AssistError, describeError, ioError } from "../../core/errors.ts";
import { tempDir } from "../support/run_assist.ts";

const full = () =>
  Object.assign(new Error("No space left on device (os error 28): writefile '/h/.ssh-hosts.tsv'"), {
    code: "ENOSPC",
  });
const readOnly = () =>
  Object.assign(new Error("Read-only file system (os error 30): open '/h/.history.lock'"), { code: "EROFS" });

Deno.test("updateStateFile: concurrent changes in one process all land, each through its own temporary", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/.list`;
  await Deno.writeTextFile(path, "# kept as it was\n\xff not understood\n");
  const dec = new TextDecoder();
  await Promise.all(
    Array.from({ length: 40 }, (_, i) => updateStateFile(path, (old) => dec.decode(old) + `line ${i}\n`)),
  );
  const lines = (await Deno.readTextFile(path)).split("\n");
  assertEquals(lines.slice(0, 2), ["# kept as it was", "\xff not understood"]);
  assertEquals(lines.filter((l) => l.startsWith("line ")).length, 40);
  assertEquals([...Deno.readDirSync(tmp.path)].map((e) => e.name).sort(), [".list", ".list.lock"]);
});

Deno.test("updateStateFile: a killed writer's temporaries are swept; no change leaves the file alone", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/.ssh-hosts.tsv`;
  await Deno.writeTextFile(path, "a\tu@h\t22\n");
  await Deno.writeTextFile(`${path}.12345.0a1b2c3d.new`, "half");
  await Deno.writeTextFile(`${path}.backup.new`, "not ours: kept");
  const before = (await Deno.stat(path)).mtime;
  assertEquals(await updateStateFile(path, () => undefined), undefined);
  assertEquals((await Deno.stat(path)).mtime, before);
  assertEquals([...Deno.readDirSync(tmp.path)].map((e) => e.name).sort(), [
    ".ssh-hosts.tsv",
    ".ssh-hosts.tsv.backup.new",
    ".ssh-hosts.tsv.lock",
  ]);
});

Deno.test("updateStateFile: a failure names the file and the next step, and keeps the old file", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/.env`;
  await Deno.writeTextFile(path, "A=1\n");
  await Deno.mkdir(`${path}.lock`); // the lock cannot be opened: as on a broken disk
  const err = await updateStateFile(path, () => "A=2\n", { onError: { retry: "run it again" } }).then(
    () => undefined,
    (e) => e,
  );
  assert(err instanceof AssistError && err.level === "io", String(err));
  // The file is named, then the OS's reason: POSIX says the lock is a directory; Windows (and
  // Wine, "invalid handle") word it their own way.
  const named = `^cannot write ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `;
  match(err.message, new RegExp(Deno.build.os === "windows" ? named : `${named}is a directory$`));
  assertEquals(await Deno.readTextFile(path), "A=1\n");
});

Deno.test("io errors: a full disk and a read-only file system say what and what next, never a class name", () => {
  assertEquals([ioFault(full()), ioFault(readOnly()), ioFault(new TypeError("x"))], [
    "disk_full",
    "read_only",
    undefined,
  ]);
  // An error that lost its code still counts by its OS number (Windows' disk-full numbers too).
  assertEquals(ioFault(new Error("There is not enough space on the disk. (os error 112)")), "disk_full");
  assertEquals(ioReason(new Error("Is a directory (os error 21): open '/x'")), "is a directory");
  assertEquals(
    ioErrorLine(full(), "/h/.ssh-hosts.tsv", { retry: "run assist ssh add h1 u@h again" }),
    "cannot write /h/.ssh-hosts.tsv: the disk is full (free space on it, then run assist ssh add h1 u@h again)",
  );
  assertEquals(
    ioErrorLine(readOnly(), "/h/.history", { inHome: true }),
    "cannot write /h/.history: the file system is read-only " +
      "(make it writable or set ASSIST_HOME to a writable folder, then try again)",
  );
  // Unwrapped, as it reaches a front: the path comes from Deno's own message; no "unexpected error".
  assertEquals(
    describeError(full()),
    "cannot write /h/.ssh-hosts.tsv: the disk is full (free space on it, then try again)",
  );
  match(describeError(new TypeError("boom")), /^unexpected error: boom$/);
  const wrapped = ioError(full(), "/h/x");
  assertEquals([wrapped.level, wrapped.exitCode], ["io", 1]);
  const mine = new AssistError("already worded", { level: "io" });
  assertEquals(ioError(mine, "/h/x"), mine);
});
