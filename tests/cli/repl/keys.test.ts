import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { cleanPaste, KeyDecoder, type KeyEvent } from "../../../cli/repl/keys.ts";
import { mulberry32 } from "../../support/prng.ts";

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);

/** Decodes chunks in order (then the timeout), merging adjacent text events. */
function decode(chunks: Uint8Array[], timeout = true): KeyEvent[] {
  const d = new KeyDecoder();
  const out: KeyEvent[] = [];
  for (const c of chunks) out.push(...d.feed(c));
  if (timeout) out.push(...d.timeout());
  const merged: KeyEvent[] = [];
  for (const ev of out) {
    const last = merged[merged.length - 1];
    if (ev.kind === "text" && last?.kind === "text") {
      merged[merged.length - 1] = { kind: "text", text: last.text + ev.text };
    } else merged.push(ev);
  }
  return merged;
}

const k = (name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): KeyEvent => ({
  kind: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
});

Deno.test("keys: arrows, Home/End variants, Delete, PgUp/Dn", () => {
  const cases: [string, KeyEvent][] = [
    ["\x1b[A", k("up")],
    ["\x1b[B", k("down")],
    ["\x1b[C", k("right")],
    ["\x1b[D", k("left")],
    ["\x1bOA", k("up")],
    ["\x1bOD", k("left")],
    ["\x1b[H", k("home")],
    ["\x1b[F", k("end")],
    ["\x1bOH", k("home")],
    ["\x1bOF", k("end")],
    ["\x1b[1~", k("home")],
    ["\x1b[7~", k("home")],
    ["\x1b[4~", k("end")],
    ["\x1b[8~", k("end")],
    ["\x1b[3~", k("delete")],
    ["\x1b[5~", k("pageup")],
    ["\x1b[6~", k("pagedown")],
    ["\x1b[1;5C", k("right", { ctrl: true })],
    ["\x1b[1;3D", k("left", { alt: true })],
    ["\x1b[Z", k("backtab")],
  ];
  for (const [input, ev] of cases) assertEquals(decode([bytes(input)]), [ev], JSON.stringify(input));
});

Deno.test("keys: Ctrl keys, CR vs LF, Alt prefixes, Alt+Enter", () => {
  assertEquals(decode([bytes("\x01\x05\x0b\x15\x17\x19\x14\x12\x07\x0c")]), [
    k("a", { ctrl: true }),
    k("e", { ctrl: true }),
    k("k", { ctrl: true }),
    k("u", { ctrl: true }),
    k("w", { ctrl: true }),
    k("y", { ctrl: true }),
    k("t", { ctrl: true }),
    k("r", { ctrl: true }),
    k("g", { ctrl: true }),
    k("l", { ctrl: true }),
  ]);
  assertEquals(decode([bytes("\r\n\t\x7f\x08\x03\x04")]), [
    k("enter"),
    k("linefeed"),
    k("tab"),
    k("backspace"),
    k("h", { ctrl: true }),
    k("c", { ctrl: true }),
    k("d", { ctrl: true }),
  ]);
  assertEquals(decode([bytes("\x1bb\x1bf\x1bd\x1b\x7f\x1b\r")]), [
    k("b", { alt: true }),
    k("f", { alt: true }),
    k("d", { alt: true }),
    k("backspace", { alt: true }),
    k("enter", { alt: true }),
  ]);
});

Deno.test("keys: a lone ESC waits for the timeout, then is Escape", () => {
  const d = new KeyDecoder();
  assertEquals(d.feed(bytes("\x1b")), []);
  assert(d.wantsTimeout);
  assertEquals(d.timeout(), [k("escape")]);
  assert(!d.pending);
  // ESC then more bytes in the next read: a sequence after all.
  assertEquals(d.feed(bytes("\x1b")), []);
  assertEquals(d.feed(bytes("[A")), [k("up")]);
  // A partial CSI that times out: Escape, then the rest as typed.
  assertEquals(d.feed(bytes("\x1b[")), []);
  assertEquals(d.timeout(), [k("escape"), { kind: "text", text: "[" }]);
});

Deno.test("keys: bracketed paste is one event, cleaned", () => {
  assertEquals(decode([bytes("a\x1b[200~line1\r\nline2\rline3\x1b[A\x07\tx\x1b[201~b")]), [
    { kind: "text", text: "a" },
    { kind: "paste", text: "line1\nline2\nline3[A\tx" },
    { kind: "text", text: "b" },
  ]);
  assertEquals(cleanPaste("a\r\n\x00b\x7f\x1bc"), "a\nbc");
});

Deno.test("keys: mouse reports are dropped (SGR and X10)", () => {
  assertEquals(decode([bytes("a\x1b[<0;12;5Mb\x1b[<0;12;5mc")]), [{ kind: "text", text: "abc" }]);
  const x10 = new Uint8Array([0x61, 0x1b, 0x5b, 0x4d, 0x20, 0xe0, 0xff, 0x62]);
  assertEquals(decode([x10]), [{ kind: "text", text: "ab" }]);
});

Deno.test("keys: UTF-8 split across reads", () => {
  const all = bytes("héllo 世界 👩‍💻");
  for (let i = 1; i < all.length; i++) {
    assertEquals(decode([all.subarray(0, i), all.subarray(i)]), [{ kind: "text", text: "héllo 世界 👩‍💻" }]);
  }
});

const FUZZ_INPUTS = [
  "ab\x1b[Acd\x1b[1;5C\x1bOH\x1b[3~\x1bb\x1b\r\r",
  "x\x1b[200~pa\r\nste\x1b[201~y\x1b[<35;1;2Mz",
  "\x1b[200~世界\x1b[201~\x1b[200~\x1b[201~\x1b[M !!q",
  "é\x1b[200~\x1b[20\x1b[201~ok",
  "\x1b[5~\x1b[6~\x1b[200~" + "0123456789\n".repeat(50) + "\x1b[201~\x1bd",
];

Deno.test("keys: fuzz, every chunk boundary gives the same events", () => {
  for (const input of FUZZ_INPUTS) {
    const all = bytes(input);
    const whole = decode([all]);
    for (let i = 1; i < all.length; i++) {
      assertEquals(
        decode([all.subarray(0, i), all.subarray(i)]),
        whole,
        `${JSON.stringify(input)} split at ${i}`,
      );
    }
    const rand = mulberry32(all.length);
    for (let trial = 0; trial < 200; trial++) {
      const chunks: Uint8Array[] = [];
      let at = 0;
      while (at < all.length) {
        const len = 1 + Math.floor(rand() * 7);
        chunks.push(all.subarray(at, at + len));
        at += len;
      }
      assertEquals(decode(chunks), whole);
    }
  }
});

Deno.test("keys: a paste split across many reads stays one event, 1 MB intact", () => {
  const body = "MSH|^~\\&|A|B\r".repeat(80_000); // ~1 MB with CR segment ends
  const all = bytes("\x1b[200~" + body + "\x1b[201~");
  const d = new KeyDecoder();
  const out: KeyEvent[] = [];
  for (let at = 0; at < all.length; at += 4093) out.push(...d.feed(all.subarray(at, at + 4093)));
  assertEquals(out.length, 1);
  assert(out[0].kind === "paste");
  assertEquals(out[0].text.length, body.length);
  assertEquals(out[0].text, body.replace(/\r/g, "\n"));
});
