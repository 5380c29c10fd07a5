/**
 * What an operator at a hospital desk ran into (issue 26, "The REPL"), each in a real terminal
 * (tmux): a paste from a terminal without bracketed paste, a prompt that starts with a path, file
 * paths after /load and /phi-reveal, Ctrl-C's line in the kill ring, /clear-api-key with nothing
 * stored, Esc at the /login menu, one turn count for the status line and /sessions; and the name
 * recognizer built while the first prompt waits, not when the first paste is sent.
 */
import assert from "node:assert/strict";
import { promptLines, type ReplRig, startRepl } from "./_support.ts";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { keyHelpRows } from "../../cli/keymap.ts";
import { CONFIG, MAIN, tempDir, testDenoDir } from "../support/run_assist.ts";

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

Deno.test("TAB after /load and /phi-reveal completes file paths", async () => {
  await using rig = await startRepl();
  await Deno.writeTextFile(`${rig.cwd}/adt-sample notes.hl7`, "MSH|^~\\&|A\r");
  await Deno.writeTextFile(`${rig.cwd}/revealed-report.txt`, "nothing\n");
  await rig.term.waitForPrompt();
  await rig.term.type("/load adt-s");
  await rig.term.keys("Tab");
  await rig.term.waitFor(/> \/load adt-sample notes\.hl7$/m, "the /load path completed");
  await rig.term.keys("C-u");
  await rig.term.type("/phi-reveal reve");
  await rig.term.keys("Tab");
  await rig.term.waitFor(/> \/phi-reveal revealed-report\.txt $/m, "the /phi-reveal path completed");
  await rig.term.type("--output adt");
  await rig.term.keys("Tab");
  await rig.term.waitFor(
    /> \/phi-reveal revealed-report\.txt --output "adt-sample notes\.hl7" $/m,
    "a path with a space quoted",
  );
});

Deno.test("Ctrl-C on a typed line puts it in the kill ring: Ctrl-Y brings it back", async () => {
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await rig.term.type("a long question I did not mean to clear");
  await rig.term.waitFor(/did not mean to clear$/m, "the typed line");
  await rig.term.keys("C-c");
  await rig.term.waitFor(
    (s) => /^you\[[^\]]+\]> ?$/m.test(s.trimEnd().split("\n").at(-1)!),
    "the cleared line",
  );
  await rig.term.keys("C-y");
  await rig.term.waitFor(
    /^you\[sonnet\.4\.6\]> a long question I did not mean to clear$/m,
    "the line yanked back",
  );
});

Deno.test("/clear-api-key with no stored key says so; Esc leaves the /login menu", async () => {
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await rig.term.type("/clear-api-key");
  await rig.term.keys("Enter");
  let screen = await rig.term.waitForPrompt(2);
  assert.match(
    screen,
    /no API key stored in \S+: nothing to remove; the key in use comes from ASSIST_API_KEY/,
  );
  assert.ok(!/API key removed/.test(screen), screen);
  await rig.term.type("/login");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/choose 1, 2 or 3 \[3\]: $/m, "the menu");
  await rig.term.keys("Escape");
  screen = await rig.term.waitForPrompt(3);
  assert.ok(!/rail .*selected|auth rail/i.test(screen.split("choose 1, 2 or 3")[1]), "Esc chose an entry");
  await rig.term.type("still here");
  await rig.term.waitFor(/> still here$/m, "the prompt takes keys again");
});

async function turn(rig: ReplRig, prompt: string, count: number): Promise<string> {
  await rig.term.type(prompt);
  await rig.term.keys("Enter");
  return await rig.term.waitForPrompt(count);
}

/** The turn count of the last status line on the screen. */
function statusTurns(screen: string): number {
  const m = [...screen.matchAll(/· (\d+) turns?$/gm)].at(-1);
  return m ? Number(m[1]) : -1;
}

Deno.test("the status line and /sessions agree on the turn count after /reset and --resume", async () => {
  await using dir = await tempDir("assist-turns-");
  const fake = new FakeModelApi();
  try {
    fake.replies.push({ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" });
    {
      await using rig = await startRepl({ home: dir.path, fake });
      await rig.term.waitForPrompt();
      await turn(rig, "first question", 2);
      await turn(rig, "second question", 3);
      await turn(rig, "/reset", 4);
      const screen = await turn(rig, "third question", 5);
      assert.equal(statusTurns(screen), 1, screen);
      await rig.term.type("/sessions");
      await rig.term.keys("Enter");
      await rig.term.waitFor(/ 1 turn\(s\)\s+\$\S+\s+third question/, "/sessions after /reset");
      await rig.term.waitForPrompt(6);
      await rig.term.type("/quit");
      await rig.term.keys("Enter");
      await rig.term.waitForExit();
    }
    {
      await using rig = await startRepl({ home: dir.path, fake, tmux: { args: ["--resume"] } });
      await rig.term.waitForPrompt();
      const screen = await turn(rig, "fourth question", 2);
      assert.equal(statusTurns(screen), 2, screen);
      await rig.term.type("/sessions");
      await rig.term.keys("Enter");
      await rig.term.waitFor(/ 2 turn\(s\)\s+\$\S+\s+third question/, "/sessions after --resume");
    }
  } finally {
    await fake.close();
  }
});

Deno.test("the name recognizer is built after the first prompt is shown, before any Enter", async () => {
  // Deno's debug log (on the pane, so in the raw log) names each module as it is instantiated.
  const denoDir = await testDenoDir();
  await using rig = await startRepl({
    tmux: {
      command: [
        Deno.execPath(),
        "run",
        "-L",
        "debug",
        "--no-prompt",
        "-P=assist",
        "--config",
        CONFIG,
        MAIN,
      ],
      env: denoDir ? { DENO_DIR: denoDir } : {},
    },
  });
  const lexicon = /ES module: \S*phi\/names\/lexicon\.ts/;
  let raw = "";
  for (const deadline = Date.now() + 30_000; !lexicon.test(raw) && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 50));
    raw = await rig.term.raw();
  }
  assert.match(raw, lexicon, "the lexicon was not loaded while the prompt waited");
  const prompt = raw.indexOf("you[sonnet.4.6]> ");
  assert.ok(
    prompt !== -1 && prompt < raw.search(lexicon),
    "the lexicon was loaded before the prompt was shown",
  );
  assert.equal(rig.fake.messageRequests.length, 0);
});

