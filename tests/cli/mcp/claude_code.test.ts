/**
 * A real MCP client end to end: Claude Code (`@anthropic-ai/claude-code`, pinned and installed by
 * tests/support/claude_code.ts) with `assist mcp` added the README's way (`claude mcp add assist
 * -e ... -- <assist> mcp`) and its model API pointed at the local fake Messages API, scripted to
 * call `mcp__assist__nc_threads` and `mcp__assist__read_file` on a fixture engine root. What Claude
 * Code sends its model holds tokens, never the canary values; `claude mcp list` reports the server
 * connected.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { assistCommandArgs, runCommand, tempDir, testDenoDir } from "../../support/run_assist.ts";
import { sharedFixtureRoot } from "../../support/fixture_root.ts";
import { claudeCodeProgram } from "../../support/claude_code.ts";

const KEY = "sk-ant-test-key";
const CANARY = ["ZZCANARY", "QUENTINA", "MRN77881", "19800101"];
const ADT = [
  "MSH|^~\\&|EPIC|HOSP|CLOVER|HOSP|202611210830||ADT^A01|MSG00001|P|2.5.1",
  "PID|1||MRN77881^^^HOSP^MR||ZZCANARY^QUENTINA||19800101|F",
  "",
].join("\r");
const fixtureRoot = sharedFixtureRoot("assist-claude-code-");

interface Block {
  type: string;
  name?: string;
  content?: unknown;
}

/** The tool_use blocks the conversation holds so far. */
function toolUses(req: Record<string, unknown>): Block[] {
  const messages = req.messages as Array<{ role: string; content: unknown }>;
  return messages.flatMap((m) =>
    m.role === "assistant" && Array.isArray(m.content)
      ? (m.content as Block[]).filter((b) => b.type === "tool_use")
      : []
  );
}

Deno.test("Claude Code calls assist's tools over MCP; its model sees tokens only", async () => {
  const claude = await claudeCodeProgram();
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const hci = await fixtureRoot();
  const work = `${tmp.path}/work`;
  await Deno.mkdir(work);
  await Deno.writeTextFile(`${work}/adt.hl7`, ADT);
  // The turn: nc_threads, then read_file, then an answer. Claude Code's side requests (a title, a
  // quota check) have none of our tools and get a plain answer.
  const script = (req: Record<string, unknown>) => {
    const tools = ((req.tools ?? []) as Array<{ name: string }>).map((t) => t.name);
    if (!tools.includes("mcp__assist__nc_threads")) return { text: "ok" };
    const done = toolUses(req).length;
    if (done === 0) return { toolCalls: [{ name: "mcp__assist__nc_threads", input: { site: "adt" } }] };
    if (done === 1) {
      return { toolCalls: [{ name: "mcp__assist__read_file", input: { path: `${work}/adt.hl7` } }] };
    }
    return { text: "The adt site has adt_in; the message's patient is tokenized." };
  };
  for (let i = 0; i < 40; i++) fake.replies.push(script);

  const dir = await testDenoDir();
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: tmp.path,
    ANTHROPIC_BASE_URL: fake.base,
    ANTHROPIC_API_KEY: KEY,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // MCP tools in the request itself, not deferred behind Claude Code's tool search.
    ENABLE_TOOL_SEARCH: "false",
    NO_COLOR: "1",
  };
  const run = (args: string[]) => runCommand(claude, args, { cwd: work, clearEnv: true, env });
  // README's line, with the development form of `assist` (deno run ... main.ts) as the command.
  const add = await run([
    "mcp",
    "add",
    "assist",
    "-e",
    `ASSIST_HOME=${tmp.path}/.assist`,
    "-e",
    `HCIROOT=${hci}`,
    ...(dir ? ["-e", `DENO_DIR=${dir}`] : []),
    "--",
    Deno.execPath(),
    ...assistCommandArgs(["mcp"]),
  ]);
  assertEquals(add.code, 0, add.stdout + add.stderr);

  const list = await run(["mcp", "list"]);
  assertEquals(list.code, 0, list.stdout + list.stderr);
  match(list.stdout, /^assist: .*Connected/m);

  const turn = await run([
    "-p",
    "Which threads does site adt have, and what is in adt.hl7?",
    "--allowedTools",
    "mcp__assist__nc_threads,mcp__assist__read_file",
  ]);
  assertEquals(turn.code, 0, turn.stdout + turn.stderr);
  match(turn.stdout, /adt_in/);

  const withTools = fake.messageRequests.filter((r) => r.body.includes("mcp__assist__read_file"));
  assert(withTools.length >= 3, `${withTools.length} requests offered assist's tools`);
  const sent = fake.messageRequests.map((r) => r.body).join("\n");
  for (const raw of CANARY) assert(!sent.includes(raw), `${raw} reached Claude Code's model`);
  const last = withTools[withTools.length - 1].body;
  match(last, /adt_in\s+adt_proc/, "the nc_threads result went to the model");
  match(last, /PID\|1\|\|\[\[MRN_\d+\]\]\^\^\^HOSP\^MR\|\|\[\[NAME_\d+\]\]/, "read_file's result, tokenized");
});
