/**
 * The exec-output budget shared by bash_exec and ssh_exec (core/exec_budget.ts): the byte cap per
 * stream, the line budget with stderr's share, and the notes; and that both tools render the same
 * output the same way through it.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { budgetLines, EXEC_CAPTURE_BYTES, OutputCapture, splitLines } from "../../core/exec_budget.ts";
import { render } from "../../tools/bash/run/bash_exec.ts";
import { renderExec } from "../../tools/ssh/exec_render.ts";

Deno.test("OutputCapture keeps the first cap bytes, counts the rest, and copies what it keeps", () => {
  const c = new OutputCapture(5);
  const chunk = new Uint8Array([1, 2, 3]);
  c.add(chunk);
  chunk[0] = 9; // the producer reuses its buffer
  c.add(new Uint8Array([4, 5, 6, 7]));
  c.add(new Uint8Array([8]));
  assertEquals([...c.bytes()], [1, 2, 3, 4, 5]);
  assertEquals(c.dropped, 3);
  assertEquals(new OutputCapture().cap, EXEC_CAPTURE_BYTES);
});

Deno.test("splitLines: a final newline ends the last line; CRLF loses its CR", () => {
  assertEquals(splitLines(""), []);
  assertEquals(splitLines("\n"), [""]);
  assertEquals(splitLines("a\r\nb"), ["a", "b"]);
});

Deno.test("budgetLines: within budget nothing is cut; over it stderr keeps a quarter, notes follow", () => {
  const base = { tool: "x_exec", droppedBytes: 0 };
  assertEquals(budgetLines({ ...base, stdout: "a\nb\n", stderr: "e\n", maxLines: 3 }), [
    "a",
    "b",
    "[stderr]",
    "e",
  ]);
  const out = Array.from({ length: 10 }, (_, i) => `o${i}`).join("\n");
  const err = Array.from({ length: 10 }, (_, i) => `e${i}`).join("\n");
  assertEquals(budgetLines({ ...base, stdout: out, stderr: err, maxLines: 8, droppedBytes: 12 }), [
    "o0",
    "o1",
    "o2",
    "o3",
    "o4",
    "o5",
    "[stderr]",
    "e0",
    "e1",
    "[x_exec: output truncated: 8 of 20 lines shown; raise max_lines]",
    "[x_exec: 12 further bytes of output discarded]",
  ]);
  // A short stdout leaves the rest of the budget to stderr.
  assertEquals(budgetLines({ ...base, stdout: "o", stderr: err, maxLines: 4 }).slice(0, 5), [
    "o",
    "[stderr]",
    "e0",
    "e1",
    "e2",
  ]);
});

Deno.test("bash_exec and ssh_exec apply the same budget to the same output", () => {
  const stdout = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const stderr = "warning: one\nwarning: two\n";
  const bash = render({ text: stdout, dropped: 7 }, { text: stderr, dropped: 0 }, 0, 10, undefined, 120);
  const enc = new TextEncoder();
  const ssh = renderExec({
    code: 0,
    stdout: enc.encode(stdout),
    stderr: enc.encode(stderr),
    droppedStdout: 7,
    droppedStderr: 0,
    timedOut: false,
  }, { alias: "eng1", maxLines: 10, timeoutSeconds: 120, login: false });
  const body = (text: string, tool: string) =>
    text.split("\n").filter((l) => !l.startsWith(`[${tool}: exit`)).map((l) =>
      l.replace(`[${tool}:`, "[tool:")
    );
  assertEquals(body(bash, "bash_exec"), body(ssh, "ssh_exec"));
  assertEquals(body(bash, "bash_exec").slice(-2), [
    "[tool: output truncated: 10 of 32 lines shown; raise max_lines]",
    "[tool: 7 further bytes of output discarded]",
  ]);
});
