/**
 * Per-turn cost of committing a turn to the session artifacts (cli/sessions/artifacts.ts) at turn 10
 * and at turn 200 of a synthetic session: the two must be about equal (the write is O(turn), not
 * O(session)). Each turn is a prompt, a tool call, its ~2 KB result and an answer.
 */
import { newSessionId, SessionRecorder } from "../cli/sessions/artifacts.ts";
import { ensureHome } from "../core/home.ts";
import type { MessageParam } from "../cli/model/types.ts";

function turn(n: number): MessageParam[] {
  return [
    { role: "user", content: `prompt ${n}: why does [[NAME_${n}]] fail on ADT_IN?` },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: `t${n}`, name: "read_file", input: { path: "x" } }],
    },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${n}`, content: "MSH|^~\\&|".repeat(200) }],
    },
    { role: "assistant", content: [{ type: "text", text: `answer ${n} `.repeat(40) }] },
  ];
}

async function sessionAt(turns: number) {
  const home = await Deno.makeTempDir({ prefix: "assist-bench-" });
  await ensureHome(home);
  const rec = await SessionRecorder.create(home, newSessionId(), "0.0.0");
  const messages: MessageParam[] = [];
  for (let i = 1; i < turns; i++) {
    const start = messages.length;
    messages.push(...turn(i));
    await rec.turn(messages, start, { costUsd: 0, inputTokens: 0, outputTokens: 0, notices: [] });
  }
  return { home, rec, messages, next: turns };
}

for (const at of [10, 200]) {
  const s = await sessionAt(at);
  Deno.bench(
    `commit one turn at turn ${at}`,
    { group: "session artifacts", baseline: at === 10 },
    async () => {
      const start = s.messages.length;
      s.messages.push(...turn(s.next++));
      await s.rec.turn(s.messages, start, { costUsd: 0, inputTokens: 0, outputTokens: 0, notices: [] });
    },
  );
}
