/**
 * Character sets and batch envelopes through the tools: every surface that turns a file's bytes
 * into text (the HL7 tools, read_file, phi_sanitize, SMAT content, the PHI base64 pass) reads a
 * Latin-1 or Windows-1252 message right, says when it fell back, and writes back in the input's
 * own set, byte for byte.
 */
import { deepStrictEqual as eq, match, ok } from "node:assert/strict";
import { hl7DiffTool } from "../../../tools/hl7/hl7_diff_tool.ts";
import { hl7FieldTool } from "../../../tools/hl7/hl7_field_tool.ts";
import { hl7ShowTool } from "../../../tools/hl7/hl7_show_tool.ts";
import { readFileTool } from "../../../tools/files/read_file_tool.ts";
import { ncMsgsTool } from "../../../tools/engine/nc_msgs_tool.ts";
import { withNotes } from "../../../tools/types.ts";
import { LookupTable } from "../../../phi/lookup.ts";
import { detokenizeText } from "../../../phi/detokenize.ts";
import { runAssist, tempDir } from "../../support/run_assist.ts";
import { writeSmatDb } from "../../support/smat_writer.ts";
import { testEngine } from "../../phi/_support.ts";
import { call, contextFor, errorOf } from "../support.ts";

const enc = (s: string) => new TextEncoder().encode(s);
function bytes(...parts: (string | readonly number[])[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) out.push(...(typeof p === "string" ? enc(p) : p));
  return new Uint8Array(out);
}
const MSH_LATIN1 = "MSH|^~\\&|ZIS|HOSP|||20240101||ADT^A08|C1|P|2.4|||AL|NE|NLD|8859/1\r";
const MSH_UTF8 = "MSH|^~\\&|ZIS|HOSP|||20240101||ADT^A08|C1|P|2.4|||AL|NE|NLD|UNICODE UTF-8\r";
/** PID with a name and an MRN, in Latin-1 bytes (Ü = 0xDC, Ö = 0xD6). */
const PID_LATIN1 = ["PID|1||MRN4471^^^ZIS^MR||M", [0xdc], "LLER^J", [0xd6], "RG||19600101|M\r"] as const;
const LATIN1 = bytes(MSH_LATIN1, ...PID_LATIN1);
/** A Windows-1252 message with no MSH-18: an en dash (0x96) in MSH-4. */
const CP1252 = bytes("MSH|^~\\&|GHH LAB|ELAB", [0x96], "3|GHH OE|BLDG4|200202150930||ORU^R01|X|P|2.4\r");

async function workspace() {
  const tmp = await tempDir();
  const home = `${tmp.path}/.assist`;
  await Deno.mkdir(`${home}/log`, { recursive: true });
  await Deno.writeFile(`${tmp.path}/latin1.hl7`, LATIN1);
  await Deno.writeFile(`${tmp.path}/cp1252.hl7`, CP1252);
  await Deno.writeTextFile(
    `${tmp.path}/utf8.hl7`,
    `${MSH_UTF8}PID|1||MRN4471^^^ZIS^MR||MÜLLER^JÖRG||19600101|M\r`,
  );
  return { tmp, dir: tmp.path, ctx: contextFor(home, tmp.path) };
}

Deno.test("hl7_field and hl7_show: a Latin-1 message that declares 8859/1 reads right, no note", async () => {
  const { tmp, ctx } = await workspace();
  await using _ = tmp;
  const r = await call(hl7FieldTool, { file: "latin1.hl7", paths: ["PID.5.1", "PID.5.2", "MSH.18"] }, ctx);
  eq(r.text, "PID.5.1\tPID.5.2\tMSH.18\nMÜLLER\tJÖRG\t8859/1\n");
  eq(r.notes, undefined);
  const show = await call(hl7ShowTool, { file: "latin1.hl7" }, ctx);
  ok(show.text.includes("MÜLLER"));
  ok(!show.text.includes("\ufffd"));
});

Deno.test("hl7_field: undeclared Windows-1252 falls back with a note beside the TSV, never inside it", async () => {
  const { tmp, ctx } = await workspace();
  await using _ = tmp;
  const r = await call(hl7FieldTool, { file: "cp1252.hl7", paths: ["MSH.4"] }, ctx);
  eq(r.text, "MSH.4\nELAB\u20133\n");
  eq(r.notes, ["cp1252.hl7: not valid UTF-8 and MSH-18 names no character set; read as Windows-1252"]);
  // What the model gets: the note after the table.
  eq(
    withNotes(r),
    "MSH.4\nELAB\u20133\n[note: cp1252.hl7: not valid UTF-8 and MSH-18 names no character set; read as Windows-1252]",
  );
});

