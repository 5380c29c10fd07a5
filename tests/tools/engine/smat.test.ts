import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  isPlainSqlite,
  parseCondition,
  parseIdx,
  parseTime,
  readSmatDb,
  readSmatFiles,
  SmatQueryError,
} from "../../../tools/engine/smat/mod.ts";
import { localEngineFs } from "../../../tools/engine/engine_fs.ts";
import { tempDir } from "../../support/run_assist.ts";
import { contextFor } from "../support.ts";
import { hl7, type SmatMsg, writeSmatDb, writeSmatFiles } from "../../support/smat_writer.ts";

const T = Date.UTC(2024, 10, 20, 8, 0, 0);
const msgs: SmatMsg[] = Array.from({ length: 10 }, (_, i) => ({
  mid: i + 1,
  time: T + i * 60_000,
  source: "in1",
  dest: i % 2 ? "out1" : "",
  context: i % 2 ? "outbound" : "inbound",
  content: hl7(i % 2 ? "ADT^A08" : "ADT^A01", i + 1, T + i * 60_000),
}));

Deno.test("parseTime, parseCondition", () => {
  // No zone: local time (core/time.ts).
  assertEquals(parseTime("2024-11-20"), new Date(2024, 10, 20).getTime());
  assertEquals(parseTime("2024-11-20", true), new Date(2024, 10, 20).getTime() + 86_399_999);
  assertEquals(parseTime("2024-11-20T08:05"), new Date(2024, 10, 20, 8, 5).getTime());
  assertEquals(parseTime("2024-13-45"), undefined);
  assertEquals(parseTime("2024-11-20 8:05:30-06:00"), Date.UTC(2024, 10, 20, 14, 5, 30));
  assertEquals(parseTime("1732089600"), T);
  assertEquals(parseTime("2h", false, T), T - 7_200_000);
  assertEquals(parseTime("yesterday"), undefined);
  assertEquals(parseCondition("PID.3.1 = 700123"), { path: "PID.3.1", op: "=", value: "700123" });
  assertEquals(parseCondition("MSH.9.2!=A08"), { path: "MSH.9.2", op: "!=", value: "A08" });
  assertEquals(parseCondition("PID.5~doe"), { path: "PID.5", op: "~", value: "doe" });
  throws(
    () => parseCondition("PID.3.1"),
    (e: unknown) => e instanceof SmatQueryError && e.kind === "bad_hl7_filter",
  );
  throws(() => parseCondition("P.x=1"), SmatQueryError);
});

