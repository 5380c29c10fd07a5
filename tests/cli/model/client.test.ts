import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { type AuthProvider, backoffSeconds, sendMessage } from "../../../cli/model/client.ts";
import { ModelError } from "../../../cli/model/errors.ts";
import { HeadersLog } from "../../../cli/model/headers_log.ts";
import type { MessageRequest } from "../../../cli/model/types.ts";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { tempDir } from "../../support/run_assist.ts";

const apiKey: AuthProvider = {
  rail: "api-key",
  headers: () => Promise.resolve({ "x-api-key": "sk-ant-test-key" }),
};
const request = (text = "which threads feed ADT_OUT?"): MessageRequest => ({
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  system: [{ type: "text", text: "You are assist.", cache_control: { type: "ephemeral" } }],
  messages: [{ role: "user", content: text }],
  tools: [{
    name: "read_file",
    description: "read",
    input_schema: { type: "object" },
    cache_control: { type: "ephemeral" },
  }],
});

function recorder() {
  const sleeps: number[] = [];
  const notices: string[] = [];
  return {
    sleeps,
    notices,
    sleep: (ms: number) => (sleeps.push(ms), Promise.resolve()),
    notice: (l: string) => notices.push(l),
  };
}

Deno.test("streaming: text deltas at once, tool input JSON assembled, usage and cache fields rebuilt", async () => {
  await using fake = new FakeModelApi();
  fake.replies.push({
    text: "Let me look at the NetConfig of siteA.",
    toolCalls: [{ name: "read_file", input: { path: "/hci/siteA/NetConfig", start_line: 1 } }],
  });
  fake.replies.push({ text: "Done." });
  const texts: string[] = [];
  const r = await sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    onText: (t) => texts.push(t),
  });
  assert(texts.length > 1, "text arrived in pieces");
  assertEquals(texts.join(""), "Let me look at the NetConfig of siteA.");
  assertEquals(r.streamed, true);
  assertEquals(r.message.stop_reason, "tool_use");
  assertEquals(r.message.content[1], {
    type: "tool_use",
    id: (r.message.content[1] as { id: string }).id,
    name: "read_file",
    input: { path: "/hci/siteA/NetConfig", start_line: 1 },
    caller: { type: "direct" },
  });
  assert(r.message.usage.cache_creation_input_tokens > 0);
  assertEquals(r.message.usage.cache_read_input_tokens, 0);
  assert(r.message.usage.output_tokens > 1, "cumulative message_delta usage wins over message_start");
  const again = await sendMessage(request(), { url: fake.url, auth: apiKey, stream: true });
  assertEquals(again.message.usage.cache_read_input_tokens, r.message.usage.cache_creation_input_tokens);
  const sent = fake.messageRequests[0];
  assertEquals(sent.headers["anthropic-version"], "2023-06-01");
  assertEquals(sent.json!.stream, true);
  match(sent.headers["user-agent"], /^assist\//);
});

Deno.test("non-streaming when asked", async () => {
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "plain" });
  const r = await sendMessage(request(), { url: fake.url, auth: apiKey, stream: false });
  assertEquals(r.message.content, [{ type: "text", text: "plain" }]);
  assertEquals(fake.messageRequests[0].json!.stream, false);
});

