import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  compactNumber,
  formatCost,
  formatReset,
  renderStatus,
  STATUS_SEPARATOR,
  type StatusInput,
} from "../../../cli/repl/status.ts";
import type { RateLimitReading } from "../../../cli/model/ratelimit.ts";

// Local-time constructors, so the expected clock texts hold in any time zone.
const NOW = new Date(2026, 10, 21, 9, 30).getTime();
const at = (y: number, mo: number, d: number, h: number, mi: number) =>
  Math.floor(new Date(y, mo, d, h, mi).getTime() / 1000);

const usage = {
  input_tokens: 300,
  output_tokens: 900,
  cache_creation_input_tokens: 2000,
  cache_read_input_tokens: 10000,
};
const limits: RateLimitReading = {
  fiveHour: { utilization: 0.42, reset: at(2026, 10, 21, 14, 5) },
  sevenDay: { utilization: 0.59, reset: at(2026, 10, 24, 8, 0) },
  perMinute: {},
};
const base: StatusInput = {
  rail: "api-key",
  lastUsage: usage,
  model: "claude-sonnet-4-5",
  sessionCostUsd: 0.0421,
  turns: 3,
  rateLimits: limits,
  columns: 120,
  now: NOW,
  color: false,
};

Deno.test("separator is pinned", () => {
  assertEquals(STATUS_SEPARATOR, " · ");
});

Deno.test("API-key rail: context (input + cache creation + cache read of the last request), cost, turns", () => {
  assertEquals(renderStatus(base), "ctx 6% (12.3k/200k) · $0.042 · 3 turns");
  assertEquals(
    renderStatus({ ...base, turns: 1, sessionCostUsd: 1.5 }),
    "ctx 6% (12.3k/200k) · $1.50 · 1 turn",
  );
  // A 1M-token model: the window comes from pricing.ts.
  assertEquals(
    renderStatus({
      ...base,
      model: "claude-sonnet-4-6",
      lastUsage: { ...usage, cache_read_input_tokens: 1_200_000 },
    }),
    "ctx 120% (1.2M/1M) · $0.042 · 3 turns",
  );
});

Deno.test("OAuth rail: 5h and 7d with resets; reset times dropped under 100 columns", () => {
  const o = { ...base, rail: "oauth" as const };
  assertEquals(renderStatus(o), "ctx 6% (12.3k/200k) · 5h 42% reset 14:05 · 7d 59% reset Nov 24");
  assertEquals(
    renderStatus({ ...o, columns: 100 }),
    "ctx 6% (12.3k/200k) · 5h 42% reset 14:05 · 7d 59% reset Nov 24",
  );
  assertEquals(renderStatus({ ...o, columns: 99 }), "ctx 6% (12.3k/200k) · 5h 42% · 7d 59%");
  assertEquals(renderStatus({ ...o, columns: 60 }), "ctx 6% (12.3k/200k) · 5h 42% · 7d 59%");
});

Deno.test("missing values are em-dashes; a passed reset is stale", () => {
  const o = { ...base, rail: "oauth" as const };
  assertEquals(
    renderStatus({ ...o, lastUsage: undefined, rateLimits: undefined }),
    "ctx — (—/200k) · 5h — reset — · 7d — reset —",
  );
  assertEquals(
    renderStatus({
      ...o,
      rateLimits: {
        fiveHour: { utilization: 1.0, reset: at(2026, 10, 21, 9, 0) },
        sevenDay: { reset: at(2026, 10, 25, 0, 0) },
        perMinute: {},
      },
    }),
    "ctx 6% (12.3k/200k) · 5h 100% reset stale · 7d — reset Nov 25",
  );
  assertEquals(renderStatus({ ...base, lastUsage: undefined }), "ctx — (—/200k) · $0.042 · 3 turns");
});

Deno.test("turn 0: nothing unless forced (/status); after the first turn always", () => {
  assertEquals(renderStatus({ ...base, turns: 0, lastUsage: undefined, sessionCostUsd: 0 }), undefined);
  assertEquals(
    renderStatus({ ...base, turns: 0, lastUsage: undefined, sessionCostUsd: 0, force: true }),
    "ctx — (—/200k) · $0.000 · 0 turns",
  );
  assert(renderStatus({ ...base, turns: 1 }) !== undefined);
});

Deno.test("a plain dim line: SGR only, no cursor control; plain without color; fits the width", () => {
  const dim = renderStatus({ ...base, color: true })!;
  assertEquals(dim, "\x1b[2mctx 6% (12.3k/200k) · $0.042 · 3 turns\x1b[0m");
  const escapes = dim.match(new RegExp("\x1b\\[[0-9;?]*[A-Za-z]", "g")) ?? [];
  assertEquals(escapes, ["\x1b[2m", "\x1b[0m"]);
  assert(!/[\r\n]/.test(dim));
  assert(!renderStatus(base)!.includes("\x1b"));
  const narrow = renderStatus({ ...base, columns: 20 })!;
  assertEquals(narrow, "ctx 6% (12.3k/200k…");
  assertEquals([...narrow].length, 19);
});

Deno.test("compact numbers, costs and reset formats", () => {
  assertEquals(
    [0, 950, 999, 1000, 12_345, 200_000, 999_949, 999_950, 1_000_000, 1_234_567].map(compactNumber),
    ["0", "950", "999", "1k", "12.3k", "200k", "999.9k", "1M", "1M", "1.2M"],
  );
  assertEquals([0, 0.0421, 0.9999, 1.5, 12.345, 250.4].map(formatCost), [
    "$0.000",
    "$0.042",
    "$1.00",
    "$1.50",
    "$12.35",
    "$250",
  ]);
  assertEquals(formatReset(undefined, NOW, "time"), "—");
  assertEquals(formatReset(at(2026, 10, 21, 9, 30), NOW, "time"), "stale");
  assertEquals(formatReset(at(2026, 10, 21, 9, 31), NOW, "time"), "09:31");
  assertEquals(formatReset(at(2026, 11, 2, 0, 0), NOW, "date"), "Dec 2");
});