Deno.test("hl7_field by hand: the note goes to stderr, stdout stays clean TSV", async () => {
  const { tmp, dir } = await workspace();
  await using _ = tmp;
  const r = await runAssist(["tools", "hl7_field", "cp1252.hl7", "MSH.4", "--index"], {
    env: { HOME: dir, ASSIST_HOME: `${dir}/.assist` },
    cwd: dir,
  });
  eq(r.code, 0, r.stderr);
  eq(r.stdout, "#\tMSH.4\n1\tELAB\u20133\n");
  match(r.stderr, /hl7_field: note: cp1252\.hl7: not valid UTF-8 .*read as Windows-1252/);
  // Standard input goes through the same decoder, and its fallback is said too.
  const piped = await runAssist(["tools", "hl7_field", "-", "MSH.4"], {
    env: { HOME: dir, ASSIST_HOME: `${dir}/.assist` },
    cwd: dir,
    stdin: CP1252,
  });
  eq(piped.code, 0, piped.stderr);
  eq(piped.stdout, "MSH.4\nELAB\u20133\n");
  match(piped.stderr, /hl7_field: note: stdin: not valid UTF-8 .*read as Windows-1252/);
});

Deno.test("hl7_diff: a Latin-1 file and its UTF-8 copy differ only in MSH-18", async () => {
  const { tmp, ctx } = await workspace();
  await using _ = tmp;
  const r = await call(hl7DiffTool, { left: "latin1.hl7", right: "utf8.hl7" }, ctx);
  ok(r.text.includes("MSH.18  8859/1 -> UNICODE UTF-8"), r.text);
  ok(!r.text.includes("PID"), r.text);
});

Deno.test("batch envelopes: FHS/BHS/BTS/FTS fields per message; an envelope-only file is not 'no messages'", async () => {
  const { tmp, dir, ctx } = await workspace();
  await using _ = tmp;
  await Deno.writeTextFile(
    `${dir}/batch.hl7`,
    [
      "FHS|^~\\&|LAB|NORTH LAB|||20240303||lab.hl7||F77",
      "BHS|^~\\&|LAB|NORTH LAB|||20240303||||B001",
      "MSH|^~\\&|LAB|NORTH LAB|||20240303||ORU^R01|M1|P|2.5",
      "MSH|^~\\&|LAB|NORTH LAB|||20240303||ORU^R01|M2|P|2.5",
      "BTS|2",
      "FTS|1",
      "",
    ].join("\r"),
  );
  const r = await call(
    hl7FieldTool,
    { file: "batch.hl7", paths: ["MSH.10", "FHS.4", "FHS.11", "BHS.11", "BTS.1", "FTS.1"], index: true },
    ctx,
  );
  eq(
    r.text,
    "#\tMSH.10\tFHS.4\tFHS.11\tBHS.11\tBTS.1\tFTS.1\n1\tM1\tNORTH LAB\tF77\tB001\t2\t1\n2\tM2\tNORTH LAB\tF77\tB001\t2\t1\n",
  );
  await Deno.writeTextFile(`${dir}/empty_batch.hl7`, "BHS|^~\\&|||||20081231\rBTS|0");
  const only = await call(hl7FieldTool, { file: "empty_batch.hl7", paths: ["BHS.7", "BTS.1"] }, ctx);
  eq(only.text, "BHS.7\tBTS.1\n20081231\t0\n");
  const show = await call(hl7ShowTool, { file: "empty_batch.hl7" }, ctx);
  ok(!show.isError);
  match(show.text, /^BHS {2}Batch Header\n {2}BHS\.1 .*\|/);
  ok(show.text.endsWith("no messages inside the batch envelope"));
  await Deno.writeTextFile(`${dir}/none.hl7`, "hello\n");
  eq(errorOf(await call(hl7FieldTool, { file: "none.hl7", paths: ["BHS.7"] }, ctx)).error, "no_messages");
});

Deno.test("read_file: Latin-1 by MSH-18, Windows-1252 with a note; a byte-order mark is not shown", async () => {
  const { tmp, dir, ctx } = await workspace();
  await using _ = tmp;
  const r = await call(readFileTool, { path: "latin1.hl7" }, ctx);
  ok(r.text.includes("PID|1||MRN4471^^^ZIS^MR||MÜLLER^JÖRG"));
  eq(r.notes, undefined);
  const c = await call(readFileTool, { path: "cp1252.hl7" }, ctx);
  ok(c.text.startsWith("MSH|^~\\&|GHH LAB|ELAB\u20133|"));
  eq(c.notes?.length, 1);
  // A line range below the header: the MSH-18 above it still says how to read it.
  await Deno.writeFile(`${dir}/lines.hl7`, bytes(MSH_LATIN1.replace("\r", "\n"), ...PID_LATIN1));
  const below = await call(readFileTool, { path: "lines.hl7", start_line: 2 }, ctx);
  eq([below.text, below.notes], ["PID|1||MRN4471^^^ZIS^MR||MÜLLER^JÖRG||19600101|M\r", undefined]);
  await Deno.writeFile(`${dir}/bom.txt`, bytes([0xef, 0xbb, 0xbf], "Zoë\n"));
  eq((await call(readFileTool, { path: "bom.txt" }, ctx)).text, "Zoë\n");
});