Deno.test("429 with retry-after: waits that long, retries, logs the raw block with rail and a phi/rl> pointer", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "rate_limit_unified", retryAfter: 3 });
  fake.replies.push({ text: "after the wait" });
  const rec = recorder();
  const log = new HeadersLog({ path: `${tmp.path}/log/headers.log`, oauth: false, notice: rec.notice });
  const r = await sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    sleep: rec.sleep,
    notice: rec.notice,
    headersLog: log,
  });
  assertEquals(rec.sleeps, [3000]);
  assertEquals(r.requests, 2);
  assertEquals((r.message.content[0] as { text: string }).text, "after the wait");
  const lines = (await Deno.readTextFile(`${tmp.path}/log/headers.log`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assertEquals(lines.length, 2);
  assertEquals(lines[0].status, "HTTP 429");
  assertEquals(lines[0].tag, { retry_after: 3, rail: "5h window 100%" });
  assertEquals(lines[0].headers["content-type"], "application/json", "a 429 block is the whole raw block");
  assertEquals(lines[1].status, "HTTP 200");
  assert(
    Object.keys(lines[1].headers).every((k: string) =>
      k.startsWith("anthropic-ratelimit-") || k === "retry-after"
    ),
  );
  assert(Object.keys(lines[1].headers).length > 0);
  assert(
    rec.notices.some((n) =>
      /^phi\/rl> 429 header block written to .*headers\.log \(rail: 5h window 100%\)$/.test(n)
    ),
  );
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(`${tmp.path}/log/headers.log`)).mode! & 0o777, 0o600);
  }
});

Deno.test("overloaded: backoff 2, 4, 8 s, then the spec's message", async () => {
  await using fake = new FakeModelApi();
  for (let i = 0; i < 4; i++) fake.faults.push({ kind: "overloaded" });
  const rec = recorder();
  await rejects(
    () =>
      sendMessage(request(), {
        url: fake.url,
        auth: apiKey,
        stream: true,
        sleep: rec.sleep,
        notice: rec.notice,
      }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "overloaded" && /wait a few seconds/.test(e.message),
  );
  assertEquals(rec.sleeps, [2000, 4000, 8000]);
  // Each retry is announced: the reason, then the wait ("retrying in", never "try again").
  match(
    rec.notices[0],
    /^model> the model API is overloaded; retrying in 2 s \(attempt 2 of 4\)\.$/,
  );
  assertEquals(fake.messageRequests.length, 4);
  assertEquals([0, 1, 2, 3, 4, 5].map(backoffSeconds), [2, 4, 8, 16, 30, 30]);
});

Deno.test("single send: a non-SSE error body to a streaming request is not re-sent without streaming", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 1 });
  fake.replies.push({ text: "unused" });
  await rejects(
    () => sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, maxRetries: 0 }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "rate_limit" && e.errorBody &&
      /tripped rail: requests per minute/.test(e.message),
  );
  assertEquals(fake.messageRequests.length, 1);
});

