import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { base64Runs, decodeBase64Text, encodeBase64Text } from "../../phi/base64.ts";
import { rng } from "../support/phi_corpus.ts";

/** The spec's rule written plainly, to compare the probing scanner with. */
function naive(text: string) {
  // Split after each run of "=" that more base64 follows (`msg=<base64>`).
  return [...text.matchAll(/[A-Za-z0-9+\/]+=*|=+/g)]
    .filter((m) => m[0].length >= 200 && m[0].length % 4 === 0)
    .map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

Deno.test("base64 runs: length 200+, divisible by 4, split at a non-padding =, anywhere in the text (probing scanner = plain rule)", () => {
  const r = rng(42);
  const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
  for (let t = 0; t < 400; t++) {
    let text = "";
    while (text.length < 3000) {
      const len = r() < 0.3 ? 190 + Math.floor(r() * 30) : Math.floor(r() * 40);
      for (let i = 0; i < len; i++) text += alpha[Math.floor(r() * alpha.length)];
      text += " |\n^~"[Math.floor(r() * 5)];
    }
    assertEquals(base64Runs(text), naive(text), `case ${t}`);
  }
  const exact = "A".repeat(200);
  assertEquals(base64Runs(exact), [{ start: 0, end: 200 }]);
  assertEquals(base64Runs("x " + "A".repeat(199)), []);
  assertEquals(base64Runs("A".repeat(202)), [], "not divisible by 4");
});

Deno.test("base64 text: canonical base64 only; re-encoding in the same set gives the run back", () => {
  const text = "MSH|^~\\&|Ünïcode ✓";
  const b = encodeBase64Text(text);
  assertEquals(decodeBase64Text(b), text);
  assertEquals(
    decodeBase64Text("////"),
    "\u00ff\u00ff\u00ff",
    "not UTF-8: read as Windows-1252, no byte lost",
  );
  assertEquals(decodeBase64Text("QUJDRA=="), "ABCD");
  assertEquals(decodeBase64Text("QUJDRB=="), undefined, "non-canonical padding bits");
});
