/**
 * Regression tests for PHI leaks found by an independent review: each rendering or layout through
 * its own fresh engine (so no value learned elsewhere hides a leak through tier 4).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";

async function sanitizeFresh(text: string, tool: string) {
  await using h = await testEngine("on");
  const out = await h.engine.sanitizeToolResult(text, tool);
  const back = h.engine.detokenize(out.text).text;
  const originals = h.engine.table.rows().map((r) => r.original);
  return { text: out.text, back, originals };
}

Deno.test("leaks: whole segments in hl7_diff output are sanitized", async () => {
  const text = "message 1 vs message 1\n  PID.8  F -> M\n" +
    "  + NK1  NK1|1|QUIMBY^OSWALDO^^^^^L|SPO^Spouse|12 ELM RD^^OGDEN^UT^84401|555-201-3344\n" +
    "  - ZPI  ZPI|1|SITE|X\n" +
    "summary: 1 pairs compared (paired by position), 1 with differences; 1 fields changed, 1 segment added";
  const out = await sanitizeFresh(text, "hl7_diff");
  for (const v of ["QUIMBY", "OSWALDO", "12 ELM RD", "OGDEN", "84401"]) assert(!leaks(out.text, v), v);
  assertEquals(out.back, text);
});

Deno.test("leaks: HL7 segments inside log lines are sanitized", async () => {
  const lines = [
    "2024-11-20 08:11:00 [adt_in] PID|1||88877766^^^GENHOSP^MR||FENWICK^ROSALIND^Q||19620412|F|||9 PINE ST^^OGDEN^UT^84401",
    "tps_debug: got NK1|1|GARRICK^OTTILIE|SPO",
    "hl7 => IN1|1|BC|123|ACME||||||||||||MARPLE^JANE|SEL|19500101",
  ];
  const values = [
    ["88877766", "FENWICK", "ROSALIND", "19620412", "9 PINE ST"],
    ["GARRICK", "OTTILIE"],
    ["MARPLE", "19500101"],
  ];
  for (const [i, line] of lines.entries()) {
    const out = await sanitizeFresh(line, "bash_exec");
    for (const v of values[i]) assert(!leaks(out.text, v), `${v} in ${out.text}`);
    assertEquals(out.back, line);
  }
});

Deno.test("leaks: HL7 in JSON strings (| and other delimiters) is sanitized and the JSON stays valid", async () => {
  const msgs = [
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||12345678^^^H^MR||DOE^JANE\r",
    "MSH#^~\\&#A#B#C#D#20240101##ADT^A01#1#P#2.5\rPID#1##87654321^^^H^MR##ROE^MARTHA\r",
  ];
  for (const m of msgs) {
    const text = JSON.stringify({ messages: [m] }, null, 2);
    const out = await sanitizeFresh(text, "nc_msgs");
    for (const v of ["12345678", "87654321", "DOE", "JANE", "ROE", "MARTHA"]) {
      assert(!leaks(out.text, v), `${v} in ${out.text}`);
    }
    JSON.parse(out.text); // still valid JSON
    assertEquals(out.back, text);
    for (const o of out.originals) assert(!/["\\]/.test(o ?? ""), `corrupted original ${o}`);
  }
});

const NOTE_MSG = "MSH|^~\\&|LAB|H|EHR|H|20240101120000||ORU^R01|9|P|2.5\r" +
  "PID|1||44455566^^^H^MR||ZELLWEGER^HORTENSE||19510203|F\r" +
  "OBR|1|||PANEL\r" +
  "OBX|1|TX|NOTE||Pt Hortense Zellweger seen by Dr Quimby||||||F\r" +
  "NTE|1||Called Hortense Zellweger at home\r";

Deno.test("leaks: hl7_show and hl7_field tokenize a name in free text the first time the message is seen", async () => {
  const { extractTable, parseMessages, renderDocument } = await import("../../hl7/mod.ts");
  const doc = parseMessages(NOTE_MSG);
  const renderings: Record<string, string> = {
    hl7_show: renderDocument(doc),
    hl7_field: extractTable(doc.messages, ["PID.5", "OBX.5", "NTE.3"], { index: true }),
  };
  for (const [tool, text] of Object.entries(renderings)) {
    const out = await sanitizeFresh(text, tool);
    for (const v of ["ZELLWEGER", "Hortense", "Zellweger"]) {
      assert(!leaks(out.text, v), `${tool}: ${v} in ${out.text}`);
    }
    // A known name written in another order comes back in its first-seen form.
    assert(!out.back.includes("[["), out.back);
  }
});

const SHORT_HL7 =
  "MSH|^~\\&|A|B|C|D|20240101||ADT^A08|7|P|2.5\rPID|1||31415926^^^H^MR||PEABODY^LUCINDA||19440101\r";

Deno.test("leaks: base64 after key=, short base64 messages (SMAT TSV) and 76-column base64 are decoded and sanitized", async () => {
  const b64 = (s: string) => new TextEncoder().encode(s).toBase64();
  const values = ["31415926", "PEABODY", "LUCINDA", "19440101"];
  const long = SHORT_HL7 + "NTE|1||" + "x".repeat(200) + "\r";
  const wrapped = b64(long).replace(/.{76}/g, "$&\n").replace(/\n$/, "");
  const cases: Record<string, string> = {
    "key=": `2024-01-01 inbound msg=${b64(long)} done`,
    "short TSV": `ts\tmsg\n20240101\t${b64(SHORT_HL7)}\n`,
    "wrapped": `payload:\n${wrapped}\nend`,
  };
  assert(b64(SHORT_HL7).length < 200);
  for (const [name, text] of Object.entries(cases)) {
    await using h = await testEngine("on");
    const out = await h.engine.sanitizeToolResult(text, "ssh_pull_smat");
    const runs = name === "wrapped"
      ? [out.text.slice(9, -4).replace(/\n/g, "")]
      : [...out.text.matchAll(/[A-Za-z0-9+\/]{32,}=*/g)].map((m) => m[0]);
    const decoded = runs.map((r) => {
      try {
        return new TextDecoder().decode(Uint8Array.fromBase64(r));
      } catch {
        return "";
      }
    }).join("\n");
    assert(decoded.includes("[["), `${name}: sanitized inside base64`);
    for (const v of values) assert(!decoded.includes(v), `${name}: ${v}`);
    assertEquals(h.engine.detokenize(out.text).text, text, `${name} round trip`);
  }
  // Short base64 that is not HL7 stays as it was.
  await using h = await testEngine("on");
  const plain = `token ${b64("just some ordinary text, nothing here")}`;
  assertEquals((await h.engine.sanitizeToolResult(plain, "bash_exec")).text, plain);
});

