import assert from "node:assert/strict";
import { printable, TurnOutput } from "../../../cli/repl/turn_output.ts";

function harness() {
  let now = 0;
  let out = "";
  const view = new TurnOutput({ write: (s) => out += s, live: true, color: false, now: () => now });
  return { view, advance: (ms: number) => now += ms, out: () => out };
}

Deno.test("tool and notice lines start on a fresh line; text streams as it comes", () => {
  const h = harness();
  h.view.text("Looking");
  h.view.text(" now.");
  h.view.line("tool> nc_threads site=adt");
  h.view.notice("phi> auto-tokenized 1 value(s) [tool_result]: NAME×1");
  h.view.text("Done");
  h.view.finish();
  assert.equal(
    h.out(),
    "Looking now.\ntool> nc_threads site=adt\nphi> auto-tokenized 1 value(s) [tool_result]: NAME×1\nDone\n",
  );
});

Deno.test("after 2 s of silence an elapsed indicator appears and is erased before the next output", () => {
  const h = harness();
  h.view.tick();
  assert.equal(h.out(), "", "nothing before 2 s");
  h.advance(2100);
  h.view.tick();
  assert.equal(h.out(), "\r\x1b[K… 2 s");
  h.advance(1000);
  h.view.tick();
  assert.equal(h.out(), "\r\x1b[K… 2 s\r\x1b[K… 3 s");
  h.view.text("answer");
  h.view.flush();
  assert.ok(h.out().endsWith("\r\x1b[K… 3 s\r\x1b[Kanswer"));
});

Deno.test("a retry notice turns the indicator into a countdown", () => {
  const h = harness();
  h.view.notice("model> the model API is overloaded; retrying in 8 s (attempt 2 of 4).");
  h.advance(2500);
  h.view.tick();
  assert.ok(h.out().endsWith("retrying in 6 s"), JSON.stringify(h.out()));
  h.advance(6000);
  h.view.tick();
  assert.match(h.out(), /… 8 s$/);
});

Deno.test("a silent request shows its idle countdown; a ping starts it over; none while no request waits", () => {
  const h = harness();
  h.view.activity(300); // the request is sent
  h.advance(9000);
  h.view.tick();
  assert.ok(h.out().endsWith("… 9 s"), JSON.stringify(h.out()));
  h.advance(31_000);
  h.view.tick();
  assert.ok(
    h.out().endsWith("… 40 s · no reply for 40 s; giving up in 260 s (Ctrl-C stops waiting)"),
    JSON.stringify(h.out()),
  );
  h.view.activity(300); // a ping
  h.advance(1000);
  h.view.tick();
  assert.ok(h.out().endsWith("… 41 s"), JSON.stringify(h.out()));
  h.view.activity(undefined); // the answer is in; a tool runs
  h.advance(60_000);
  h.view.tick();
  assert.ok(h.out().endsWith("… 101 s"), JSON.stringify(h.out()));
});

Deno.test("the indicator is cut to the terminal's width, so it never wraps", () => {
  let now = 0;
  let out = "";
  const view = new TurnOutput({
    write: (s) => out += s,
    live: true,
    color: false,
    now: () => now,
    columns: () => 40,
  });
  view.activity(300);
  now += 50_000;
  view.tick();
  const shown = out.slice(out.lastIndexOf("\x1b[K") + 3);
  assert.equal(shown, "… 50 s · no reply for 50 s; giving up …");
  assert.equal(shown.length, 39);
});

Deno.test("deltas that arrive together are written with one write; lines flush held text first", async () => {
  const writes: string[] = [];
  const view = new TurnOutput({ write: (s) => writes.push(s), live: false, color: false });
  for (const d of ["The ", "route ", "ADT_IN ", "feeds ", "LAB_OUT."]) view.text(d);
  assert.deepEqual(writes, [], "held until the current task ends");
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(writes, ["The route ADT_IN feeds LAB_OUT."]);
  view.text(" More");
  view.line("tool> list_dir");
  assert.deepEqual(writes.slice(1), [" More", "\ntool> list_dir\n"]);
  view.text("x".repeat(70_000));
  assert.equal(writes.length, 4, "a large burst is written at once, without waiting");
  view.finish();
});

Deno.test("scripted use: lines go to their own writer, text stays on the other", () => {
  const text: string[] = [];
  const lines: string[] = [];
  const view = new TurnOutput({
    write: (s) => text.push(s),
    writeLine: (s) => lines.push(s),
    live: false,
    color: false,
  });
  view.text("Answer");
  view.line("tool> read_file path=a");
  view.finish();
  assert.equal(text.join(""), "Answer\n");
  assert.deepEqual(lines, ["tool> read_file path=a\n"]);
});

Deno.test("model text and notices cannot carry escape sequences to the terminal", async () => {
  assert.equal(printable("ok\x1b[?2004l\r\nnext\x07\x9b2J\tend"), "ok^[[?2004l\nnext2J\tend");
  assert.equal(
    printable("MSH|^~\\&|A\rPID|1||[[MRN_1]]\r"),
    "MSH|^~\\&|A\nPID|1||[[MRN_1]]\n",
    "HL7 segments stay apart",
  );
  let out = "";
  const view = new TurnOutput({ write: (s) => out += s, live: false, color: false });
  view.text("copy this \x1b]52;c;ZXZpbA==\x07 now");
  view.notice("model> \x1b[2Jerror");
  view.finish();
  assert.ok(!out.includes("\x1b"), JSON.stringify(out));
  assert.match(out, /copy this \^\[\]52;c;ZXZpbA== now\nmodel> \^\[\[2Jerror\n/);
  await Promise.resolve();
});

Deno.test("printableStyled: colour kept, other escapes shown, CR a line break (command output)", async () => {
  const { printableStyled } = await import("../../../cli/repl/turn_output.ts");
  assert.equal(
    printableStyled("\x1b[2mctx 3%\x1b[0m\rMSH|x\rPID|1\x1b[2J\x1b]52;c;QUE=\x07\r\n"),
    "\x1b[2mctx 3%\x1b[0m\nMSH|x\nPID|1^[[2J^[]52;c;QUE=\n",
  );
  assert.equal(printableStyled("plain"), "plain");
});
