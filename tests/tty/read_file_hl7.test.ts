/**
 * read_file on an HL7 file whose segments end in bare CRs: in a real terminal (tmux) each segment
 * is on a line of its own; piped, the bytes are exact; the model gets the exact text and a note on
 * the terminators.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { runAssist, tempDir } from "../support/run_assist.ts";
import { TmuxSession } from "../support/tmux.ts";
import { readFileTool } from "../../tools/files/read_file_tool.ts";
import { call, contextFor } from "../tools/support.ts";

const MSG = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|MSG1|P|2.5\rEVN|A01|20240101\rPID|1||123||SMITH^JO\r";

Deno.test("read_file: HL7 segments on separate lines on a terminal; exact bytes otherwise", async () => {
  await using tmp = await tempDir();
  const file = `${tmp.path}/adt.hl7`;
  await Deno.writeTextFile(file, MSG);
  await using term = await TmuxSession.start({
    args: ["tools", "read_file", file],
    env: { HOME: tmp.path },
  });
  assertEquals(await term.waitForExit(60_000), 0);
  const screen = await term.screen();
  match(
    screen,
    /^MSH\|\^~\\&\|A\|B\|C\|D\|20240101\|\|ADT\^A01\|MSG1\|P\|2\.5\nEVN\|A01\|20240101\nPID\|1\|\|123\|\|SMITH\^JO\n/m,
  );

  // Piped: the file's bytes, CRs and all, and nothing else.
  const piped = await runAssist(["tools", "read_file", file], { env: { HOME: tmp.path } });
  assertEquals(piped.stdout, MSG + "\n");

  // The model: the exact text, then a note that the terminators are CRs.
  const r = await call(readFileTool, { path: file }, contextFor(`${tmp.path}/.assist`, tmp.path));
  assert(r.text.startsWith(MSG), JSON.stringify(r.text));
  match(
    r.text,
    /\n\[read_file: HL7 segments here end in CR \(\\r\), not newlines; the text above is the file's exact bytes\]$/,
  );
});
