import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { AssistError } from "../../../core/errors.ts";
import { createCompleter } from "../../../cli/repl/complete.ts";
import { History } from "../../../cli/repl/history.ts";
import {
  type CompletionCandidate,
  formatCandidates,
  LineSession,
  type ReadResult,
} from "../../../cli/repl/line_session.ts";
import { PipeInput } from "../../../cli/repl/terminal.ts";
import { VtScreen } from "../../support/vt.ts";

const enc = new TextEncoder();

/** A session on a virtual 60-column screen with a hand-fired 50 ms timer. */
async function setup(entries: string[] = []) {
  const history = await History.load(undefined, () => false);
  for (const e of entries) history.add(e);
  const vt = new VtScreen(60, 40);
  let out = "";
  let timer: (() => void) | undefined;
  let suspended = 0;
  const s = new LineSession({
    write: (t) => {
      out += t;
      vt.write(t);
    },
    columns: () => 60,
    timer: (fn) => {
      timer = fn;
      return () => (timer = undefined);
    },
    suspend: () => suspended++,
  }, history);
  return {
    s,
    vt,
    history,
    output: () => out,
    suspended: () => suspended,
    /** Bytes arrive in one read. */
    feed: (text: string | Uint8Array) => s.feed(typeof text === "string" ? enc.encode(text) : text),
    /** 50 ms of quiet. */
    fire: () => {
      const t = timer;
      timer = undefined;
      t?.();
    },
    armed: () => timer !== undefined,
  };
}

/** Resolves to the result if the promise already settled, else "pending". */
async function peek<T>(p: Promise<T>): Promise<T | "pending"> {
  return await Promise.race([p, new Promise<"pending">((r) => setTimeout(() => r("pending"), 0))]);
}

Deno.test("session: Enter submits after the 50 ms poll; the line stays on screen", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "you> " });
  t.feed("hello");
  t.feed("\r");
  assertEquals(await peek(p), "pending");
  assert(t.armed());
  t.fire();
  assertEquals(await p, { kind: "line", text: "hello", record: true });
  assertEquals(t.vt.lines(), ["you> hello"]);
  assertEquals([t.vt.row, t.vt.col], [1, 0]);
});

Deno.test("session: 50 ms rule, an Enter followed by more input is a newline (no early submit)", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "you> " });
  t.feed("line1\rline2\rli"); // a paste without brackets, in one read
  t.feed("ne3"); // more within the window
  assertEquals(await peek(p), "pending");
  t.feed("\r"); // a lone Enter, but the next read came before the 50 ms passed
  t.feed("line4");
  t.fire();
  assertEquals(await peek(p), "pending");
  t.feed("\r"); // the operator's Enter, after the quiet
  t.fire();
  assertEquals(await p, { kind: "line", text: "line1\nline2\nline3\nline4", record: true });
});

Deno.test("session: an unbracketed paste keeps its TABs and its last newline, and waits for Enter", async () => {
  const t = await setup();
  let completions = 0;
  const p = t.s.readLine({
    prompt: "> ",
    complete: () => (completions++, { start: 0, end: 0, candidates: [] }),
  });
  t.feed("MSH|^~\\&|A\tB\r\tPID|1\r"); // one read: faster than anyone types
  t.fire();
  assertEquals(await peek(p), "pending");
  assertEquals(completions, 0);
  t.feed("why?");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "MSH|^~\\&|A\tB\n\tPID|1\nwhy?", record: true });
  // CR LF in a paste is one newline; a lone TAB read is still completion.
  const q = t.s.readLine({
    prompt: "> ",
    complete: () => (completions++, { start: 0, end: 0, candidates: [] }),
  });
  t.feed("a\r\nb\r\n");
  t.fire();
  t.feed("\t");
  assertEquals(completions, 1);
  t.feed("\r");
  t.fire();
  assertEquals(await q, { kind: "line", text: "a\nb\n", record: true });
});

