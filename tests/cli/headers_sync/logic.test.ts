import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { completeLines, planReads, toJsonl } from "../../../cli/headers_sync/logic.ts";
import { settingsFrom } from "../../../cli/headers_sync/settings.ts";
import { HeadersLog, rotateIfFull } from "../../../cli/model/headers_log.ts";
import { apiKeyHeaders, unifiedHeaders } from "../../support/fake_model_api.ts";
import { tempDir } from "../../support/run_assist.ts";

Deno.test("JSONL: headers_log's own blocks (200 and a tagged 429) become one object each, with the host", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/log/headers.log`;
  const log = new HeadersLog({ path, oauth: false, now: () => new Date("2026-03-01T10:00:00Z") });
  await log.record(200, new Headers({ ...apiKeyHeaders(), "x-other": "dropped" }));
  await log.record(429, new Headers({ ...unifiedHeaders("rejected"), "retry-after": "7" }));
  const text = await Deno.readTextFile(path);
  const r = toJsonl(text, "ws-7");
  assertEquals([r.blocks, r.skipped], [2, 0]);
  const lines = r.jsonl.split("\n");
  assertEquals(lines.length, 3);
  assertEquals(lines[2], "");
  const [a, b] = lines.slice(0, 2).map((l) => JSON.parse(l));
  const src = text.trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(Object.keys(a), ["host", "ts", "status", "headers"]);
  assertEquals(a, { host: "ws-7", ...src[0] });
  assertEquals(a.status, "HTTP 200");
  assertEquals(a.headers["x-other"], undefined);
  assertEquals(Object.keys(b), ["host", "ts", "status", "headers", "tag"]);
  assertEquals(b.tag, src[1].tag);
  assertEquals(b.tag.retry_after, 7);
  assertEquals(b.headers["retry-after"], "7");
});

Deno.test("JSONL: torn or foreign lines are left out and counted; CRLF and blank lines are fine", () => {
  const ok = '{"ts":"t","status":"HTTP 200","headers":{"retry-after":"1"}}';
  const r = toJsonl(
    `${ok}\r\n\nnot json\n{"status":200,"headers":{}}\n[1]\n{"status":"HTTP 500","headers":[]}\n${ok}\n`,
    "h",
  );
  assertEquals([r.blocks, r.skipped], [2, 4]);
});

Deno.test("complete lines: a line still being written waits", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assertEquals(completeLines(enc("")), 0);
  assertEquals(completeLines(enc("partial")), 0);
  assertEquals(completeLines(enc("a\nb\npart")), 4);
  assertEquals(completeLines(enc("a\nb\n")), 4);
});

Deno.test("plan: first push, tail, nothing new, shrink, rotation with and without the old generation", () => {
  const mark = { id: "1:100:5", offset: 300, head: "64:aa" };
  const same = (size: number, head = "64:aa") => ({ id: "1:100:5", size, head });
  // Never pushed: the whole file (nothing when empty or absent).
  assertEquals(planReads(undefined, same(120), undefined), {
    reads: [{ file: "current", from: 0, to: 120 }],
  });
  assertEquals(planReads(undefined, same(0), undefined), { reads: [] });
  assertEquals(planReads(undefined, undefined, undefined), { reads: [] });
  // Same file, grown: only the tail; not grown: nothing.
  assertEquals(planReads(mark, same(450), undefined), { reads: [{ file: "current", from: 300, to: 450 }] });
  assertEquals(planReads(mark, same(300), undefined), { reads: [] });
  // Same inode, smaller than the offset, or rewritten from the start: re-seed.
  assertEquals(planReads(mark, same(200), undefined), {
    reads: [{ file: "current", from: 0, to: 200 }],
    reseed: "shrunk",
  });
  assertEquals(planReads(mark, same(900, "64:bb"), undefined), {
    reads: [{ file: "current", from: 0, to: 900 }],
    reseed: "shrunk",
  });
  // Rotated: the rest of headers.log.1 first, then the new file from 0.
  const fresh = { id: "1:222:9", size: 80, head: "64:cc" };
  assertEquals(planReads(mark, fresh, same(350)), {
    reads: [{ file: "rotated", from: 300, to: 350 }, { file: "current", from: 0, to: 80 }],
    reseed: "rotated",
  });
  assertEquals(planReads(mark, fresh, same(300)), {
    reads: [{ file: "current", from: 0, to: 80 }],
    reseed: "rotated",
  });
  // Rotated twice (the marked file is gone): the new file from 0.
  assertEquals(planReads(mark, fresh, { id: "1:333:7", size: 5000, head: "64:dd" }), {
    reads: [{ file: "current", from: 0, to: 80 }],
    reseed: "rotated",
  });
  // Rotated and no new file yet: only the tail of the old one.
  assertEquals(planReads(mark, undefined, same(310)), {
    reads: [{ file: "rotated", from: 300, to: 310 }],
    reseed: "rotated",
  });
});

Deno.test("settings from .env: defaults, on/off, a malformed mark is no mark", () => {
  assertEquals(settingsFrom({}), { enabled: false, target: undefined, remoteDir: "~/.assist-headers" });
  const s = settingsFrom({
    HEADERS_SYNC: "on",
    HEADERS_SYNC_TARGET: "eng1",
    HEADERS_SYNC_REMOTE_DIR: "/var/tmp/h",
    HEADERS_SYNC_FILE_ID: "1:2:3",
    HEADERS_SYNC_OFFSET: "42",
    HEADERS_SYNC_HEAD: "42:ab",
  });
  assertEquals(s, {
    enabled: true,
    target: "eng1",
    remoteDir: "/var/tmp/h",
    mark: { id: "1:2:3", offset: 42, head: "42:ab" },
  });
  assertEquals(
    settingsFrom({ HEADERS_SYNC_FILE_ID: "1:2:3", HEADERS_SYNC_OFFSET: "-1", HEADERS_SYNC_HEAD: "x" }).mark,
    undefined,
  );
});

Deno.test("headers.log rotates at its size cap into headers.log.1 (one generation)", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/log/headers.log`;
  const log = new HeadersLog({ path, oauth: false, maxBytes: 1000 });
  for (let i = 0; i < 40; i++) await log.record(200, new Headers(apiKeyHeaders()));
  const cur = (await Deno.stat(path)).size;
  const old = (await Deno.stat(`${path}.1`)).size;
  assert(cur <= 1000 && old <= 1000 && old > 500, `sizes ${cur}, ${old}`);
  const entries = [...Deno.readDirSync(`${tmp.path}/log`)].map((e) => e.name).sort();
  assertEquals(entries, ["headers.log", "headers.log.1"]);
  for (const p of [path, `${path}.1`]) {
    for (const l of (await Deno.readTextFile(p)).trim().split("\n")) JSON.parse(l); // whole lines only
  }
  assertEquals(await rotateIfFull(`${tmp.path}/absent`, 10, 1), false);
});
