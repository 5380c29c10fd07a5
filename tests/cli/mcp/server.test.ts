/**
 * `assist mcp` driven by the official SDK's own client over stdio, the program a real subprocess
 * under the shipped permission set: the tool list is the registry's, each tool family runs, results
 * pass the PHI gate (a canary reaches the client only as a token, the same token the command line's
 * tools mint), tokens in inputs reach the tool as values, a cancel stops a long tool, bad input is a
 * tool error, the review gate asks through elicitation, and long tools send progress.
 */
import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { type ProgressNotification, ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectAssist, textOf } from "../../support/mcp_client.ts";
import { runAssist, tempDir } from "../../support/run_assist.ts";
import { sharedFixtureRoot } from "../../support/fixture_root.ts";
import { TOOLS } from "../../../tools/registry.ts";
import { inputSchema } from "../../../tools/args.ts";
import { runSlash } from "../../../cli/commands/table.ts";
import { recordingIO, testConfig } from "../commands/_support.ts";

const fixtureRoot = sharedFixtureRoot("assist-mcp-");
const TOKEN_RE = /\[\[[A-Z0-9_]+\]\]/g;
const CANARY = ["ZZCANARY", "QUENTINA", "MRN77881", "19800101"];
const ADT = [
  "MSH|^~\\&|EPIC|HOSP|CLOVER|HOSP|202611210830||ADT^A01|MSG00001|P|2.5.1",
  "EVN|A01|202611210830",
  "PID|1||MRN77881^^^HOSP^MR||ZZCANARY^QUENTINA||19800101|F",
  "",
].join("\r");

function noCanary(text: string, where: string): void {
  for (const raw of CANARY) assert(!text.includes(raw), `${raw} reached the client in ${where}`);
}

Deno.test("tools/list is the registry: names in order, the model's descriptions and schemas", async () => {
  await using tmp = await tempDir();
  await using s = await connectAssist({ home: tmp.path });
  // The SDK's types come through as `any` under Deno (its zod/v4 types do not resolve): typed here.
  const { tools } = await s.client.listTools() as {
    tools: Array<{ name: string; description?: string; inputSchema: unknown }>;
  };
  assertEquals(tools.map((t) => t.name), TOOLS.map((t) => t.name));
  for (const def of TOOLS) {
    const t = tools.find((x) => x.name === def.name)!;
    assertEquals(t.description, def.description);
    assertEquals(t.inputSchema, inputSchema(def));
  }
  const instructions = s.client.getInstructions() ?? "";
  match(instructions, /no-terminal rule/);
  match(instructions, /elicitation/);
  match(instructions, /assist phi-reveal/);
  assertEquals(s.client.getServerVersion()?.name, "assist");
});

Deno.test("each tool family answers: files, bash, ssh, engine, hl7, phi", async () => {
  await using tmp = await tempDir();
  const hci = await fixtureRoot();
  await Deno.writeTextFile(`${tmp.path}/notes.txt`, "first line\nsecond line\n");
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, ADT);
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path, env: { HCIROOT: hci } });
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await s.client.callTool({ name, arguments: args });
    assert(!r.isError, `${name}: ${textOf(r)}`);
    return textOf(r);
  };
  match(await call("read_file", { path: "notes.txt" }), /second line/);
  match(await call("bash_exec", { command: "echo from-bash" }), /from-bash/);
  match(await call("ssh_status", {}), /ssh/i);
  match(await call("nc_threads", { site: "adt" }), /adt_in\s+adt_proc/);
  const shown = await call("hl7_show", { file: "adt.hl7" });
  match(shown, /PID/);
  noCanary(shown, "hl7_show");
  match(await call("phi_scan", { path: "adt.hl7" }), /NAME/);
});

Deno.test("PHI canary: a tool result reaches the client as tokens, the same ones `assist tools` mints", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, ADT);
  const env = { HOME: tmp.path, ASSIST_HOME: `${tmp.path}/.assist` };
  // The command line's sanitizer first: it writes the lookup table the server must share.
  const cli = await runAssist(["tools", "phi_sanitize", `${tmp.path}/adt.hl7`], { env, cwd: tmp.path });
  assertEquals(cli.code, 0, cli.stderr);
  const cliTokens = [...new Set(cli.stdout.match(TOKEN_RE) ?? [])].sort();
  assert(cliTokens.length >= 3, cli.stdout);
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  const r = await s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } });
  const text = textOf(r);
  noCanary(text, "read_file");
  noCanary(s.stderr(), "the server's stderr");
  assertEquals([...new Set(text.match(TOKEN_RE) ?? [])].sort(), cliTokens);
  match(s.stderr(), /phi> auto-tokenized/);
  // Calls side by side: each result passes the gate whole, with the same tokens.
  const side = await Promise.all(
    [1, 2, 3].map(() => s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } })),
  );
  for (const r of side) assertEquals([...new Set(textOf(r).match(TOKEN_RE) ?? [])].sort(), cliTokens);
});