Deno.test("session: keys that arrive together are not a block: a last TAB completes, a late read is typed", async () => {
  let clock = 0;
  let completions = 0;
  const history = await History.load(undefined, () => false);
  let timer: (() => void) | undefined;
  const s = new LineSession({
    write: () => {},
    columns: () => 60,
    timer: (fn) => (timer = fn, () => (timer = undefined)),
    now: () => clock,
  }, history);
  const fire = () => timer?.();
  const complete = () => (completions++, { start: 0, end: 0, candidates: [] });
  const p = s.readLine({ prompt: "> ", complete });
  s.feed(enc.encode("/ss\t")); // typed while the program was busy: one read
  assertEquals(completions, 1);
  s.feed(enc.encode("a\tb\r\tc\r")); // a block
  clock += 30; // then, 30 ms later and before the quiet, one typed line and its Enter
  s.feed(enc.encode("why?\r"));
  fire();
  assertEquals(await p, { kind: "line", text: "/ssa\tb\n\tc\nwhy?", record: true });
});

Deno.test("session: an unbracketed paste of many lines becomes a chip and is submitted whole", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  const lines = Array.from({ length: 240 }, (_, i) => `PID|${i}|${"x".repeat(60)}`);
  const bytes = enc.encode(lines.join("\r") + "\r");
  // The last read holds the last newline alone with text: still part of the block.
  const last = bytes.length - 20;
  for (let at = 0; at < last; at += 1000) t.feed(bytes.subarray(at, Math.min(at + 1000, last)));
  t.feed(bytes.subarray(last));
  t.fire();
  assertEquals(await peek(p), "pending");
  t.feed("\r");
  t.fire();
  const r = await p;
  assertEquals(r, { kind: "line", text: lines.join("\n") + "\n", record: true });
  assertEquals(t.vt.lines().length <= 3, true, t.vt.lines().join("\n"));
  assert(t.vt.lines()[0].startsWith("> [pasted "), t.vt.lines()[0]);
});

Deno.test("session: bracketed paste is literal (TAB too), never submits; 1 MB sent whole as a chip", async () => {
  const t = await setup();
  let completions = 0;
  const p = t.s.readLine({
    prompt: "> ",
    complete: () => (completions++, { start: 0, end: 0, candidates: [] }),
  });
  const body = "MSH|^~\\&|A\tB\r".repeat(80_000);
  const all = enc.encode("\x1b[200~" + body + "\x1b[201~");
  for (let at = 0; at < all.length; at += 65536) t.feed(all.subarray(at, at + 65536));
  assertEquals(await peek(p), "pending");
  assertEquals(completions, 0);
  assertEquals(t.vt.lines(), [`> [pasted 80000 lines, 1015.6 KB]`]);
  t.feed("\r");
  t.fire();
  const r = await p;
  assert(r.kind === "line");
  assertEquals(r.text.length, body.length);
  assertEquals(r.text, body.replace(/\r/g, "\n"));
});

Deno.test("session: Ctrl-C clears text, then interrupts on empty; Ctrl-D on empty is eof", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  t.feed("some text\x03");
  assertEquals(t.s.editor.text, "");
  assertEquals(await peek(p), "pending");
  t.feed("\x03");
  assertEquals(await p, { kind: "interrupt" });
  const q = t.s.readLine({ prompt: "> " });
  t.feed("ab\x01\x04"); // C-d with text deletes
  assertEquals(t.s.editor.text, "b");
  t.feed("\x08\x05\x7f\x04");
  assertEquals(await q, { kind: "eof" });
});

Deno.test("session: trailing backslash continues with the ... prompt until a blank line", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "you> " });
  t.feed("one \\");
  t.feed("\r");
  t.fire();
  assertEquals(await peek(p), "pending");
  assertEquals(t.vt.lines(), ["you> one \\", "..."]);
  t.feed("two");
  t.feed("\r");
  t.fire();
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "one \ntwo", record: true });
  const q = t.s.readLine({ prompt: "you> ", continuationPrompt: "..> " });
  t.feed("<<");
  t.feed("\r");
  t.fire();
  t.feed("a\\");
  t.feed("\r");
  t.fire();
  t.feed("EOF");
  t.feed("\r");
  t.fire();
  assertEquals(await q, { kind: "line", text: "a\\", record: true });
  assert(t.vt.lines().includes("..> a\\"));
});

