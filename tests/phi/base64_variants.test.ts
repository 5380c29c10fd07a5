/**
 * Issue #14, class 2: base64 variants (URL-safe alphabet, unpadded, any wrap width, `\n` written in
 * JSON strings, Latin-1 text) and decoded content that is not HL7, on tool results and prompts.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decodedRuns, decodeRunText, encodeRunText } from "../../phi/base64.ts";
import { leaks, testEngine } from "./_support.ts";
import { hl7Corpus, notesCorpus, type PlacedPhi, rng } from "../support/phi_corpus.ts";

const enc = new TextEncoder();

interface Variant {
  name: string;
  encode: (text: string) => string;
}

const latin1Bytes = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));
const wrapAt = (b64: string, width: number, eol: string) => {
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += width) lines.push(b64.slice(i, i + width));
  return lines.join(eol);
};

function variants(r: () => number): Variant[] {
  const width = () => 16 + Math.floor(r() * 110);
  return [
    { name: "standard", encode: (t) => enc.encode(t).toBase64() },
    { name: "url-safe padded", encode: (t) => enc.encode(t).toBase64({ alphabet: "base64url" }) },
    {
      name: "url-safe unpadded",
      encode: (t) => enc.encode(t).toBase64({ alphabet: "base64url", omitPadding: true }),
    },
    { name: "standard unpadded", encode: (t) => enc.encode(t).toBase64({ omitPadding: true }) },
    { name: "wrapped \\n, any width", encode: (t) => wrapAt(enc.encode(t).toBase64(), width(), "\n") },
    { name: "wrapped \\r\\n, any width", encode: (t) => wrapAt(enc.encode(t).toBase64(), width(), "\r\n") },
    {
      name: "url-safe wrapped",
      encode: (t) => wrapAt(enc.encode(t).toBase64({ alphabet: "base64url" }), width(), "\n"),
    },
    {
      name: "wrapped and indented (XML, YAML)",
      encode: (t) => wrapAt(enc.encode(t).toBase64(), width(), "\n      "),
    },
    {
      name: "shorter first line",
      encode: (t) => {
        const b = enc.encode(t).toBase64();
        return `${b.slice(0, 10)}\n${wrapAt(b.slice(10), width(), "\n")}`;
      },
    },
    { name: "Latin-1", encode: (t) => latin1Bytes(`Befund für Müller: ${t}`).toBase64() },
    { name: "Latin-1 wrapped", encode: (t) => wrapAt(latin1Bytes(`Größe: ${t}`).toBase64(), width(), "\n") },
  ];
}

/** Places a base64 run the way tools and files carry one. */
const PLACES: Record<string, (b64: string) => string> = {
  "log key=": (b) => `2026-11-24 01:02:03 INFO xlate payload=${b} done`,
  "JSON string": (b) => JSON.stringify({ id: 4, report: b }),
  "JSON string, \\n written": (b) => JSON.stringify({ id: 5, report: b }),
  "OBX ED": (b) =>
    `MSH|^~\\&|RAD|H|CL|H|20261124||ORU^R01|77|P|2.5\rPID|1||1234^^^H^MR||X^Y\rOBX|1|ED|PDF^Report^L||^TEXT^^Base64^${b}||||||F\r`,
  "prose": (b) => `the attachment was\n${b}\nend of attachment`,
};

interface Case {
  text: string;
  phi: PlacedPhi[];
  label: string;
}

function corpus(perPair: number, seed: number): Case[] {
  const r = rng(seed);
  const notes = notesCorpus(2000, seed);
  const msgs = hl7Corpus(600, seed);
  const out: Case[] = [];
  let n = 0, m = 0;
  for (const v of variants(r)) {
    for (const [place, put] of Object.entries(PLACES)) {
      for (let i = 0; i < perPair; i++) {
        // A note (not HL7: the free-text tiers read it) or a whole message.
        const src = i % 3 === 2 ? msgs[m++] : notes[n++];
        let b64 = v.encode(src.text);
        if (place === "JSON string, \\n written") b64 = wrapAt(b64.replace(/\s+/g, ""), 76, "\n");
        out.push({ text: put(b64), phi: src.phi, label: `${v.name} / ${place}` });
      }
    }
  }
  return out;
}

/** The output plus the text of every base64 run in it (what the model could decode). */
function readable(out: string): string {
  return [out, ...decodedRuns(out).map((r) => r.text)].join("\n");
}

