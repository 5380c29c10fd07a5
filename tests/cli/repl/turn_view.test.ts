import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  displayWidth,
  escapeControls,
  fitWidth,
  formatBytes,
  formatElapsed,
  formatToolCall,
  formatToolResult,
} from "../../../cli/repl/turn_view.ts";
import { reviewRefusal, strictRefusal } from "../../../phi/review.ts";

Deno.test("tool line: k=v pairs, values over 120 characters cut with the /show-last-tool hint", () => {
  assertEquals(
    formatToolCall("read_file", { path: "notes.txt", start_line: 10 }),
    "tool> read_file path=notes.txt start_line=10",
  );
  assertEquals(formatToolCall("list_dir", {}), "tool> list_dir");
  assertEquals(formatToolCall("x", { a: ["p", "q"], b: { c: 1 } }), 'tool> x a=["p","q"] b={"c":1}');
  const long = "y".repeat(121);
  assertEquals(
    formatToolCall("bash_exec", { command: long }),
    `tool> bash_exec command=${"y".repeat(120)}… (full value: /show-last-tool)`,
  );
  assertEquals(
    formatToolCall("bash_exec", { command: "y".repeat(120) }),
    `tool> bash_exec command=${"y".repeat(120)}`,
  );
});

Deno.test("tool line: control characters are shown escaped, never sent to the terminal raw", () => {
  const line = formatToolCall("bash_exec", { command: "ls\nrm -rf x\x1b[2J\tdone\r" });
  assertEquals(line, "tool> bash_exec command=ls\\nrm -rf x\\x1b[2J\\tdone\\r");
  assert([...line].every((c) => c.charCodeAt(0) >= 0x20), "no raw control character");
  assertEquals(escapeControls("a\u009bb\u2028"), "a\\x9bb\\u{2028}");
});

Deno.test("result line: size, refusals, first line of an error; fits 60 columns", () => {
  assertEquals(formatToolResult({ text: "x".repeat(4300), isError: false }), "  ↳ 4.2 KB");
  assertEquals(formatToolResult({ text: "ok", isError: false }), "  ↳ 2 B");
  assertEquals(formatToolResult({ text: reviewRefusal("ssh_exec"), isError: false }), "  ↳ refused (review)");
  assertEquals(
    formatToolResult({ text: strictRefusal("ssh_exec", "no sanitizer"), isError: false }),
    "  ↳ refused (strict PHI)",
  );
  assertEquals(
    formatToolResult({
      text: JSON.stringify({ error: "protected_path", message: "refused: ..." }),
      isError: true,
    }),
    "  ↳ refused (protected path)",
  );
  assertEquals(
    formatToolResult({
      text: JSON.stringify({ error: "not_found", message: "no such file or folder: a.txt\nmore" }),
      isError: true,
    }),
    "  ↳ error: no such file or folder: a.txt",
  );
  assertEquals(formatToolResult({ text: "boom\nstack", isError: true }), "  ↳ error: boom");
  // A successful result that merely looks like an error object is a size.
  assertEquals(formatToolResult({ text: '{"error":"x","message":"y"}', isError: false }), "  ↳ 27 B");
  const long = formatToolResult({
    text: JSON.stringify({ error: "io_error", message: "e".repeat(200) }),
    isError: true,
  });
  assertEquals(displayWidth(long), 59);
  assert(long.endsWith("…"));
  const wide = formatToolResult({
    text: JSON.stringify({ error: "io_error", message: "文件".repeat(40) }),
    isError: true,
  });
  assert(displayWidth(wide) <= 59);
  assert(displayWidth(formatToolResult({ text: "x", isError: true }, 120)) < 120);
});

Deno.test("elapsed indicator, sizes and widths", () => {
  assertEquals([0, 999, 3400, 59_999, 60_000, 65_000, 720_000].map(formatElapsed), [
    "… 0 s",
    "… 0 s",
    "… 3 s",
    "… 59 s",
    "… 1 min 00 s",
    "… 1 min 05 s",
    "… 12 min 00 s",
  ]);
  assertEquals([0, 1023, 1024, 4300, 1536 * 1024].map(formatBytes), [
    "0 B",
    "1023 B",
    "1 KB",
    "4.2 KB",
    "1.5 MB",
  ]);
  assertEquals(displayWidth("abc"), 3);
  assertEquals(displayWidth("漢字"), 4);
  assertEquals(displayWidth("e\u0301"), 1);
  assertEquals(displayWidth("👍🏽"), 2);
  assertEquals(fitWidth("漢字漢字", 5), "漢字…");
  assertEquals(fitWidth("short", 60), "short");
});
