import { deepStrictEqual as assertEquals, match, ok, rejects } from "node:assert/strict";
import {
  addEntry,
  encodeEntry,
  forFile,
  History,
  HISTORY_LINE_MAX,
  HISTORY_MAX,
  mayRecord,
  parseHistory,
} from "../../../cli/repl/history.ts";
import { chipLabel } from "../../../cli/repl/editor.ts";
import { COMMANDS, isSecretEntry } from "../../../cli/commands/table.ts";
import { tempDir } from "../../support/run_assist.ts";

Deno.test("history: the dedup rule is erasedups (older copy moves to the end)", () => {
  assertEquals(addEntry(["a", "b", "c"], "a"), ["b", "c", "a"]);
  assertEquals(addEntry(["a", "b"], "b"), ["a", "b"]); // consecutive duplicate: nothing changes
  assertEquals(addEntry(["a", "b", "c"], "d", 3), ["b", "c", "d"]);
});

Deno.test("history: secret commands and blank lines are never recorded", () => {
  for (
    const line of [
      "/login",
      "/login oauth",
      "/ssh-pass eng1 hunter2",
      " /ssh-add eng1 host",
      "/set-api-key sk-1",
    ]
  ) {
    assertEquals(mayRecord(line, isSecretEntry), false, line);
  }
  assertEquals(mayRecord("   ", isSecretEntry), false);
  assertEquals(mayRecord("/loginx", isSecretEntry), true);
  assertEquals(mayRecord("/ssh-status", isSecretEntry), true);
  assertEquals(mayRecord("tell me about /login", isSecretEntry), true);
});

Deno.test("history: the table's noHistory is the one rule; a command marked so is never recorded", () => {
  const marked = COMMANDS.filter((c) => c.noHistory).map((c) => c.name).sort();
  assertEquals(marked, ["login", "set-api-key", "ssh-add", "ssh-pass"]);
  for (const c of COMMANDS) assertEquals(isSecretEntry(`/${c.name} x`), c.noHistory === true, c.name);
  // A command newly marked noHistory is left out with nothing else to change (a planted one).
  const planted = COMMANDS.find((c) => c.name === "ssh-status")! as { noHistory?: boolean };
  planted.noHistory = true;
  try {
    assertEquals(mayRecord("/ssh-status eng1", isSecretEntry), false);
  } finally {
    delete planted.noHistory;
  }
  assertEquals(mayRecord("/ssh-status eng1", isSecretEntry), true);
});

Deno.test("history: storage format (JSON for multi-line and leading quote), tolerant parse", () => {
  assertEquals(encodeEntry("plain"), "plain");
  assertEquals(encodeEntry("a\nb"), '"a\\nb"');
  assertEquals(encodeEntry('"quoted"'), '"\\"quoted\\""');
  assertEquals(encodeEntry("cr\r"), '"cr\\r"');
  assertEquals(parseHistory('plain\r\n"a\\nb"\n\n"broken\n"\\"quoted\\""\r\n'), [
    "plain",
    "a\nb",
    '"broken',
    '"quoted"',
  ]);
});

Deno.test("history: file is 0600, survives a restart, multi-line intact, secrets filtered", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/.history`;
  const h = await History.load(file, isSecretEntry);
  h.add("first");
  h.add("two\nlines");
  h.add("/ssh-pass eng1 secret");
  h.add("typed at a hidden prompt", false);
  h.add("first");
  h.add("first");
  await h.flush();
  if (Deno.build.os !== "windows") assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
  const text = await Deno.readTextFile(file);
  assertEquals(text, '"two\\nlines"\nfirst\n');
  const again = await History.load(file, isSecretEntry);
  assertEquals(again.entries, ["two\nlines", "first"]);
});

Deno.test("history: at most 1000 entries; an old file with secrets, CRs and duplicates is cleaned on load", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/.history`;
  const lines = Array.from({ length: 1200 }, (_, i) => `entry ${i}`);
  await Deno.writeTextFile(file, ["/login", "entry 5\r", ...lines, "/set-api-key x"].join("\r\n"));
  const h = await History.load(file, isSecretEntry);
  assertEquals(h.entries.length, HISTORY_MAX);
  assertEquals(h.entries[0], "entry 200");
  assertEquals(h.entries[HISTORY_MAX - 1], "entry 1199");
  h.add("new");
  await h.flush();
  const back = await History.load(file, isSecretEntry);
  assertEquals(back.entries.length, HISTORY_MAX);
  assertEquals(back.entries[HISTORY_MAX - 1], "new");
  assertEquals(back.entries.includes("/login"), false);
});

