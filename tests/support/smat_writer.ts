/**
 * Writes SMAT archives for fixtures and benchmarks (research/cloverleaf.md 3.2, 3.3): the SQLite
 * `.smatdb` (tables `smat_msgs` and `smat_info`) and the file pair `.idx`/`.msg`. Only
 * `MessageContent`, `TimeIn`, `MidNum` and `smat_info.Version` are confirmed column names; the other
 * columns are CamelCase mirrors of the `.idx` keys (an assumption the reader does not depend on).
 * Synthetic data only.
 */
import { DatabaseSync } from "node:sqlite";
import { quoteElement as q } from "../../tools/engine/netconfig/tcl_list.ts";

export interface SmatMsg {
  mid: number;
  /** Epoch milliseconds. */
  time: number;
  source: string;
  dest?: string;
  type?: "DATA" | "REPLY";
  context?: "inbound" | "outbound";
  /** Text (written as UTF-8) or the exact bytes to save (a Latin-1 message, say). */
  content: string | Uint8Array;
}

export const SMATDB_SCHEMA = `
CREATE TABLE smat_info (Version INTEGER NOT NULL, CreateTime INTEGER);
CREATE TABLE smat_msgs (
  MidDomain INTEGER, MidHub INTEGER, MidNum INTEGER,
  SrcMidDomain INTEGER, SrcMidHub INTEGER, SrcMidNum INTEGER,
  Type TEXT, SourceConn TEXT, OrigSourceConn TEXT, DestConn TEXT, OrigDestConn TEXT,
  TimeIn INTEGER, Priority INTEGER, DataFmt TEXT, SaveContext TEXT, UserData TEXT,
  MessageContent BLOB
);`;

/** Writes a `.smatdb` with the given messages (in order; rowid order is save order). */
export function writeSmatDb(path: string, msgs: Iterable<SmatMsg>): void {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
    db.exec(SMATDB_SCHEMA);
    db.prepare("INSERT INTO smat_info VALUES (?, ?)").run(0x102, 1732089600000);
    const ins = db.prepare(
      "INSERT INTO smat_msgs VALUES (0, 0, ?, 0, 0, 0, ?, ?, ?, ?, ?, ?, 5120, '', ?, '', ?)",
    );
    const enc = new TextEncoder();
    db.exec("BEGIN");
    for (const m of msgs) {
      ins.run(
        m.mid,
        m.type ?? "DATA",
        m.source,
        m.source,
        m.dest ?? "",
        m.dest ?? "",
        m.time,
        m.context ?? "inbound",
        typeof m.content === "string" ? enc.encode(m.content) : m.content,
      );
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/**
 * Writes `<base>.idx` and `<base>.msg`. `padded` writes the newer fixed-width values
 * (`{OFFSET 0          }`) and a metadata gap between messages, as newer engines do.
 */
export async function writeSmatFiles(base: string, msgs: readonly SmatMsg[], padded = false): Promise<void> {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const idx: string[] = [];
  let offset = 0;
  for (const m of msgs) {
    if (padded && parts.length > 0) {
      const meta = enc.encode(`{DATAFMT {}} {USERDATA {}}\n`); // bytes between messages
      parts.push(meta);
      offset += meta.length;
    }
    const body = typeof m.content === "string" ? enc.encode(m.content) : m.content;
    const pad = (v: string, w: number) => (padded ? v.padEnd(w) : v);
    const fields: Array<[string, string]> = [
      ["MID", q("0 0 " + m.mid)],
      ["SRCMID", q("0 0 0")],
      ["TYPE", m.type ?? "DATA"],
      ["SOURCECONN", q(m.source)],
      ["ORIGSOURCECONN", q(m.source)],
      ["DESTCONN", q(m.dest ?? "")],
      ["ORIGDESTCONN", q(m.dest ?? "")],
      ["TIME", String(Math.floor(m.time / 1000))],
      ["PRIORITY", "5120"],
      ["DATAFMT", "{}"],
      ["SAVECONTEXT", m.context ?? "inbound"],
      ["OFFSET", pad(String(offset), 20)],
      ["LENGTH", pad(String(body.length), 10)],
    ];
    // One line per record: a Tcl list whose single element is the keyed list.
    idx.push(`{${fields.map(([k, v]) => `{${k} ${v}}`).join(" ")}}`);
    parts.push(body);
    offset += body.length;
  }
  const all = new Uint8Array(offset);
  let at = 0;
  for (const p of parts) all.set(p, at), at += p.length;
  await Deno.writeFile(`${base}.msg`, all);
  await Deno.writeTextFile(`${base}.idx`, idx.join("\n") + "\n");
}

const FIRST = ["JANE", "JOHN", "MARY", "ROBERT", "LINDA", "JAMES", "ANNA", "PETER"];
const LAST = ["DOE", "ROE", "SMITH", "TESTPATIENT", "SAMPLE", "EXAMPLE", "FAKENAME", "NOBODY"];

/** A synthetic HL7 v2 message (segments joined by CR); every name and number is made up. */
export function hl7(
  kind: "ADT^A01" | "ADT^A08" | "ADT^A03" | "ORU^R01" | "ORM^O01",
  n: number,
  time: number,
  sender = "ADTSYS",
): string {
  const ts = new Date(time).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const mrn = String(700000 + n * 7919 % 100000);
  const first = FIRST[n % FIRST.length], last = LAST[(n * 3) % LAST.length];
  const segs = [
    `MSH|^~\\&|${sender}|GENHOSP|RECV|GENHOSP|${ts}||${kind}|MSG${String(n).padStart(5, "0")}|P|2.5`,
    `EVN|${kind.split("^")[1]}|${ts}`,
    `PID|1||${mrn}^^^GENHOSP^MR||${last}^${first}^Q||19${50 + (n % 50)}0${1 + (n % 9)}1${n % 10}|${
      n % 2 ? "M" : "F"
    }|||${100 + n} TEST ST^^SPRINGFIELD^IL^62701||555-010${n % 10}`,
    `PV1|1|${n % 3 === 0 ? "O" : "I"}|WARD${n % 4}^${n % 20}^1||||DR${n % 7}^WELBY^MARCUS`,
  ];
  if (kind === "ORU^R01") {
    segs.push(
      `OBR|1|ORD${n}|FIL${n}|CBC^COMPLETE BLOOD COUNT`,
      `OBX|1|NM|HGB^HEMOGLOBIN||${12 + (n % 5)}|g/dL`,
    );
  }
  if (kind === "ORM^O01") segs.push(`ORC|NW|ORD${n}`, `OBR|1|ORD${n}||BMP^BASIC METABOLIC PANEL`);
  return segs.join("\r") + "\r";
}
