/**
 * Headless mode end to end: the program as a subprocess under the shipped permission set, talking
 * to the fake model API on loopback, with the real PHI engine in the path.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { writeTokens } from "../../cli/auth/oauth_store.ts";

const KEY = "sk-ant-test-key";
const TOKEN_RE = /\[\[[^\[\]\s]{1,80}\]\]/g;

function env(home: string, fake: FakeModelApi, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, ASSIST_API_KEY: KEY, ASSIST_MODEL_API_URL: fake.url, ...extra };
}

Deno.test("PHI canary: no raw PHI reaches the model, the printed answer shows the real values", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const adt = [
    "MSH|^~\\&|EPIC|HOSP|CLOVER|HOSP|202611210830||ADT^A01|MSG00001|P|2.5.1",
    "EVN|A01|202611210830",
    "PID|1||48213377^^^HOSP^MR||QUIGLEY^ROSALIND^M||19610423|F|||77 Larkspur Lane^^Fairview^OH^44120||(216)555-0147|||||900112233^^^HOSP^AN|512-44-9087",
    "PV1|1|I|W4^412^1^HOSP||||1234567^HOUSE^GREGORY^^^DR|||||||||||V44556677",
    "",
  ].join("\r");
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, adt);
  fake.replies.push({
    text: "Reading the message.",
    toolCalls: [{ name: "read_file", input: { path: `${tmp.path}/adt.hl7` } }],
  });
  // The model answers with the tokens it was given: the operator must see them restored.
  fake.replies.push((req) => {
    const seen = [...new Set(JSON.stringify(req.messages).match(TOKEN_RE) ?? [])];
    return { text: `Tokens seen: ${seen.join(" ")}` };
  });
  const prompt = "Why did the ADT for patient @@QUIGLEY^ROSALIND@@ (MRN 48213377, SSN 512-44-9087, " +
    "email rosalind.quigley@example.org, DOB 04/23/1961) fail? The file is adt.hl7.";
  const r = await runAssist(["-p", prompt], { env: env(tmp.path, fake), cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  const sent = fake.messageRequests.map((q) => q.body).join("\n");
  for (
    const raw of [
      "QUIGLEY",
      "ROSALIND",
      "48213377",
      "512-44-9087",
      "rosalind.quigley@example.org",
      "19610423",
      "(216)555-0147",
      "Larkspur",
      "900112233",
    ]
  ) {
    assert(!sent.includes(raw), `raw PHI reached the model: ${raw}`);
  }
  assert((sent.match(TOKEN_RE) ?? []).length >= 5, "the values were replaced by tokens");
  for (const real of ["QUIGLEY", "48213377", "512-44-9087"]) {
    assert(r.stdout.includes(real), `answer lacks ${real}: ${r.stdout}`);
  }
  match(r.stderr, /^phi> auto-tokenized \d+ value\(s\) \[user_input\]:/m);
  assert(!r.stdout.match(TOKEN_RE), `unrestored token in the answer: ${r.stdout}`);
});

Deno.test("multi-tool turn with --json transcript; the API key never appears anywhere", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  await Deno.writeTextFile(`${tmp.path}/notes.txt`, "thread ADT_IN feeds LAB_OUT\n");
  fake.replies.push({
    toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }, {
      name: "grep_files",
      input: { pattern: "LAB_OUT" },
    }],
  });
  fake.replies.push({ text: "ADT_IN feeds LAB_OUT." });
  const r = await runAssist(["-p", "what feeds LAB_OUT?", "--json"], {
    env: env(tmp.path, fake),
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  const t = JSON.parse(r.stdout);
  assertEquals(t.answer, "ADT_IN feeds LAB_OUT.");
  assertEquals(t.tool_calls.map((c: { name: string }) => c.name), ["read_file", "grep_files"]);
  assertEquals(t.rounds, 2);
  assert(t.usage.input_tokens > 0 && t.cost_usd > 0);
  match(r.stderr, /^tool> read_file path=notes\.txt$/m);
  const logs = await Array.fromAsync(Deno.readDir(`${tmp.path}/.assist/log`));
  let all = r.stdout + r.stderr;
  for (const f of logs) all += await Deno.readTextFile(`${tmp.path}/.assist/log/${f.name}`);
  assert(!all.includes(KEY));
});

Deno.test("retry-after is honoured, then the answer", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 1 });
  fake.replies.push({ text: "after waiting" });
  const started = Date.now();
  const r = await runAssist(["-p", "hello"], { env: env(tmp.path, fake), cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  assert(Date.now() - started >= 1000, "did not wait for retry-after");
  match(r.stdout, /after waiting/);
  match(r.stderr, /^phi\/rl> 429 header block written to .*headers\.log/m);
  match(r.stderr, /; retrying in 1 s \(attempt 2 of 4\)/);
  assert(!/try again/.test(r.stderr), "a retry notice says when, not 'try again'");
});

Deno.test("stdout holds the final answer only: a broken-off attempt is a notice on stderr", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  // The first attempt streams some text, then an `error` event; the second is the answer.
  fake.faults.push({ kind: "mid_stream_error" });
  fake.replies.push({ text: "BROKEN-OFF partial words" }, { text: "The retried answer." });
  const r = await runAssist(["-p", "hello"], { env: env(tmp.path, fake), cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "The retried answer.\n");
  match(r.stderr, /^model> that answer broke off; it starts over$/m);
  match(r.stderr, /^model> the model API is overloaded; retrying in 2 s/m);
  assertEquals(fake.messageRequests.map((q) => q.json!.stream), [true, true]);
});

Deno.test("-p has an overall bound per turn: a stream of only pings is stopped with one line", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  // Pings keep the idle limit (2 s here) from firing: only the turn's bound (5 s) ends it.
  fake.faults.push({ kind: "pings", everyMs: 100 });
  fake.replies.push({ text: "never" });
  const r = await runAssist(["-p", "think hard"], {
    env: env(tmp.path, fake, { ASSIST_IDLE_TIMEOUT: "2", ASSIST_TURN_TIMEOUT: "5" }),
    cwd: tmp.path,
  });
  assertEquals(r.code, 1, r.stderr);
  assertEquals(r.stdout, "");
  match(
    r.stderr,
    /^assist: the turn took longer than 5 s and was stopped \(ASSIST_TURN_TIMEOUT sets the bound; 0: none\)$/m,
  );
  assertEquals(fake.messageRequests.length, 1, "pings are life: the request was not given up and sent again");
  // A retry-after the bound would cut short is reported at once, not begun.
  fake.faults.push({ kind: "rate_limit_api_key", retryAfter: 120 });
  const long = await runAssist(["-p", "x"], {
    env: env(tmp.path, fake, { ASSIST_TURN_TIMEOUT: "60" }),
    cwd: tmp.path,
  });
  assertEquals(long.code, 1, long.stderr);
  match(
    long.stderr,
    /the API asks for a wait of 2 min \(retry-after 120 s\), longer than the 60 s this program waits/,
  );
  assertEquals(fake.messageRequests.length, 2);
  // A bad value is one line naming the variable.
  const bad = await runAssist(["-p", "x"], {
    env: env(tmp.path, fake, { ASSIST_TURN_TIMEOUT: "soon" }),
    cwd: tmp.path,
  });
  assertEquals(bad.code, 2);
  match(bad.stderr, /^assist: ASSIST_TURN_TIMEOUT must be an integer from 0 to 604800 \(got "soon"\)\n$/);
});

Deno.test("blocked API (an HTML proxy page): diagnosis pointing to manual tools mode, exit 1, one request", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "html" });
  const r = await runAssist(["-p", "hello"], { env: env(tmp.path, fake), cwd: tmp.path });
  assertEquals(r.code, 1);
  match(r.stderr, /web-filtering proxy.*assist tools list.*allow-list/);
  assertEquals(fake.messageRequests.length, 1);
});

Deno.test("malformed tool JSON is reported with the raw body", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.faults.push({ kind: "malformed_tool_json" });
  fake.replies.push({ toolCalls: [{ name: "read_file", input: { path: "x" } }] });
  const r = await runAssist(["-p", "hello"], {
    env: { ...env(tmp.path, fake), ASSIST_NO_STREAM: "0" },
    cwd: tmp.path,
  });
  assertEquals(r.code, 1);
  match(r.stderr, /Tool returned malformed JSON; raw body: \{"path": "x", oops/);
});

Deno.test("OAuth rail: a 401 triggers one refresh, then the answer", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi({ refreshTokens: { "ort-1": "oat-fresh" }, strictTokenHeaders: true });
  await Deno.mkdir(`${tmp.path}/.assist`, { recursive: true });
  await writeTokens(`${tmp.path}/.assist/.oauth.json`, {
    access_token: "oat-revoked",
    refresh_token: "ort-1",
    fetched_at: Math.floor(Date.now() / 1000),
    expires_in: 3600,
  });
  fake.replies.push({ text: "signed in" });
  const r = await runAssist(["-p", "hello"], {
    env: {
      HOME: tmp.path,
      ASSIST_AUTH_MODE: "oauth",
      ASSIST_OAUTH_URL: fake.base,
      ASSIST_MODEL_API_URL: fake.url,
      ASSIST_OAUTH_DEBUG: "1",
    },
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  match(r.stdout, /signed in/);
  // ASSIST_OAUTH_DEBUG=1: the decision trace on stderr, without any token value.
  match(r.stderr, /^oauth> token decision: fresh \(\d+ s of validity left\)$/m);
  match(r.stderr, /^oauth> 401 from the API: refreshing once$/m);
  match(r.stderr, /^oauth> refreshed; valid for \d+ s$/m);
  for (const secret of ["oat-revoked", "ort-1"]) assert(!r.stderr.includes(secret), `trace shows ${secret}`);
  assertEquals(fake.tokenRequests.length, 1);
  assertEquals(fake.messageRequests.map((q) => q.headers["authorization"]), [
    "Bearer oat-revoked",
    "Bearer oat-fresh",
  ]);
  assert(!r.stdout.includes("oat-fresh") && !r.stderr.includes("oat-fresh"));
});

Deno.test("no API key: one clear line, exit 2", async () => {
  await using tmp = await tempDir();
  const r = await runAssist(["-p", "hello"], {
    env: { HOME: tmp.path, ASSIST_MODEL_API_URL: "http://127.0.0.1:9/v1/messages" },
    cwd: tmp.path,
  });
  assertEquals(r.code, 2);
  match(r.stderr, /^assist: no API key: set ASSIST_API_KEY or store one with `assist auth set-api-key`\n$/);
});

Deno.test("OAuth rail with no token: one line naming /login and /oauth-debug, exit 2", async () => {
  await using tmp = await tempDir();
  const r = await runAssist(["-p", "hello"], {
    env: {
      HOME: tmp.path,
      ASSIST_AUTH_MODE: "oauth",
      ASSIST_MODEL_API_URL: "http://127.0.0.1:9/v1/messages",
      ASSIST_OAUTH_DEBUG: "1",
    },
    cwd: tmp.path,
  });
  assertEquals(r.code, 2, r.stderr);
  match(r.stderr, /^oauth> no token file at .*\.oauth\.json$/m);
  match(r.stderr, /^assist: no OAuth token in .*\.oauth\.json: run \/login .*details: \/oauth-debug/m);
  assert(!r.stderr.includes("could not be read"));
});

Deno.test("@file in a -p prompt: the file's content reaches the model tokenized; warnings on stderr", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  await Deno.mkdir(`${tmp.path}/work`);
  const adt = [
    "MSH|^~\\&|EPIC|HOSP|CLOVER|HOSP|202611210830||ADT^A08|MSG00042|P|2.5.1",
    "PID|1||77120045^^^HOSP^MR||THACKERAY^WILHELMINA^J||19580912|F",
    "PV1|1|O|CLINIC7",
    "",
  ].join("\r");
  await Deno.writeTextFile(`${tmp.path}/work/notes.txt`, `thread ADT_IN feeds LAB_OUT_7Q\n${adt}\n`);
  fake.replies.push({ text: "It is an A08." });
  const r = await runAssist(["-p", "summarize @notes.txt and @missing.txt"], {
    env: env(tmp.path, fake),
    cwd: `${tmp.path}/work`,
  });
  assertEquals(r.code, 0, r.stderr);
  match(r.stdout, /It is an A08\./);
  match(r.stderr, /^assist: @missing\.txt: no such file; left as typed$/m);
  const sent = fake.messageRequests.map((q) => q.body).join("\n");
  assert(sent.includes("thread ADT_IN feeds LAB_OUT_7Q"), "the file's content was not sent");
  assert(sent.includes("ADT^A08"), "the HL7 structure was not sent");
  for (const raw of ["THACKERAY", "WILHELMINA", "77120045", "19580912"]) {
    assert(!sent.includes(raw), `raw PHI from the @file reached the model: ${raw}`);
  }
  assert((sent.match(TOKEN_RE) ?? []).length >= 2, "the file's PHI was replaced by tokens");
});

Deno.test("-p is a session too: its turn is in sessions/ (tokenized), files 0600", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "Noted." });
  const r = await runAssist(["-p", "is @@VANTERPOOL@@ admitted?"], {
    env: env(tmp.path, fake),
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  const dir = `${tmp.path}/.assist/sessions`;
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assertEquals(names.length, 2, names.join(" "));
  const messagesFile = names.find((n) => n.endsWith(".messages.json"))!;
  const messages = JSON.parse(await Deno.readTextFile(`${dir}/${messagesFile}`));
  assertEquals(messages.map((m: { role: string }) => m.role), ["user", "assistant"]);
  const all = names.map((n) => Deno.readTextFileSync(`${dir}/${n}`)).join("\n");
  assert(!all.includes("VANTERPOOL"), "raw PHI in a session artifact");
  assert(all.includes("Noted."));
  for (const n of names) assertEquals(Deno.statSync(`${dir}/${n}`).mode! & 0o777, 0o600);
});

Deno.test("names in free text: -p says when they are not covered, and finds them when they are", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "ok" });
  fake.replies.push({ text: "ok" });
  // The sidecar is not running on port 9; the built-in recognizer is off: the operator is told.
  const off = await runAssist(["-p", "Spoke with Dana Whitfield about the feed"], {
    env: env(tmp.path, fake, { ASSIST_PHI_PORT: "9", ASSIST_PHI_NAMES: "off" }),
    cwd: tmp.path,
  });
  assertEquals(off.code, 0, off.stderr);
  match(off.stderr, /names in free text are NOT covered/);
  // Default (auto): the built-in recognizer tokenizes the name and nothing is said about coverage.
  const on = await runAssist(["-p", "Spoke with Dana Whitfield about the feed"], {
    env: env(tmp.path, fake, { ASSIST_PHI_PORT: "9" }),
    cwd: tmp.path,
  });
  assertEquals(on.code, 0, on.stderr);
  assert(!on.stderr.includes("NOT covered"), on.stderr);
  const sent = fake.messageRequests.at(-1)!.body;
  assert(!sent.includes("Whitfield"), "the name reached the model");
  match(sent, /\[\[NAME_\d+\]\]/);
});

Deno.test("the sidecar warning: -p tells once, at the session's first pass, that the sidecar is unreachable", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  fake.replies.push({ text: "ok" });
  const r = await runAssist(["-p", "chart for Dana Whitfield, MRN 12345678"], {
    env: env(tmp.path, fake, { ASSIST_PHI_PORT: "9" }),
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stderr.split("\n").filter((l) => l.includes("sidecar is not reachable"));
  assertEquals(lines.length, 1, r.stderr);
  assert(!lines[0].includes("12345678") && !lines[0].includes("Whitfield"), lines[0]);
});
