/** nc_show of one block (PROTOCOL, REPLYCONTROL, ...): the block's settings in words as well as its keys. */
import { deepStrictEqual as assertEquals, doesNotMatch, match } from "node:assert/strict";
import { ncShowTool } from "../../../tools/engine/nc_show_tool.ts";
import { kl, processRecord, protocolRecord, q, writeSite } from "../../support/nc_writer.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor } from "../support.ts";

Deno.test("nc_show PROTOCOL: a relative OBDIR resolved under the process folder; a scalar path stays bare", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await writeSite(root, "hub", [
    processRecord("ob_proc"),
    protocolRecord({
      name: "archive_out",
      process: "ob_proc",
      type: "fileset",
      obdir: "archive/adt",
      extra: { REPLYCONTROL: kl({ OBRESEND: "1", TIMEOUT: "45", WAIT: "1" }), ZZ: q("") },
    }),
  ]);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const at = (path: string) =>
    call(ncShowTool, { hciroot: root, site: "hub", thread: "archive_out", path }, ctx);
  const proto = await at("PROTOCOL");
  match(
    proto.text,
    new RegExp(
      `^operations:\\n  connection  fileset \\(local\\); writes ${root}/hub/exec/processes/ob_proc/archive/adt\\nconfiguration:\\n`,
      "m",
    ),
  );
  match(proto.text, /^OBDIR archive\/adt$/m);
  const reply = await at("REPLYCONTROL");
  match(reply.text, /^ {2}replies +reply timeout 45 s; waits for the reply: yes/m);
  doesNotMatch(reply.text, /connection/);
  // A block no operation is about, and a single value: as before.
  doesNotMatch((await at("DATAFORMAT")).text, /operations:/);
  assertEquals((await at("PROTOCOL.OBDIR")).text, "archive/adt");
});