Deno.test("session: TAB completes one candidate, extends a common prefix, lists several aligned", async () => {
  const cmds: CompletionCandidate[] = [
    { value: "/ssh-setup", description: "set up an SSH master" },
    { value: "/ssh-status", description: "show connections" },
    { value: "/status", description: "status line" },
  ];
  const complete = (buffer: string, cursor: number) => {
    const word = buffer.slice(0, cursor);
    return Promise.resolve({
      start: 0,
      end: cursor,
      candidates: cmds.filter((c) => c.value.startsWith(word)),
      appendSpace: true,
    });
  };
  const t = await setup();
  const p = t.s.readLine({ prompt: "> ", complete });
  t.feed("/sta");
  t.feed("\t");
  await t.s.settled();
  assertEquals([t.s.editor.text, t.s.editor.cursor], ["/status ", 8]);
  t.feed("\x15/s");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "/s"); // "/s" is already the common prefix: list
  assertEquals(t.vt.lines(), [
    "  /ssh-setup   set up an SSH master",
    "  /ssh-status  show connections",
    "  /status      status line",
    "> /s",
  ]);
  t.feed("sh");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "/ssh-s");
  t.feed("e");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "/ssh-setup ");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "/ssh-setup ", record: true });
});

Deno.test("session: the candidate list is capped at 40", () => {
  const many = Array.from({ length: 50 }, (_, i) => ({ value: `SEG${i}` }));
  const lines = formatCandidates(many);
  assertEquals(lines.length, 41);
  assertEquals(lines[40], "  … 10 more");
  assertEquals(lines[0], "  SEG0");
  // One over the cap: shown, not hidden behind a "… 1 more" line just as tall.
  const one = formatCandidates(many.slice(0, 41));
  assertEquals(one.length, 41);
  assertEquals(one[40], "  SEG40");
});

Deno.test("session: keys typed while a turn runs wait for the next prompt; Ctrl-C interrupts the turn", async () => {
  const t = await setup();
  let interrupts = 0;
  t.s.beginTurn(() => interrupts++);
  t.feed("next q\x1b[<0;3;4Muestion\x03");
  assertEquals(interrupts, 1);
  assertEquals(t.output(), "");
  t.s.endTurn();
  const p = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "next question");
  assertEquals(t.vt.lines(), ["> next question"]);
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "next question", record: true });
});

Deno.test("session: typeahead ending in Enter submits after the poll; a following line stays queued", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("first\rsec");
  t.s.endTurn();
  const p = t.s.readLine({ prompt: "> " });
  // "first\rsec": the Enter has input after it, so it is a newline (the 50 ms rule).
  assertEquals(t.s.editor.text, "first\nsec");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "first\nsec", record: true });
});

Deno.test("session: readSecret echoes nothing, never reaches history, Ctrl-C rejects as refused", async () => {
  const t = await setup();
  const p = t.s.readSecret("API key: ");
  t.feed("sk-abc\x7fc");
  t.feed("\r");
  const secret = await p;
  assertEquals(secret.reveal(), "sk-abc");
  assertEquals(t.vt.lines(), ["API key:"]);
  assertEquals(t.history.entries, []);
  const q = t.s.readSecret("password: ");
  t.feed("hun\x03");
  await rejects(
    q,
    (e: unknown) => e instanceof AssistError && e.level === "refused" && e.message === "cancelled",
  );
  assert(!t.output().includes("hun"));
});

Deno.test("session: readKey takes one allowed key (no case); Enter is the fallback", async () => {
  const t = await setup();
  const p = t.s.readKey("send result? [Y/n/i] ", ["y", "n", "i"], "y");
  t.feed("xI");
  assertEquals(await p, "i");
  const q = t.s.readKey("again? [Y/n] ", ["y", "n"], "y");
  // The first Enter belongs to the "I" typed before it (see the rule below); the second answers.
  t.feed("\r");
  t.feed("\r");
  assertEquals(await q, "y");
  assertEquals(t.vt.lines(), ["send result? [Y/n/i] i", "again? [Y/n] y"]);
});

