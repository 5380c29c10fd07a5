/**
 * What an operator runs into in the first hour at a real terminal (tmux), one test per stumble found
 * walking the REPL by hand: command output holding an HL7 segment's CR, a window resized under a
 * wrapped line, keys typed before the prompt appeared, Esc during a streaming answer.
 */
import assert from "node:assert/strict";
import { hangingTurn, promptLines, startRepl } from "./_support.ts";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { assistCommandArgs, tempDir } from "../support/run_assist.ts";

Deno.test("/show-last-tool: a result's CR-separated segments each show, no escape sequence passes", async () => {
  await using rig = await startRepl();
  // Segments separated by a lone CR (as HL7 is), the second shorter than the first, and an ESC.
  rig.fake.replies.push({
    text: "Ran it.",
    toolCalls: [{
      name: "bash_exec",
      input: { command: "printf 'FIRST-SEGMENT-LONG|a|b\\rSEG2|c\\r\\033[2J'" },
    }],
  });
  rig.fake.replies.push({ text: "Done." });
  await rig.term.waitForPrompt();
  await rig.term.type("run it");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Done\./, "the answer");
  await rig.term.waitForPrompt(2);
  await rig.term.type("/show-last-tool");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitForPrompt(3);
  // Without the fix the CR returns to column 0 and SEG2 is drawn over the first segment.
  assert.match(screen, /^FIRST-SEGMENT-LONG\|a\|b$/m);
  assert.match(screen, /^SEG2\|c$/m);
  const raw = await rig.term.raw();
  assert.ok(!raw.includes("\x1b[2J"), "an escape sequence from the tool output reached the terminal");
});

Deno.test("resizing the window under a wrapped line redraws it once, with no stale prompt row", async () => {
  await using rig = await startRepl({ tmux: { width: 100, height: 30 } });
  await rig.term.waitForPrompt();
  const text = "This is a long line that I am typing to see how it wraps around the edge of a " +
    "hundred column pane and keeps going";
  await rig.term.type(text);
  await rig.term.waitFor((s) => s.includes("keeps going"), "the typed line");
  for (const width of [60, 45, 100]) {
    const before = (await rig.term.raw()).length;
    await rig.term.resize(width, 30);
    // The redraw on SIGWINCH, before typing on (a key drawn at the old width would be another test).
    for (let i = 0; i < 200 && (await rig.term.raw()).length === before; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const mark = `w${width}`;
    await rig.term.type(mark);
    const screen = await rig.term.waitFor(
      (s) => s.replace(/\s+/g, "").endsWith(mark),
      `the line at ${width}`,
    );
    // The terminal re-wraps the old rows; a redraw that counts only the old rows goes back too few
    // of them and leaves the top of the old editor behind: a second prompt line.
    assert.equal(promptLines(screen).length, 1, `one prompt line at ${width} columns:\n${screen}`);
    // Going back too many rows would erase what is above the editor instead.
    assert.match(screen, /adds Presidio/, `the line above the editor at ${width} columns:\n${screen}`);
  }
  await rig.term.keys("C-u");
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
});

Deno.test("a question typed while assist starts is submitted by its Enter, not left as a new line", async () => {
  // The program starts a second late, so the keys reach a terminal still in cooked mode (which
  // turns their Enter into LF), as when someone types right after launching it.
  await using rig = await startRepl({
    tmux: {
      command: ["sh", "-c", 'sleep 1; exec "$0" "$@"', Deno.execPath(), ...assistCommandArgs([])],
    },
  });
  rig.fake.replies.push({ text: "Answer to the early question." });
  await rig.term.type("early question");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitFor(/Answer to the early question\./, "the answer", 20_000);
  assert.match(screen, /^you\[sonnet\.4\.6\]> early question$/m);
  assert.ok(rig.fake.messageRequests[0].body.includes("early question"));
  assert.ok(!rig.fake.messageRequests[0].body.includes("early question\\n"), "sent with a new line");
});

Deno.test("Esc during a streaming answer cancels it; the next prompt starts clean and works", async () => {
  await using rig = await startRepl();
  await hangingTurn(rig);
  await rig.term.keys("Escape");
  await rig.term.waitFor(/cancelled; the conversation is kept/, "the turn cancelled by Esc");
  await rig.term.waitForPrompt(2);
  // The Esc was used up: it does not turn the first key typed at the prompt into Alt+key.
  rig.fake.replies.push({ text: "Second answer." });
  await rig.term.type("abc");
  await rig.term.waitFor(/^you\[sonnet\.4\.6\]> abc$/m, "the typed text whole");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Second answer\./, "the second answer");
});

