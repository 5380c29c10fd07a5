/**
 * Issue #24 item 1 in a real terminal: an answer streamed in 3-character deltas quotes the tokenized
 * PID and PV1 of a file the model read; the screen shows each segment exactly as the file has it.
 */
import { ok as assert } from "node:assert/strict";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { startRepl } from "./_support.ts";

const PID = "PID|1||00815566^^^HOSP^MR||QUILLFEATHER^MARGARET^J||19610304|F|||455 OAK AVE^^DENVER^CO^80202";
const PV1 = "PV1|1|I|4W^401^A|||||1234567^HOUSE^GREGORY^^^DR|7654321^WILSON^JAMES^^^DR||MED";
const MSG = ["MSH|^~\\&|ADT|HOSP|RAD|HOSP|20261123083000||ADT^A08|MSG1|P|2.5.1", PID, PV1, ""].join("\r");

Deno.test("quoted segments in the REPL: byte-identical on the screen with 3-character stream chunks", async () => {
  await using fake = new FakeModelApi({ chunk: 3 });
  await using rig = await startRepl({ fake, tmux: { width: 200 } });
  await Deno.writeTextFile(`${rig.cwd}/a.hl7`, MSG);
  fake.replies.push({
    text: "Reading.",
    toolCalls: [{ name: "read_file", input: { path: `${rig.cwd}/a.hl7` } }],
  });
  fake.replies.push((req) => {
    const text = JSON.stringify(req.messages);
    const seg = (id: string) => {
      const m = new RegExp(`${id}\\|[^\\\\"]*`).exec(text);
      return m ? m[0] : "";
    };
    return { text: `Corrected PID:\n${seg("PID")}\nand the visit:\n${seg("PV1")}\nEnd of answer.` };
  });
  await rig.term.waitForPrompt();
  await rig.term.type("quote the PID and PV1 of a.hl7");
  await rig.term.keys("Enter");
  const screen = await rig.term.waitFor(/^End of answer\.$/m, "the answer", 30_000);
  const lines = screen.split("\n");
  assert(lines.includes(PID), `PID not byte-identical:\n${screen}`);
  assert(lines.includes(PV1), `PV1 not byte-identical:\n${screen}`);
  assert(!rig.sent().includes("QUILLFEATHER") && !rig.sent().includes("GREGORY"), "a name reached the model");
});
