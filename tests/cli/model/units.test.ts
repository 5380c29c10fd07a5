import { deepStrictEqual as assertEquals, match, ok as assert, throws } from "node:assert/strict";
import { SseDecoder, type SseEvent } from "../../../cli/model/sse.ts";
import {
  readRateLimits,
  resetToEpoch,
  retryAfterSeconds,
  trippedRail,
} from "../../../cli/model/ratelimit.ts";
import { contextUsed, CostMeter, costOf, priceOf } from "../../../cli/model/pricing.ts";
import {
  HeadersLog,
  OAUTH_HEADER_LOG_CAP,
  STATUS_429_HEADER_LOG_LIMIT,
} from "../../../cli/model/headers_log.ts";
import { streamingWanted } from "../../../cli/build_agent.ts";
import { fromApiError } from "../../../cli/model/errors.ts";
import { normalizeUsage } from "../../../cli/model/types.ts";
import { placeholders, renderTemplate } from "../../../cli/agent/templates.ts";
import { apiKeyHeaders, unifiedHeaders } from "../../support/fake_model_api.ts";
import { tempDir } from "../../support/run_assist.ts";

function decodeAll(chunks: string[]): SseEvent[] {
  const d = new SseDecoder();
  return [...chunks.flatMap((c) => d.push(c)), ...d.end()];
}

Deno.test("SSE: comments, multi-line data, CRLF / CR / LF, and any chunking give the same events", () => {
  const text =
    ': hello\r\nevent: a\r\ndata: {"x":1}\r\n\r\nevent: b\rdata: one\rdata: two\r\revent: c\ndata: {}\n\ndata: tail';
  const want = [
    { event: "a", data: '{"x":1}' },
    { event: "b", data: "one\ntwo" },
    { event: "c", data: "{}" },
    { event: "message", data: "tail" },
  ];
  assertEquals(decodeAll([text]), want);
  // Every split point, including inside \r\n pairs.
  for (let i = 0; i <= text.length; i++) {
    assertEquals(decodeAll([text.slice(0, i), text.slice(i)]), want, `split at ${i}`);
  }
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let n = 0; n < 500; n++) {
    const chunks: string[] = [];
    for (let i = 0; i < text.length;) {
      const len = 1 + Math.floor(rnd() * 6);
      chunks.push(text.slice(i, i + len));
      i += len;
    }
    assertEquals(decodeAll(chunks), want);
  }
});

Deno.test("rate limits: API-key family RFC 3339 → epoch; unified family epoch strings as is; rails named", () => {
  assertEquals(resetToEpoch("2025-08-21T12:40:59Z"), 1755780059);
  assertEquals(resetToEpoch("1774472400\r"), 1774472400);
  const a = readRateLimits(new Headers({ ...apiKeyHeaders(0), "retry-after": "12" }));
  assertEquals(a.perMinute.requests.remaining, 0);
  assert(Math.abs(a.perMinute.requests.reset! - (Date.now() / 1000 + 60)) < 5);
  assertEquals(a.retryAfter, 12);
  assertEquals(trippedRail(a), "requests per minute");
  const u = readRateLimits(new Headers(unifiedHeaders("rejected")));
  assertEquals(u.fiveHour?.utilization, 1);
  assertEquals(u.sevenDay?.utilization, 0.59);
  assertEquals(
    String(u.fiveHour?.reset),
    new Headers(unifiedHeaders("rejected")).get("anthropic-ratelimit-unified-5h-reset"),
  );
  assertEquals(trippedRail(u), "5h window 100%");
  assertEquals(retryAfterSeconds(new Headers({ "retry-after-ms": "1500", "retry-after": "9" })), 1.5);
  assertEquals(readRateLimits(new Headers()).fiveHour, undefined);
});