Deno.test("readSmatDb: newest first, limit, time range, text in SQL and in any case, HL7 conditions", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/a.smatdb`;
  writeSmatDb(path, msgs);
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const mids = async (f: Parameters<typeof readSmatDb>[2], limit = 100) =>
    (await readSmatDb(fs, path, f, limit)).messages.map((m) => m.mid);
  assertEquals(await mids({}, 3), ["0.0.10", "0.0.9", "0.0.8"]);
  assertEquals(await mids({ since: T + 2 * 60_000, until: T + 4 * 60_000 }), ["0.0.5", "0.0.4", "0.0.3"]);
  assertEquals(await mids({ text: "ADT^A08" }, 2), ["0.0.10", "0.0.8"]);
  assertEquals(await mids({ text: "adt^a08" }), []);
  assertEquals(await mids({ text: "adt^a08", ignoreCase: true }, 1), ["0.0.10"]);
  assertEquals(await mids({ hl7: [parseCondition("MSH.10=MSG00004")] }), ["0.0.4"]);
  assertEquals(await mids({ hl7: [parseCondition("MSH.9.2=A01"), parseCondition("PV1.2!=I")] }), [
    "0.0.9",
    "0.0.3",
  ]);
  const [m] = (await readSmatDb(fs, path, {}, 1)).messages;
  assertEquals([m.time, m.source, m.dest, m.context, m.type], [
    T + 9 * 60_000,
    "in1",
    "out1",
    "outbound",
    "DATA",
  ]);
  assert(m.content.startsWith("MSH|^~\\&|ADTSYS|"));
});

Deno.test("readSmatDb: 6.0 seconds, unknown columns, encrypted and foreign files", async () => {
  await using tmp = await tempDir();
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const old = `${tmp.path}/old.smatdb`;
  const db = new DatabaseSync(old);
  db.exec("CREATE TABLE smat_msgs (MidNum INTEGER, TimeIn INTEGER, messagecontent TEXT)");
  db.prepare("INSERT INTO smat_msgs VALUES (?, ?, ?)").run(7, 1732089600, "MSH|^~\\&|X\r");
  db.close();
  const r = await readSmatDb(fs, old, { since: T }, 5);
  assertEquals(r.messages.map((m) => [m.mid, m.time, m.source]), [["0.0.7", T, ""]]);
  const enc = `${tmp.path}/enc.smatdb`;
  await Deno.writeFile(enc, new Uint8Array(1024).map((_, i) => (i * 37 + 11) & 0xff));
  const e = await readSmatDb(fs, enc, {}, 5, "adt");
  assertEquals(e.skipped?.kind, "encrypted");
  assert(e.skipped?.message.includes('encrypted SMAT database (SQLCipher; the key is the site name "adt"'));
  assert(!e.skipped?.message.includes("\n"));
  const other = `${tmp.path}/other.smatdb`;
  new DatabaseSync(other).exec("CREATE TABLE t (a)");
  assertEquals((await readSmatDb(fs, other, {}, 5)).skipped?.kind, "not_smat");
  assert(isPlainSqlite(await Deno.readFile(other)));
});

Deno.test("parseIdx and readSmatFiles: wrapped and padded records, unwrapped ones, bad lines skipped", async () => {
  await using tmp = await tempDir();
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  await writeSmatFiles(`${tmp.path}/p`, msgs, true);
  const r = await readSmatFiles(fs, `${tmp.path}/p.idx`, { hl7: [parseCondition("MSH.9.2=A08")] }, 2);
  assertEquals(r.messages.map((m) => [m.mid, m.time, m.dest, m.context]), [
    ["0.0.10", T + 9 * 60_000, "out1", "outbound"],
    ["0.0.8", T + 7 * 60_000, "out1", "outbound"],
  ]);
  assertEquals(r.messages[0].content, msgs[9].content);
  await writeSmatFiles(`${tmp.path}/u`, msgs.slice(0, 3), false);
  const all = await readSmatFiles(fs, `${tmp.path}/u.idx`, {}, 10);
  assertEquals(all.messages.map((m) => m.content), msgs.slice(0, 3).map((m) => m.content).reverse());
  const parsed = parseIdx(
    "{{MID {0 0 1}} {OFFSET 0} {LENGTH 2}}\n{MID {0 0 2}} {OFFSET 2} {LENGTH 3}\n{{MID {0 0 3} {OFFSET\n" +
      "{{MID {0 0 4}} {USERDATA {a\nb}} {OFFSET 5} {LENGTH 1}}\n",
  );
  assertEquals(parsed.records.map((r) => r.fields.str("MID")), ["0 0 1", "0 0 2", "0 0 4"]);
  assertEquals(parsed.bad, 1);
});

Deno.test("headerOf: MSH-9 and MSH-10 from the first line equal the whole parse's, on generated texts", async () => {
  const { getValue } = await import("../../../hl7/get.ts");
  const { headerOf, hl7Of } = await import("../../../tools/engine/smat/message.ts");
  const full = (c: string) => {
    const h = hl7Of(c);
    return h ? { type: getValue(h, "MSH.9"), control: getValue(h, "MSH.10") } : {};
  };
  const starts = [
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01^ADT_A01|MSG1|P|2.5",
    "MSH|^~\\&|A|B|C|D|20240101||ORU~R01|C\\F\\2|P",
    "MSH#$*/%|A|B|C|D|x|#ADT$A08#Z9#P",
    "MSH|^~\\&|A",
    "MSH|",
    "MSH",
    "MSHX^~\\&|A|B",
    "MSH ^~\\&|A",
    "\x0bMSH|^~\\&|A|B|C|D|x||ADT^A04|M4|P\r\x1c\r",
    "BHS|^~\\&|A\rMSH|^~\\&|A|B|C|D|x||ADT^A05|M5|P",
    "\nMSH|^~\\&|A|B|C|D|x||ADT^A06|M6|P",
    "PID|1||123",
    "",
    "not hl7 at all",
  ];
  const ends = [
    "",
    "\r",
    "\n",
    "\r\n",
    "\rPID|1||123^^^MR\r",
    "\nPID|1\nPV1|1\n",
    "\r\rEVN|A01\r",
    "\r\x1c\r",
  ];
  let checked = 0;
  for (const a of starts) {
    for (const b of ends) {
      for (const c of ["", "MSH|^~\\&|X|Y|Z|W|x||ADT^A99|SECOND|P\r"]) {
        const text = a + b + c;
        assertEquals({ text, got: headerOf(text) }, { text, got: full(text) });
        checked++;
      }
    }
  }
  assertEquals(checked, starts.length * ends.length * 2);
});

Deno.test("readSmatDb: PATH=value finds an identifier in its other written forms, and counts them", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/ids.smatdb`;
  const withPid = (i: number, pid3: string): SmatMsg => ({
    mid: i,
    time: T + i * 60_000,
    source: "in1",
    dest: "",
    context: "inbound",
    content: hl7("ADT^A08", i, T + i * 60_000).replace(/\r?$/, `\rPID|1||${pid3}||DOE^JANE\r`),
  });
  writeSmatDb(path, [
    withPid(1, "00815566^^^HOSP^MR"),
    withPid(2, "815566^^^HOSP^MR"),
    withPid(3, "815566"),
    withPid(4, "8155660"),
    withPid(5, "00815567^^^HOSP^MR"),
  ]);
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const search = async (cond: string) => {
    const filter = { hl7: [parseCondition(cond)], otherForms: new Map<string, number>() };
    const mids = (await readSmatDb(fs, path, filter, 100)).messages.map((m) => m.mid);
    return { mids, other: filter.otherForms.get(cond.replace(/\s/g, "")) ?? 0 };
  };
  // A search by the value of [[MRN_9]] (00815566) finds it without zeros and with its authority.
  assertEquals(await search("PID.3.1=00815566"), { mids: ["0.0.3", "0.0.2", "0.0.1"], other: 2 });
  assertEquals(await search("PID.3=815566"), { mids: ["0.0.3", "0.0.2", "0.0.1"], other: 2 });
  // Not a different number, and not a type code's first component.
  assertEquals((await search("PID.3.1=8155660")).mids, ["0.0.4"]);
  assertEquals((await search("MSH.9=ADT")).mids, []);
  // != is the negation of =, other forms included; the count covers only messages that matched whole.
  assertEquals((await search("PID.3.1!=815566")).mids, ["0.0.5", "0.0.4"]);
  const both = {
    hl7: [parseCondition("PID.3.1=815566"), parseCondition("MSH.9.2=A01")],
    otherForms: new Map(),
  };
  assertEquals((await readSmatDb(fs, path, both, 100)).messages.length, 0);
  assertEquals(both.otherForms.size, 0);
});