Deno.test("session: notice prints above the active editor and redraws it", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  t.feed("draft");
  t.s.notice("phi> 2 values tokenized");
  assertEquals(t.vt.lines(), ["phi> 2 values tokenized", "> draft"]);
  assertEquals([t.vt.row, t.vt.col], [1, 7]);
  t.feed("\x03\x03");
  await p;
  t.s.notice("plain line");
  assertEquals(t.vt.lines().at(-1), "plain line");
});

Deno.test("session: history up/down, Ctrl-R on screen, Ctrl-L clears and redraws, Ctrl-Z suspends", async () => {
  const t = await setup(["ssh eng1", "status"]);
  const p = t.s.readLine({ prompt: "> " });
  t.feed("\x1b[A");
  assertEquals(t.vt.lines(), ["> status"]);
  t.feed("\x1b[A\x1b[B\x1b[B");
  assertEquals(t.s.editor.text, "");
  t.feed("\x12eng");
  assertEquals(t.vt.lines(), ["(reverse-i-search)'eng': ssh eng1"]);
  t.feed("\x07\x0c");
  assert(t.output().includes("\x1b[H\x1b[2J"));
  assertEquals(t.vt.lines(), ["> "].map((l) => l.trimEnd()));
  t.feed("\x1a");
  assertEquals(t.suspended(), 1);
  t.s.redraw();
  t.feed("x");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "x", record: true });
});

Deno.test("session: a lone Escape resolves on the poll; mouse reports never reach the text", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  t.feed("a\x1b");
  assert(t.armed());
  t.fire();
  t.feed("\x1b[<64;10;5M\x1b[M !!b");
  assertEquals(t.s.editor.text, "ab");
  t.s.end();
  assertEquals(await p, { kind: "eof" });
  const u = await setup();
  const q = u.s.readLine({ prompt: "> " });
  u.feed("last line");
  u.feed("\r");
  u.s.end(); // the input ends while the Enter waits for the poll: it still submits
  assertEquals(await q, { kind: "line", text: "last line", record: true });
  assertEquals(await t.s.readLine({ prompt: "> " }), { kind: "eof" });
});

Deno.test("session: UTF-8 typed across reads and wide characters edit on the screen", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  const b = enc.encode("世界👩‍💻");
  for (let i = 0; i < b.length; i++) t.feed(b.subarray(i, i + 1));
  t.feed("\x1b[D");
  assertEquals([t.vt.row, t.vt.col], [0, 6]);
  t.feed("\x7f");
  assertEquals(t.vt.lines(), ["> 世👩‍💻"]);
  t.feed("\x03\x03");
  assertEquals(await p, { kind: "interrupt" });
});

/** A byte source that hands out the given chunks, then the end. */
function source(chunks: string[]) {
  const queue = chunks.map((c) => enc.encode(c));
  return {
    read(p: Uint8Array): Promise<number | null> {
      const c = queue.shift();
      if (!c) return Promise.resolve(null);
      p.set(c);
      return Promise.resolve(c.length);
    },
  };
}

Deno.test("PipeInput: lines one after another, multi-line rules, CRLF, eof", async () => {
  const pipe = PipeInput.open(source(["first\r\nsec", "ond \\\nthird\n\n<<\nx\nEOF\nla", "st"]));
  const got: ReadResult[] = [];
  for (;;) {
    const r = await pipe.readLine({ prompt: "> " });
    got.push(r);
    if (r.kind === "eof") break;
  }
  assertEquals(got, [
    { kind: "line", text: "first", record: true },
    { kind: "line", text: "second \nthird", record: true },
    { kind: "line", text: "x", record: true },
    { kind: "line", text: "last", record: true },
    { kind: "eof" },
  ]);
  const s = PipeInput.open(source(["sk-1\nrest\n"]));
  assertEquals((await s.readSecret("key: ")).reveal(), "sk-1");
  assertEquals(await s.readLine({ prompt: "" }), { kind: "line", text: "rest", record: true });
  await rejects(s.readSecret("key: "), AssistError);
  s.close();
});

