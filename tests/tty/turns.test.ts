/**
 * Turns in a real terminal (tmux): PHI canaries typed, pasted and in an `@file` never reach the
 * model while the screen shows the real values; a multi-tool turn; Ctrl-C mid-stream and a second
 * turn that works; a 1 MB paste that arrives whole; the review gate's `n`.
 */
import assert from "node:assert/strict";
import { startRepl, TOKEN_RE } from "./_support.ts";

/** The fake model answers with the tokens it was given, so the screen must show them restored. */
function echoTokens(prefix: string) {
  return (req: Record<string, unknown>) => {
    const seen = [...new Set(JSON.stringify(req.messages).match(TOKEN_RE) ?? [])];
    return { text: `${prefix}: ${seen.join(" ")} END` };
  };
}

Deno.test("PHI canary typed, pasted and in an @file: requests hold tokens, the screen the real values", async () => {
  await using rig = await startRepl();
  await Deno.writeTextFile(
    `${rig.cwd}/adt.hl7`,
    "MSH|^~\\&|EPIC|HOSP|CLOVER|HOSP|202611210830||ADT^A01|MSG1|P|2.5.1\r" +
      "PID|1||55120987^^^HOSP^MR||VANTERPOOL^ISADORA^Q||19580214|F|||12 Quillfeather Rd^^Dunmore^PA^18512\r",
  );
  await rig.term.waitForPrompt();
  // Typed: a marked name and an SSN.
  rig.fake.replies.push(echoTokens("typed"));
  await rig.term.type("Why is @@ZEPHYRINA@@ failing? SSN 512-44-9087");
  await rig.term.keys("Enter");
  let screen = await rig.term.waitFor(/typed: .* END/, "the first answer");
  assert.match(screen, /typed: .*ZEPHYRINA/);
  assert.match(screen, /typed: .*512-44-9087/);
  await rig.term.waitForPrompt(2);
  // Pasted (bracketed): an HL7 PID segment.
  rig.fake.replies.push(echoTokens("pasted"));
  await rig.term.paste(
    "check this:\nPID|1||77341200^^^HOSP^MR||OKONKWO-BRAITHWAITE^TEMPERANCE||19470903|F\n",
  );
  await rig.term.keys("Enter");
  screen = await rig.term.waitFor(/pasted: .* END/, "the second answer");
  assert.match(screen, /pasted: .*TEMPERANCE|pasted: .*OKONKWO/);
  await rig.term.waitForPrompt(3);
  // An @file holding an ADT message.
  rig.fake.replies.push(echoTokens("file"));
  await Deno.writeTextFile(`${rig.cwd}/notes.txt`, "Caller SSN 623-11-0987, jane.q@example.org\n");
  await rig.term.type("what do @adt.hl7 and @notes.txt say?");
  await rig.term.keys("Enter");
  // A long answer is broken between words at the width (answer_layout.ts): END may be a line below.
  screen = await rig.term.waitFor(/file: [^]* END/, "the third answer");
  assert.match(screen, /file: .*VANTERPOOL/);
  await rig.term.waitForPrompt(4);
  const sent = rig.sent();
  for (
    const raw of [
      "ZEPHYRINA",
      "512-44-9087",
      "77341200",
      "OKONKWO",
      "TEMPERANCE",
      "19470903",
      "VANTERPOOL",
      "ISADORA",
      "55120987",
      "Quillfeather",
      "623-11-0987",
      "jane.q@example.org",
    ]
  ) {
    assert.ok(!sent.includes(raw), `raw PHI reached the model: ${raw}`);
  }
  assert.ok(sent.includes("EPIC"), "the non-PHI parts of the file were sent");
});

Deno.test("a multi-tool turn shows each tool line and result line, then the answer", async () => {
  await using rig = await startRepl();
  await Deno.writeTextFile(`${rig.cwd}/notes.txt`, "interface ADT_IN restarted at 08:30\n");
  rig.fake.replies.push({
    text: "Looking at the folder.",
    toolCalls: [
      { name: "list_dir", input: { path: "." } },
      { name: "read_file", input: { path: "notes.txt" } },
    ],
  });
  rig.fake.replies.push({ text: "The notes say ADT_IN restarted at 08:30." });
  await rig.term.waitForPrompt();
  await rig.term.type("what is in my notes?");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitForPrompt(2);
  assert.match(screen, /^tool> list_dir path=\.$/m);
  assert.match(screen, /^tool> read_file path=notes\.txt$/m);
  assert.match(
    screen,
    /^tool> read_file path=notes\.txt\n {2}↳ 36 B$/m,
    "a short result line follows each call",
  );
  assert.match(screen, /The notes say ADT_IN restarted at 08:30\./);
  assert.ok(screen.indexOf("tool> list_dir") < screen.indexOf("tool> read_file"));
  // The relative path resolved against the operator's folder.
  assert.ok(rig.fake.messageRequests[1].body.includes("restarted at 08:30"));
});