Deno.test("single send: a JSON error body labelled as an event stream is that error, not re-sent", async () => {
  const bodies: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(await req.text());
    const body = JSON.stringify({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded\r" },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1/messages`;
  const rec = recorder();
  await rejects(
    () => sendMessage(request(), { url, auth: apiKey, stream: true, maxRetries: 1, sleep: rec.sleep }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "overloaded" && e.errorBody &&
      e.message === "the model API is overloaded: wait a few seconds and try again. (Overloaded)",
  );
  // One backoff retry (the spec's retry rule), never the non-streaming fallback.
  assertEquals(rec.sleeps, [2000]);
  assertEquals(bodies.map((b) => JSON.parse(b).stream), [true, true]);
});

Deno.test("single send: every JSON error body shape is sent again streaming, and only after its wait", async () => {
  const error = JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  const shapes: Array<[number, string]> = [[529, "application/json"], [200, "application/json"], [
    200,
    "text/event-stream",
  ]];
  for (const [status, type] of shapes) {
    await using fake = new FakeModelApi();
    fake.replies.push({ text: "second time lucky" });
    const log: string[] = [];
    let n = 0;
    const fetchOnce: typeof fetch = (input, init) => {
      log.push(`request stream=${JSON.parse(String(init!.body)).stream}`);
      if (n++ === 0) {
        return Promise.resolve(new Response(error, { status, headers: { "content-type": type } }));
      }
      return fetch(input, init);
    };
    const r = await sendMessage(request(), {
      url: fake.url,
      auth: apiKey,
      stream: true,
      fetch: fetchOnce,
      sleep: (ms) => (log.push(`wait ${ms}`), Promise.resolve()),
      notice: (l) => log.push(l),
    });
    assertEquals(r.streamed, true, `${status} ${type}`);
    assertEquals(log, [
      "request stream=true",
      "model> the model API is overloaded; retrying in 2 s (attempt 2 of 4).",
      "wait 2000",
      "request stream=true",
    ], `${status} ${type}`);
  }
});

Deno.test("an empty event stream is the spec's empty response, retried", async () => {
  let n = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    n++;
    return new Response("", { status: 200, headers: { "content-type": "text/event-stream" } });
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1/messages`;
  const rec = recorder();
  await rejects(
    () => sendMessage(request(), { url, auth: apiKey, stream: true, maxRetries: 1, sleep: rec.sleep }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "empty_response" &&
      e.message === `Network error: empty response from ${url}`,
  );
  assertEquals([n, rec.sleeps.length], [2, 1]);
});

Deno.test("a stream that cannot be parsed falls back to one non-streaming request", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "garbage_stream" });
  fake.replies.push({ text: "first" }, { text: "second" });
  const rec = recorder();
  const r = await sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, notice: rec.notice });
  assertEquals(r.streamed, false);
  assertEquals(fake.messageRequests.map((q) => q.json!.stream), [true, false]);
  assertEquals((r.message.content[0] as { text: string }).text, "second");
  match(rec.notices[0], /without streaming/);
});

Deno.test("mid-stream error and EOF without message_stop are errors the turn can retry", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "mid_stream_error" });
  fake.replies.push({ text: "half an answer" });
  await rejects(
    () => sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, maxRetries: 0 }),
    (e: unknown) => e instanceof ModelError && e.kind === "overloaded" && e.retryable && !e.errorBody,
  );
  fake.faults.push({ kind: "eof_without_stop" });
  fake.replies.push({ text: "cut" }, { text: "whole" });
  const rec = recorder();
  const r = await sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, sleep: rec.sleep });
  assertEquals((r.message.content[0] as { text: string }).text, "whole");
  assertEquals(rec.sleeps, [2000]);
});

Deno.test("error rewriting: HTML proxy page, empty body, not found, auth, malformed tool JSON", async () => {
  await using fake = new FakeModelApi();
  const opts = { url: fake.url, auth: apiKey, stream: true, maxRetries: 0 };
  fake.faults.push({ kind: "html" });
  await rejects(
    () => sendMessage(request(), opts),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "blocked" &&
      /web page \(HTTP 200, "Access Denied - Web Filter"\)/.test(e.message) &&
      /assist tools list/.test(e.message) && /allow-list 127\.0\.0\.1/.test(e.message),
  );
  fake.faults.push({ kind: "empty", status: 502 });
  await rejects(
    () => sendMessage(request(), opts),
    (e: unknown) =>
      e instanceof ModelError && e.message === `Network error: empty response from ${fake.url} (HTTP 502)`,
  );
  fake.faults.push({ kind: "status", status: 404, type: "not_found_error", message: "model: claude-nope" });
  await rejects(
    () => sendMessage({ ...request(), model: "claude-nope" }, opts),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "not_found" &&
      e.message === 'Not found: model: claude-nope. The model in use is "claude-nope" ' +
          "(ASSIST_MODEL, or /model to change it).",
  );
  const bad: AuthProvider = { rail: "api-key", headers: () => Promise.resolve({ "x-api-key": "sk-wrong" }) };
  await rejects(
    () => sendMessage(request(), { ...opts, auth: bad }),
    (e: unknown) => e instanceof ModelError && e.kind === "authentication" && /\/login/.test(e.message),
  );
  fake.faults.push({ kind: "malformed_tool_json" });
  fake.replies.push({ toolCalls: [{ name: "read_file", input: { path: "x" } }] });
  await rejects(
    () => sendMessage(request(), opts),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "malformed_tool_json" &&
      /^Tool returned malformed JSON; raw body: \{"path": "x", oops$/.test(e.message),
  );
});

Deno.test("x-should-retry: false forbids a retry", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({
    kind: "status",
    status: 500,
    type: "api_error",
    message: "Internal",
    headers: { "x-should-retry": "false" },
  });
  const rec = recorder();
  await rejects(() =>
    sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, sleep: rec.sleep })
  );
  assertEquals(rec.sleeps, []);
  assertEquals(fake.messageRequests.length, 1);
});

Deno.test("a retry-after over an hour (drained window) is reported, not waited for", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "rate_limit_unified", retryAfter: 7999 });
  const rec = recorder();
  await rejects(
    () => sendMessage(request(), { url: fake.url, auth: apiKey, stream: true, sleep: rec.sleep }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "rate_limit" &&
      /^rate limit reached; tripped rail: 5h window 100%: the API asks for a wait of 2 h 13 min \(retry-after 7999 s\), longer than the 1 h this program waits; try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC$/
        .test(e.message),
  );
  assertEquals(rec.sleeps, []);
});

Deno.test("a retry-after over 60 s (up to an hour) is waited, announced as 'retrying in', and Ctrl-C ends it", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 600 });
  fake.replies.push({ text: "after ten minutes" });
  const rec = recorder();
  const r = await sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    sleep: rec.sleep,
    notice: rec.notice,
  });
  assertEquals(rec.sleeps, [600_000]);
  assertEquals((r.message.content[0] as { text: string }).text, "after ten minutes");
  assertEquals(fake.messageRequests.map((q) => q.json!.stream), [true, true]);
  assertEquals(rec.notices.filter((n) => n.startsWith("model>")), [
    "model> rate limit reached; tripped rail: requests per minute; retrying in 600 s (attempt 2 of 4).",
  ]);
  // The real wait, ended by the caller's signal (Ctrl-C): a cancellation, nothing sent again.
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 3600 });
  const abort = new AbortController();
  const pending = sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    signal: abort.signal,
    notice: () => setTimeout(() => abort.abort(), 50),
  });
  await rejects(pending, (e: unknown) => e instanceof ModelError && e.kind === "cancelled");
  assertEquals(fake.messageRequests.length, 3);
});

Deno.test("pings are life: a stream that only pings for longer than the idle limit is waited for", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "pings", everyMs: 50, count: 12 });
  fake.replies.push({ text: "thought it through" });
  let activity = 0;
  const rec = recorder();
  const r = await sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    idleTimeoutSeconds: 0.25,
    sleep: rec.sleep,
    notice: rec.notice,
    onActivity: (limit) => limit === 0.25 && activity++,
  });
  assertEquals((r.message.content[0] as { text: string }).text, "thought it through");
  assertEquals([r.requests, rec.notices], [1, []]);
  assert(activity >= 12, `every ping is heard (${activity})`);
});

Deno.test("a 401 lets the OAuth rail refresh once, then the call goes through", async () => {
  await using fake = new FakeModelApi({ oauthTokens: ["oat-new"] });
  fake.replies.push({ text: "hello" });
  let token = "oat-old";
  let refreshes = 0;
  const oauth: AuthProvider = {
    rail: "oauth",
    headers: () =>
      Promise.resolve({ authorization: `Bearer ${token}`, "anthropic-beta": "oauth-2025-04-20" }),
    onUnauthorized: () => (refreshes++, token = "oat-new", Promise.resolve(true)),
  };
  const r = await sendMessage(request(), { url: fake.url, auth: oauth, stream: true });
  assertEquals(refreshes, 1);
  assertEquals(r.requests, 2);
});

Deno.test("network failures: refused connection is a network error, bounded", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const rec = recorder();
  await rejects(
    () =>
      sendMessage(request(), {
        url: `http://127.0.0.1:${port}/v1/messages`,
        auth: apiKey,
        stream: true,
        maxRetries: 1,
        sleep: rec.sleep,
      }),
    (e: unknown) => e instanceof ModelError && e.kind === "network" && /cannot reach/.test(e.message),
  );
  assertEquals(rec.sleeps, [2000]);
});

