import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { endsWithContinuation, feedLine, type MultilineState, START } from "../../../cli/repl/multiline.ts";

function run(lines: string[]): { complete: boolean; text?: string; fed: number } {
  let st: MultilineState = START;
  for (let i = 0; i < lines.length; i++) {
    const step = feedLine(st, lines[i]);
    if (step.complete) return { complete: true, text: step.text, fed: i + 1 };
    st = step.state;
  }
  return { complete: false, fed: lines.length };
}

Deno.test("multiline: a plain line is complete", () => {
  assertEquals(run(["hello"]), { complete: true, text: "hello", fed: 1 });
  assertEquals(run([""]), { complete: true, text: "", fed: 1 });
});

Deno.test("multiline: trailing backslash continues until a blank line", () => {
  assertEquals(run(["one \\", "two\\", "three", ""]), { complete: true, text: "one \ntwo\nthree", fed: 4 });
  assertEquals(run(["one \\", "two"]), { complete: false, fed: 2 });
  // A doubled backslash is a literal one.
  assertEquals(endsWithContinuation("path\\\\"), false);
  assertEquals(endsWithContinuation("\\"), true);
  assertEquals(run(["C:\\dir\\\\"]), { complete: true, text: "C:\\dir\\\\", fed: 1 });
});

Deno.test("multiline: << and <<EOF collect until EOF", () => {
  assertEquals(run(["summarize <<", "MSH|^~\\&", "PID|1", "EOF"]), {
    complete: true,
    text: "summarize\nMSH|^~\\&\nPID|1",
    fed: 4,
  });
  assertEquals(run(["<<", "a", "", "b", "EOF"]), { complete: true, text: "a\n\nb", fed: 5 });
  assertEquals(run(["<<EOF", "x\\", "EOF  "]), { complete: true, text: "x\\", fed: 3 });
  assertEquals(run(["a << b"]), { complete: true, text: "a << b", fed: 1 });
  assertEquals(run(["<<", "EOFX", "EOF\r"]), { complete: true, text: "EOFX", fed: 3 });
});

Deno.test("multiline: a pasted entry with newlines is complete; in a mode it is fed line by line", () => {
  assertEquals(run(["a\nb\\"]), { complete: true, text: "a\nb\\", fed: 1 });
  assertEquals(run(["x <<", "l1\nl2\nEOF\nafter"]), { complete: true, text: "x\nl1\nl2\nafter", fed: 2 });
});