Deno.test("Ctrl-C mid-stream cancels the turn; the next turn works on a valid history", async () => {
  await using rig = await startRepl();
  // message_start, a comment, ping, content_block_start, then the six text deltas: and nothing more.
  rig.fake.faults.push({ kind: "hang", afterEvents: 10 });
  rig.fake.replies.push({ text: "Working on the first question and then" });
  await rig.term.waitForPrompt();
  await rig.term.type("first question");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Working on the first/, "the streamed start");
  await rig.term.keys("C-c");
  await rig.term.waitFor(/cancelled/, "the cancel notice");
  await rig.term.waitForPrompt(2);
  rig.fake.replies.push({ text: "Second answer is fine." });
  await rig.term.type("second question");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitFor(/Second answer is fine\./, "the second answer");
  assert.doesNotMatch(screen, /invalid_request|assist: /);
  const last = rig.fake.messageRequests.at(-1)!.json!;
  const messages = last.messages as Array<{ role: string; content: unknown }>;
  assert.equal(messages.at(-1)!.role, "user");
  // The cancelled exchange is kept, with the partial answer and the interruption marker.
  assert.equal(messages.length, 3);
  assert.match(JSON.stringify(messages[0].content), /first question/);
  assert.deepEqual(messages[1].content, [
    { type: "text", text: "Working on the first question and then" },
    { type: "text", text: "[Request interrupted by user]" },
  ]);
});

Deno.test("a silent answer shows its idle countdown, and one Ctrl-C stops waiting", async () => {
  await using rig = await startRepl({ env: { ASSIST_IDLE_TIMEOUT: "20" } });
  rig.fake.faults.push({ kind: "hang", afterEvents: 4 });
  rig.fake.replies.push({ text: "never comes" });
  await rig.term.waitForPrompt();
  await rig.term.type("think about it");
  await rig.term.keys("Enter");
  await rig.term.waitFor(
    /no reply for \d+ s; giving up in \d+ s \(Ctrl-C stops waiting\)/,
    "the idle countdown",
  );
  await rig.term.keys("C-c");
  await rig.term.waitFor(/\(cancelled; the conversation is kept\)/, "the cancel notice");
  await rig.term.waitForPrompt(2);
  assert.equal(rig.fake.messageRequests.length, 1, "nothing sent again");
});

Deno.test("a 1 MB paste is shown as one summary line and arrives whole", async () => {
  await using rig = await startRepl();
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 1_000_000; i++) {
    lines.push(`log line ${i} thread ADT_IN state up queue depth nominal alpha beta gamma delta`);
  }
  lines[0] = "FIRST-MARKER " + lines[0];
  lines.push("LAST-MARKER");
  const text = lines.join("\n");
  rig.fake.replies.push({ text: "Got it." });
  await rig.term.waitForPrompt();
  await rig.term.paste(text);
  await rig.term.waitFor(/\[pasted \d+ lines, [\d.]+ (KB|MB)\]/, "the paste summary");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Got it\./, "the answer", 60_000);
  const body = rig.fake.messageRequests[0].json!;
  const content = JSON.stringify((body.messages as unknown[])[0]);
  assert.ok(content.includes("FIRST-MARKER") && content.includes("LAST-MARKER"));
  assert.equal(content.split("alpha beta gamma delta").length - 1, lines.length - 1);
});

Deno.test("review gate: n withholds the result and the model gets a refusal", async () => {
  await using rig = await startRepl({ env: { ASSIST_TOOL_RESULT_REVIEW: "always" } });
  await Deno.writeTextFile(`${rig.cwd}/big.txt`, "the secret sauce recipe\n");
  rig.fake.replies.push({
    text: "Reading.",
    toolCalls: [{ name: "bash_exec", input: { command: "cat big.txt" } }],
  });
  rig.fake.replies.push({ text: "Something was withheld." });
  await rig.term.waitForPrompt();
  await rig.term.type("read it");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/review> .*\[Y\/n\/i\]/, "the review question");
  await rig.term.type("n");
  await rig.term.waitFor(/Something was withheld\./, "the answer");
  const second = rig.fake.messageRequests[1].body;
  assert.ok(!second.includes("secret sauce"), "the withheld result reached the model");
  assert.match(second, /withheld|refus/i);
  // The operator can still read what was withheld; it stays out of every request.
  await rig.term.waitForPrompt(2);
  await rig.term.type("/show-last-tool");
  await rig.term.keys("Enter");
  await rig.term.waitFor(
    /withheld at the review gate[^\n]*\n[\s\S]*the secret sauce recipe/,
    "the withheld result",
  );
  assert.ok(!rig.sent().includes("secret sauce"));
});