Deno.test("idle timeout: headers then silence ends with a clear, retryable error", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "hang" });
  fake.replies.push({ text: "never sent" });
  await rejects(
    () =>
      sendMessage(request(), {
        url: fake.url,
        auth: apiKey,
        stream: true,
        maxRetries: 0,
        idleTimeoutSeconds: 0.2,
      }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "timeout" && e.retryable &&
      /^the model API accepted the request but sent nothing for 0\.2 s/.test(e.message),
  );
});

Deno.test("idle timeout: silence between stream events, then a retry that answers", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "hang", afterEvents: 3 });
  fake.replies.push({ text: "half" }, { text: "whole answer" });
  const rec = recorder();
  let resends = 0;
  const texts: string[] = [];
  const r = await sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    idleTimeoutSeconds: 0.2,
    sleep: rec.sleep,
    notice: rec.notice,
    onResend: () => resends++,
    onText: (t) => texts.push(t),
  });
  assertEquals((r.message.content[0] as { text: string }).text, "whole answer");
  assertEquals(r.requests, 2);
  assertEquals(resends, 1);
  assertEquals(rec.sleeps, [2000]);
  match(
    rec.notices[0],
    /^model> the model API accepted the request but sent nothing for 0\.2 s .*; retrying in 2 s/,
  );
});

