/**
 * Quoted HL7 comes back byte-identical (issue #24 item 1): a model answer that quotes tokenized
 * segments is detokenized to the message the tokens came from, whatever the stream's chunking.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mulberry32 } from "../support/prng.ts";
import { testEngine } from "./_support.ts";

const SEGMENTS = [
  "PID|1||00815566^^^HOSP^MR~555-44-3333^^^SSA^SS||QUILLFEATHER^MARGARET^J^^MRS||19610304|F|||455 OAK AVE^^DENVER^CO^80202||(309)555-0187",
  "NK1|1|QUILLFEATHER^HAROLD^T|SPO|455 OAK AVE^^DENVER^CO^80202|(309)555-0188",
  "PV1|1|I|4W^401^A|||||1234567^HOUSE^GREGORY^^^DR|7654321^WILSON^JAMES^^^DR||MED|||||||5566778^CUDDY^LISA",
  "GT1|1||QUILLFEATHER^MARGARET^J||455 OAK AVE^^DENVER^CO^80202|(309)555-0187",
  "IN1|1|BCBS01|60054|BLUE CROSS||||||||||||QUILLFEATHER^MARGARET^J|SEL|19610304",
  "OBX|1|TX|NOTE^Note||Seen by O\\T\\BRIEN^PATRICK today; called Margaret Quillfeather back||||||F|||||9988776^CHASE^ROBERT",
  "OBX|2|XPN|NAME^Contact||DOE^JANE~ROE^RICHARD||||||F",
  "NTE|1||Spoke with Margaret Quillfeather and Dr. Gregory House",
];
const MESSAGE = "MSH|^~\\&|ADT|HOSP|RAD|HOSP|20261123083000||ADT^A08|MSG00001|P|2.5.1\r" +
  SEGMENTS.join("\r") + "\r";

/** Answers a model writes around quoted segments (prose, code fences, one per line or CR-joined). */
function answers(tokenized: string[]): string[] {
  return [
    `The corrected PID:\n${tokenized[0]}\nResend it.`,
    `Here is the visit:\n\`\`\`\n${tokenized[2]}\n\`\`\`\nand the next of kin ${tokenized[1]}`,
    tokenized.join("\n"),
    tokenized.join("\r"),
    `Both ${tokenized[3]} and ${tokenized[4]} carry the guarantor.`,
    `"${tokenized[5]}" is the note; ${tokenized[6]} lists contacts; ${tokenized[7]}.`,
  ];
}

Deno.test("stream detokenizer: quoted segments come back byte-identical at every split point", async () => {
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(MESSAGE, "read_file");
  const tokenizedSegs = out.text.split("\r").slice(1, 1 + SEGMENTS.length);
  assertEquals(h.engine.detokenize(out.text).text, MESSAGE);
  const originals = answers(SEGMENTS);
  answers(tokenizedSegs).forEach((answer, k) => {
    const whole = h.engine.detokenize(answer).text;
    assertEquals(whole, originals[k], `one piece, answer ${k}`);
    for (let cut = 0; cut <= answer.length; cut++) {
      const s = h.engine.createStreamDetokenizer();
      const shown = s.push(answer.slice(0, cut)) + s.push(answer.slice(cut)) + s.flush();
      if (shown !== whole) assertEquals(shown, whole, `answer ${k} split at ${cut}`);
    }
  });
});

Deno.test("stream detokenizer fuzz: random chunkings give the one-piece text", async () => {
  await using h = await testEngine();
  const out = await h.engine.sanitizeToolResult(MESSAGE, "read_file");
  const segs = out.text.split("\r").slice(1, 1 + SEGMENTS.length);
  const rand = mulberry32(7331);
  const bits = [
    ...segs,
    "[[NAME_1]]",
    "[[NAME_2]]^",
    "|[[NAME_3]]|",
    "\n",
    "\r",
    " and ",
    "PID|",
    "[[",
    "]]",
    "@@x@@",
  ];
  for (let i = 0; i < 300; i++) {
    let text = "";
    const n = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < n; k++) text += bits[Math.floor(rand() * bits.length)];
    const whole = h.engine.detokenize(text).text;
    const s = h.engine.createStreamDetokenizer();
    let shown = "";
    for (let at = 0; at < text.length;) {
      const len = 1 + Math.floor(rand() * 12);
      shown += s.push(text.slice(at, at + len));
      at += len;
    }
    shown += s.flush();
    if (shown !== whole) assertEquals(shown, whole, `case ${i}: ${JSON.stringify(text)}`);
  }
});

Deno.test("stream detokenizer: a segment id right after a letter is no segment start, in pieces too", async () => {
  await using h = await testEngine();
  await h.engine.tokenizeUserInput("@@SMITH^JOHN@@ and @@John Smith@@");
  for (const text of ["abcPID|^[[NAME_1]]^[[NAME_1]]", "D|xNM1*&[[NAME_1]]|x", "xyzPV1|[[NAME_1]]|"]) {
    const whole = h.engine.detokenize(text).text;
    for (let cut = 0; cut <= text.length; cut++) {
      const s = h.engine.createStreamDetokenizer();
      const shown = s.push(text.slice(0, cut)) + s.push(text.slice(cut)) + s.flush();
      if (shown !== whole) assertEquals(shown, whole, `${text} split at ${cut}`);
    }
  }
});