Deno.test("a token in a tool input reaches the tool as its value, and goes back as the token", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, ADT);
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  const read = textOf(await s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } }));
  const name = /PID\|1\|\|[^|]*\|\|(\[\[NAME_\d+\]\])/.exec(read)?.[1];
  assert(name, read);
  const r = await s.client.callTool({
    name: "bash_exec",
    arguments: { command: `printf '%s' '${name}' > out.txt; cat out.txt` },
  });
  assert(!r.isError, textOf(r));
  // The tool got the value (in the lookup table's readable form of a name), not the token.
  const written = await Deno.readTextFile(`${tmp.path}/out.txt`);
  assert(written.includes("ZZCANARY") && written.includes("QUENTINA"), written);
  noCanary(textOf(r), "bash_exec");
  assert(textOf(r).includes(name), textOf(r));
});

Deno.test("a cancelled call stops its tool, and the server goes on answering", async () => {
  await using tmp = await tempDir();
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  const abort = new AbortController();
  const call = s.client.callTool(
    { name: "bash_exec", arguments: { command: "echo $$ > pid; exec sleep 120", timeout_seconds: 300 } },
    undefined,
    { signal: abort.signal, timeout: 300_000 },
  );
  const pid = await waitFor(async () => Number((await Deno.readTextFile(`${tmp.path}/pid`)).trim()) || 0);
  assert(alive(pid), "the tool's command runs");
  abort.abort();
  await rejects(call);
  await waitFor(() => Promise.resolve(!alive(pid)));
  const r = await s.client.callTool({ name: "bash_exec", arguments: { command: "echo still-here" } });
  match(textOf(r), /still-here/);
});

Deno.test("bad input is a tool error with the model's one-line text, not a crash", async () => {
  await using tmp = await tempDir();
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  const bad = await s.client.callTool({ name: "read_file", arguments: { nope: 1 } });
  assert(bad.isError);
  const err = JSON.parse(textOf(bad));
  assertEquals(err.error, "bad_input");
  match(err.message, /^unknown argument "nope"; read_file takes path \(required\).*; e\.g\. \{"path":/);
  assert(!err.message.includes("\n"));
  const missing = await s.client.callTool({ name: "read_file", arguments: {} });
  assert(missing.isError);
  match(JSON.parse(textOf(missing)).message, /^missing path; read_file takes/);
  const unknown = await s.client.callTool({ name: "read_fil", arguments: {} });
  assert(unknown.isError);
  match(JSON.parse(textOf(unknown)).message, /no tool named read_fil; did you mean read_file/);
  const reveal = await s.client.callTool({ name: "phi_reveal", arguments: {} });
  assertEquals(JSON.parse(textOf(reveal)).error, "refused");
  const ok = await s.client.callTool({ name: "list_dir", arguments: {} });
  assert(!ok.isError, textOf(ok));
});

Deno.test("review gate: a client with elicitation is asked (withhold, inspect, send)", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, ADT);
  const asked: string[] = [];
  const answers = ["withhold", "inspect", "send"];
  await using s = await connectAssist({
    home: tmp.path,
    cwd: tmp.path,
    env: { ASSIST_TOOL_RESULT_REVIEW: "always" },
    elicit: (message) => {
      asked.push(message);
      return { action: "accept", content: { answer: answers.shift()! } };
    },
  });
  const withheld = await s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } });
  assertEquals(JSON.parse(textOf(withheld)).error, "withheld_by_operator");
  match(
    asked[0],
    /^review> read_file result: \d+ B, HL7-shaped, 3 value\(s\) tokenized; send to the model\?/,
  );
  const sent = await s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } });
  assert(!sent.isError, textOf(sent));
  match(textOf(sent), /PID\|1\|\|\[\[MRN_/);
  assertEquals(asked.length, 3);
  // `inspect` shows what the model would get (tokens, never values), then asks again.
  match(asked[2], /PID\|1\|\|\[\[MRN_/);
  for (const m of asked) noCanary(m, "an elicitation");
});

Deno.test("review gate: a client without elicitation gets the no-terminal rule (not asked)", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, ADT);
  await using s = await connectAssist({
    home: tmp.path,
    cwd: tmp.path,
    env: { ASSIST_TOOL_RESULT_REVIEW: "always" },
  });
  const r = await s.client.callTool({ name: "read_file", arguments: { path: "adt.hl7" } });
  assert(!r.isError, textOf(r));
  match(textOf(r), /\[\[NAME_\d+\]\]/);
});

