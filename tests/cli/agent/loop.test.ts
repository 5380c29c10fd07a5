/**
 * The agent loop's mechanics against the fake model API, with a recording gate that marks what
 * passed through it (the real PHI engine is exercised end to end in headless.test.ts).
 */
import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { Agent, type AgentIO, CANCELLED_RESULT, INTERRUPTED } from "../../../cli/agent/loop.ts";
import type { GateResult, PhiGate } from "../../../cli/agent/gate.ts";
import { createPhiGate } from "../../../cli/agent/phi_adapter.ts";
import { systemBlocks, toolDefinitions } from "../../../cli/agent/request.ts";
import type { AuthProvider } from "../../../cli/model/client.ts";
import { loadConfig } from "../../../core/config.ts";
import type { ToolContext, ToolDef, ToolInput, ToolResult } from "../../../tools/types.ts";
import { runTool } from "../../../tools/by_name.ts";
import { TOOLS } from "../../../tools/registry.ts";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { tempDir } from "../../support/run_assist.ts";

const auth: AuthProvider = {
  rail: "api-key",
  headers: () => Promise.resolve({ "x-api-key": "sk-ant-test-key" }),
};

/**
 * Wraps outbound text in ⟦…⟧ so tests can see that every outbound byte went through the gate. Its
 * results are typed as the loop's GateResult, so a change to that type breaks this test at check
 * time instead of leaving it to pass fields the loop no longer reads. (The review gate lives inside
 * the real engine's toolResult; the "review gate (real PHI engine)" test below covers it.)
 */
function recordingGate(): PhiGate & { seen: string[] } {
  const seen: string[] = [];
  const gated = (t: string): Promise<GateResult> => Promise.resolve({ text: `⟦${t}⟧` });
  return {
    seen,
    userInput: (t) => (seen.push(`user:${t}`), gated(t)),
    toolResult: (t, tool) => (seen.push(`tool:${tool}`), gated(t)),
    toolInput: (i) => i,
    detokenize: (t) => t,
    displayStream: () => ({ push: (c) => c, flush: () => "" }),
  };
}

function io(): AgentIO & { texts: string[]; calls: string[]; notices: string[] } {
  const texts: string[] = [];
  const calls: string[] = [];
  const notices: string[] = [];
  return {
    texts,
    calls,
    notices,
    text: (t) => texts.push(t),
    toolCall: (n) => calls.push(n),
    notice: (l) => notices.push(l),
  };
}

/** A tool of a test's own: its definition and body in one object. */
type TestTool = ToolDef & { run?: (input: ToolInput, ctx: ToolContext) => Promise<ToolResult> };

async function setup(tools: readonly TestTool[] = TOOLS) {
  const tmp = await tempDir();
  const fake = new FakeModelApi();
  const config = loadConfig((n) => (n === "ASSIST_HOME" ? `${tmp.path}/.assist` : undefined), Deno.build.os);
  const gate = recordingGate();
  const sink = io();
  const agent = new Agent({
    model: "claude-sonnet-4-6",
    tools,
    gate,
    io: sink,
    client: { url: fake.url, auth, stream: true, sleep: () => Promise.resolve() },
    system: systemBlocks({ cwd: tmp.path, os: "linux", date: "2026-11-21" }),
    toolContext: { config, cwd: tmp.path, caller: "model" },
    runTool: (def, input, ctx) => (def as TestTool).run?.(input, ctx) ?? runTool(def, input, ctx),
  });
  return {
    tmp,
    fake,
    gate,
    io: sink,
    agent,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await tmp[Symbol.asyncDispose]();
    },
  };
}

Deno.test("request shape: system blocks with the static prefix cached, tools from the registry, last one cached", () => {
  const defs = toolDefinitions(TOOLS);
  assertEquals(defs.map((d) => d.name), TOOLS.map((t) => t.name));
  assertEquals(defs.at(-1)!.cache_control, { type: "ephemeral" });
  assert(defs.slice(0, -1).every((d) => d.cache_control === undefined));
  const sys = systemBlocks({ cwd: "/w", os: "linux", date: "2026-11-21" });
  assertEquals(sys[0].cache_control, { type: "ephemeral" });
  assertEquals(sys[1].cache_control, undefined);
  match(sys[0].text, /\/ssh-setup <alias>/);
});