Deno.test("phi_sanitize --output: the copy is written in Latin-1 like its input, exact bytes", async () => {
  const { tmp, dir } = await workspace();
  await using _ = tmp;
  const env = { HOME: dir, ASSIST_HOME: `${dir}/.assist`, ASSIST_PHI_PORT: "9" };
  const r = await runAssist(["tools", "phi_sanitize", "latin1.hl7", "--output", "deid.hl7"], {
    env,
    cwd: dir,
  });
  eq(r.code, 0, r.stderr);
  const out = await Deno.readFile(`${dir}/deid.hl7`);
  // Every byte a Latin-1 byte of the tokenized text: no UTF-8 sequences, no U+FFFD.
  const text = new TextDecoder("windows-1252").decode(out);
  ok(!text.includes("MÜLLER") && !text.includes("MRN4471"), text);
  const table = await LookupTable.open(`${dir}/.assist/sanitize/lookup.tsv`);
  const restored = detokenizeText(text, (t) => table.valueOf(t)).text;
  // Restored and written in Latin-1 again: the input's bytes exactly (the name reached the table whole).
  const back = new Uint8Array([...restored].map((ch) => ch.charCodeAt(0)));
  eq(back, LATIN1);
  // From standard input: the same bytes read the same way, the same copy.
  const piped = await runAssist(["tools", "phi_sanitize", "-", "--output", "deid2.hl7"], {
    env,
    cwd: dir,
    stdin: LATIN1,
  });
  eq(piped.code, 0, piped.stderr);
  eq(await Deno.readFile(`${dir}/deid2.hl7`), out);
});

Deno.test("nc_msgs: SMAT content in Latin-1 reads right; undeclared Windows-1252 gets a note", async () => {
  const { tmp, dir, ctx } = await workspace();
  await using _ = tmp;
  const T = Date.UTC(2024, 2, 3);
  writeSmatDb(`${dir}/adt.smatdb`, [
    { mid: 1, time: T, source: "in", content: LATIN1 },
    { mid: 2, time: T + 1000, source: "in", content: CP1252 },
  ]);
  const r = await call(ncMsgsTool, { file: "adt.smatdb", output: "raw" }, ctx);
  ok(!r.isError, r.text);
  ok(r.text.includes("MÜLLER^JÖRG"), r.text);
  ok(r.text.includes("ELAB\u20133"), r.text);
  ok(!r.text.includes("\ufffd"));
  ok(r.text.includes(`(inbound, ${LATIN1.length} bytes)`), "BYTES counts the saved bytes");
  match(
    r.text,
    /\[note: MID 0\.0\.2: not valid UTF-8 and MSH-18 names no character set; read as Windows-1252\]/,
  );
  // A search for a non-ASCII name finds the Latin-1 message (the filter runs on the saved bytes).
  const found = await call(ncMsgsTool, { file: "adt.smatdb", text: "MÜLLER" }, ctx);
  match(found.text, /\[nc_msgs: 1 message from .*matching text "MÜLLER"/);
});

Deno.test("PHI base64 pass: a Latin-1 message in base64 is tokenized and re-encoded in Latin-1", async () => {
  await using h = await testEngine("on");
  const run = LATIN1.toBase64();
  const out = await h.engine.sanitizeToolResult(`sample row\t${run}\n`, "bash_exec");
  const after = out.text.split("\t")[1].trim();
  ok(after !== run, "the run was rewritten");
  const decoded = Uint8Array.fromBase64(after);
  const text = new TextDecoder("windows-1252").decode(decoded);
  ok(text.startsWith(MSH_LATIN1), "MSH as it was, 8859/1 still true");
  ok(!text.includes("MÜLLER"), text);
  ok(!decoded.includes(0xc3), "no UTF-8 sequences written into a Latin-1 message");
  ok(
    out.tokenized.some((t) => t.value === "MÜLLER" || t.value.includes("MÜLLER")),
    "the name reached the table whole",
  );
});
