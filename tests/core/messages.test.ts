/** What reaches the operator in an error: no raw control bytes, no Deno permission advice, no sidecar names. */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { AssistError, describeError, operatorText } from "../../core/errors.ts";
import { atomicWrite, namingTheFile } from "../../core/atomic_write.ts";
import { toolError } from "../../tools/types.ts";
import { tempDir } from "../support/run_assist.ts";

Deno.test("operatorText: Deno's permission advice becomes what happened", () => {
  assertEquals(
    operatorText('Requires read access to "/etc/x", run again with the --allow-read flag'),
    'not permitted to read "/etc/x" (outside what the program may touch)',
  );
  assertEquals(
    operatorText('NotCapable: Requires run access to "nc", run again with the --allow-run flag'),
    'not permitted to run "nc" (outside what the program may touch)',
  );
  assertEquals(
    operatorText(
      'Requires env access to "FOO", specify the required permissions during compilation using `deno compile --allow-env`',
    ),
    'not permitted to read the variable "FOO" (outside what the program may touch)',
  );
  for (
    const text of [
      describeError(new Error('Requires net access to "x:1", run again with the --allow-net flag')),
    ]
  ) {
    assert(!/--allow|run again/.test(text), text);
  }
});

Deno.test("control characters are escaped in every error line and tool error", () => {
  assertEquals(operatorText("bad \x1b[31mred\x07 \x00"), "bad \\x1b[31mred\\x07 \\x00");
  assertEquals(operatorText("tab\tkept, é kept"), "tab\tkept, é kept");
  const r = JSON.parse(toolError("io_error", "cannot read x\x1b]0;title\x07").text);
  assertEquals(r.message, "cannot read x\\x1b]0;title\\x07");
});

Deno.test("embedded CRs are stripped from error lines and tool errors, not escaped", () => {
  assertEquals(operatorText("no such thread: ib_adt\r"), "no such thread: ib_adt");
  assertEquals(
    describeError(new Error("remote said: denied\r\nretry later\r")),
    "unexpected error: remote said: denied retry later",
  );
  const r = JSON.parse(toolError("not_found", "no such file: /hci/a.txt\r").text);
  assertEquals(r.message, "no such file: /hci/a.txt");
  assertEquals(describeError(new AssistError("cannot parse MSH|A\rPID|1\r\n")), "cannot parse MSH|A PID|1");
  // HL7 segments quoted in a message stay apart.
  assertEquals(operatorText("bad message: MSH|^~\\&|A\rPID|1\r"), "bad message: MSH|^~\\&|A PID|1");
});

Deno.test("atomicWrite: a failure names the file, not its .new sidecar", async () => {
  await using tmp = await tempDir();
  const missing = `${tmp.path}/no/such/state.json`;
  await rejects(atomicWrite(missing, "{}"), (e: Error) => {
    assert(e.message.includes(missing) && !e.message.includes(".new"), e.message);
    return e instanceof Deno.errors.NotFound;
  });
  await Deno.mkdir(`${tmp.path}/state.json.new`);
  await rejects(atomicWrite(`${tmp.path}/state.json`, "{}"), (e: Error) => {
    assertEquals(
      e.message,
      `cannot write ${tmp.path}/state.json: a folder is in the way of its temporary copy`,
    );
    return true;
  });
});

Deno.test("atomicWrite: a Windows error, which writes the path with backslashes, names the file too", () => {
  // Deno on Windows reports `C:\\x/state.json.new` as `C:\\x\\state.json.new`.
  const tmp = "C:\\Users\\op\\.assist/no/such/state.json.new";
  const path = "C:\\Users\\op\\.assist/no/such/state.json";
  assertEquals(
    namingTheFile(
      "Path not found. (os error 3): open 'C:\\Users\\op\\.assist\\no\\such\\state.json.new'",
      tmp,
      path,
    ),
    `Path not found. (os error 3): open '${path}'`,
  );
  // Separators of both kinds in the message, and a name with regular-expression characters.
  assertEquals(
    namingTheFile(
      "rename 'D:/a(1)\\s+t.json.x.new' -> 'D:/a(1)/s+t.json'",
      "D:\\a(1)/s+t.json.x.new",
      "D:/a(1)/s+t.json",
    ),
    "rename 'D:/a(1)/s+t.json' -> 'D:/a(1)/s+t.json'",
  );
  assertEquals(namingTheFile("no such file: /a/b.new", "/a/b.new", "/a/b"), "no such file: /a/b");
});
