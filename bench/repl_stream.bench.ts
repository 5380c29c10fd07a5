/**
 * Streamed model text to the terminal side: a 16 MB answer streamed by the fake model API (SSE,
 * 64-character text deltas, so about 47 MB of SSE) through the client, the PHI display detokenizer
 * and the REPL's turn view, into a pipe (scripted REPL, stdout drained). Target: at least 50 MB/s of
 * answer text. The figure includes the process start (about half a second), so it understates the
 * streaming rate.
 *
 *     deno bench -q -P=test bench/repl_stream.bench.ts
 */
import { FakeModelApi } from "../tests/support/fake_model_api.ts";
import { assistCommandArgs } from "../tests/support/run_assist.ts";

const MB = 16;
const home = await Deno.makeTempDir({ prefix: "assist-bench-stream-" });
// 64-character text deltas (about what a model sends per event), written in 64 KiB frames: the
// reader is behind, as it is whenever the terminal side is the bottleneck being measured.
const fake = new FakeModelApi({ chunk: 64, frame: 64 * 1024 });
const words = "the interface ADT_IN routes to LAB_OUT and PHARM_OUT through the xlate; ";
const answer = words.repeat(Math.ceil((MB * 1024 * 1024) / words.length));
globalThis.addEventListener("unload", () => {
  fake.close();
  Deno.removeSync(home, { recursive: true });
});

let last = 0;
/** SSE bytes per byte of answer text with 64-character deltas (event framing and JSON around each). */
const SSE_PER_TEXT = 2.8;
Deno.bench(`scripted REPL: ${MB} MB answer streamed into a pipe`, { n: 3, warmup: 1 }, async () => {
  fake.replies.push({ text: answer });
  const t0 = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: assistCommandArgs([]),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env: {
      NO_COLOR: "1",
      HOME: home,
      ASSIST_HOME: `${home}/.assist`,
      ASSIST_API_KEY: "sk-ant-test-key",
      ASSIST_MODEL_API_URL: fake.url,
    },
  }).spawn();
  const w = out.stdin.getWriter();
  await w.write(new TextEncoder().encode("tell me\n"));
  await w.close();
  let bytes = 0;
  let first = 0;
  for await (const chunk of out.stdout) {
    if (!first) first = performance.now();
    bytes += chunk.length;
  }
  await out.status;
  const end = performance.now();
  const s = (end - t0) / 1000;
  if (bytes < answer.length) throw new Error(`only ${bytes} of ${answer.length} bytes arrived`);
  last = bytes / 1024 / 1024 / s;
  const streaming = bytes / 1024 / 1024 / ((end - first) / 1000);
  console.log(
    `  ${(bytes / 1024 / 1024).toFixed(1)} MB of answer: ${last.toFixed(1)} MB/s with start-up, ` +
      `${streaming.toFixed(1)} MB/s from the first byte to the last ` +
      `(${(streaming * SSE_PER_TEXT).toFixed(0)} MB/s of SSE)`,
  );
});
