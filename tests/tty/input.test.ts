/**
 * Input in a real terminal (tmux): keys typed while a turn streams wait for the next prompt; mouse
 * reports never reach the prompt text; a hidden password prompt echoes nothing and leaves nothing in
 * history; confirm mode asks before tokenizing an HL7 value and honours a `n`.
 */
import assert from "node:assert/strict";
import { hangingTurn, startRepl } from "./_support.ts";
import { KEY } from "../support/repl_env.ts";

Deno.test("keys typed while a turn streams are kept for the next prompt", async () => {
  await using rig = await startRepl();
  await hangingTurn(rig);
  await rig.term.type("typed ahead");
  await rig.term.keys("C-c");
  await rig.term.waitFor(/^you\[sonnet\.4\.6\]> typed ahead$/m, "the typeahead in the next prompt");
});

Deno.test("mouse mode: reporting on and off; mouse sequences never reach the prompt text", async () => {
  await using rig = await startRepl({ env: { ASSIST_MOUSE: "1" } });
  await rig.term.waitForPrompt();
  await rig.term.type("abc");
  // An SGR press and release at column 10, row 5, and an X10 report.
  await rig.term.bytes(["1b", "5b", "3c", "30", "3b", "31", "30", "3b", "35", "4d"]);
  await rig.term.bytes(["1b", "5b", "3c", "30", "3b", "31", "30", "3b", "35", "6d"]);
  await rig.term.bytes(["1b", "5b", "4d", "20", "2a", "25"]);
  await rig.term.type("def");
  await rig.term.waitFor(/> abcdef$/m, "the typed text alone");
  await rig.term.keys("C-u");
  await rig.term.type("/mouse off");
  await rig.term.keys("Enter");
  await rig.term.waitForPrompt(2);
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
  const raw = await rig.term.raw();
  assert.ok(raw.includes("\x1b[?1000h") && raw.includes("\x1b[?1006h"), "mouse reporting was turned on");
  assert.ok(raw.lastIndexOf("\x1b[?1000l") > raw.lastIndexOf("\x1b[?1000h"), "and off again");
});

Deno.test("/ssh-pass: a hidden prompt echoes nothing and the password stays out of history", async () => {
  await using rig = await startRepl();
  const canary = "Canary-Pw-7731!";
  await rig.term.waitForPrompt();
  await rig.term.type("/ssh-add eng1 ops@127.0.0.1:2222");
  await rig.term.keys("Enter");
  await rig.term.waitForPrompt(2);
  await rig.term.type("/ssh-pass eng1");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/password for eng1 \(input hidden\): $/m, "the hidden prompt");
  await rig.term.type(canary);
  await rig.term.keys("Enter");
  const screen = await rig.term.waitForPrompt(3);
  assert.ok(!screen.includes(canary), "the password was echoed");
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
  assert.ok(!(await rig.term.raw()).includes(canary), "the password reached the terminal");
  const history = await Deno.readTextFile(`${rig.home}/.assist/.history`).catch(() => "");
  assert.ok(!history.includes(canary) && !history.includes("ssh-pass") && !history.includes("ssh-add"));
  const cred = `${rig.home}/.assist/.ssh-creds/eng1`;
  assert.equal((await Deno.readTextFile(cred)).trim(), canary);
  assert.equal((await Deno.stat(cred)).mode! & 0o777, 0o600);
});

Deno.test("confirm mode: an HL7 value is asked about; n sends it as typed, Y tokenizes", async () => {
  await using rig = await startRepl({ env: { ASSIST_AUTO_PHI: "confirm" } });
  rig.fake.replies.push({ text: "Seen." });
  await rig.term.waitForPrompt();
  // Field listings in free text (tier 3) are asked about; whole segments are structured and are not.
  await rig.term.type("why PID.5 = HAWTHORNE-VALE^ODALYS and PID.7 = 19720519 here?");
  await rig.term.keys("Enter");
  // One question per distinct value, each answered: n for the first, y for the rest (an Enter
  // right after a one-key answer belongs to that answer, so the rest are answered with a key).
  const questions = (s: string) => (s.match(/^phi> tokenize .*\[Y\/n\]/gm) ?? []).length;
  let screen = await rig.term.waitFor((s) => questions(s) === 1, "the first confirm question");
  await rig.term.type("n");
  for (let asked = 1; !/Seen\./.test(screen);) {
    screen = await rig.term.waitFor(
      (s) => /Seen\./.test(s) || questions(s) > asked,
      "the next question or the answer",
    );
    if (/Seen\./.test(screen)) break;
    asked = questions(screen);
    await rig.term.type("y");
  }
  const sent = rig.sent();
  const kept = ["HAWTHORNE-VALE^ODALYS", "19720519"].filter((v) => sent.includes(v));
  assert.equal(kept.length, 1, `exactly the value answered n reaches the model, got ${kept}`);
});

Deno.test("no key: the error names /set-api-key; a key stored there works at the next prompt", async () => {
  await using rig = await startRepl({ env: { ASSIST_API_KEY: "" } });
  rig.fake.replies.push({ text: "Answered with the stored key." });
  await rig.term.waitForPrompt();
  await rig.term.type("hello");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/no API key: set ASSIST_API_KEY or store one with \/set-api-key/, "the REPL's hint");
  await rig.term.waitForPrompt(2);
  await rig.term.type("/set-api-key");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/API key \(input hidden\): $/m, "the hidden prompt");
  await rig.term.type(KEY);
  await rig.term.keys("Enter");
  await rig.term.waitFor(/API key stored/, "stored");
  await rig.term.waitForPrompt(3);
  await rig.term.type("hello again");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitFor(/Answered with the stored key\./, "the answer");
  assert.ok(!screen.includes(KEY), "the key was echoed");
});
