/**
 * nc_msgs answers questions (tools made for the model, item 5): a count, counts per value, the
 * named fields one row per segment occurrence, value lists, replies joined to their originals, and
 * SmatHistory copies counted once. Archives are real SQLite files in the engine's smat_msgs shape.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { ncMsgsTool } from "../../../tools/engine/nc_msgs_tool.ts";
import { tempDir } from "../../support/run_assist.ts";
import { type SmatMsg, writeSmatDb } from "../../support/smat_writer.ts";
import { call, contextFor, errorOf } from "../support.ts";

const T0 = Date.UTC(2026, 10, 23, 14, 0, 0);
const MIN = 60_000;

function oru(n: number, flags: string[]): string {
  const obx = flags.map((f, i) =>
    `OBX|${i + 1}|NM|${2345 + i}-7^Test${i}^LN||${90 + i * 10}|mg/dL|70-99|${f}|||F`
  );
  return [`MSH|^~\\&|LAB|H|EHR|H|20261123140000||ORU^R01|CTL${n}|P|2.5`, `PID|1||${7000 + n}^^^H^MR`, ...obx]
    .join("\r") + "\r";
}

function ack(n: number, code: string, text = ""): string {
  return `MSH|^~\\&|EHR|H|LAB|H|20261123140001||ACK^R01|ACK${n}|P|2.5\rMSA|${code}|CTL${n}|${text}\r`;
}

async function root(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const tmp = await tempDir();
  const site = `${tmp.path}/hci/lab`;
  const proc = `${site}/exec/processes/lab_proc`;
  await Deno.mkdir(`${proc}/SmatHistory`, { recursive: true });
  await Deno.writeTextFile(`${tmp.path}/hci/server.ini`, "");
  await Deno.writeTextFile(
    `${site}/NetConfig`,
    "process lab_proc {\n    { AUTOSTART 1 }\n}\n" +
      "protocol lab_out {\n    { PROCESSNAME lab_proc }\n" +
      "    { PROTOCOL { { TYPE tcpip } { HOST ehr } { PORT 7020 } { ISSERVER 0 } } }\n" +
      "    { SAVEMSGS { { INSAVE 0 } { OUTSAVE 1 } { OUTFILE lab_out } } }\n}\n",
  );
  const msgs: SmatMsg[] = [];
  const flags = [["N", "H"], ["N", "N"], ["HH", "L"], ["N", "N", "LL"], ["N"], ["H"]];
  flags.forEach((f, i) => {
    msgs.push({
      mid: 100 + i,
      time: T0 + i * 10 * MIN,
      source: "lab_in",
      dest: "lab_out",
      content: oru(i, f),
    });
    // Replies: AA for most, AE for 2, none for 5.
    if (i !== 5) {
      msgs.push({
        mid: 200 + i,
        time: T0 + i * 10 * MIN + 1500,
        source: "lab_out",
        dest: "lab_out",
        type: "REPLY",
        content: ack(i, i === 2 ? "AE" : "AA", i === 2 ? "PID-3 unknown" : ""),
      });
    }
  });
  writeSmatDb(`${proc}/lab_out.smatdb`, msgs);
  // A cycled copy holding the two oldest messages again.
  writeSmatDb(`${proc}/SmatHistory/lab_out.20261123.smatdb`, msgs.slice(0, 2));
  return tmp;
}

Deno.test("nc_msgs: count, group_by and value lists answer without rows", async () => {
  await using tmp = await root();
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const base = { hciroot: `${tmp.path}/hci`, site: "lab", thread: "lab_out", tz: "UTC" };
  const count = await call(ncMsgsTool, { ...base, count: true, hl7: ["MSH.9.1=ORU"] }, ctx);
  assertEquals(
    count.text.split("\n")[0].startsWith("[nc_msgs: count 6 messages from thread lab_out"),
    true,
    count.text,
  );
  // Any occurrence of a repeating segment; a value list is any of its values.
  const abnormal = await call(ncMsgsTool, { ...base, count: true, hl7: ["OBX.8=H|HH|L|LL"] }, ctx);
  match(abnormal.text, /count 4 messages/);
  const none = await call(
    ncMsgsTool,
    { ...base, count: true, hl7: ["MSH.9.1=ORU", "OBX.8!=H|HH|L|LL"] },
    ctx,
  );
  match(none.text, /count 2 messages/);
  const byFlag = await call(ncMsgsTool, { ...base, group_by: "OBX.8", hl7: ["MSH.9.1=ORU"] }, ctx);
  assertEquals(byFlag.text.split("\n").slice(0, 6).map((l) => l.replace(/\s+/g, " ").trim()), [
    "OBX.8 COUNT FIRST LAST",
    "N 4 2026-11-23T14:00:00Z 2026-11-23T14:40:00Z",
    "H 2 2026-11-23T14:00:00Z 2026-11-23T14:50:00Z",
    "HH 1 2026-11-23T14:20:00Z 2026-11-23T14:20:00Z",
    "L 1 2026-11-23T14:20:00Z 2026-11-23T14:20:00Z",
    "LL 1 2026-11-23T14:30:00Z 2026-11-23T14:30:00Z",
  ]);
  const byHour = await call(ncMsgsTool, { ...base, group_by: "hour", hl7: ["MSH.9.1=ORU"] }, ctx);
  match(byHour.text, /2026-11-23T14:00\s+6/);
  // Hours are in time order, and the footer names the busiest (here, in a zone half an hour off,
  // 3 and 3: a tie, both named).
  const halfOff = await call(
    ncMsgsTool,
    { ...base, group_by: "hour", tz: "+00:30", hl7: ["MSH.9.1=ORU"] },
    ctx,
  );
  match(halfOff.text, /busiest hour 2026-11-23T14:00, 2026-11-23T15:00 \(3 messages each\)/);
  const byDay = await call(ncMsgsTool, { ...base, group_by: "day" }, ctx);
  assert(!/busiest/.test(byDay.text), byDay.text);
  // Nine and a half hours east, the hour of traffic spans two days: 3 and 3, both named.
  const twoDays = await call(
    ncMsgsTool,
    { ...base, group_by: "day", tz: "+09:30", hl7: ["MSH.9.1=ORU"] },
    ctx,
  );
  match(twoDays.text, /busiest day 2026-11-23, 2026-11-24 \(3 messages each\)/);
  assertEquals(
    errorOf(await call(ncMsgsTool, { ...base, group_by: "OBX..8" }, ctx)).message.startsWith(
      "group_by OBX..8: expected",
    ),
    true,
  );
});

Deno.test("nc_msgs: fields give one row per OBX; replies join to their originals", async () => {
  await using tmp = await root();
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const base = { hciroot: `${tmp.path}/hci`, site: "lab", thread: "lab_out", tz: "UTC" };
  const f = await call(ncMsgsTool, {
    ...base,
    hl7: ["OBX.8=HH|LL"],
    fields: ["MSH.10", "OBX.3.2", "OBX.8"],
  }, ctx);
  const rows = f.text.split("\n").filter((l) => l.includes("\t")).map((l) => l.split("\t").slice(2));
  // Only the OBX segments the condition matched: the flagged results, not every OBX of the message.
  assertEquals(rows, [
    ["MSH.10", "OBX.3.2", "OBX.8"],
    ["CTL3", "Test2", "LL"],
    ["CTL2", "Test0", "HH"],
  ]);
  match(
    f.text,
    /rows are the OBX occurrences the --hl7 conditions matched; 3 other occurrences of the same messages left out/,
  );
  const tableOf = (text: string) =>
    text.split("\n").filter((l) => l.includes("\t")).slice(1).map((l) => l.split("\t").slice(2).join(" "));
  // Two conditions on OBX hold in one occurrence together; `~` counts as a match per occurrence.
  const both = await call(ncMsgsTool, {
    ...base,
    hl7: ["OBX.8=H|HH|L|LL", "OBX.3.2~Test1"],
    fields: ["MSH.10", "OBX.3.2", "OBX.8"],
  }, ctx);
  assertEquals(tableOf(both.text), ["CTL2 Test1 L", "CTL0 Test1 H"]);
  // CTL3 matched the message-level conditions in different OBX (Test1 is N, LL is Test2): no row.
  match(both.text, /1 message matched only with the conditions in different occurrences \(no row\)/);
  // `!=`, a condition on another segment, or one naming an occurrence ([2]) keep every row.
  const every = await call(ncMsgsTool, { ...base, hl7: ["MSH.10=CTL2"], fields: ["OBX.3.2", "OBX.8"] }, ctx);
  assertEquals(tableOf(every.text), ["Test0 HH", "Test1 L"]);
  const nth = await call(ncMsgsTool, { ...base, hl7: ["OBX[2].8=L"], fields: ["OBX.3.2", "OBX.8"] }, ctx);
  assertEquals(tableOf(nth.text), ["Test0 HH", "Test1 L"]);
  const not = await call(
    ncMsgsTool,
    { ...base, hl7: ["OBX.8!=N", "MSH.10=CTL2|CTL1"], fields: ["OBX.8"] },
    ctx,
  );
  assertEquals(tableOf(not.text), ["HH", "L"]);
  const j = await call(ncMsgsTool, { ...base, join_replies: true, hl7: ["MSH.9.1=ORU"] }, ctx);
  const lines = j.text.split("\n").map((l) => l.replace(/\s{2,}/g, " | ").trim());
  assert(
    lines.some((l) =>
      l.startsWith("2026-11-23T14:20:00Z | ORU^R01 | CTL2 | 2026-11-23T14:20:01Z | AE | PID-3 unknown | 1.5")
    ),
    j.text,
  );
  assert(lines.some((l) => l.startsWith("2026-11-23T14:50:00Z | ORU^R01 | CTL5 | - | no reply")), j.text);
  match(j.text, /6 messages joined to their replies \(AA 4, AE 1, no reply 1\)/);
});

Deno.test("nc_msgs: a window with a start reads SmatHistory and counts each message once", async () => {
  await using tmp = await root();
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const base = { hciroot: `${tmp.path}/hci`, site: "lab", thread: "lab_out", tz: "UTC" };
  const r = await call(ncMsgsTool, { ...base, since: "2026-11-23", count: true, hl7: ["MSH.9.1=ORU"] }, ctx);
  match(r.text, /count 6 messages/);
  match(r.text, /1 SmatHistory copy read too/);
  match(r.text, /1 copy of messages found in more than one archive counted once/);
  // Without a start, the copy is not read, and a note says it is there.
  const plain = await call(ncMsgsTool, { ...base, count: true, hl7: ["MSH.9.1=ORU"] }, ctx);
  match(
    plain.text,
    /\[note: 1 SmatHistory copy not read \(older, cycled messages\): history, or a since, reads them\]/,
  );
  const withIt = await call(ncMsgsTool, { ...base, count: true, history: true, hl7: ["MSH.9.1=ORU"] }, ctx);
  assert(!withIt.text.includes("not read"), withIt.text);
});

Deno.test("nc_msgs join_replies: slower_than, the slowest in the footer, replies kept to their thread", async () => {
  await using tmp = await tempDir();
  const site = `${tmp.path}/hci/lab`;
  const proc = `${site}/exec/processes/lab_proc`;
  await Deno.mkdir(proc, { recursive: true });
  await Deno.writeTextFile(`${tmp.path}/hci/server.ini`, "");
  await Deno.writeTextFile(
    `${site}/NetConfig`,
    "process lab_proc {\n    { AUTOSTART 1 }\n}\n" +
      "protocol lab_in {\n    { PROCESSNAME lab_proc }\n" +
      "    { PROTOCOL { { TYPE tcpip } { PORT 7010 } { ISSERVER 1 } } }\n" +
      "    { SAVEMSGS { { INSAVE 1 } { INFILE lab_in } { OUTSAVE 0 } } }\n}\n" +
      "protocol lab_out {\n    { PROCESSNAME lab_proc }\n" +
      "    { PROTOCOL { { TYPE tcpip } { HOST ehr } { PORT 7020 } { ISSERVER 0 } } }\n" +
      "    { SAVEMSGS { { INSAVE 1 } { INFILE lab_out_ack } { OUTSAVE 1 } { OUTFILE lab_out } } }\n}\n",
  );
  // Six messages in on lab_in and out on lab_out; lab answers after 1, 2, 5, 9, 4 s and never.
  const waits = [1, 2, 5, 9, 4, undefined];
  const inbound: SmatMsg[] = [], outbound: SmatMsg[] = [], acks: SmatMsg[] = [];
  waits.forEach((w, i) => {
    const t = T0 + i * MIN;
    inbound.push({
      mid: 10 + i,
      time: t,
      source: "lab_in",
      dest: "",
      context: "inbound",
      content: oru(i, ["N"]),
    });
    outbound.push({
      mid: 20 + i,
      time: t,
      source: "lab_in",
      dest: "lab_out",
      context: "outbound",
      content: oru(i, ["N"]),
    });
    if (w !== undefined) {
      acks.push({
        mid: 30 + i,
        time: t + w * 1000,
        source: "lab_out",
        type: "REPLY",
        context: "inbound",
        content: ack(i, i === 3 ? "AE" : "AA"),
      });
    }
  });
  writeSmatDb(`${proc}/lab_in.smatdb`, inbound);
  writeSmatDb(`${proc}/lab_out.smatdb`, outbound);
  writeSmatDb(`${proc}/lab_out_ack.smatdb`, acks);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const base = { hciroot: `${tmp.path}/hci`, site: "lab", tz: "UTC", join_replies: true };
  // Over 3 s or never: CTL2 (5 s), CTL3 (9 s), CTL4 (4 s), CTL5 (none); the count alone, no rows.
  const slow = await call(ncMsgsTool, { ...base, thread: "lab_out", slower_than: 3, count: true }, ctx);
  assert(!slow.text.includes("\t") && !/CONTROL/.test(slow.text), slow.text);
  match(
    slow.text,
    /4 messages joined to their replies whose reply took over 3 s or never came, of 6 \(AA 2, AE 1, no reply 1\); slowest reply CTL3 after 9\.0 s \(AE\)/,
  );
  // reply_codes: only the rejected (AE) and the unanswered, in one call.
  const rejected = await call(ncMsgsTool, { ...base, thread: "lab_out", reply_codes: "AE|none" }, ctx);
  const codeRows = rejected.text.split("\n").filter((l) => /^2026/.test(l)).map((l) => l.split(/\s{2,}/));
  assertEquals(codeRows.map((l) => [l[2], l[4]]), [["CTL5", "no reply"], ["CTL3", "AE"]]);
  match(
    rejected.text,
    /2 messages joined to their replies whose reply is AE or none, of 6 \(AE 1, no reply 1\)/,
  );
  const both = await call(ncMsgsTool, {
    ...base,
    thread: "lab_out",
    reply_codes: "aa",
    slower_than: 3,
    count: true,
  }, ctx);
  match(
    both.text,
    /2 messages joined to their replies whose reply is AA and whose reply took over 3 s or never came, of 6/,
  );
  const rows = await call(ncMsgsTool, { ...base, thread: "lab_out", slower_than: 5 }, ctx);
  const lines = rows.text.split("\n").filter((l) => /^2026/.test(l)).map((l) => l.split(/\s{2,}/));
  assertEquals(lines.map((l) => [l[2], l[l.length - 1]]), [["CTL5", "-"], ["CTL3", "9.0"]]);
  // The whole site: the inbound copies on lab_in are not answered by lab's ACKs of the outbound
  // ones; no reply read could answer them, so they are left out of the join, and said.
  const site2 = await call(ncMsgsTool, { ...base, hl7: ["MSH.10=CTL0"] }, ctx);
  const rows2 = site2.text.split("\n").filter((l) => /^2026/.test(l)).map((l) => l.split(/\s{2,}/));
  assertEquals(rows2.map((l) => [l[2], l[4]]), [["CTL0", "AA"]]);
  match(
    site2.text,
    /\[note: left out of the join: 1 message of lab_in \(CTL0 ORU\^R01\), whose replies no archive read holds/,
  );
  // Over the whole site, slower_than counts what it counts over lab_out: 4, not the inbound copies.
  const siteSlow = await call(ncMsgsTool, { ...base, slower_than: 3, count: true }, ctx);
  match(siteSlow.text, /4 messages joined to their replies whose reply took over 3 s or never came, of 6 /);
  match(siteSlow.text, /left out of the join: 6 messages of lab_in/);
});
