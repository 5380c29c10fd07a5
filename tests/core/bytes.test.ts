/** core/bytes.ts: utf8Length equals the encoder's byte count on generated text of every width. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { utf8Length } from "../../core/bytes.ts";

Deno.test("utf8Length equals TextEncoder's length, lone surrogates included", () => {
  const units = [0x41, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x20ac, 0xfffd, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0x0d];
  let seed = 15;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const enc = new TextEncoder();
  for (let i = 0; i < 20000; i++) {
    const n = Math.floor(next() * 8);
    let s = "";
    for (let k = 0; k < n; k++) s += String.fromCharCode(units[Math.floor(next() * units.length)]);
    assertEquals([s, utf8Length(s)], [s, enc.encode(s).length]);
  }
  assertEquals(utf8Length("a\u00e9\u20ac\u{1F600}"), 10);
});
