import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createStreamDetokenizer, detokenizeJson, detokenizeText } from "../../phi/detokenize.ts";
import { testConfig, testEngine } from "./_support.ts";

const table: Record<string, string> = { "[[NAME_1]]": "SMITH^JOHN", "[[MRN_12]]": "12345678" };
const resolve = (t: string) => table[t];

Deno.test("detokenize: known tokens restored, unknown ones kept and reported", () => {
  const d = detokenizeText("a [[NAME_1]] b [[MRN_12]] c [[NAME_9]] [[not a token]]", resolve);
  assertEquals(d.text, "a SMITH^JOHN b 12345678 c [[NAME_9]] [[not a token]]");
  assertEquals(d.restored, ["[[NAME_1]]", "[[MRN_12]]"]);
  assertEquals(d.unknown, ["[[NAME_9]]"]);
});

Deno.test("stream detokenizer: a token split at any point comes out whole", () => {
  const text = "Patient [[NAME_1]] has MRN [[MRN_12]]; [[NAME_9]] unknown; arr[1] and [[ x ]] stay. [";
  const expected = "Patient SMITH^JOHN has MRN 12345678; [[NAME_9]] unknown; arr[1] and [[ x ]] stay. [";
  for (let cut = 0; cut <= text.length; cut++) {
    for (const second of [cut, Math.min(text.length, cut + 3)]) {
      const s = createStreamDetokenizer(resolve);
      const out = s.push(text.slice(0, cut)) + s.push(text.slice(cut, second)) + s.push(text.slice(second)) +
        s.flush();
      assertEquals(out, expected, `cut at ${cut}/${second}`);
    }
  }
  // Character by character.
  const s = createStreamDetokenizer(resolve);
  let out = "";
  for (const ch of text) out += s.push(ch);
  out += s.flush();
  assertEquals(out, expected);
  assertEquals(s.restored, ["[[NAME_1]]", "[[MRN_12]]"]);
});

Deno.test("stream detokenizer: plain text passes through at once", () => {
  const s = createStreamDetokenizer(resolve);
  assertEquals(s.push("hello "), "hello ");
  assertEquals(s.push("world [[NA"), "world ");
  assertEquals(s.push("ME_1]]!"), "SMITH^JOHN!");
  assertEquals(s.push("x".repeat(100) + "[[" + "A".repeat(100)), "x".repeat(100) + "[[" + "A".repeat(100));
  assertEquals(s.flush(), "");
});

Deno.test("tool inputs: every string inside is detokenized, keys and other values untouched", () => {
  const input = {
    pattern: "[[MRN_12]]",
    paths: ["a/[[NAME_1]].hl7", "b"],
    n: 3,
    deep: { "[[NAME_1]]": "[[NAME_1]]" },
    ok: true,
  };
  const d = detokenizeJson(input, resolve);
  assertEquals(d.value, {
    pattern: "12345678",
    paths: ["a/SMITH^JOHN.hl7", "b"],
    n: 3,
    deep: { "[[NAME_1]]": "SMITH^JOHN" },
    ok: true,
  });
  assertEquals(input.pattern, "[[MRN_12]]", "the input object is not changed");
});

Deno.test("engine: detokenize reads the lookup table, also tokens another process added", async () => {
  await using h = await testEngine("on");
  const r = await h.engine.tokenizeUserInput("MRN 12345678");
  const { createPhiEngine } = await import("../../phi/mod.ts");
  const other = await createPhiEngine({ config: testConfig(h.home), sidecar: false });
  assertEquals(other.detokenize(r.text).text, "MRN 12345678");
  const s = await other.tokenizeUserInput("MRN 99998888");
  assertEquals(h.engine.detokenize(s.text).text, s.text, "not read yet");
  await h.engine.refresh();
  assertEquals(h.engine.detokenize(s.text).text, "MRN 99998888");
  assertEquals(h.engine.detokenizeToolInput({ q: s.text }).value, { q: "MRN 99998888" });
});
