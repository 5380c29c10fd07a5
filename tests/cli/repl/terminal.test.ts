import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { typedBeforeRaw } from "../../../cli/repl/terminal.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("typedBeforeRaw: a cooked Enter (LF, or a console's CRLF) becomes the raw-mode CR", () => {
  assertEquals(dec(typedBeforeRaw(enc("status of ADT_IN?\n"))), "status of ADT_IN?\r");
  assertEquals(dec(typedBeforeRaw(enc("one\r\ntwo\r\n"))), "one\rtwo\r");
  assertEquals(dec(typedBeforeRaw(enc("no enter yet é中"))), "no enter yet é中");
  assertEquals(dec(typedBeforeRaw(enc("\n\n"))), "\r\r");
});