Deno.test("idle timeout: no headers at all, streaming or not", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "hang_before_headers" }, { kind: "hang_before_headers" });
  await rejects(
    () =>
      sendMessage(request(), {
        url: fake.url,
        auth: apiKey,
        stream: true,
        maxRetries: 0,
        idleTimeoutSeconds: 0.2,
      }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "timeout" && /sent nothing for 0\.2 s/.test(e.message),
  );
  // Non-streaming answers come whole, so their bound is the response timeout, not the idle one.
  await rejects(
    () =>
      sendMessage(request(), {
        url: fake.url,
        auth: apiKey,
        stream: false,
        maxRetries: 0,
        idleTimeoutSeconds: 3600,
        responseTimeoutSeconds: 0.3,
      }),
    (e: unknown) =>
      e instanceof ModelError && e.kind === "timeout" && /sent nothing for 0\.3 s/.test(e.message),
  );
  assertEquals(fake.messageRequests.length, 2);
});

Deno.test("idle timeout: cancellation during a hang is still a cancellation, not a timeout", async () => {
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "hang" });
  fake.replies.push({ text: "never sent" });
  const abort = new AbortController();
  const pending = sendMessage(request(), {
    url: fake.url,
    auth: apiKey,
    stream: true,
    signal: abort.signal,
    idleTimeoutSeconds: 3600,
  });
  while (fake.messageRequests.length === 0) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await rejects(pending, (e: unknown) => e instanceof ModelError && e.kind === "cancelled");
});

Deno.test("idle timeout: a silent API is asked once more, then one clear error (not maxRetries times)", async () => {
  await using fake = new FakeModelApi();
  for (let i = 0; i < 4; i++) fake.faults.push({ kind: "hang", afterEvents: 1 });
  for (let i = 0; i < 4; i++) fake.replies.push({ text: "never reached" });
  await rejects(
    () =>
      sendMessage(request(), {
        url: fake.url,
        auth: apiKey,
        stream: true,
        idleTimeoutSeconds: 0.2,
        maxRetries: 3,
        sleep: () => Promise.resolve(),
      }),
    (e: unknown) => e instanceof ModelError && e.kind === "timeout",
  );
  assertEquals(fake.messageRequests.length, 2);
});
