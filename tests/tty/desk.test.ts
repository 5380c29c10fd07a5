/**
 * What an operator at a hospital desk ran into (issue 26, "The REPL"), each in a real terminal
 * (tmux): a paste from a terminal without bracketed paste, a prompt that starts with a path.
 */
import assert from "node:assert/strict";
import { promptLines, startRepl } from "./_support.ts";

/** The text of the last user message of the last request to the model. */
function lastUserText(body: string): string {
  const req = JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> };
  const last = req.messages.filter((m) => m.role === "user").at(-1)!;
  if (typeof last.content === "string") return last.content;
  return (last.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("");
}

Deno.test("a paste without bracketed paste keeps its TABs and waits for the operator's Enter", async () => {
  await using rig = await startRepl();
  rig.fake.replies.push({ text: "Looked at the table." });
  await rig.term.waitForPrompt();
  // A key first: the first read within 100 ms of start is taken as typed before raw mode.
  await rig.term.type("x");
  await rig.term.waitFor(/> x$/m, "the typed key");
  await rig.term.keys("BSpace");
  const block = "thread\tstate\tqueued\nadt_in\tup\t12\nadt_out\tdown\t0\n";
  await rig.term.paste(block, false); // no -p: the terminal sends the bytes as typed, LF as CR
  // Neither completion ran (no candidate list, no beep-and-nothing) nor the paste went out alone.
  await rig.term.waitFor(/^\.\.\. |^adt_out/m, "the pasted rows in the editor");
  await rig.term.type("which thread is down?");
  await rig.term.waitFor(/which thread is down\?$/m, "the question typed after the paste");
  assert.equal(rig.fake.messageRequests.length, 0, "the paste was sent by its own newline");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Looked at the table\./, "the answer");
  assert.equal(rig.fake.messageRequests.length, 1);
  const sent = lastUserText(rig.fake.messageRequests[0].body);
  assert.ok(sent.includes("adt_in\tup\t12\nadt_out\tdown\t0\nwhich thread is down?"), JSON.stringify(sent));
});

Deno.test("a prompt that starts with a path goes to the model; //, a leading space too", async () => {
  await using rig = await startRepl();
  rig.fake.replies.push({ text: "Answer one." }, { text: "Answer two." }, { text: "Answer three." });
  await rig.term.waitForPrompt();
  const path = "/hci/cis20.1/integrator/adt/NetConfig has adt_in twice, why?";
  await rig.term.type(path);
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Answer one\./, "the model's answer to the path prompt");
  await rig.term.waitForPrompt(2);
  await rig.term.type("//load is not a command here");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Answer two\./, "the answer to //");
  await rig.term.waitForPrompt(3);
  await rig.term.type(" /quit is what I type to leave?");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Answer three\./, "the answer to a leading space");
  const screen = await rig.term.waitForPrompt(4);
  assert.ok(!/unknown command/.test(screen), screen);
  const sent = rig.fake.messageRequests.map((r) => lastUserText(r.body));
  assert.equal(sent.length, 3);
  assert.ok(sent[0].includes("NetConfig has adt_in twice"), sent[0]);
  assert.ok(sent[1].includes("//load is not a command here"), sent[1]);
  assert.ok(sent[2].includes("/quit is what I type to leave?"), sent[2]);
  // A word with no other slash is still a command: an unknown one says so.
  await rig.term.type("/nosuchcmd");
  await rig.term.keys("Enter");
  const after = await rig.term.waitFor(/unknown command: \/nosuchcmd/, "the unknown-command line");
  assert.equal(promptLines(after).length >= 4, true);
  assert.equal(rig.fake.messageRequests.length, 3);
});
