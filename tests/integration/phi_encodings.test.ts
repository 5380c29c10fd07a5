/**
 * Issue #14, classes 1, 2 and 7 end to end: the program under the shipped permission set, a headless
 * prompt against the fake model API, HL7 inside other encodings, base64 variants and fenced blocks in
 * the prompt, in `@file` content and in tool results (read_file, bash_exec, hl7_show, hl7_field).
 * No raw value may be in any request body the model receives.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { carrierCorpus, CARRIERS, valueParts } from "../phi/_carriers.ts";
import { leaks } from "../phi/_support.ts";
import { replEnv } from "../support/repl_env.ts";
import { hl7Corpus, notesCorpus, type PlacedPhi } from "../support/phi_corpus.ts";

const KEY = "sk-ant-test-key";
const TOKEN_RE = /\[\[[^\[\]\s]{1,80}\]\]/g;
const enc = new TextEncoder();

Deno.test("HL7 in other encodings, base64 variants, fenced blocks: no raw value in any model-bound request body", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const phi: PlacedPhi[] = [];
  const cases = carrierCorpus(1, 1410);
  // Every carrier in a file of its own, read by read_file; a few also through bash_exec and @file.
  const names: string[] = [];
  for (const [i, c] of cases.entries()) {
    const name = `carrier${i}.txt`;
    await Deno.writeTextFile(`${tmp.path}/${name}`, c.text);
    names.push(name);
    phi.push(...c.phi);
  }
  assertEquals(names.length, Object.keys(CARRIERS).length);
  // Base64: a note URL-safe and unpadded in JSON, a message wrapped at 60 with \n written in JSON.
  const [noteA, noteB, noteC] = notesCorpus(3, 1411);
  const [msgA] = hl7Corpus(1, 1412);
  phi.push(...noteA.phi, ...noteB.phi, ...noteC.phi, ...msgA.phi);
  const url = enc.encode(noteA.text).toBase64({ alphabet: "base64url", omitPadding: true });
  const wrapped = (enc.encode(msgA.text).toBase64().match(/.{1,60}/g) ?? []).join("\n");
  await Deno.writeTextFile(`${tmp.path}/b64.json`, JSON.stringify({ note: url, message: wrapped }));
  // An OBX ED report (a note, not HL7) for hl7_show and hl7_field.
  const ed = enc.encode(noteB.text).toBase64();
  await Deno.writeTextFile(
    `${tmp.path}/report.hl7`,
    `MSH|^~\\&|RAD|H|CL|H|20261124||ORU^R01|88|P|2.5\rPID|1||4711^^^H^MR||X^Y\rOBX|1|ED|RPT^Report^L||^TEXT^^Base64^${ed}||||||F\r`,
  );
  // A fenced block in a file: attached with @file, and read by read_file.
  await Deno.writeTextFile(`${tmp.path}/fenced.md`, `# ticket\n\`\`\`\n${noteC.text}\n\`\`\`\n`);
  fake.replies.push({
    toolCalls: [
      ...names.map((n) => ({ name: "read_file", input: { path: n } })),
      { name: "read_file", input: { path: "b64.json" } },
      { name: "read_file", input: { path: "fenced.md" } },
      { name: "bash_exec", input: { command: `cat ${names.slice(0, 6).join(" ")} b64.json` } },
      { name: "hl7_show", input: { file: "report.hl7" } },
      { name: "hl7_field", input: { file: "report.hl7", paths: ["OBX.5", "PID.5"] } },
    ],
  });
  fake.replies.push({ text: "Looked at everything." });
  // The prompt itself carries a carrier and a base64 note; @file attaches two more.
  const inline = cases.find((c) => c.carrier === "json in json")!;
  const prompt = `what is wrong with ${inline.text} and payload=${enc.encode(noteA.text).toBase64()} ? see @${
    names[0]
  } @fenced.md @b64.json`;
  const r = await runAssist(["-p", prompt], {
    env: { HOME: tmp.path, ASSIST_API_KEY: KEY, ASSIST_MODEL_API_URL: fake.url },
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(fake.messageRequests.length, 2);
  const sent = fake.messageRequests.map((q) => q.body).join("\n");
  // What the model could read: the bodies and, JSON-decoded, every base64 run in them.
  const bodies = fake.messageRequests.map((q) => JSON.stringify(q.json));
  const decoded: string[] = [];
  for (const b of bodies) {
    for (const m of b.matchAll(/[A-Za-z0-9+\/_-]{24,}={0,2}/g)) {
      try {
        const alpha = /[-_]/.test(m[0]) ? "base64url" : "base64";
        decoded.push(new TextDecoder().decode(Uint8Array.fromBase64(m[0], { alphabet: alpha })));
      } catch { /* not base64 */ }
    }
  }
  const readable = [sent, ...decoded].join("\n");
  let checked = 0;
  for (const p of phi) {
    for (const v of valueParts(p.value)) {
      checked++;
      assert(!leaks(readable, v), `raw ${p.where} ${v} reached the model`);
    }
  }
  assert(checked > 500, `only ${checked} values checked`);
  // The tool results were sent (tokenized), not dropped.
  const results = JSON.stringify(fake.messageRequests[1].json);
  assert((results.match(TOKEN_RE) ?? []).length > 300, "the values were replaced by tokens");
  assert(results.includes("<![CDATA[") && results.includes("INSERT INTO msg_log"), "the carriers were sent");
});

Deno.test("/load in the REPL: a fenced block and a carrier in the loaded file reach the model tokenized", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi();
  const [note] = notesCorpus(1, 1414);
  const [carrier] = carrierCorpus(1, 1415).filter((c) => c.carrier === "tcl list");
  await Deno.writeTextFile(
    `${tmp.path}/ticket.md`,
    `# ticket\n\`\`\`\n${note.text}\n\`\`\`\n${carrier.text}\n`,
  );
  fake.replies.push({ text: "Read it." });
  const r = await runAssist([], {
    env: replEnv(tmp.path, fake),
    cwd: tmp.path,
    stdin: "/load ticket.md\nwhat does the ticket say?\n",
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(fake.messageRequests.length, 1);
  const sent = fake.messageRequests[0].body;
  assert(sent.includes("assist-attached-file"), "the loaded file was not sent in the tagged fence");
  for (const p of [...note.phi, ...carrier.phi]) {
    for (const v of valueParts(p.value)) assert(!leaks(sent, v), `raw ${p.where} ${v} reached the model`);
  }
});