Deno.test("a multi-tool turn: several calls in one response, results fed back, text-only answer ends it", async () => {
  await using s = await setup();
  await Deno.writeTextFile(`${s.tmp.path}/a.txt`, "alpha\n");
  s.fake.replies.push({
    text: "Checking two things.",
    toolCalls: [{ name: "read_file", input: { path: "a.txt" } }, { name: "list_dir", input: { path: "." } }],
  });
  s.fake.replies.push({ text: "a.txt says alpha." });
  const r = await s.agent.turn("what is in a.txt?");
  assertEquals(r.answer, "a.txt says alpha.");
  assertEquals(r.rounds, 2);
  assertEquals(r.toolCalls.map((c) => c.name), ["read_file", "list_dir"]);
  assertEquals(s.io.calls, ["read_file", "list_dir"]);
  assertEquals(s.gate.seen, ["user:what is in a.txt?", "tool:read_file", "tool:list_dir"]);
  // Every outbound byte passed the gate: the second request carries only gated text.
  const second = s.fake.messageRequests[1].json!.messages as Array<{ role: string; content: unknown }>;
  assertEquals(second[0].content, "⟦what is in a.txt?⟧");
  const results = second[2].content as Array<{ type: string; content: string }>;
  assertEquals(results.map((b) => b.content), ["⟦alpha\n⟧", results[1].content]);
  assert(results[1].content.startsWith("⟦") && results[1].content.includes("a.txt"));
  assertEquals(s.agent.messages.length, 4);
  assert(s.agent.meter.streams.length === 2 && s.agent.meter.total.total > 0);
});

Deno.test("unknown tools and bad inputs come back to the model as structured errors", async () => {
  await using s = await setup();
  s.fake.replies.push({
    toolCalls: [{ name: "no_such_tool", input: {} }, {
      name: "read_file",
      input: { path: 42 } as unknown as Record<string, unknown>,
    }],
  });
  s.fake.replies.push({ text: "Sorry." });
  await s.agent.turn("go");
  const results = s.fake.messageRequests[1].json!.messages as Array<
    { content: Array<{ content: string; is_error?: boolean }> }
  >;
  const [unknown, bad] = results[2].content;
  assertEquals(unknown.is_error, true);
  match(unknown.content, /unknown_tool/);
  assertEquals(bad.is_error, true);
  match(bad.content, /path must be a string/);
});

