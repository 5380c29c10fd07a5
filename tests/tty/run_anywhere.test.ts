/**
 * Tried as a new user would: README's run command from another folder opens the REPL in a real
 * terminal, a question about a local engine root is answered with tool calls against the fake model
 * (relative paths resolve in the operator's folder), and /quit leaves.
 */
import assert from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { CONFIG, tempDir } from "../support/run_assist.ts";
import { TmuxSession } from "../support/tmux.ts";
import { writeFixtureRoot } from "../support/fixture_root.ts";
import { replEnv } from "../support/repl_env.ts";

Deno.test("README's run command from another folder opens the REPL and answers about a local engine root", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  const work = `${tmp.path}/operator`;
  await Deno.mkdir(work);
  await Deno.writeTextFile(`${work}/notes.txt`, "ticket 4411: check the ADT routes\n");
  fake.replies.push({
    text: "Checking.",
    toolCalls: [{ name: "list_sites", input: {} }, { name: "read_file", input: { path: "notes.txt" } }],
  });
  fake.replies.push({ text: "Your engine root has sites; the ticket is 4411." });
  const deno = Deno.execPath();
  await using term = await TmuxSession.start({
    cwd: work,
    command: [deno, "task", "-q", "--config", CONFIG, "assist"],
    env: {
      ...replEnv(tmp.path, fake),
      HCIROOT: root,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      HOME: Deno.env.get("HOME") ?? tmp.path,
      ASSIST_HOME: `${tmp.path}/.assist`,
    },
  });
  let screen = await term.waitForPrompt(undefined, 60_000);
  assert.match(screen, /^MODE=LOCAL \(HCIROOT=.* is an engine root/m);
  await term.type("which sites are there, and what do my notes say?");
  await term.keys("Enter");
  screen = await term.waitForPrompt(2, 60_000);
  assert.match(screen, /tool> list_sites/);
  assert.match(screen, /tool> read_file path=notes\.txt/);
  assert.match(screen, /the ticket is 4411/);
  assert.ok(
    fake.messageRequests[1].body.includes("check the ADT routes"),
    "notes.txt resolved in the operator's folder",
  );
  await term.type("/quit");
  await term.keys("Enter");
  assert.equal(await term.waitForExit(), 0);
});
