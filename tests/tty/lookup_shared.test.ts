/**
 * Several processes on one lookup table (issue: nothing lost, nothing mixed up, item 3): `-p`, a
 * REPL in a real terminal and `phi_sanitize` on one home at once. Why it holds is in phi/lookup.ts.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { replEnv } from "../support/repl_env.ts";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { TmuxSession } from "../support/tmux.ts";
import { adt, reveal, valuesByToken } from "../faults/_lookup.ts";

Deno.test("lookup table: -p, a REPL and phi_sanitize on one home at once give one token per value", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const home = tmp.path;
  const env = replEnv(home, fake, { ASSIST_PHI_NAMES: "off" });
  // Three patients all three processes see, and one of each process's own.
  const shared = [adt(1), adt(2), adt(3)];
  const own = [adt(4), adt(5), adt(6)];
  const prompt = (extra: { values: string[] }) =>
    [...shared, extra].map((m) => `MRN ${m.values[0]} SSN ${m.values[3]}`).join("; ") + " failed, why?";
  await Deno.writeTextFile(`${tmp.path}/batch.hl7`, [...shared, own[2]].map((m) => m.text).join("\n"));
  for (let i = 0; i < 2; i++) fake.replies.push({ text: `answer ${i}` });

  await using repl = await TmuxSession.start({ env, cwd: tmp.path, width: 200 });
  await repl.waitForPrompt();
  const replPrompt = prompt(own[1]);
  const [p, s] = await Promise.all([
    runAssist(["-p", prompt(own[0])], { env, cwd: tmp.path }),
    runAssist(["tools", "phi_sanitize", "batch.hl7", "--output", "batch.deid.hl7"], { env, cwd: tmp.path }),
    (async () => {
      await repl.type(replPrompt);
      await repl.keys("Enter");
    })(),
  ]);
  assertEquals(p.code, 0, p.stderr);
  assertEquals(s.code, 0, s.stderr);
  await repl.waitFor((screen) => /answer \d/.test(screen.split(replPrompt.slice(0, 30)).at(-1) ?? ""));
  assertEquals(fake.messageRequests.length, 2);

  const table = `${home}/.assist/sanitize/lookup.tsv`;
  const byToken = await valuesByToken(table);
  const byValue = new Map<string, Set<string>>();
  for (const [token, values] of byToken) {
    assertEquals(values.size, 1, `${token}: ${[...values].join(" | ")}`);
    for (const v of values) (byValue.get(v) ?? byValue.set(v, new Set()).get(v)!).add(token);
  }
  for (const [v, tokens] of byValue) {
    assertEquals(tokens.size, 1, `${v.replace("\u0000", " ")}: ${[...tokens]}`);
  }
  // Each process's output reveals to exactly what it read.
  const copy = await Deno.readTextFile(`${tmp.path}/batch.deid.hl7`);
  assertEquals(await reveal(`${home}/.assist`, copy), [...shared, own[2]].map((m) => m.text).join("\n"));
  const users = fake.messageRequests.map((q) => {
    const msgs = (q.json?.messages ?? []) as Array<{ role: string; content: unknown }>;
    const first = msgs.find((m) => m.role === "user")!;
    return typeof first.content === "string" ? first.content : JSON.stringify(first.content);
  });
  const revealed = await Promise.all(users.map((u) => reveal(`${home}/.assist`, u)));
  for (const want of [prompt(own[0]), replPrompt]) {
    assert(revealed.some((r) => r.includes(want)), `a request reveals to its prompt: ${want}`);
  }
});