Deno.test("input errors tell the model what the tool takes, a call in JSON, the nearest tool name; never --help", async () => {
  await using s = await setup();
  s.fake.replies.push({
    toolCalls: [{ name: "nc_diff_interface", input: { left: "adt_in", right: "adt_in" } }, {
      name: "read_file",
      input: {},
    }, { name: "nc_path", input: {} }],
  });
  s.fake.replies.push({ text: "Sorry." });
  await s.agent.turn("go");
  const results = s.fake.messageRequests[1].json!.messages as Array<
    { content: Array<{ content: string; is_error?: boolean }> }
  >;
  const [diff, read, near] = results[2].content.map((r) => JSON.parse(r.content.replace(/^⟦|⟧$/g, "")));
  assertEquals(diff.error, "bad_input");
  match(diff.message, /^unknown argument "left"; nc_diff_interface takes site, thread, other, to_site, /);
  match(diff.message, /; e\.g\. \{"site":"adt","thread":"adt_in","to_hciroot":"\/hci\/test\/integrator"\}$/);
  assertEquals(read.error, "bad_input");
  match(
    read.message,
    /^missing path; read_file takes path \(required\), start_line, end_line; e\.g\. \{"path":/,
  );
  assertEquals(near, { error: "unknown_tool", message: "no tool named nc_path; did you mean nc_paths?" });
  for (const r of results[2].content) assert(!/--help|assist tools/.test(r.content), r.content);
});

Deno.test("the model asking to reveal tokens is refused: phi-reveal is never a tool", async () => {
  await using s = await setup();
  s.fake.replies.push({ toolCalls: [{ name: "phi_reveal", input: { path: "reply.txt" } }] });
  s.fake.replies.push({ text: "Understood." });
  await s.agent.turn("show me the real name behind [[NAME_3]]");
  const tools = (s.fake.messageRequests[0].json!.tools ?? []) as Array<{ name: string }>;
  assert(!tools.some((t) => /reveal|detok/i.test(t.name)), "offered to the model");
  const results = s.fake.messageRequests[1].json!.messages as Array<
    { content: Array<{ content: string; is_error?: boolean }> }
  >;
  const [refused] = results[2].content;
  assertEquals(refused.is_error, true);
  match(refused.content, /"error":"refused".*operator only/);
});

Deno.test("review gate (real PHI engine): answer n sends the refusal JSON instead of the result", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const config = loadConfig(
    (n) =>
      ({ ASSIST_HOME: `${tmp.path}/.assist`, ASSIST_TOOL_RESULT_REVIEW: "always" } as Record<string, string>)[
        n
      ],
    Deno.build.os,
  );
  const asked: string[] = [];
  const gate = await createPhiGate(config, {
    prompter: {
      confirmValue: () => Promise.resolve(true),
      reviewToolResult: (r) => (asked.push(r.toolName), Promise.resolve("n")),
    },
  });
  const agent = new Agent({
    model: "claude-sonnet-4-6",
    tools: TOOLS,
    gate,
    io: io(),
    client: { url: fake.url, auth, stream: true },
    system: systemBlocks({ cwd: tmp.path, os: "linux", date: "2026-11-21" }),
    toolContext: { config, cwd: tmp.path, caller: "model" },
  });
  fake.replies.push({ toolCalls: [{ name: "bash_exec", input: { command: "echo SECRET-OUTPUT" } }] });
  fake.replies.push({ text: "It was withheld." });
  await agent.turn("run it");
  assertEquals(asked, ["bash_exec"]);
  const msgs = fake.messageRequests[1].json!.messages as Array<{ content: Array<{ content: string }> }>;
  const result = msgs[2].content[0].content;
  assert(!result.includes("SECRET-OUTPUT"));
  match(result, /withheld|refus/i);
  // The operator can still see what was withheld (/show-last-tool); it is the refusal the model got.
  match(agent.lastTool!.withheld!, /SECRET-OUTPUT/);
  assertEquals(agent.lastTool!.result, result);
});

Deno.test("cancel during a tool leaves a valid history, and the next turn is accepted by the API", async () => {
  const ab = new AbortController();
  const slow: TestTool = {
    name: "slow_tool",
    summary: "s",
    description: "s",
    params: [],
    run: (_i, ctx) =>
      new Promise((resolve) => {
        ab.abort();
        ctx.signal?.addEventListener("abort", () => resolve({ text: "stopped" }));
        if (ctx.signal?.aborted) resolve({ text: "stopped" });
      }),
  };
  await using s = await setup([slow, ...TOOLS]);
  s.fake.replies.push({ toolCalls: [{ name: "slow_tool", input: {} }, { name: "list_dir", input: {} }] });
  const r = await s.agent.turn("start", ab.signal);
  assertEquals(r.cancelled, true);
  const roles = s.agent.messages.map((m) => m.role);
  assertEquals(roles, ["user", "assistant", "user", "assistant"]);
  const answered = (s.agent.messages[2].content as Array<{ content: string }>).map((b) => b.content);
  assertEquals(answered[1], CANCELLED_RESULT, "the tool that never ran is answered as cancelled");
  assertEquals(s.agent.messages[3].content, [{ type: "text", text: INTERRUPTED }]);
  // The fake enforces pairing and alternation: a next turn must be accepted.
  s.fake.replies.push({ text: "fine" });
  const next = await s.agent.turn("again");
  assertEquals(next.answer, "fine");
});

