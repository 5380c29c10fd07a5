/**
 * The REPL in a real terminal (tmux), as a person uses it: start-up, /model, TAB, history across
 * restarts, Ctrl-C and Ctrl-D, the status line. Against the fake model API on loopback.
 */
import assert from "node:assert/strict";
import { PROMPT, promptLines, startRepl } from "./_support.ts";
import { tempDir } from "../support/run_assist.ts";

Deno.test("start-up lines, /model changes the prompt at once, /quit leaves and restores the terminal", async () => {
  await using rig = await startRepl();
  const screen = await rig.term.waitForPrompt();
  assert.match(screen, /^assist \d+\.\d+\.\d+/m);
  assert.match(screen, /^MODE=UNKNOWN \(no HCIROOT here and no ssh hosts/m);
  assert.match(screen, /^auth: API-key rail \(ASSIST_API_KEY\)/m);
  assert.match(screen, /free-text names are protected once known/);
  assert.ok(screen.trimEnd().endsWith(PROMPT.trimEnd()));
  await rig.term.type("/model claude-opus-4-1");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/^you\[opus\.4\.1\]> $/m, "the new prompt");
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
  const raw = await rig.term.raw();
  assert.ok(raw.includes("\x1b[?2004h"), "bracketed paste was turned on");
  assert.ok(raw.lastIndexOf("\x1b[?2004l") > raw.lastIndexOf("\x1b[?2004h"), "and off again at exit");
  assert.equal(rig.fake.messageRequests.length, 0, "nothing was sent to the model");
});

Deno.test("TAB completes a slash command and lists several matches with their descriptions", async () => {
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await rig.term.type("/ssh-s");
  await rig.term.keys("Tab");
  // /ssh-set-direct, /ssh-set-hciroot, /ssh-setup, /ssh-status share "/ssh-s": a second TAB lists.
  await rig.term.keys("Tab");
  const screen = await rig.term.waitFor(/\/ssh-status\s+\S/, "the list of matches");
  assert.match(screen, /\/ssh-setup\s+\S+/);
  assert.match(screen, /\/ssh-set-hciroot/);
  await rig.term.keys("C-u");
  await rig.term.type("/hel");
  await rig.term.keys("Tab");
  await rig.term.waitFor(/> \/help $/m, "/hel completed to /help");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Ctrl-R/, "help shows the keys");
});

Deno.test("history survives a restart, never holds secret commands, and is 0600", async () => {
  await using tmp = await tempDir("assist-repl-hist-");
  {
    await using rig = await startRepl({ home: tmp.path });
    await rig.term.waitForPrompt();
    await rig.term.type("/status");
    await rig.term.keys("Enter");
    await rig.term.waitForPrompt(2);
    await rig.term.type("/ssh-add eng9 ops@10.9.9.9");
    await rig.term.keys("Enter");
    await rig.term.waitForPrompt(3);
    await rig.term.keys("C-d");
    assert.equal(await rig.term.waitForExit(), 0);
  }
  const file = `${tmp.path}/.assist/.history`;
  const text = await Deno.readTextFile(file);
  assert.match(text, /^\/status$/m);
  assert.ok(!text.includes("ssh-add"), "a /ssh-add line was written to history");
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  {
    await using rig = await startRepl({ home: tmp.path });
    await rig.term.waitForPrompt();
    await rig.term.keys("Up");
    await rig.term.waitFor(/> \/status$/m, "the previous session's entry");
  }
});

Deno.test("Ctrl-C at an empty prompt says how to leave; a second within 2 s exits once", async () => {
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await rig.term.keys("C-c");
  await rig.term.waitFor(/\^C again or \/quit to exit/, "the hint");
  await rig.term.keys("C-c");
  assert.equal(await rig.term.waitForExit(), 0);
  const raw = await rig.term.raw();
  assert.equal(raw.split("^C again").length - 1, 1, "the hint was printed once");
});

Deno.test("ASSIST_NO_STATUS=1: no status line after a turn", async () => {
  await using rig = await startRepl({ env: { ASSIST_NO_STATUS: "1" } });
  await rig.term.waitForPrompt();
  rig.fake.replies.push({ text: "First answer." });
  await rig.term.type("hello");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitForPrompt(2);
  assert.match(screen, /First answer\./);
  assert.doesNotMatch(screen, /^ctx /m, "the status line is off");
  assert.doesNotMatch(await rig.term.raw(), /ctx \d/, "and was never drawn");
});

Deno.test("status line: nothing before the first turn, after every turn, /status on demand, at 90 columns", async () => {
  await using rig = await startRepl({ tmux: { width: 90 } });
  let screen = await rig.term.waitForPrompt();
  assert.doesNotMatch(screen, /ctx /);
  rig.fake.replies.push({ text: "First answer." });
  await rig.term.type("hello");
  await rig.term.keys("Enter");
  screen = await rig.term.waitForPrompt(2);
  assert.match(screen, /First answer\./);
  const status = screen.split("\n").find((l) => /^ctx /.test(l));
  assert.ok(status, `no status line after the first turn:\n${screen}`);
  assert.match(status, /ctx \d+(\.\d+)?% \(/);
  assert.match(status, /\$\d+\.\d+/);
  assert.match(status, /1 turn/);
  assert.ok(status.length <= 90);
  await rig.term.type("/status");
  await rig.term.keys("Enter");
  screen = await rig.term.waitForPrompt(3);
  assert.equal(screen.split("\n").filter((l) => /^ctx /.test(l)).length, 2);
  const raw = await rig.term.raw();
  const line = raw.split("\n").find((l) => l.includes("ctx ")) ?? "";
  // Only SGR (and the `\r` + erase-line that clears a progress line) in the status line.
  const SGR_OR_ERASE = new RegExp(String.raw`\x1b\[[0-9;]*m|\r|\x1b\[K`, "g");
  assert.ok(!line.replace(SGR_OR_ERASE, "").includes("\x1b"), JSON.stringify(line));
  assert.equal(promptLines(screen).length, 3);
});
