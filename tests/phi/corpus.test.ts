/**
 * Agreement with a generator written beside the detector. The corpora come from the generator this
 * file imports (tests/support/phi_corpus.ts), written by the same hands and with the same rules in mind as
 * phi/: the "recall" measured here is how well the detector agrees with that generator's idea of
 * where PHI goes, not recall on text from the field. The bar: structured HL7 PHI agreement 100%,
 * tier-1/2 free-text agreement at least 99%, no tokenization on the generated never-tokenize corpus,
 * and detokenize(tokenize(x)) == x on all of it. The hand-written corpus beside it
 * (tests/phi/handwritten.test.ts, tests/fixtures/phi/handwritten.json) checks the detector against
 * text it was not shaped by.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { hl7Corpus, hl7RealisticCorpus, notesCorpus, toolOutputCorpus } from "../support/phi_corpus.ts";
import { FENCED_VALUES, leaks, outsideFences, testEngine } from "./_support.ts";
import { diffMessageLists, extractTable, formatDiff, parseMessages, renderDocument } from "../../hl7/mod.ts";

Deno.test("generator agreement (not field recall): structured HL7 PHI 100%, exact round trip", async () => {
  await using h = await testEngine("on");
  const corpus = hl7Corpus(200);
  let placed = 0, leaked = 0;
  const misses: string[] = [];
  for (const msg of corpus) {
    const out = await h.engine.sanitizeToolResult(msg.text, "read_file");
    for (const p of msg.phi) {
      placed++;
      if (leaks(out.text, p.value)) {
        leaked++;
        if (misses.length < 10) misses.push(`${p.where} ${p.category}`);
      }
    }
    assertEquals(h.engine.detokenize(out.text).text, msg.text);
    assert(out.hl7Shaped);
  }
  assert(placed > 3000, `placed ${placed}`);
  const structured = corpus.flatMap((m) => m.phi).filter((p) => !p.where.includes("tier"));
  assert(structured.length > 2500);
  assertEquals({ leaked, misses }, { leaked: 0, misses: [] });
});

Deno.test("generator agreement (not field recall): realistic HL7 (result panels, allergies, charges) 100%, round trip", async () => {
  await using h = await testEngine("on");
  const corpus = hl7RealisticCorpus(140);
  const out = await h.engine.sanitizeToolResult(corpus.map((m) => m.text).join("\n"), "ssh_pull_smat");
  for (const m of corpus) for (const p of m.phi) assert(!leaks(out.text, p.value), `${p.where} leaked`);
  assertEquals(h.engine.detokenize(out.text).text, corpus.map((m) => m.text).join("\n"));
  assert(out.text.includes("^Creatinine^LN||"), "results stay readable");
});

Deno.test("generator agreement (not field recall): HL7 with \\n segment ends, as one batch, and in a grep-like listing", async () => {
  await using h = await testEngine("on");
  const lf = hl7Corpus(40, 21, "\n");
  const batch = lf.map((m) => m.text).join("\n");
  const out = await h.engine.sanitizeToolResult(batch, "bash_exec");
  for (const m of lf) for (const p of m.phi) assert(!leaks(out.text, p.value), `${p.where} leaked`);
  assertEquals(h.engine.detokenize(out.text).text, batch);
  const grep = lf.slice(0, 8).flatMap((m, i) =>
    m.text.trimEnd().split("\n").map((line, j) => `msgs/${i}.hl7:${j + 1}:${line}`)
  ).join("\n");
  const g = await h.engine.sanitizeToolResult(grep, "grep_files");
  for (const m of lf.slice(0, 8)) {
    for (const p of m.phi) assert(!leaks(g.text, p.value), `${p.where} leaked`);
  }
  assertEquals(h.engine.detokenize(g.text).text, grep);
});

Deno.test("generator agreement (not field recall): tier-1/2 free text at least 99%", async () => {
  await using h = await testEngine("on");
  const notes = notesCorpus(600);
  let total = 0, found = 0;
  const misses: string[] = [];
  for (const n of notes) {
    const out = await h.engine.tokenizeUserInput(n.text);
    for (const p of n.phi) {
      total++;
      if (!leaks(out.text, p.value)) found++;
      else if (misses.length < 10) misses.push(`${p.category}: ${n.text}`);
    }
    assertEquals(h.engine.detokenize(out.text).text, n.text);
  }
  assert(total > 900, `total ${total}`);
  const recall = found / total;
  assert(recall >= 0.99, `agreement ${(recall * 100).toFixed(2)}% misses: ${misses.join(" | ")}`);
  // Also as tool results (same tiers).
  const out = await h.engine.sanitizeToolResult(
    notes.slice(0, 50).map((n) => n.text).join("\n"),
    "bash_exec",
  );
  for (const n of notes.slice(0, 50)) for (const p of n.phi) assert(!leaks(out.text, p.value));
});

Deno.test("generator agreement (not field recall): nothing on the never-tokenize corpus is tokenized, as prompt or tool result", async () => {
  await using h = await testEngine("on");
  for (const text of toolOutputCorpus()) {
    const a = await h.engine.sanitizeToolResult(text, "bash_exec");
    // A tool result has no fenced-code exemption (that is for what the operator types): the values
    // in its fenced block are tokenized, nothing else is.
    assertEquals(a.tokenized.map((t) => `${t.tier} ${t.category}`), FENCED_VALUES);
    assertEquals(outsideFences(a.text), outsideFences(text));
    // As a prompt the fenced block and everything else are left alone (an engine whose table does
    // not hold the tool result's tokens, which the corpus's literal `[[MRN_1]]` would name).
    await using p = await testEngine("on");
    const b = await p.engine.tokenizeUserInput(text);
    assertEquals(b.tokenized.map((t) => `${t.tier} ${t.category} ${t.value}`), []);
    assertEquals(p.engine.detokenize(b.text).text, text);
  }
});

Deno.test("generator agreement (not field recall): the never-tokenize corpus stays clean with a full lookup table (tier 4)", async () => {
  await using h = await testEngine("on");
  for (const m of hl7Corpus(40)) await h.engine.sanitizeToolResult(m.text, "read_file");
  assert(h.engine.table.size > 500);
  for (const text of toolOutputCorpus(9)) {
    const a = await h.engine.sanitizeToolResult(text, "bash_exec");
    assertEquals(a.tokenized.map((t) => `${t.tier} ${t.category}`), FENCED_VALUES);
    assertEquals(outsideFences(a.text), outsideFences(text));
    const b = await h.engine.tokenizeUserInput(text);
    assertEquals(b.tokenized.map((t) => `${t.tier} ${t.category} ${t.value}`), []);
  }
});

Deno.test("generator agreement (not field recall): HL7 rendered by the HL7 tools (show, field table, diff) leaks no structured PHI, each on a fresh engine", async () => {
  const corpus = hl7Corpus(60, 41);
  const right = hl7Corpus(60, 42);
  // Segments only on one side, so the diff lists whole added and removed segments.
  const drop = (text: string, id: string) =>
    text.split("\r").filter((s) => !s.startsWith(`${id}|`)).join("\r");
  const doc = parseMessages(corpus.map((m) => m.text).join("\n"));
  const left = parseMessages(corpus.map((m, i) => i % 2 ? drop(m.text, "IN1") : m.text).join("\n"));
  const other = parseMessages(right.map((m, i) => i % 2 ? m.text : drop(m.text, "NK1")).join("\n"));
  const paths = [
    "PID.3",
    "PID.3.1",
    "PID.5",
    "PID.5.1",
    "PID.5.2",
    "PID.6",
    "PID.7",
    "PID.11",
    "PID.13",
    "PID.14",
    "PID.18",
    "PID.19",
    "PID.20",
    "NK1.2",
    "NK1.4",
    "NK1.5",
    "GT1.3",
    "GT1.6",
    "GT1.8",
    "GT1.12",
    "IN1.16",
    "IN1.18",
    "IN1.36",
    "IN1.49",
    "PV1.7",
    "PV1.19",
    "OBR.16",
    "SCH.12",
    "SCH.13",
    "AIP.3",
    "FT1.20",
  ];
  const diff = formatDiff(diffMessageLists(left.messages, other.messages));
  assert(
    /^ {2}\+ \w{3} {2}\w{3}\|/m.test(diff) && /^ {2}- \w{3} {2}\w{3}\|/m.test(diff),
    "the diff lists whole segments",
  );
  const renderings = {
    show: renderDocument(doc),
    field: extractTable(doc.messages, paths, { index: true }),
    diff,
  };
  const structured = [...corpus, ...right].flatMap((m) => m.phi).filter((p) => !p.where.includes("tier"));
  for (const [name, text] of Object.entries(renderings)) {
    // A fresh engine per rendering: a value tokenized in one rendering must not hide a leak in the
    // next one through tier 4.
    await using h = await testEngine("on");
    const out = await h.engine.sanitizeToolResult(text, `hl7_${name}`);
    const leaked = structured.filter((p) => leaks(out.text, p.value)).map((p) => `${p.where}`);
    assertEquals(leaked, [], name);
    assertEquals(h.engine.detokenize(out.text).text, text, `${name} round trip`);
  }
});