Deno.test("session: typeahead never answers readKey; it waits for a new key and goes back to the prompt", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("and then");
  t.feed("\r");
  t.fire();
  t.s.endTurn();
  const k = t.s.readKey("phi> tokenize 2 values? [Y/n] ", ["y", "n"], "y");
  assertEquals(await peek(k), "pending");
  t.fire();
  assertEquals(await peek(k), "pending");
  t.feed("n");
  assertEquals(await k, "n");
  const p = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "and then");
  t.fire();
  assertEquals(await p, { kind: "line", text: "and then", record: true });
  // A leftover Enter alone does not answer the next question either.
  t.s.beginTurn(() => {});
  t.feed("\r");
  t.s.endTurn();
  const again = t.s.readKey("again? [Y/n] ", ["y", "n"], "y");
  assertEquals(await peek(again), "pending");
  t.feed("n");
  assertEquals(await again, "n");
});

Deno.test("session: typeahead never becomes a readSecret value; it stays for the next prompt", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("typed ahead");
  t.feed("\r");
  t.s.endTurn();
  const p = t.s.readSecret("password: ");
  assertEquals(await peek(p), "pending");
  t.feed("hunter2");
  t.feed("\r");
  assertEquals((await p).reveal(), "hunter2");
  const q = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "typed ahead");
  t.fire();
  assertEquals(await q, { kind: "line", text: "typed ahead", record: true });
  // A cancelled question puts the typeahead back as well.
  t.s.beginTurn(() => {});
  t.feed("later");
  t.s.endTurn();
  const c = t.s.readSecret("password: ");
  t.feed("\x03");
  await rejects(c, AssistError);
  const r = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "later");
  t.feed("\x03\x03");
  await r;
});

Deno.test("session: prompts typed ahead seconds apart are two entries, not one with a newline", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("first question");
  t.feed("\r");
  t.fire(); // 50 ms of quiet: that Enter arrived on its own
  t.feed("second question");
  t.feed("\r");
  t.fire();
  t.s.endTurn();
  assertEquals(await t.s.readLine({ prompt: "> " }), { kind: "line", text: "first question", record: true });
  const q = t.s.readLine({ prompt: "> " });
  t.fire();
  assertEquals(await q, { kind: "line", text: "second question", record: true });
  // Typed one key per read, with pauses: still one line, submitted by its Enter.
  t.s.beginTurn(() => {});
  for (const ch of "ab\rc") {
    t.feed(ch);
    t.fire();
  }
  t.s.endTurn();
  assertEquals(await t.s.readLine({ prompt: "> " }), { kind: "line", text: "ab", record: true });
  const r = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "c");
  t.feed("\x03\x03");
  await r;
});

Deno.test("session: Ctrl-D in a << or \\ continuation gives what was collected", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  t.feed("<<");
  t.feed("\r");
  t.fire();
  t.feed("MSH|a");
  t.feed("\r");
  t.fire();
  t.feed("PID|b");
  t.feed("\r");
  t.fire();
  t.feed("\x04");
  assertEquals(await p, { kind: "line", text: "MSH|a\nPID|b", record: true });
  const q = t.s.readLine({ prompt: "> " });
  t.feed("one \\");
  t.feed("\r");
  t.fire();
  t.feed("two");
  t.feed("\r");
  t.fire();
  t.feed("\x04");
  assertEquals(await q, { kind: "line", text: "one \ntwo", record: true });
});

Deno.test("session: Ctrl-Z and Ctrl-D typed during a turn neither suspend nor end the next prompt", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("\x1a");
  t.fire();
  t.feed("\x04");
  t.s.endTurn();
  const p = t.s.readLine({ prompt: "> " });
  assertEquals(await peek(p), "pending");
  assertEquals(t.suspended(), 0);
  t.feed("x");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "x", record: true });
});