Deno.test("an answer's markdown is styled on a colour terminal and left as written under NO_COLOR", async () => {
  const answer = "## Next steps\nRestart **ADT_IN** with `hcicmd -c pstart`.\n```tcl\nputs ok\n```\nDone.";
  for (const noColor of [false, true]) {
    await using rig = await startRepl({ env: noColor ? { NO_COLOR: "1" } : {} });
    rig.fake.replies.push({ text: answer });
    await rig.term.waitForPrompt();
    await rig.term.type("what now?");
    await rig.term.keys("Enter");
    const screen = await rig.term.waitFor(/^Done\.$/m, "the answer");
    const raw = await rig.term.raw();
    if (noColor) {
      assert.match(screen, /^## Next steps$/m);
      assert.match(screen, /^Restart \*\*ADT_IN\*\* with `hcicmd -c pstart`\.$/m);
      assert.ok(!/ESC\[[0-9;]*m/.test(raw.replaceAll("\x1b", "ESC")), "an SGR sequence under NO_COLOR");
    } else {
      assert.match(screen, /^Next steps$/m);
      assert.match(screen, /^Restart ADT_IN with hcicmd -c pstart\.$/m);
      assert.match(screen, /^```tcl\nputs ok\n```$/m, "code fences stay, dim");
      assert.ok(raw.includes("\x1b[1mNext steps\x1b[22m"), "the heading is bold");
      assert.ok(raw.includes("\x1b[1mADT_IN\x1b[22m"), "bold is bold");
      assert.ok(raw.includes("\x1b[36mhcicmd -c pstart\x1b[39m"), "a code span has its colour");
    }
  }
});

Deno.test("Ctrl-C at a review question cancels the turn as Ctrl-C during an answer does", async () => {
  await using rig = await startRepl({ env: { ASSIST_TOOL_RESULT_REVIEW: "always" } });
  rig.fake.replies.push({
    text: "Reading.",
    toolCalls: [{ name: "bash_exec", input: { command: "printf 'RESU%s' LT-CANARY" } }],
  });
  await rig.term.waitForPrompt();
  await rig.term.type("read it");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/review> .*\[Y\/n\/i\]/, "the review question");
  await rig.term.keys("C-c");
  let screen = await rig.term.waitForPrompt(2);
  assert.match(screen, /^\(cancelled; the conversation is kept\)$/m);
  assert.doesNotMatch(screen, /assist: cancelled/);
  rig.fake.replies.push({ text: "Fine after the cancel." });
  await rig.term.type("next");
  await rig.term.keys("Enter");
  screen = await rig.term.waitFor(/Fine after the cancel\./, "the next answer");
  assert.ok(!rig.sent().includes("RESULT-CANARY"), "the result was sent");
});

Deno.test("--resume shows where the talk stopped (the last answer's start) and /copy has it", async () => {
  await using dir = await tempDir("assist-resume-walk-");
  const fake = new FakeModelApi();
  try {
    const answer = Array.from({ length: 12 }, (_, i) => `answer line ${i + 1}`).join("\n");
    {
      await using rig = await startRepl({ home: dir.path, fake });
      fake.replies.push({ text: answer });
      await rig.term.waitForPrompt();
      await rig.term.type("why did ADT_IN stop?");
      await rig.term.keys("Enter");
      await rig.term.waitFor(/answer line 12/, "the answer");
      await rig.term.waitForPrompt(2);
      await rig.term.type("/quit");
      await rig.term.keys("Enter");
      await rig.term.waitForExit();
    }
    await using rig = await startRepl({ home: dir.path, fake, tmux: { args: ["--resume"] } });
    let screen = await rig.term.waitForPrompt();
    assert.match(screen, /first prompt: why did ADT_IN stop\?\nlast answer:\n {2}answer line 1\n/);
    assert.match(screen, /^ {2}answer line 8\n {2}… 4 more line\(s\) \(\/copy copies the whole answer\)$/m);
    assert.doesNotMatch(screen, /answer line 9/);
    await rig.term.type("/copy");
    await rig.term.keys("Enter");
    screen = await rig.term.waitForPrompt(2);
    assert.doesNotMatch(screen, /no answer to copy yet/);
    assert.match(screen, /copied the last answer \(\d+ bytes\)|^answer line 12$/m);
  } finally {
    await fake.close();
  }
});