Deno.test("Ctrl-C mid-answer keeps the prompt, the answer so far and the marker; a follow-up refers to them", async () => {
  await using s = await setup();
  const ab = new AbortController();
  // The headers and the first text deltas ("The thr", "ead fee", "ds two "), then nothing.
  s.fake.faults.push({ kind: "hang", afterEvents: 7 });
  s.fake.replies.push({ text: "The thread feeds two outbound threads, then stops." });
  s.io.text = (t) => {
    s.io.texts.push(t);
    if (s.io.texts.join("").includes("feeds")) ab.abort();
  };
  const r = await s.agent.turn("what does adt_in feed?", ab.signal);
  assertEquals(r.cancelled, true);
  assertEquals(s.agent.messages, [
    { role: "user", content: "⟦what does adt_in feed?⟧" },
    {
      role: "assistant",
      content: [{ type: "text", text: "The thread feeds two" }, { type: "text", text: INTERRUPTED }],
    },
  ]);
  // Cancelled before a byte came back: the prompt stays too, with the marker alone.
  const ab2 = new AbortController();
  s.fake.faults.push({ kind: "hang" });
  s.fake.replies.push({ text: "never" });
  const pending = s.agent.turn("and adt_out?", ab2.signal);
  while (s.fake.messageRequests.length < 2) await new Promise((r) => setTimeout(r, 5));
  ab2.abort();
  assertEquals((await pending).cancelled, true);
  assertEquals(s.agent.messages.length, 4);
  assertEquals(s.agent.messages[3].content, [{ type: "text", text: INTERRUPTED }]);
  // The API accepts the kept exchange, and the model sees it.
  s.fake.replies.push({ text: "In short: two." });
  assertEquals((await s.agent.turn("just the short version")).answer, "In short: two.");
  const sent = s.fake.messageRequests[2].json!.messages as Array<{ role: string; content: unknown }>;
  assertEquals(sent.length, 5);
  assertEquals(JSON.stringify(sent[1].content).includes("The thread feeds"), true);
});

