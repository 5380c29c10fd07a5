/**
 * What an operator runs into in the first hour at a real terminal (tmux), one test per stumble found
 * walking the REPL by hand: command output holding an HL7 segment's CR, a window resized under a
 * wrapped line, keys typed before the prompt appeared, Esc during a streaming answer.
 */
import assert from "node:assert/strict";
import { promptLines, startRepl } from "./_support.ts";

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
