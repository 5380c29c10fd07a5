/**
 * The fake model API as a process of its own, for bench/repl_stream.bench.ts: serving the stream
 * and draining the program's output then never take turns on one event loop (as the real API and
 * the terminal never do). Args: <MB of answer> <replies>. Prints its URL, then serves until killed.
 */
import { FakeModelApi } from "../tests/support/fake_model_api.ts";

const [mb, count] = Deno.args.map(Number);
// 64-character text deltas (about what a model sends per event), written in 64 KiB frames.
const fake = new FakeModelApi({ chunk: 64, frame: 64 * 1024 });
const words = "the interface ADT_IN routes to LAB_OUT and PHARM_OUT through the xlate; ";
const answer = words.repeat(Math.ceil((mb * 1024 * 1024) / words.length));
for (let i = 0; i < count; i++) fake.replies.push({ text: answer });
console.log(`${fake.url} ${answer.length}`);
