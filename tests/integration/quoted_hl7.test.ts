/**
 * Issue #24 items 1 and 6 end to end (`-p` against the fake Messages API, small stream chunks): the
 * model quotes tokenized segments back and the operator gets the message byte for byte; it diffs two
 * A08s and sees how the tokenized values differ, without any value.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { runAssist, tempDir } from "../support/run_assist.ts";

const KEY = "sk-ant-test-key";
const PID_A =
  "PID|1||00815566^^^HOSP^MR||QUILLFEATHER^MARGARET^J||19610304|F|||455 OAK AVE^^DENVER^CO^80202||(309)555-0187";
const PV1_A = "PV1|1|I|4W^401^A|||||1234567^HOUSE^GREGORY^^^DR|7654321^WILSON^JAMES^^^DR||MED";
const NK1_A = "NK1|1|QUILLFEATHER^HAROLD^T|SPO|455 OAK AVE^^DENVER^CO^80202|(309)555-0188";
const A = ["MSH|^~\\&|ADT|HOSP|RAD|HOSP|20261123083000||ADT^A08|MSG1|P|2.5.1", PID_A, NK1_A, PV1_A, ""].join(
  "\r",
);
const B = A.replace("00815566^", "815566^").replace("(309)555-0187", "3095550187").replace("MSG1", "MSG2");

/** The first tool_result text of a request whose tool_use was `name`. */
function resultOf(req: Record<string, unknown>, name: string): string {
  const messages = req.messages as Array<{ role: string; content: unknown }>;
  const ids = new Map<string, string>();
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      if (b.type === "tool_use") ids.set(b.id as string, b.name as string);
      if (b.type === "tool_result" && ids.get(b.tool_use_id as string) === name) {
        return typeof b.content === "string"
          ? b.content
          : (b.content as Array<{ text: string }>).map((c) => c.text).join("");
      }
    }
  }
  return "";
}

Deno.test("quoted HL7 and a diff through -p: segments back byte for byte, differences told", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi({ chunk: 3 });
  await Deno.writeTextFile(`${tmp.path}/a.hl7`, A);
  await Deno.writeTextFile(`${tmp.path}/b.hl7`, B);
  fake.replies.push({
    text: "Reading both.",
    toolCalls: [
      { name: "read_file", input: { path: `${tmp.path}/a.hl7` } },
      { name: "hl7_diff", input: { left: `${tmp.path}/a.hl7`, right: `${tmp.path}/b.hl7` } },
    ],
  });
  let diffSeen = "";
  fake.replies.push((req) => {
    const file = resultOf(req, "read_file");
    diffSeen = resultOf(req, "hl7_diff");
    const seg = (id: string) =>
      file.split(/\r|\n/).map((l) => l.replace(/^\s*\d+[:\t|]\s?/, "")).find((l) => l.startsWith(`${id}|`)) ??
        "";
    return {
      text: `The corrected PID:\n${seg("PID")}\nnext of kin: ${seg("NK1")}\n\`\`\`\n${
        seg("PV1")
      }\n\`\`\`\nDiff:\n${diffSeen}`,
    };
  });
  const r = await runAssist(["-p", "Compare a.hl7 and b.hl7 and quote the PID"], {
    env: { HOME: tmp.path, ASSIST_API_KEY: KEY, ASSIST_MODEL_API_URL: fake.url },
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  const sent = fake.messageRequests.map((q) => q.body).join("\n");
  for (
    const raw of ["QUILLFEATHER", "00815566", "815566^", "3095550187", "(309)555-0187", "GREGORY", "OAK AVE"]
  ) {
    assert(!sent.includes(raw), `raw value reached the model: ${raw}`);
  }
  // The model is told how the tokenized values differ.
  assert(/leading zeros differ: 8 digits vs 6/.test(diffSeen), diffSeen);
  assert(/other punctuation or spacing/.test(diffSeen), diffSeen);
  // The operator gets each quoted segment exactly as in the message.
  const lines = r.stdout.split("\n");
  for (const seg of [PID_A, PV1_A]) {
    assert(lines.includes(seg), `not byte-identical: ${seg}\n---\n${r.stdout}`);
  }
  assert(r.stdout.includes(`next of kin: ${NK1_A}`), r.stdout);
  assert(
    r.stdout.includes("00815566 -> 815566  (same number, leading zeros differ: 8 digits vs 6)"),
    r.stdout,
  );
});
