/**
 * Session artifacts on disk: modes, the append-only messages encoding (each turn parses whole),
 * a torn tail dropped back to the last finished turn, a truncated or foreign file refused, /reset,
 * retention, and the upload's three requests against a local endpoint (and its deadline).
 */
import assert from "node:assert/strict";
import { encodeMessages, newSessionId, SessionRecorder } from "../../../cli/sessions/artifacts.ts";
import { listSessions, readMessagesFile } from "../../../cli/sessions/resume.ts";
import { pruneSessions } from "../../../cli/sessions/retention.ts";
import { uploadArtifacts } from "../../../cli/sessions/upload.ts";
import { ensureHome } from "../../../core/home.ts";
import type { MessageParam } from "../../../cli/model/types.ts";
import { tempDir } from "../../support/run_assist.ts";

const facts = { costUsd: 0.001, inputTokens: 10, outputTokens: 5, notices: [] };

function turnMessages(n: number): MessageParam[] {
  return [
    { role: "user", content: `prompt ${n} about [[NAME_1]]` },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: `t${n}`, name: "list_dir", input: { path: "." } }],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: `t${n}`, content: "a\nb" }] },
    { role: "assistant", content: [{ type: "text", text: `answer ${n} for [[NAME_1]]` }] },
  ];
}

async function session(home: string, turns: number) {
  const id = newSessionId();
  const rec = await SessionRecorder.create(home, id, "0.0.0");
  const messages: MessageParam[] = [];
  for (let i = 1; i <= turns; i++) {
    const start = messages.length;
    messages.push(...turnMessages(i));
    await rec.turn(messages, start, facts);
  }
  return { id, rec, messages };
}

Deno.test("each turn leaves messages.json exactly the messages array, files 0600", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const { rec, messages } = await session(dir.path, 3);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(rec.files.messages)), messages);
  assert.equal(await Deno.readTextFile(rec.files.messages), encodeMessages(messages));
  const log = await Deno.readTextFile(rec.files.log);
  assert.match(log, /## Turn 3/);
  assert.match(log, /- tool `list_dir` \{"path":"\."\}/);
  assert.match(log, /- result: 3 bytes/);
  assert.match(log, /- cost: \$0\.001000 \(in 10, out 5\)/);
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(rec.files.messages)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(rec.files.log)).mode! & 0o777, 0o600);
  }
  const loaded = await readMessagesFile(rec.files.messages);
  assert.deepEqual(loaded, { messages, repaired: false });
});

Deno.test("/reset restarts the array; later turns append to the new one", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const { rec, messages } = await session(dir.path, 1);
  messages.length = 0;
  await rec.cleared();
  messages.push({ role: "user", content: "again" }, {
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
  });
  await rec.turn(messages, 0, facts);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(rec.files.messages)), messages);
});

Deno.test("a torn tail (crash inside an append) is dropped back to the last finished turn", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const { rec, messages } = await session(dir.path, 2);
  const full = encodeMessages(messages);
  const one = encodeMessages(messages.slice(0, 4));
  // The second turn's append broke off inside its third message.
  const torn = one.slice(0, -3) + full.slice(one.length - 3, full.length - 60);
  await Deno.writeTextFile(rec.files.messages, torn);
  const r = await readMessagesFile(rec.files.messages);
  assert.equal(r.repaired, true);
  assert.deepEqual(r.messages, messages.slice(0, 4));
});

Deno.test("a truncated, foreign or badly alternating messages file is refused with one line", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const { rec, messages } = await session(dir.path, 1);
  const text = encodeMessages(messages);
  const cases: Array<[string, RegExp]> = [
    [text.slice(0, text.length - 40), /damaged or truncated/],
    ['{"role":"user"}', /not a messages array/],
    ["[]", /no turns/],
    [JSON.stringify([messages[0], messages[0]]), /should be from the assistant/],
    [JSON.stringify(messages.slice(0, 2)), /unanswered/],
    ["not json at all", /damaged or truncated/],
  ];
  for (const [content, why] of cases) {
    await Deno.writeTextFile(rec.files.messages, content);
    await assert.rejects(readMessagesFile(rec.files.messages), (e: Error) => {
      assert.match(e.message, why);
      assert.ok(!e.message.includes("\n"), "one line");
      return true;
    });
  }
});

Deno.test("/sessions lists turns, cost and the tokenized first prompt; retention prunes old ones", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const a = await session(dir.path, 2);
  const list = await listSessions(dir.path);
  assert.equal(list.length, 1);
  assert.equal(list[0].id, a.id);
  assert.equal(list[0].turns, 2);
  assert.equal(list[0].firstPrompt, "prompt 1 about [[NAME_1]]");
  assert.ok(Math.abs(list[0].costUsd - 0.002) < 1e-9);
  const old = new Date(Date.now() - 40 * 86_400_000);
  await Deno.utime(a.rec.files.log, old, old);
  await Deno.utime(a.rec.files.messages, old, old);
  const b = await session(dir.path, 1);
  await Deno.writeTextFile(`${dir.path}/sessions/notes.txt`, "not ours");
  assert.equal(await pruneSessions(dir.path, 30), 1);
  assert.deepEqual((await listSessions(dir.path)).map((s) => s.id), [b.id]);
  assert.ok(await Deno.stat(`${dir.path}/sessions/notes.txt`), "other files are left alone");
  assert.equal(await pruneSessions(dir.path, 30), 0);
});

Deno.test("upload: three POSTs with their headers and raw bodies; a hanging endpoint is bounded", async () => {
  await using dir = await tempDir();
  await ensureHome(dir.path);
  const { id, rec } = await session(dir.path, 1);
  await Deno.writeTextFile(`${dir.path}/log/headers.log`, "x-request-id: 1\n");
  const seen: Array<{ headers: Headers; body: string }> = [];
  let hang = false;
  const pending: Array<() => void> = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push({ headers: req.headers, body: await req.text() });
    if (hang) await new Promise<void>((r) => pending.push(r));
    return new Response("ok");
  });
  const plan = {
    url: `http://127.0.0.1:${server.addr.port}/up`,
    version: "9.9.9",
    sessionId: id,
    headersLog: `${dir.path}/log/headers.log`,
    sessionLog: rec.files.log,
    messages: rec.files.messages,
  };
  assert.equal(await uploadArtifacts(plan), undefined);
  const by = new Map(seen.map((s) => [s.headers.get("x-assist-source"), s]));
  assert.deepEqual([...by.keys()].sort(), ["headers-log", "session-log", "session-messages"]);
  for (const s of seen) {
    assert.equal(s.headers.get("x-assist-version"), "9.9.9");
    assert.equal(s.headers.get("x-session-id"), id);
  }
  assert.equal(by.get("session-messages")!.body, await Deno.readTextFile(rec.files.messages));
  assert.equal(by.get("session-messages")!.headers.get("content-type"), "application/json");
  assert.equal(by.get("session-log")!.headers.get("content-type"), "text/markdown");
  assert.equal(by.get("headers-log")!.body, "x-request-id: 1\n");
  hang = true;
  const warning = await uploadArtifacts({ ...plan, deadlineMs: 300 });
  assert.match(warning ?? "", /gave up after 0\.3 s/);
  for (const r of pending) r();
  const dead = await uploadArtifacts({ ...plan, url: "http://127.0.0.1:9/up" });
  assert.match(dead ?? "", /session upload failed/);
});