Deno.test("a long tool sends its progress lines as progress notifications, before its result", async () => {
  await using tmp = await tempDir();
  // More than one phi_scan piece (1 MiB), so the scan reports each.
  const line = "plain engine log line without anything personal in it, just words and 12 numbers\n";
  await Deno.writeTextFile(`${tmp.path}/big.log`, line.repeat(Math.ceil((1.5 * (1 << 20)) / line.length)));
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  // Every progress notification, as it arrives: the SDK's own handler drops one that comes in the
  // same read as the result (its handler for the call is gone by then), which is the client's race.
  const seen: Array<{ progressToken: unknown; progress: number; message?: string }> = [];
  s.client.setNotificationHandler(
    ProgressNotificationSchema,
    (n: ProgressNotification) => void seen.push(n.params),
  );
  const r = await s.client.callTool({ name: "phi_scan", arguments: { path: "big.log" } }, undefined, {
    onprogress: () => {}, // asks for progress (the request carries a progress token)
    timeout: 300_000,
  });
  assert(!r.isError, textOf(r));
  assertEquals(seen.map((p) => [p.progress, p.message]), [
    [1, "phi_scan: 1.0 of 1.6 MB, 0 found"],
    [2, "phi_scan: 1.6 of 1.6 MB, 0 found"],
  ]);
});

Deno.test("a tool without progress lines of its own says it still runs (every 10 s)", async () => {
  await using tmp = await tempDir();
  await using s = await connectAssist({ home: tmp.path, cwd: tmp.path });
  const seen: string[] = [];
  s.client.setNotificationHandler(
    ProgressNotificationSchema,
    (n: ProgressNotification) => void seen.push(n.params.message ?? ""),
  );
  const r = await s.client.callTool({ name: "bash_exec", arguments: { command: "sleep 16" } }, undefined, {
    onprogress: () => {},
    timeout: 300_000,
  });
  assert(!r.isError, textOf(r));
  assert(seen.length >= 1, "no heartbeat in 16 s");
  match(seen[0], /^bash_exec: running, \d+ s$/);
});

Deno.test("the phi-reveal prompt tells the client's user how to read values back", async () => {
  await using tmp = await tempDir();
  await using s = await connectAssist({ home: tmp.path });
  const { prompts } = await s.client.listPrompts() as { prompts: Array<{ name: string }> };
  assertEquals(prompts.map((p) => p.name), ["phi-reveal"]);
  const p = await s.client.getPrompt({ name: "phi-reveal" });
  const messages = p.messages as Array<{ content: { type: string; text?: string } }>;
  const text = messages.map((m) => m.content.text ?? "").join("");
  match(text, /assist phi-reveal FILE/);
  match(text, /outside this agent/);
});

Deno.test("assist mcp is in the command table: --help, and /mcp's set-up lines", async () => {
  const help = await runAssist(["mcp", "--help"]);
  assertEquals(help.code, 0, help.stderr);
  match(help.stdout, /^usage: assist mcp\n {2}serve the tools behind the PHI gate/);
  const all = await runAssist(["--help"]);
  match(all.stdout, /assist mcp\s+serve the tools/);
  const extra = await runAssist(["mcp", "now"]);
  assertEquals(extra.code, 2);
  match(extra.stderr, /mcp: unexpected argument "now"/);
});

Deno.test("/mcp in the REPL prints the set-up lines (no MCP client there to serve)", async () => {
  await using tmp = await tempDir();
  const io = recordingIO("repl");
  await runSlash("/mcp", { config: testConfig(tmp.path), io });
  assertEquals(io.warns, []);
  match(io.all, /claude mcp add assist .*-- assist mcp/);
  match(io.all, /config\.toml/);
  match(io.all, /mcp\.json/);
});

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** Polls until `f` gives a truthy value (at most a minute: a hung server fails here). */
async function waitFor<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    try {
      const v = await f();
      if (v) return v;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out waiting");
}