Deno.test("session: Down after taking a Ctrl-R match with Enter brings back the buffer, no crash", async () => {
  const t = await setup(["ssh eng1", "status"]);
  const p = t.s.readLine({ prompt: "> " });
  t.feed("dra\x12stat");
  assertEquals(t.vt.lines(), ["(reverse-i-search)'stat': status"]);
  t.feed("\r"); // takes the match into the buffer
  await t.s.settled();
  assertEquals(t.vt.lines(), ["> status"]);
  t.feed("\x1b[B"); // Down past the newest entry: the buffer from before the search
  assertEquals(t.vt.lines(), ["> dra"]);
  t.feed("\x1b[B\x1b[Aft");
  assertEquals(t.s.editor.text, "statusft");
  t.feed("\x1b[B\x1b[Bft");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "draft", record: true });
});

Deno.test('session: C-j, abc, Up, C-u, Z sends "Z\\nabc" (an empty first line keeps its start)', async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> " });
  t.feed("\nabc\x1b[A\x15Z");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "Z\nabc", record: true });
});

/** The REPL's own completer over a few commands (the HL7 words come from the built-in schema). */
const replCompleter = () =>
  createCompleter({
    commands: () => [
      { name: "ssh", summary: "open an SSH session" },
      { name: "ssh-add", summary: "add a host" },
      { name: "ssh-status", summary: "show connections" },
      { name: "status", summary: "status line" },
    ],
    cwd: "/",
    home: "/nonexistent-assist-home",
    userHome: "/nonexistent-home",
  });

Deno.test("session: TAB on a word its one candidate adds nothing to shows it as a one-row list", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> ", complete: replCompleter() });
  t.feed("ZPI");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "ZPI");
  assert(t.vt.lines()[0].startsWith("  ZPI  site-specific segment"), t.vt.lines().join("\n"));
  assertEquals(t.vt.lines().at(-1), "> ZPI");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "ZPI", record: true });
});

Deno.test("session: TAB extending to a common prefix lists what remains; the next TAB takes the exact one", async () => {
  const t = await setup();
  const p = t.s.readLine({ prompt: "> ", complete: replCompleter() });
  t.feed("/ss");
  t.feed("\t");
  await t.s.settled();
  assertEquals([t.s.editor.text, t.s.editor.cursor], ["/ssh", 4]);
  assertEquals(t.vt.lines(), [
    "  /ssh         open an SSH session",
    "  /ssh-add     add a host",
    "  /ssh-status  show connections",
    "> /ssh",
  ]);
  t.feed("\t"); // exact match wins
  await t.s.settled();
  assertEquals([t.s.editor.text, t.s.editor.cursor], ["/ssh ", 5]);
  assertEquals(t.vt.lines().at(-1), "> /ssh");
  // A single candidate that adds text still just completes (no list).
  t.feed("\x15/sta");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "/status ");
  assertEquals(t.vt.lines().length, 4);
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "/status ", record: true });
});

Deno.test('session: the list shown with a prefix extension is capped at 40 then "… N more"', async () => {
  const t = await setup();
  const segs = Array.from({ length: 50 }, (_, i) => ({ value: `SEG${i}` }));
  const p = t.s.readLine({
    prompt: "> ",
    complete: (buffer, cursor) => ({
      start: 0,
      end: cursor,
      candidates: segs.filter((c) => c.value.startsWith(buffer)),
    }),
  });
  t.feed("S");
  t.feed("\t");
  await t.s.settled();
  assertEquals(t.s.editor.text, "SEG");
  const out = t.output();
  assert(out.includes("  SEG39\r\n  … 10 more\r\n"), out);
  assert(!out.includes("  SEG40\r\n"));
  assertEquals(t.vt.lines().at(-1), "> SEG");
  t.feed("\x03\x03");
  assertEquals(await p, { kind: "interrupt" });
});

Deno.test("session: a key the editor fails on says so in one line; the line is kept and still submits", async () => {
  const t = await setup();
  // A completer answering nonsense makes the TAB handler throw (a stand-in for any editor bug).
  const p = t.s.readLine({
    prompt: "> ",
    complete: () => ({ start: 0, end: 0 }) as never,
  });
  t.feed("check @no");
  t.feed("\t");
  await t.s.settled();
  t.fire();
  await t.s.settled();
  assert(
    /that key could not be handled \(.+\); the line is kept/.test(t.output()),
    JSON.stringify(t.output()),
  );
  t.feed("tes");
  t.feed("\r");
  t.fire();
  assertEquals(await p, { kind: "line", text: "check @notes", record: true });
});