Deno.test("leaks: caret names in Z-segment fields are tokenized without the sidecar (raw, hl7_field, hl7_show)", async () => {
  const { extractTable, parseMessages, renderDocument } = await import("../../hl7/mod.ts");
  const raw = "MSH|^~\\&|A|B|C|D|20240101||ADT^A08|7|P|2.5\rPID|1||31415926^^^H^MR||PEABODY^LUCINDA\r" +
    "ZPI|1|BARNABY^ELSPETH|X\r";
  const doc = parseMessages(raw);
  const renderings: Record<string, string> = {
    read_file: raw,
    hl7_field: extractTable(doc.messages, ["PID.5", "ZPI.2"], { index: true }),
    hl7_show: renderDocument(doc),
  };
  for (const [tool, text] of Object.entries(renderings)) {
    const out = await sanitizeFresh(text, tool);
    for (const v of ["BARNABY", "ELSPETH"]) assert(!leaks(out.text, v), `${tool}: ${v} in ${out.text}`);
    assertEquals(out.back, text);
  }
});

Deno.test("leaks: tier 4 matches an initial with a period and does not split a caret-joined name", async () => {
  await using h = await testEngine("on");
  await h.engine.tokenizeUserInput("patient @@SAMPLE^LINDA^Q@@");
  const a = await h.engine.sanitizeToolResult("name: linda q sample SAMPLE^LINDA^Q", "bash_exec");
  assertEquals(a.text, "name: [[NAME_1]] [[NAME_1]]");
  const b = await h.engine.sanitizeToolResult("Mrs Linda Q. Sample was seen", "bash_exec");
  assertEquals(b.text, "Mrs [[NAME_1]] was seen");
  await h.engine.tokenizeUserInput("patient @@DOE^JANE@@");
  const c = await h.engine.sanitizeToolResult("pt DOE^JANE^^^^L here", "bash_exec");
  assert(!leaks(c.text, "DOE") && !leaks(c.text, "JANE"), c.text);
});