Deno.test("base64 variants, generated: notes and messages in every variant and place, 0 raw values decoded or not", async () => {
  const cases = corpus(4, 1402);
  let values = 0;
  for (const c of cases) {
    // An engine per case: the note and message generators share dates, and detokenizing shows a
    // value as it was first seen.
    await using h = await testEngine("on");
    for (const surface of ["tool", "prompt"] as const) {
      const r = surface === "tool"
        ? await h.engine.sanitizeToolResult(c.text, "bash_exec")
        : await h.engine.tokenizeUserInput(c.text);
      const seen = readable(r.text);
      for (const p of c.phi) {
        values++;
        assert(
          !leaks(seen, p.value),
          `${c.label} (${surface}): ${p.where} ${p.value} readable in:\n${r.text}`,
        );
      }
      // Written back in the run's own alphabet and character set, so restoring the tokens gives the
      // text back. Padding and wrapping are compared loosely: a run whose length is divisible by 4
      // without `=` does not say whether it was padded, and a tokenized run that fits on one line
      // no longer says its wrap width.
      const back = h.engine.detokenize(r.text).text;
      const norm = (s: string) => s.replace(/=/g, "").replace(/(?<=[\w+\/-])(?:\r?\n|\\n)(?=[\w+\/-])/g, "");
      assertEquals(norm(back), norm(c.text), `${c.label} (${surface})`);
    }
  }
  assert(values > 1000, `only ${values} values checked`);
});

Deno.test("base64 variants: hashes, keys, JWTs without text, binary data stay untouched", async () => {
  await using h = await testEngine("on");
  const r = rng(99);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
  const hex = (n: number) => [...bytes(n)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const texts = [
    `sha256 ${hex(32)}  adt_20261124.hl7`,
    `git commit ${hex(20)} (HEAD -> main)`,
    `digest: sha256-${bytes(32).toBase64()}`,
    `integrity="sha512-${bytes(64).toBase64()}"`,
    `Authorization: Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${
      bytes(60).toBase64({ alphabet: "base64url", omitPadding: true })
    }.${bytes(256).toBase64({ alphabet: "base64url", omitPadding: true })}`,
    `ASSIST_API_KEY=sk-ant-api03-${bytes(70).toBase64({ alphabet: "base64url", omitPadding: true })}`,
    `token ghp_${bytes(27).toBase64({ alphabet: "base64url", omitPadding: true })}`,
    `id 3f2a9c1e-7b4d-4e8f-9a2b-1c3d5e7f9a0b and 9b1d2c3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e`,
    wrapAt(bytes(3000).toBase64(), 76, "\n"),
    JSON.stringify({ png: wrapAt(bytes(900).toBase64(), 64, "\n") }),
    "function_name_that_is_quite_long_for_a_tcl_proc_handler and ANOTHER_VERY_LONG_CONSTANT_NAME_HERE",
  ];
  for (const t of texts) {
    const a = await h.engine.sanitizeToolResult(t, "bash_exec");
    assertEquals([a.text, a.tokenized.length], [t, 0], t.slice(0, 60));
    const b = await h.engine.tokenizeUserInput(t);
    assertEquals([b.text, b.tokenized.length], [t, 0], t.slice(0, 60));
  }
});

Deno.test("base64 variants: decodeRunText tells the encoding, encodeRunText writes it back the same", () => {
  const r = rng(7);
  for (let i = 0; i < 300; i++) {
    const len = 12 + Math.floor(r() * 200);
    let s = "";
    for (let k = 0; k < len; k++) s += String.fromCharCode(32 + Math.floor(r() * 95));
    const latin = r() < 0.3;
    if (latin) s += "é Ü ß";
    const bytes = latin ? latin1Bytes(s) : enc.encode(s);
    const url = r() < 0.5, pad = r() < 0.5;
    const b64 = bytes.toBase64({ alphabet: url ? "base64url" : "base64", omitPadding: !pad });
    const got = decodeRunText(b64);
    assert(got, b64);
    assertEquals(got.text, s);
    assertEquals(got.encoding.latin1, latin);
    assertEquals(encodeRunText(got.text, got.encoding), b64);
  }
  assertEquals(decodeRunText("QUJDRB=="), undefined, "non-canonical padding bits");
  assertEquals(decodeRunText("ab-c+def"), undefined, "mixed alphabets");
});

Deno.test("base64 variants: a run in a fenced block the operator typed stays; the same run attached is read", async () => {
  await using h = await testEngine("on");
  const [note] = notesCorpus(1, 1413);
  const b64 = enc.encode(`${note.text} SSN 512-44-9087`).toBase64();
  const typed = await h.engine.tokenizeUserInput(`decode this:\n\`\`\`\n${b64}\n\`\`\`\n`);
  assert(typed.text.includes(b64), "a typed fence was not left alone");
  const attached = await h.engine.tokenizeUserInput(`see\n\`\`\`txt assist-attached-file\n${b64}\n\`\`\`\n`);
  assert(!attached.text.includes(b64), "an attachment's base64 was not read");
  assert(!leaks(readable(attached.text), "512-44-9087"));
});
