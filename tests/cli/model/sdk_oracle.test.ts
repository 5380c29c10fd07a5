/**
 * The official SDK, a test-only dependency, is the outside oracle for the fake server: it must
 * parse the fake's streams, messages and errors without complaint, so the fake cannot drift from
 * the real wire format unnoticed.
 */
import Anthropic from "@anthropic-ai/sdk";
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { FakeModelApi } from "../../support/fake_model_api.ts";

const base = (fake: FakeModelApi) =>
  new Anthropic({ apiKey: "sk-ant-test-key", authToken: null, baseURL: fake.base, maxRetries: 0 });
const req = {
  model: "claude-sonnet-4-6",
  max_tokens: 100,
  messages: [{ role: "user" as const, content: "hi" }],
};

Deno.test("SDK parses the fake's SSE stream (text + split tool JSON) into the same message", async () => {
  await using fake = new FakeModelApi();
  fake.replies.push({
    text: "Reading the NetConfig now.",
    toolCalls: [{ name: "read_file", input: { path: "/hci/siteA/NetConfig" } }],
  });
  const stream = base(fake).messages.stream(req);
  const texts: string[] = [];
  stream.on("text", (t) => texts.push(t));
  const final = await stream.finalMessage();
  assertEquals(texts.join(""), "Reading the NetConfig now.");
  assertEquals(final.stop_reason, "tool_use");
  const tool = final.content.find((b) => b.type === "tool_use");
  assert(tool && tool.type === "tool_use");
  assertEquals(tool.input, { path: "/hci/siteA/NetConfig" });
  assert(final.usage.cache_creation_input_tokens! > 0);
});

Deno.test("SDK parses the fake's non-streaming message and its errors", async () => {
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "ok" });
  const m = await base(fake).messages.create(req);
  assertEquals(m.content, [{ type: "text", text: "ok" }]);
  fake.faults.push({ kind: "overloaded" });
  await rejects(
    () => base(fake).messages.create(req),
    (e: unknown) => e instanceof Anthropic.APIError && e.status === 529,
  );
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 3 });
  await rejects(
    () => base(fake).messages.create(req),
    (e: unknown) => e instanceof Anthropic.RateLimitError && e.headers?.get("retry-after") === "3",
  );
  await rejects(
    () =>
      new Anthropic({ apiKey: "wrong", authToken: null, baseURL: fake.base, maxRetries: 0 }).messages.create(
        req,
      ),
    (e: unknown) => e instanceof Anthropic.AuthenticationError,
  );
});

Deno.test("SDK sees the fake's mid-stream error as an API error", async () => {
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "partial answer that breaks" });
  fake.faults.push({ kind: "mid_stream_error" });
  const stream = base(fake).messages.stream(req);
  await rejects(
    () => stream.finalMessage(),
    (e: unknown) => e instanceof Anthropic.APIError && /overloaded/i.test(String(e.message)),
  );
});