Deno.test("history: a missing file is an empty history; in-memory without a file", async () => {
  await using dir = await tempDir();
  const h = await History.load(`${dir.path}/none/.history`, isSecretEntry);
  assertEquals(h.entries, []);
  const m = await History.load(undefined, isSecretEntry);
  m.add("x");
  await m.flush();
  assertEquals(m.entries, ["x"]);
});

Deno.test("history: two REPLs on one file keep each other's entries", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/.history`;
  const one = await History.load(file, isSecretEntry);
  const two = await History.load(file, isSecretEntry);
  one.add("from one");
  await one.flush();
  two.add("from two");
  await two.flush();
  one.add("one again");
  await one.flush();
  assertEquals((await History.load(file, isSecretEntry)).entries, ["from one", "from two", "one again"]);
  two.add("from one"); // erasedups across the merge
  await two.flush();
  assertEquals((await History.load(file, isSecretEntry)).entries, ["from two", "one again", "from one"]);
  assertEquals([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), [".history", ".history.lock"]);
});

Deno.test("history: a failed write makes flush() reject; a later good write clears it", async () => {
  await using dir = await tempDir();
  const h = await History.load(`${dir.path}/missing/.history`, isSecretEntry);
  h.add("lost");
  await rejects(h.flush());
  await Deno.mkdir(`${dir.path}/missing`);
  h.add("saved");
  await h.flush();
  assertEquals((await History.load(`${dir.path}/missing/.history`, isSecretEntry)).entries, [
    "lost",
    "saved",
  ]);
});

Deno.test("history: an entry over 64 KiB is kept whole in memory and cut with a marker in the file", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/.history`;
  const h = await History.load(file, isSecretEntry);
  const big = "FIRST-MARKER line\n" + "x".repeat(1024 * 1024) + "\nLAST-MARKER";
  h.add("before");
  h.add(big);
  h.add("after");
  await h.flush();
  assertEquals(h.entries, ["before", big, "after"]);
  const text = await Deno.readTextFile(file);
  const lines = text.split("\n").filter((l) => l !== "");
  assertEquals(lines.length, 3);
  assertEquals(lines[0], "before");
  assertEquals(lines[2], "after");
  ok(new TextEncoder().encode(lines[1]).length <= HISTORY_LINE_MAX);
  // A later session finds it, sees where it was cut, and the rest is not there.
  const later = (await History.load(file, isSecretEntry)).entries;
  assertEquals(later.length, 3);
  ok(later[1].startsWith("FIRST-MARKER line\nxxx"));
  match(later[1], /\n\[assist: history kept the first 6\d\.\d KB of 1\.0 MB\]$/);
  ok(!later[1].includes("LAST-MARKER"));
  // The same paste again, in a session that has the cut copy: still one entry in the file.
  const again = await History.load(file, isSecretEntry);
  again.add(big);
  await again.flush();
  const after = parseHistory(await Deno.readTextFile(file));
  assertEquals(after.length, 3);
  assertEquals(after[0], "before");
  assertEquals(after[2], later[1]);
});

Deno.test("history: forFile cuts on whole code points and leaves fitting entries alone", () => {
  assertEquals(forFile("short"), "short");
  const emoji = "😀".repeat(40_000); // 160,000 UTF-8 bytes
  const cut = forFile(emoji);
  const head = cut.slice(0, cut.indexOf("\n"));
  ok(head.length > 0 && head.length % 2 === 0 && /^(😀)+$/u.test(head));
  ok(new TextEncoder().encode(encodeEntry(cut)).length <= HISTORY_LINE_MAX);
});

Deno.test("history: a cut entry recalled as a chip says it was cut", () => {
  const cut = forFile("pasted log line\n".repeat(100_000));
  match(chipLabel(cut), /^\[pasted \d+ lines, 6\d\.\d KB of 1\.5 MB, cut in history\]$/);
});
