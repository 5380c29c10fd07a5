/**
 * `--resume` of a messages file whose prompt is a content-block array (a valid Messages API shape):
 * the session continues, its first prompt and turns are counted, the next turn is accepted by the
 * API; a block that is not a valid one is refused in one line.
 */
import assert from "node:assert/strict";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { runAssist, tempDir } from "../../support/run_assist.ts";
import { replEnv } from "../../support/repl_env.ts";
import { conversationProblem } from "../../../cli/sessions/resume.ts";
import { promptText } from "../../../cli/model/types.ts";

const ID = "20260101T000000-abcdef01";

async function writeSession(home: string, messages: unknown): Promise<void> {
  await Deno.mkdir(`${home}/.assist/sessions`, { recursive: true });
  await Deno.writeTextFile(`${home}/.assist/sessions/${ID}.messages.json`, JSON.stringify(messages));
}

Deno.test("--resume: a prompt given as a content-block array resumes, and the next turn is accepted", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  await writeSession(tmp.path, [
    { role: "user", content: [{ type: "text", text: "what feeds adt_in?" }] },
    { role: "assistant", content: [{ type: "text", text: "Thread ib_adt." }] },
  ]);
  fake.replies.push({ text: "Still ib_adt." });
  const r = await runAssist(["--resume", ID], {
    env: replEnv(tmp.path, fake),
    cwd: tmp.path,
    stdin: "/sessions\nand now?\n",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr + r.stdout, /unexpected error/);
  assert.match(r.stderr, /resumed 20260101T000000-abcdef01: 1 turn\(s\); first prompt: what feeds adt_in\?/);
  assert.match(
    r.stderr,
    /1 turn\(s\) {2}\$0\.0000 {2}what feeds adt_in\?/,
    "/sessions shows its first prompt",
  );
  assert.match(r.stderr, /Still ib_adt\./);
  const sent = fake.messageRequests[0].json!.messages as Array<{ role: string; content: unknown }>;
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[0].content, [{ type: "text", text: "what feeds adt_in?" }]);
});

Deno.test("--resume: a text block without text is refused in one line, nothing sent", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  await writeSession(tmp.path, [
    { role: "user", content: [{ type: "text" }] },
    { role: "assistant", content: [{ type: "text", text: "ok" }] },
  ]);
  const r = await runAssist(["--resume", ID], { env: replEnv(tmp.path, fake), cwd: tmp.path, stdin: "hi\n" });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^assist: cannot resume from .*: message 1 has a malformed block$/m);
  assert.doesNotMatch(r.stderr, /unexpected error/);
  assert.equal(fake.messageRequests.length, 0);
});

Deno.test("promptText: strings and text-block prompts are prompts; tool results and answers are not", () => {
  assert.equal(promptText({ role: "user", content: "a" }), "a");
  assert.equal(
    promptText({ role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }),
    "a\nb",
  );
  assert.equal(
    promptText({ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] }),
    undefined,
  );
  assert.equal(promptText({ role: "assistant", content: "a" }), undefined);
  assert.equal(
    conversationProblem([{ role: "user", content: [{ type: "text", text: 1 }] }, {
      role: "assistant",
      content: "x",
    }]),
    "message 1 has a malformed block",
  );
});
