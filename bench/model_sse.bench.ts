/**
 * SSE parsing throughput (target ≥ 50 MB/s): a generated stream of about 11 MB, text deltas and a
 * tool call with split JSON, decoded in 16 KB chunks and rebuilt into the message.
 */
import { SseDecoder } from "../cli/model/sse.ts";
import { MessageAccumulator } from "../cli/model/accumulate.ts";

function generate(targetBytes: number): string {
  const parts: string[] = [];
  const ev = (name: string, data: unknown) => parts.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  ev("message_start", {
    type: "message_start",
    message: {
      id: "msg_b",
      type: "message",
      role: "assistant",
      model: "m",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  ev("content_block_start", {
    type: "content_block_start",
    index: 0,
    content_block: { type: "text", text: "" },
  });
  let size = 0;
  const piece = "The route from ADT_IN to LAB_OUT passes through siteB via the ICL thread; ";
  while (size < targetBytes * 0.9) {
    ev("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: piece },
    });
    size += 140;
  }
  ev("content_block_stop", { type: "content_block_stop", index: 0 });
  ev("content_block_start", {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "nc_paths", input: {} },
  });
  const json = JSON.stringify({
    site: "siteA",
    thread: "ADT_IN",
    note: "x".repeat(Math.floor(targetBytes * 0.05)),
  });
  for (let i = 0; i < json.length; i += 40) {
    ev("content_block_delta", {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: json.slice(i, i + 40) },
    });
  }
  ev("content_block_stop", { type: "content_block_stop", index: 1 });
  ev("message_delta", {
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 5000 },
  });
  ev("message_stop", { type: "message_stop" });
  return parts.join("");
}

const text = generate(8 * 1024 * 1024);
const chunks: string[] = [];
for (let i = 0; i < text.length; i += 16384) chunks.push(text.slice(i, i + 16384));
console.log(
  `SSE input: ${
    (text.length / 1024 / 1024).toFixed(1)
  } MB in ${chunks.length} chunks (MB/s = size / time per iteration)`,
);

Deno.bench("SSE decode + rebuild, ~11 MB", { group: "sse" }, () => {
  const dec = new SseDecoder();
  const acc = new MessageAccumulator({ onText: () => {} });
  for (const c of chunks) for (const ev of dec.push(c)) acc.apply(JSON.parse(ev.data));
  for (const ev of dec.end()) acc.apply(JSON.parse(ev.data));
  if (!acc.complete) throw new Error("incomplete");
});
