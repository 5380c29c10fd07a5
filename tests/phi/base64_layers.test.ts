/**
 * Base64 the pass reads beyond one clean run: pieces split by spaces or line breaks inside a JSON
 * string, base64 of base64, and UTF-16 text (LE or BE, with or without a byte-order mark).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { valueParts } from "./_carriers.ts";
import { hl7Corpus } from "../support/phi_corpus.ts";
import { decodedRuns } from "../../phi/base64.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
function utf16(s: string, le: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array(s.length * 2 + (bom ? 2 : 0));
  let k = 0;
  if (bom) out.set(le ? [0xff, 0xfe] : [0xfe, 0xff]), k = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[k + 2 * i + (le ? 0 : 1)] = c & 0xff;
    out[k + 2 * i + (le ? 1 : 0)] = c >> 8;
  }
  return out;
}
const pieces = (b64: string, width: number, sep: string) =>
  b64.match(new RegExp(`.{1,${width}}`, "g"))!.join(sep);
/** Pieces of varying length (3 to 41 characters, from a fixed sequence). */
function irregular(b64: string, sep: string): string {
  const out: string[] = [];
  for (let at = 0, k = 0; at < b64.length; k++) {
    const len = 3 + (k * 17) % 39;
    out.push(b64.slice(at, at + len));
    at += len;
  }
  return out.join(sep);
}

/** One way of carrying a message, and how to read the text back out of the carrier. */
interface Layer {
  wrap(msg: string): string;
  read(text: string): string;
}
const between = (t: string, a: string, b: string) => t.slice(t.indexOf(a) + a.length, t.lastIndexOf(b));
const unpiece = (s: string) => s.replace(/[ \t]+|\\r\\n|\\n|\r?\n[ \t]*/g, "");
const fromB64 = (s: string) => Uint8Array.fromBase64(s);
const fromUrl = (s: string) => Uint8Array.fromBase64(s, { alphabet: "base64url" });

const LAYERS: Record<string, Layer> = {};
for (
  const [w, sep] of [[4, " "], [10, " "], [23, " "], [76, " "], [40, "\\n"], [33, "\\r\\n"], [
    50,
    "\n",
  ]] as const
) {
  LAYERS[`JSON pieces of ${w} by ${JSON.stringify(sep)}`] = {
    wrap: (m) => `{"id":7,"data":"${pieces(utf8(m).toBase64(), w, sep)}","type":"hl7"}`,
    read: (t) => new TextDecoder().decode(fromB64(unpiece(between(t, '"data":"', '","type"')))),
  };
}
for (const sep of [" ", "\\n", "\n  "]) {
  LAYERS[`JSON irregular pieces by ${JSON.stringify(sep)}`] = {
    wrap: (m) => `{"data": "${irregular(utf8(m).toBase64(), sep)}"}`,
    read: (t) => new TextDecoder().decode(fromB64(unpiece(between(t, '"data": "', '"}')))),
  };
}
LAYERS["base64 of base64"] = {
  wrap: (m) => `payload=${utf8(utf8(m).toBase64()).toBase64()}`,
  read: (t) => new TextDecoder().decode(fromB64(new TextDecoder().decode(fromB64(t.slice(8))))),
};
LAYERS["URL-safe base64 of base64 in JSON"] = {
  wrap: (m) =>
    JSON.stringify({ blob: utf8(utf8(m).toBase64()).toBase64({ alphabet: "base64url", omitPadding: true }) }),
  read: (t) => new TextDecoder().decode(fromB64(new TextDecoder().decode(fromUrl(JSON.parse(t).blob)))),
};
for (
  const [name, le, bom] of [["UTF-16LE", true, false], ["UTF-16LE with BOM", true, true], [
    "UTF-16BE with BOM",
    false,
    true,
  ]] as const
) {
  LAYERS[`${name} in base64`] = {
    wrap: (m) => `attachment=${utf16(m, le, bom).toBase64()}`,
    read: (t) => new TextDecoder(le ? "utf-16le" : "utf-16be").decode(fromB64(t.slice(11))),
  };
}

Deno.test("base64 layers, generated: every layer of every message leaks no value inside, round trip exact", async () => {
  await using h = await testEngine("on");
  const messages = hl7Corpus(Object.keys(LAYERS).length * 2, 2929);
  let checked = 0;
  let k = 0;
  for (const [name, layer] of Object.entries(LAYERS)) {
    for (let n = 0; n < 2; n++) {
      const m = messages[k++];
      const text = layer.wrap(m.text);
      assertEquals(layer.read(text), m.text, `${name}: the test's own reader`);
      const r = await h.engine.sanitizeToolResult(text, "read_file");
      const inside = layer.read(r.text);
      assert(inside.startsWith("MSH|"), `${name}: not HL7 after the pass:\n${inside.slice(0, 80)}`);
      for (const p of m.phi) {
        for (const v of valueParts(p.value)) {
          checked++;
          assert(!leaks(inside, v), `${name}: ${p.where} ${v} leaked:\n${inside}`);
        }
      }
      const back = h.engine.detokenize(r.text).text;
      // Irregular pieces come back as the same base64 and separators, but where a token shortened
      // the text the pieces after it are laid out again; a URL-safe run whose tokenized form has no
      // `-` or `_` reads as standard base64 on the way back: the message inside is what is exact.
      if (name.includes("irregular") || name.includes("URL")) {
        assertEquals(layer.read(back), m.text, `${name}: round trip`);
      } else assertEquals(back, text, `${name}: round trip`);
    }
  }
  assert(checked > 1000, `only ${checked} values checked`);
});

Deno.test("base64 layers: pieces that do not decode to text, and ordinary JSON strings, stay", async () => {
  await using h = await testEngine("on");
  const random = new Uint8Array(96);
  for (let i = 0; i < random.length; i++) random[i] = (i * 131 + 7) % 256;
  const binary16 = new Uint8Array(64); // small integers: every other byte zero, but control characters
  for (let i = 0; i < 64; i += 2) binary16[i] = i % 31;
  const plain = [
    `{"sig":"${pieces(random.toBase64(), 16, " ")}"}`,
    `{"note":"The ADT feed to the lab was down for twenty minutes this morning and resent 4211 messages"}`,
    `{"cmd":"hcicmd -p adt_in -c status","threads":"adt_in adt_out ib_epic ob_lab"}`,
    `blob=${binary16.toBase64()}`,
    `key=${utf8(random.toBase64()).toBase64()}`,
  ];
  for (const t of plain) {
    assertEquals((await h.engine.sanitizeToolResult(t, "bash_exec")).text, t);
  }
  assertEquals(decodedRuns(plain[0]).length, 0);
  assertEquals(decodedRuns(plain[3]).length, 0);
});
