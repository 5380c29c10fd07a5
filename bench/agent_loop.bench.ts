/**
 * Agent-loop overhead per tool round trip against a zero-latency fake model API on loopback
 * (target < 5 ms): one turn of 20 tool rounds (list_dir on an empty folder) then a text answer.
 * The time per iteration divided by 21 requests is the per-round overhead, HTTP included.
 */
import { Agent } from "../cli/agent/loop.ts";
import { systemBlocks } from "../cli/agent/request.ts";
import { loadConfig } from "../core/config.ts";
import { TOOLS } from "../tools/registry.ts";
import { FakeModelApi } from "../tests/support/fake_model_api.ts";

const ROUNDS = 20;
const fake = new FakeModelApi({ chunk: 64 });
const dir = await Deno.makeTempDir();
const config = loadConfig((n) => (n === "ASSIST_HOME" ? `${dir}/.assist` : undefined), Deno.build.os);
const gate = {
  userInput: (t: string) => Promise.resolve({ text: t }),
  toolResult: (t: string) => Promise.resolve({ text: t }),
  toolInput: (i: Record<string, unknown>) => i,
  detokenize: (t: string) => t,
  displayStream: () => ({ push: (c: string) => c, flush: () => "" }),
};

Deno.bench(
  `one turn of ${ROUNDS} tool rounds + answer (divide by ${ROUNDS + 1})`,
  { group: "agent" },
  async (b) => {
    const agent = new Agent({
      model: "claude-sonnet-4-6",
      tools: TOOLS,
      gate,
      io: { text: () => {}, toolCall: () => {}, notice: () => {} },
      client: {
        url: fake.url,
        auth: { rail: "api-key", headers: () => Promise.resolve({ "x-api-key": "sk-ant-test-key" }) },
        stream: true,
      },
      system: systemBlocks({ cwd: dir, os: "linux", date: "2026-11-21" }),
      toolContext: { config, cwd: dir, caller: "model" },
    });
    for (let i = 0; i < ROUNDS; i++) {
      fake.replies.push({
        text: "Looking.",
        toolCalls: [{ name: "list_dir", input: { path: dir } }],
      });
    }
    fake.replies.push({ text: "Done." });
    b.start();
    await agent.turn("list it twenty times");
    b.end();
  },
);
