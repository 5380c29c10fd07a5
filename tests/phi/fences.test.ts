/**
 * Issue #14, class 7: the never-tokenize rule for fenced code is for what the operator types, never
 * for `@file` or `/load` content (appended as fenced blocks tagged `assist-attached-file`) nor for
 * tool results.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { notesCorpus, rng } from "../support/phi_corpus.ts";
import { attachedBlock, expandFileRefs } from "../../cli/file_refs.ts";
import { tempDir } from "../support/run_assist.ts";

const FENCES = ["```", "```tcl", "```json", "~~~", "````", "```bash title=x"];

function fenced(body: string, open: string): string {
  const close = open.replace(/[^`~]/g, "");
  return `${open}\n${body}\n${close}`;
}

Deno.test("fenced code: typed by the operator it is left alone; in a tool result it is tokenized", async () => {
  await using h = await testEngine("on");
  const r = rng(14);
  const notes = notesCorpus(120, 1407);
  for (const [i, n] of notes.entries()) {
    const block = fenced(n.text, FENCES[Math.floor(r() * FENCES.length)]);
    const typed = await h.engine.tokenizeUserInput(`why does this fail?\n${block}\n`);
    assertEquals(typed.tokenized.filter((t) => t.tier !== "manual").length, 0, block);
    for (const tool of ["read_file", "bash_exec", "hl7_show", "hl7_field"]) {
      const t = await h.engine.sanitizeToolResult(`line ${i}\n${block}\nrc=0\n`, tool);
      for (const p of n.phi) assert(!leaks(t.text, p.value), `${tool}: ${p.value} in\n${t.text}`);
    }
  }
});

Deno.test("fenced code: @file content is tokenized, fences inside the file included; the typed fence is not", async () => {
  await using tmp = await tempDir("assist-fence-");
  await using h = await testEngine("on");
  const r = rng(21);
  const notes = notesCorpus(60, 1408);
  for (const [i, n] of notes.entries()) {
    const open = FENCES[Math.floor(r() * FENCES.length)];
    // A file holding a fenced block, another fence left open, plain text: every shape.
    const content = i % 3 === 0
      ? `# notes\n${fenced(n.text, open)}\nend\n`
      : i % 3 === 1
      ? `${open}\n${n.text}\n`
      : `${n.text}\n`;
    await Deno.writeTextFile(`${tmp.path}/n${i}.md`, content);
    const typed = "```\nMRN 55120987 typed by me\n```";
    const x = await expandFileRefs(`${typed}\nsee @n${i}.md`, { cwd: tmp.path, home: `${tmp.path}/.assist` });
    assertEquals(x.files.length, 1);
    const out = await h.engine.tokenizeUserInput(x.text);
    for (const p of n.phi) assert(!leaks(out.text, p.value), `@file ${i}: ${p.value} in\n${out.text}`);
    assert(out.text.includes("MRN 55120987 typed by me"), "the operator's own fence was tokenized");
  }
});

Deno.test("fenced code: /load content (appended in the same tagged fence) is tokenized", async () => {
  await using h = await testEngine("on");
  const notes = notesCorpus(40, 1409);
  for (const n of notes) {
    const file = fenced(n.text, "```");
    const prompt = `check this\n\n[loaded notes.md]\n${attachedBlock(file, "markdown")}`;
    const out = await h.engine.tokenizeUserInput(prompt);
    for (const p of n.phi) assert(!leaks(out.text, p.value), `/load: ${p.value} in\n${out.text}`);
    assert(out.text.startsWith("check this\n\n[loaded notes.md]\n````markdown assist-attached-file\n"));
  }
});