Deno.test("session: the Enter after a one-key answer is part of it, never the next prompt's", async () => {
  const t = await setup();
  // /login: "1" answers the menu; the Enter typed after it must not end the hidden key prompt empty.
  const menu = t.s.readKey("choose 1, 2 or 3 [3]: ", ["1", "2", "3"], "3");
  t.feed("1");
  assertEquals(await menu, "1");
  const secret = t.s.readSecret("API key (input hidden): ");
  t.feed("\r");
  t.fire();
  assertEquals(await peek(secret), "pending");
  t.feed("sk-ant-typed-key");
  t.feed("\r");
  t.fire();
  assertEquals((await secret).reveal(), "sk-ant-typed-key");
  // The review gate: "n" then Enter; the Enter must not answer the next question with its default.
  const first = t.s.readKey("review> [Y/n/i] ", ["y", "n", "i"], "y");
  t.feed("n");
  assertEquals(await first, "n");
  const second = t.s.readKey("review> [Y/n/i] ", ["y", "n", "i"], "y");
  t.feed("\r");
  t.fire();
  assertEquals(await peek(second), "pending");
  t.feed("i");
  assertEquals(await second, "i");
  // Anything else typed first ends the rule: an Enter later is an Enter again.
  const third = t.s.readKey("again? [Y/n] ", ["y", "n"], "y");
  t.feed("y");
  assertEquals(await third, "y");
  const line = t.s.readLine({ prompt: "> " });
  t.feed("x");
  t.feed("\r");
  t.fire();
  assertEquals(await line, { kind: "line", text: "x", record: true });
});

Deno.test("session: Up/Down move between the screen rows of a long wrapped line, then walk history", async () => {
  const t = await setup(["older entry"]);
  const p = t.s.readLine({ prompt: "> " });
  // 2 + 130 characters at 60 columns: three rows ("> " + 58, 60, 12).
  const text = "a".repeat(58) + "b".repeat(60) + "c".repeat(12);
  t.feed(text);
  assertEquals([t.vt.row, t.vt.col], [2, 12]);
  t.feed("\x1b[A"); // up one row, same column: inside the b's
  assertEquals([t.s.editor.text, t.s.editor.cursor, t.vt.row, t.vt.col], [text, 58 + 12, 1, 12]);
  t.feed("\x1b[AX"); // row 0, column 12: after 10 a's (the prompt takes 2)
  assertEquals(t.s.editor.text, "a".repeat(10) + "X" + "a".repeat(48) + "b".repeat(60) + "c".repeat(12));
  t.feed("\x1b[A"); // on the first row: history
  assertEquals(t.s.editor.text, "older entry");
  t.feed("\x1b[B"); // back to the draft, cursor where it was
  assertEquals(t.s.editor.text.length, text.length + 1);
  t.feed("\x1b[B\x1b[B"); // down two rows, then the last row's Down does nothing more
  assertEquals(t.vt.row, 2);
  t.feed("\x1b[B");
  assertEquals(t.s.editor.text.length, text.length + 1);
  t.feed("\x03\x03"); // clears the line, then interrupts
  assertEquals(await p, { kind: "interrupt" });
});

Deno.test("session: Ctrl-L during a turn clears the screen at once and is not kept for the prompt", async () => {
  const t = await setup();
  t.s.beginTurn(() => {});
  t.feed("ab\x0ccd");
  assertEquals(t.output(), "\x1b[H\x1b[2J");
  t.s.endTurn();
  const p = t.s.readLine({ prompt: "> " });
  assertEquals(t.s.editor.text, "abcd");
  assertEquals(t.output().split("\x1b[2J").length, 2, "the screen was cleared once only");
  t.feed("\x03\x03");
  assertEquals(await p, { kind: "interrupt" });
});
