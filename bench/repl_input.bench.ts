/**
 * REPL input layer (cli/repl): key echo on a long line (target: under 5 ms per keystroke at a 10 KB
 * line) and a 1 MB bracketed paste accepted (decoded, inserted, drawn as a chip; target: under 1 s).
 * Each keystroke goes through the whole byte path: decoder, editor, redraw string.
 */
import { History } from "../cli/repl/history.ts";
import { LineSession } from "../cli/repl/line_session.ts";

const enc = new TextEncoder();
const history = await History.load(undefined, () => false);
let sink = 0;

async function session(columns: number): Promise<LineSession> {
  const s = new LineSession({
    write: (t) => {
      sink += t.length;
    },
    columns: () => columns,
    timer: () => () => {},
  }, history);
  s.readLine({ prompt: "you[sonnet]> " });
  await s.settled();
  return s;
}

const echoSessions = new Map<string, LineSession>();

/**
 * One keystroke on a line of `line`: the session is made once per bench, and the character the last
 * iteration typed is taken out (untimed) so the line stays at its size.
 */
async function echoBench(b: Deno.BenchContext, line: string, key: string): Promise<void> {
  let s = echoSessions.get(line + key);
  if (!s) {
    s = await session(120);
    s.feed(enc.encode("\x1b[200~" + line + "\x1b[201~"));
    // Shown as a chip otherwise: the bench wants the whole 10 KB drawn, as typed text is.
    s.editor.chips = [];
    echoSessions.set(line + key, s);
  }
  const ed = s.editor;
  if (ed.text.length > line.length) ed.replace(ed.cursor - 1, ed.cursor, "");
  else ed.cursor = ed.text.length;
  const k = enc.encode(key);
  b.start();
  s.feed(k);
  b.end();
}

const ASCII_10K = "select the PID.3 values from the last ADT feed and explain them ".repeat(160).slice(
  0,
  10_240,
);
const CJK_10K = "患者の記録👩‍⚕️を確認して下さい。".repeat(640).slice(0, 10_240);
const PASTE_1M = enc.encode(
  "\x1b[200~" + "MSH|^~\\&|ADT|HOSP|LAB|HOSP|202401011200||ADT^A01|42|P|2.5\r".repeat(18_000) + "\x1b[201~",
);

Deno.bench(
  "key echo at a 10 KB ASCII line (insert + redraw)",
  { group: "echo", baseline: true },
  async (b) => {
    await echoBench(b, ASCII_10K, "x");
  },
);

Deno.bench("key echo at a 10 KB CJK/emoji line (insert + redraw)", { group: "echo" }, async (b) => {
  await echoBench(b, CJK_10K, "界");
});

Deno.bench("key echo after a 1 MB paste chip (insert + redraw)", { group: "echo" }, async (b) => {
  let s = echoSessions.get("chip");
  if (!s) {
    s = await session(120);
    s.feed(PASTE_1M);
    echoSessions.set("chip", s);
  }
  const ed = s.editor;
  if (ed.cursor > ed.chips[0].end) ed.replace(ed.cursor - 1, ed.cursor, "");
  const k = enc.encode("x");
  b.start();
  s.feed(k);
  b.end();
});

Deno.bench("cursor left at a 10 KB ASCII line (move + redraw)", { group: "echo" }, async (b) => {
  await echoBench(b, ASCII_10K, "\x1b[D");
});

Deno.bench(`1 MB bracketed paste accepted (${(PASTE_1M.length / 1e6).toFixed(2)} MB in 64 KB reads)`, {
  group: "paste",
}, async (b) => {
  const s = await session(120);
  b.start();
  for (let at = 0; at < PASTE_1M.length; at += 65536) s.feed(PASTE_1M.subarray(at, at + 65536));
  b.end();
  if (s.editor.chips.length !== 1) throw new Error("the paste was not shown as one chip");
});

globalThis.addEventListener("unload", () => {
  if (sink < 0) console.log(sink);
});