Deno.test("a failed first request forgets the prompt; a failure later keeps the history valid", async () => {
  await using s = await setup();
  s.fake.faults.push({ kind: "status", status: 400, type: "invalid_request_error", message: "bad" });
  await rejects(() => s.agent.turn("first"));
  assertEquals(s.agent.messages.length, 0);
  s.fake.replies.push({ toolCalls: [{ name: "list_dir", input: {} }] });
  // The tool round trip succeeds; the follow-up request (the third overall) fails for good.
  s.fake.faultAt.set(3, {
    kind: "status",
    status: 500,
    type: "api_error",
    message: "boom",
    headers: { "x-should-retry": "false" },
  });
  await rejects(() => s.agent.turn("second"));
  assertEquals(s.agent.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  s.fake.replies.push({ text: "ok" });
  assertEquals((await s.agent.turn("third")).answer, "ok");
});

Deno.test("what the operator sees: a broken stream starts over, and a JSON answer to a streaming request is shown", async () => {
  await using s = await setup();
  s.fake.faults.push({ kind: "garbage_stream" });
  s.fake.replies.push({ text: "lost" }, { text: "The whole answer." });
  const r = await s.agent.turn("first");
  assertEquals(r.answer, "The whole answer.");
  assertEquals(s.io.texts.join(""), "The whole answer.");
  s.io.texts.length = 0;
  s.fake.faults.push({ kind: "json_instead_of_sse" });
  s.fake.replies.push({ text: "Plain JSON answer." });
  const r2 = await s.agent.turn("second");
  assertEquals(r2.answer, "Plain JSON answer.");
  assertEquals(s.io.texts.join(""), "Plain JSON answer.");
  s.io.texts.length = 0;
  // A stream cut after some text is retried: the operator is told it starts over, and sees it whole.
  s.fake.faults.push({ kind: "eof_without_stop" });
  s.fake.replies.push({ text: "Half of it" }, { text: "All of it." });
  const r3 = await s.agent.turn("third");
  assertEquals(r3.answer, "All of it.");
  assert(s.io.notices.includes("model> that answer broke off; it starts over"), s.io.notices.join("\n"));
  match(s.io.texts.join(""), /All of it\.$/);
});

Deno.test("strict mode: a gate abort stops the turn; nothing unsanitized is sent, the history stays valid", async () => {
  await using s = await setup();
  // The prompt's gate refuses (sanitizer missing on HL7-shaped input): no request at all.
  const base = s.gate.userInput;
  s.gate.userInput = (t) =>
    t.startsWith("MSH|")
      ? Promise.resolve({ text: "", abort: "strict: the HL7 sanitizer is missing" })
      : base(t);
  await rejects(() => s.agent.turn("MSH|^~\\&|A|B\rPID|1||123"), /strict: the HL7 sanitizer is missing/);
  assertEquals(s.fake.messageRequests.length, 0);
  assertEquals(s.agent.messages.length, 0);
  // A tool result's gate refuses: the turn stops before the raw result could be sent.
  s.gate.toolResult = () => Promise.resolve({ text: "", abort: "strict: tokenization failed" });
  s.fake.replies.push({ toolCalls: [{ name: "bash_exec", input: { command: "echo RAW-PID-LINE" } }] });
  await rejects(() => s.agent.turn("run it"), /strict: tokenization failed/);
  assertEquals(s.fake.messageRequests.length, 1);
  // No tool_result ever went out: the raw output never reached the model.
  assert(!s.fake.messageRequests.some((r) => r.body.includes('"tool_result"')));
  s.fake.replies.push({ text: "ok" });
  assertEquals((await s.agent.turn("next")).answer, "ok");
  // The refused call is closed without its output (the API needs every tool_use answered).
  const msgs = s.fake.messageRequests.at(-1)!.json!.messages as Array<
    { role: string; content: string | Array<{ type: string; content?: string }> }
  >;
  const results = msgs.flatMap((m) => typeof m.content === "string" ? [] : m.content)
    .filter((b) => b.type === "tool_result");
  assertEquals(results.map((b) => b.content), [CANCELLED_RESULT]);
});

Deno.test("review: a tool whose definition says review stops at the gate; the same tool without does not", async () => {
  for (const review of [true, false]) {
    await using tmp = await tempDir();
    await using fake = new FakeModelApi();
    const config = loadConfig(
      (n) => (n === "ASSIST_HOME" ? `${tmp.path}/.assist` : undefined),
      Deno.build.os,
    );
    const asked: string[] = [];
    const gate = await createPhiGate(config, {
      prompter: {
        confirmValue: () => Promise.resolve(true),
        reviewToolResult: (r) => (asked.push(r.toolName), Promise.resolve("n" as const)),
      },
    });
    // A remote-output tool added later: its definition alone decides (no list elsewhere).
    const remote: TestTool = {
      name: "remote_dump",
      summary: "s",
      description: "s",
      params: [],
      review,
      run: () => Promise.resolve({ text: "x".repeat(20_000) }),
    };
    const agent = new Agent({
      model: "claude-sonnet-4-6",
      tools: [remote],
      gate,
      io: io(),
      client: { url: fake.url, auth, stream: true, sleep: () => Promise.resolve() },
      system: systemBlocks({ cwd: tmp.path, os: "linux", date: "2026-11-21" }),
      toolContext: { config, cwd: tmp.path, caller: "model" },
      runTool: (def, input, ctx) => (def as TestTool).run!(input, ctx),
    });
    fake.replies.push({ toolCalls: [{ name: "remote_dump", input: {} }] });
    fake.replies.push({ text: "done" });
    await agent.turn("dump it");
    assertEquals(asked, review ? ["remote_dump"] : [], `review: ${review}`);
  }
});

Deno.test("the text before a tool call and the answer after it are apart by a blank line", async () => {
  await using s = await setup();
  s.fake.replies.push({ text: "Looking across sites.", toolCalls: [{ name: "list_dir", input: {} }] });
  s.fake.replies.push({ text: "The TRXID column lists them." });
  const r = await s.agent.turn("which sites?");
  assertEquals(s.io.texts.join(""), "Looking across sites.\n\nThe TRXID column lists them.");
  assertEquals(r.answer, "The TRXID column lists them.");
  // A text that ends with its own line break gets one more, not two.
  s.fake.replies.push({ text: "First:\n", toolCalls: [{ name: "list_dir", input: {} }] });
  s.fake.replies.push({ text: "Done." });
  s.io.texts.length = 0;
  await s.agent.turn("again");
  assertEquals(s.io.texts.join(""), "First:\n\nDone.");
});

Deno.test("a front that holds text gets finished attempts only, the blank line before a retried round too", async () => {
  await using s = await setup();
  let held = "";
  let printed = "";
  s.io.text = (t) => held += t;
  s.io.attemptBroken = () => held = "";
  s.io.attemptDone = () => (printed += held, held = "");
  s.fake.replies.push({ text: "Looking across sites.", toolCalls: [{ name: "list_dir", input: {} }] });
  // The second round's first attempt breaks off after some text; its retry is the answer.
  s.fake.faultAt.set(2, { kind: "mid_stream_error" });
  s.fake.replies.push({ text: "BROKEN words" }, { text: "The TRXID column lists them." });
  const r = await s.agent.turn("which sites?");
  assertEquals(r.answer, "The TRXID column lists them.");
  assertEquals(printed, "Looking across sites.\n\nThe TRXID column lists them.");
});
