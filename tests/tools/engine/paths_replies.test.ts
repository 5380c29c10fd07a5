/** nc_paths says where the replies of a thread that sends to another travel (its REPLYXLATE). */
import { doesNotMatch, match } from "node:assert/strict";
import { ncPathsTool } from "../../../tools/engine/nc_paths_tool.ts";
import { processRecord, protocolRecord, type ThreadSpec, writeSite } from "../../support/nc_writer.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor } from "../support.ts";

function site(root: string, name: string, threads: ThreadSpec[]): Promise<void> {
  return writeSite(root, name, [processRecord("p"), ...threads.map(protocolRecord)]);
}

Deno.test("nc_paths: a sender's replies from the thread it reaches, and where its REPLYXLATE sends them", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/hci`;
  await site(root, "hub", [
    {
      name: "adt_in",
      process: "p",
      type: "tcpip",
      isServer: true,
      port: 5001,
      routes: [{ trxid: "ADT_A01", details: [{ type: "raw", dest: ["lab_out"] }] }],
    },
    {
      name: "lab_out",
      process: "p",
      type: "tcpip",
      host: "localhost",
      port: 6001,
      replyRoutes: [{ trxid: "ACK", details: [{ type: "raw", dest: ["ack_audit"] }] }],
    },
    { name: "ack_audit", process: "p", type: "file", outfile: "acks.log" },
  ]);
  await site(root, "lab", [{
    name: "lab_in",
    process: "p",
    type: "tcpip",
    isServer: true,
    port: 6001,
    routes: [{ trxid: "ADT_A01", details: [{ type: "raw", dest: ["lab_sys"] }] }],
  }, { name: "lab_sys", process: "p", type: "file", outfile: "sys.txt" }]);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const r = await call(ncPathsTool, { hciroot: root, site: "hub", thread: "adt_in" }, ctx);
  match(r.text, /adt_in -> lab_out => lab\/lab_in -> lab\/lab_sys/);
  match(
    r.text,
    /\[nc_paths: replies of hub\/lab_out \(from lab\/lab_in\) are routed by its REPLYXLATE: ACK raw -> ack_audit\]/,
  );
  // nc_docs: the thread the replies are routed to is fed by the sender's REPLYXLATE.
  const { ncDocsTool } = await import("../../../tools/engine/nc_docs_tool.ts");
  const docs = await call(ncDocsTool, { hciroot: root, site: "hub", thread: "ack_audit" }, ctx);
  match(docs.text, /Fed by: +lab_out \(its replies\)/);
  // From the receiving side on, no sender hop: nothing said.
  doesNotMatch(
    (await call(ncPathsTool, { hciroot: root, site: "lab", thread: "lab_in" }, ctx)).text,
    /replies of/,
  );
});