Deno.test("a 60-column terminal: words are not split at the margin, a table is laid out to fit", async () => {
  await using rig = await startRepl({ tmux: { width: 60 } });
  const paragraph = "The adt_in thread on cis20.1 receives the admissions from the registration system " +
    "and routes them to adt_out_to_lab_system, which has been refusing connections since 08:05 today.";
  const table = [
    "| Thread | State | Queued | Last error |",
    "|---|---|--:|---|",
    "| adt_in | up | 12 | none |",
    "| adt_out_to_lab_system | down | 0 | connection refused by the lab system at 08:05 |",
  ].join("\n");
  rig.fake.replies.push({ text: `${paragraph}\n\n${table}\n\nRestart the outbound thread.` });
  await rig.term.waitForPrompt();
  await rig.term.type("what is wrong with adt?");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitFor(/Restart the outbound thread\./, "the answer");
  // capture-pane -J joins the rows the terminal wrapped itself: any line over 60 columns is one
  // the terminal cut, wherever it fell (inside a word).
  const answer = screen.slice(screen.indexOf("The adt_in thread"), screen.indexOf("Restart the outbound"));
  for (const line of answer.split("\n")) {
    assert.ok([...line].length < 60, `a line the terminal wrapped: ${line}`);
  }
  for (const w of paragraph.split(" ")) assert.ok(answer.split(/\s+/).includes(w), `the word ${w} is whole`);
  assert.ok(!answer.includes("|---"), "the table's separator row printed raw");
  assert.match(answer, /^adt_in +│ up +│ +12 │ none$/m);
  // Append-only: no cursor movement up while the answer was written.
  const raw = await rig.term.raw();
  const written = raw.slice(raw.indexOf("The adt_in"), raw.indexOf("Restart the outbound"));
  // deno-lint-ignore no-control-regex -- a cursor-up sequence is what is looked for
  assert.ok(!/\x1b\[\d*[AF]/.test(written), "the answer moved the cursor up");
});

Deno.test("/help shows the keymap the editor runs on, row for row", async () => {
  await using rig = await startRepl({ tmux: { width: 200, height: 120 } });
  await rig.term.waitForPrompt();
  await rig.term.type("/help");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitForPrompt(2);
  for (const [label, line] of keyHelpRows()) {
    assert.ok(screen.split("\n").some((l) => l.trimStart().startsWith(label) && l.endsWith(line)), label);
  }
  // And the editor runs on it: Ctrl-T swaps, Ctrl-G leaves a search with the line as it was.
  await rig.term.type("ab");
  await rig.term.keys("C-t");
  await rig.term.waitFor(/> ba$/m, "Ctrl-T");
  await rig.term.keys("C-r");
  await rig.term.type("hel");
  await rig.term.waitFor(/reverse-i-search\)'hel': \/help$/m, "the search");
  await rig.term.keys("C-g");
  await rig.term.waitFor(/^you\[sonnet\.4\.6\]> ba$/m, "the line as it was");
});

Deno.test("@path inside pasted text is expanded: a block pasted without brackets, and one led by a path", async () => {
  await using rig = await startRepl();
  await Deno.writeTextFile(`${rig.cwd}/route-notes.txt`, "CANARY-ROUTE-NOTES-4471\n");
  rig.fake.replies.push({ text: "Read one." }, { text: "Read two." });
  await rig.term.waitForPrompt();
  await rig.term.type("x");
  await rig.term.waitFor(/> x$/m, "the typed key");
  await rig.term.keys("BSpace");
  // Without brackets, TAB-separated, the reference after a TAB on the second line.
  await rig.term.paste("thread\tnotes\nadt_in\t@route-notes.txt\n", false);
  await rig.term.waitFor(/^adt_in\s+@route-notes\.txt$/m, "the pasted rows");
  await rig.term.type("what do they say?");
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Read one\./, "the first answer");
  assert.ok(
    rig.fake.messageRequests[0].body.includes("CANARY-ROUTE-NOTES-4471"),
    "the first file was not attached",
  );
  await rig.term.waitForPrompt(2);
  await rig.term.paste(
    "/hci/cis20.1/integrator/adt/NetConfig routes adt_in twice, see @route-notes.txt",
    true,
  );
  await rig.term.keys("Enter");
  await rig.term.waitFor(/Read two\./, "the second answer");
  assert.ok(
    rig.fake.messageRequests[1].body.includes("CANARY-ROUTE-NOTES-4471"),
    "the second file was not attached",
  );
});
