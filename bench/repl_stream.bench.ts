/**
 * Streamed model text to the terminal side: a 16 MB answer streamed by the fake model API (SSE,
 * 64-character text deltas) through the client, the PHI display detokenizer and the REPL's turn
 * view, into a pipe (scripted REPL, stderr drained: model text streams there). Target: at least 50 MB/s. The fake serves from
 * a process of its own (bench/_fake_server.ts). Each run prints the rate from the first byte to the
 * last, the rate with start-up, and the SSE rate (its bytes counted once from the same reply).
 *
 *     deno bench -P=test bench/repl_stream.bench.ts
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";

const MB = 16;
const RUNS = 30; // replies queued: deno bench may run more iterations than n + warmup
const home = await Deno.makeTempDir({ prefix: "assist-bench-stream-" });
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-q",
    "-A",
    "--config",
    CONFIG,
    `${REPO_ROOT}bench/_fake_server.ts`,
    String(MB),
    String(RUNS),
  ],
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
let first = "";
while (!first.includes("\n")) first += (await reader.read()).value ?? "";
const [url, length] = first.trim().split(" ");
const answerLength = Number(length);
globalThis.addEventListener("unload", () => {
  try {
    server.kill("SIGKILL");
  } catch { /* gone */ }
  Deno.removeSync(home, { recursive: true });
});

/** SSE bytes per byte of answer text: one reply fetched and counted. */
const SSE_PER_TEXT = await (async () => {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "x-api-key": "sk-ant-test-key",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: JSON.stringify({
      model: "claude-sonnet-4-6",
      max_tokens: 16,
      stream: true,
      messages: [{ role: "user", content: "count" }],
    }),
  });
  let n = 0;
  for await (const chunk of res.body!) n += chunk.length;
  return n / answerLength;
})();

Deno.bench(`scripted REPL: ${MB} MB answer streamed into a pipe`, { n: 3, warmup: 1 }, async () => {
  const t0 = performance.now();
  const out = new Deno.Command(Deno.execPath(), {
    args: assistCommandArgs([]),
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      HOME: home,
      ASSIST_HOME: `${home}/.assist`,
      ASSIST_API_KEY: "sk-ant-test-key",
      ASSIST_MODEL_API_URL: url,
    },
  }).spawn();
  const w = out.stdin.getWriter();
  await w.write(new TextEncoder().encode("tell me\n"));
  await w.close();
  let bytes = 0;
  let firstByte = 0;
  for await (const chunk of out.stderr) {
    if (!firstByte) firstByte = performance.now();
    bytes += chunk.length;
  }
  await out.status;
  const end = performance.now();
  if (bytes < answerLength) throw new Error(`only ${bytes} of ${answerLength} bytes arrived`);
  const mb = bytes / 1024 / 1024;
  const streaming = mb / ((end - firstByte) / 1000);
  console.log(
    `  ${mb.toFixed(1)} MB of answer: ${(mb / ((end - t0) / 1000)).toFixed(1)} MB/s with start-up, ` +
      `${streaming.toFixed(1)} MB/s from the first byte to the last ` +
      `(${(streaming * SSE_PER_TEXT).toFixed(0)} MB/s of SSE)`,
  );
});
