/**
 * The REPL without a terminal (scripted use): each line of standard input is one prompt, model text
 * on stderr as it streams (the spec's rule; `assist -p` answers on stdout), no redraw, no status
 * line, no review gate.
 */
import assert from "node:assert/strict";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { runAssist, tempDir } from "../../support/run_assist.ts";
import { replEnv } from "../../support/repl_env.ts";

Deno.test("scripted stdin: lines are prompts one after another; /commands work; EOF leaves", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "Answer one." });
  fake.replies.push({ text: "Answer two." });
  const r = await runAssist([], {
    env: replEnv(tmp.path, fake),
    cwd: tmp.path,
    stdin: "first question\n/model claude-opus-4-1\nsecond question\\\ncontinued here\n\n",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Answer one\.[\s\S]*Answer two\./);
  assert.equal(r.stdout, "", "nothing on stdout: model text streams to stderr");
  assert.ok(!(r.stdout + r.stderr).includes("\x1b["), "no escape sequences without a terminal");
  assert.doesNotMatch(r.stderr, /^ctx /m, "no status line");
  const reqs = fake.messageRequests.map((q) => q.json!);
  assert.equal(reqs.length, 2);
  assert.equal(reqs[1].model, "claude-opus-4-1");
  const msgs = reqs[1].messages as Array<{ role: string; content: unknown }>;
  assert.match(JSON.stringify(msgs.at(-1)!.content), /second question\\ncontinued here/);
});

Deno.test("a line that is only an API key is neither sent nor answered", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "Answer." });
  const r = await runAssist([], {
    env: replEnv(tmp.path, fake),
    cwd: tmp.path,
    stdin: "sk-ant-api03-LOGINKEY987abc\nhello\n",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /that looks like an API key: not sent and not kept/);
  assert.equal(fake.messageRequests.length, 1);
  assert.ok(!fake.messageRequests[0].body.includes("LOGINKEY987"));
});