Deno.test("headers.log: the OAuth cap of 50 blocks; 429 blocks under their own budget", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/log/headers.log`;
  const log = new HeadersLog({ path, oauth: true });
  for (let i = 0; i < OAUTH_HEADER_LOG_CAP + 10; i++) {
    await log.record(200, new Headers(unifiedHeaders("allowed")));
  }
  for (let i = 0; i < STATUS_429_HEADER_LOG_LIMIT + 5; i++) {
    await log.record(
      429,
      new Headers({ ...unifiedHeaders("rejected"), "retry-after": "5", "set-cookie": "sess=SECRET-COOKIE" }),
    );
  }
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(lines.filter((l) => l.status === "HTTP 200").length, OAUTH_HEADER_LOG_CAP);
  assertEquals(lines.filter((l) => l.status === "HTTP 429").length, STATUS_429_HEADER_LOG_LIMIT);
  assert(!JSON.stringify(lines).includes("SECRET-COOKIE"), "a cookie reached headers.log");
  assertEquals(lines.find((l) => l.status === "HTTP 429").headers["set-cookie"], "[redacted]");
  const apiKeyLog = new HeadersLog({ path: `${tmp.path}/log/b.log`, oauth: false });
  for (let i = 0; i < OAUTH_HEADER_LOG_CAP + 3; i++) {
    await apiKeyLog.record(
      200,
      new Headers({
        "x-other": "no",
        "anthropic-priority-input-tokens-limit": "1000",
        "retry-after-ms": "1500",
        "retry-after": "2",
        ...apiKeyHeaders(),
      }),
    );
  }
  const b = (await Deno.readTextFile(`${tmp.path}/log/b.log`)).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(b.length, OAUTH_HEADER_LOG_CAP + 3, "the cap is the OAuth rail's only");
  assertEquals(b[0].headers["x-other"], undefined);
  assertEquals(b[0].headers["request-id"], undefined);
  // Spec: only `<vendor>-ratelimit-*` and `retry-after` lines (plus the status line) are kept.
  for (const line of b) {
    for (const name of Object.keys(line.headers)) {
      assert(name.startsWith("anthropic-ratelimit-") || name === "retry-after", `kept ${name}`);
    }
    assertEquals(line.headers["retry-after"], "2");
    assert(line.headers["anthropic-ratelimit-requests-limit"] !== undefined);
  }
});

Deno.test("pricing: spec tiers as defaults, known models, unknown 200K; cost and context", () => {
  assertEquals(priceOf("claude-opus-4-1-20250805").input, 15);
  assertEquals(priceOf("claude-haiku-3-legacy").output, 5);
  assertEquals(priceOf("claude-sonnet-4-5-20250929").contextWindow, 200_000);
  assertEquals(priceOf("claude-sonnet-4-6").contextWindow, 1_000_000);
  assertEquals(priceOf("claude-opus-4-6").input, 5);
  assertEquals(priceOf("claude-sonnet-5").input, 2);
  const unknown = priceOf("some-other-model");
  assertEquals([unknown.known, unknown.contextWindow], [false, 200_000]);
  const u = {
    input_tokens: 1_000_000,
    output_tokens: 1_000_000,
    cache_creation_input_tokens: 1_000_000,
    cache_read_input_tokens: 1_000_000,
  };
  const c = costOf("claude-sonnet-4-5", u);
  assertEquals([c.input, c.output, c.cacheWrite, c.cacheRead], [3, 15, 3.75, 0.3]);
  assertEquals(contextUsed(u), 3_000_000);
  const m = new CostMeter();
  m.add("claude-sonnet-4-6", { ...u, output_tokens: 0 });
  m.add("claude-sonnet-4-6", {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 100,
  });
  assertEquals(m.streams.length, 2);
  assertEquals(m.context(), { used: 110, window: 1_000_000 });
  assert(Math.abs(m.total.total - (3 + 3.75 + 0.3 + (10 * 3 + 5 * 15 + 100 * 0.3) / 1e6)) < 1e-9);
});

Deno.test("ASSIST_NO_STREAM: 1 off, 0 on, automatic off only under POSIX emulation on Windows", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assertEquals(streamingWanted(true, "linux", env({})), false);
  assertEquals(streamingWanted(false, "windows", env({ MSYSTEM: "MINGW64" })), true);
  assertEquals(streamingWanted(undefined, "linux", env({ MSYSTEM: "MINGW64" })), true);
  assertEquals(streamingWanted(undefined, "windows", env({ MSYSTEM: "MINGW64" })), false);
  assertEquals(streamingWanted(undefined, "windows", env({ TERM: "cygwin" })), false);
  assertEquals(streamingWanted(undefined, "windows", env({})), true);
});

Deno.test("templated prompts: every placeholder filled, a missing one is a usage error", () => {
  assertEquals(placeholders("nc-diff-env"), ["site", "source", "target"]);
  const text = renderTemplate("nc-diff-env", { site: "siteA", source: "test", target: "prod" });
  assert(!text.includes("{{"));
  match(text, /site siteA between two environments: test \(source\) and prod \(target\)/);
  throws(() => renderTemplate("nc-regression-env", { site: "a" }), /needs thread, source, target, count/);
});

Deno.test("API error type and message are CR-stripped before matching, wherever they came from", () => {
  const ctx = { url: "http://127.0.0.1:9/v1/messages", model: "claude-sonnet-4-6" };
  // A mid-stream `event: error` (no HTTP status) from a CRLF-mangling proxy.
  const e = fromApiError(ctx, "overloaded_error\r", "Overloaded\r", undefined, false);
  assertEquals([e.kind, e.retryable, e.apiType], ["overloaded", true, "overloaded_error"]);
  assert(!e.message.includes("\r"));
  const nf = fromApiError(ctx, "not_found_error\r\n", "model: x\r", 200, true);
  assertEquals(nf.kind, "not_found");
  match(nf.message, /"claude-sonnet-4-6"/);
});

Deno.test("usage counts from JSON: numbers as is; text counts CR-stripped and coerced, never NaN", () => {
  const u = normalizeUsage({
    input_tokens: 1200,
    output_tokens: "35\r",
    cache_read_input_tokens: " 900 ",
    cache_creation_input_tokens: "n/a",
  });
  assertEquals(
    [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens],
    [1200, 35, 900, 0],
  );
  assertEquals(contextUsed(u), 2100);
});
