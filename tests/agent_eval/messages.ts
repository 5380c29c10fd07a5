/**
 * The agent evaluation's SMAT traffic, from one seeded PRNG: ADT into adthub/reg_adt_in (and older
 * copies in SmatHistory), what adthub/lab_adt_out sent to lab with lab's ACKs, and ORU results into
 * lab/lab_results_in with OBX abnormal flags and free-text notes. Every patient value is made up and
 * listed as a canary: none may ever appear in a request the model receives.
 */
import { mulberry32, pick } from "../support/prng.ts";
import type { SmatMsg } from "../support/smat_writer.ts";

/** 2026-11-23T00:00:00Z: Monday, the first day of the current archives. */
export const DAY0 = Date.UTC(2026, 10, 23);
const HOUR = 3_600_000, DAY = 24 * HOUR;

const GIVEN = ["Marisol", "Theodora", "Ignatius", "Perpetua", "Lucan", "Ottoline", "Cassius", "Wilhelmina"];
const FAMILY = ["Haverkamp", "Okonkwo", "Przybylski", "Vanderslice", "Lindqvist", "Castellanos", "Oyelaran"];
const STREET = ["Juniper Hollow Rd", "Quarry Bend Ln", "Marrowstone Ct", "Felsen Gate Ave"];

export interface Patient {
  mrn: string;
  family: string;
  given: string;
  dob: string;
  phone: string;
  street: string;
}

export interface Traffic {
  regAdt: SmatMsg[];
  regAdtHistory: SmatMsg[];
  labAdtOut: SmatMsg[];
  labAdtAck: SmatMsg[];
  labResults: SmatMsg[];
  /** pharmbill/bill_in (6.2 .idx/.msg): the current file, and a SmatHistory copy overlapping it. */
  billIn: SmatMsg[];
  billInHistory: SmatMsg[];
  patients: Patient[];
  /** Values that must never reach the model. */
  canaries: string[];
}

function ts(t: number): string {
  return new Date(t).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function pidOf(p: Patient): string {
  return `PID|1||${p.mrn}^^^GENHOSP^MR||${p.family}^${p.given}^Q||${p.dob}|F|||${p.street}^^SPRINGFIELD^IL^62701||${p.phone}`;
}

export function traffic(seed = 2026): Traffic {
  const r = mulberry32(seed);
  const patients: Patient[] = Array.from({ length: 40 }, (_, i) => ({
    mrn: String(4_100_000 + Math.floor(r() * 800_000)),
    family: FAMILY[i % FAMILY.length],
    given: GIVEN[(i * 3 + 1) % GIVEN.length],
    dob: `19${40 + Math.floor(r() * 60)}${String(1 + Math.floor(r() * 12)).padStart(2, "0")}${
      String(1 + Math.floor(r() * 28)).padStart(2, "0")
    }`,
    phone: `217-555-${String(1000 + Math.floor(r() * 9000))}`,
    street: `${100 + Math.floor(r() * 9000)} ${pick(r, STREET)}`,
  }));
  const adt = (kind: string, n: number, t: number, p: Patient) =>
    [
      `MSH|^~\\&|REGSYS|GENHOSP|ADTHUB|GENHOSP|${ts(t)}||ADT^${kind}|REG${String(n).padStart(6, "0")}|P|2.5`,
      `EVN|${kind}|${ts(t)}`,
      pidOf(p),
      `PV1|1|${pick(r, ["I", "O", "E"])}|WARD${n % 5}^${n % 30}^1||||DR${n % 9}^ATTENDING^A`,
    ].join("\r") + "\r";
  const kinds = (): string => {
    const x = r();
    return x < 0.2 ? "A01" : x < 0.65 ? "A08" : x < 0.8 ? "A03" : x < 0.9 ? "A04" : "A11";
  };
  // 4 days of current ADT, busier in the day (06-18 UTC), and 2 older days in SmatHistory.
  const times = (from: number, days: number, n: number) =>
    Array.from({ length: n }, () => {
      const d = Math.floor(r() * days);
      const h = r() < 0.75 ? 6 + Math.floor(r() * 12) : (18 + Math.floor(r() * 12)) % 24;
      return from + d * DAY + h * HOUR + Math.floor(r() * HOUR);
    }).sort((a, b) => a - b);
  let n = 0;
  const regAdt: SmatMsg[] = times(DAY0, 4, 720).map((t) => {
    n++;
    return {
      mid: 10_000 + n,
      time: t,
      source: "reg_adt_in",
      context: "inbound",
      content: adt(kinds(), n, t, pick(r, patients)),
    };
  });
  const regAdtHistory: SmatMsg[] = times(DAY0 - 2 * DAY, 2, 260).map((t, i) => ({
    mid: 5_000 + i,
    time: t,
    source: "reg_adt_in",
    context: "inbound",
    content: adt(kinds(), 900_000 + i, t, pick(r, patients)),
  }));

  // lab_adt_out: the A01 and A08 of reg_adt_in, each answered by lab with an ACK two seconds later.
  const labAdtOut: SmatMsg[] = [], labAdtAck: SmatMsg[] = [];
  for (const m of regAdt) {
    const text = m.content as string;
    const kind = text.split("|")[8];
    if (kind !== "ADT^A01" && kind !== "ADT^A08") continue;
    const ctl = text.split("|")[9];
    labAdtOut.push({
      ...m,
      mid: m.mid + 100_000,
      source: "reg_adt_in",
      dest: "lab_adt_out",
      context: "outbound",
    });
    const x = r();
    const code = x < 0.02 ? "AR" : x < 0.05 ? "AE" : "AA";
    const err = code === "AA" ? "" : code === "AE" ? "|PID-3 not on file" : "|Application unavailable";
    const at = m.time + ackDelay(labAdtAck.length);
    labAdtAck.push({
      mid: m.mid + 200_000,
      time: at,
      source: "lab_adt_out",
      type: "REPLY",
      context: "inbound",
      content: `MSH|^~\\&|LABSYS|GENHOSP|ADTHUB|GENHOSP|${ts(at)}||ACK^${kind.slice(4)}|LACK${
        ctl.slice(3)
      }|P|2.5\rMSA|${code}|${ctl}${err}\r`,
    });
  }

  // lab_results_in: ORU with 1-3 OBX; a few abnormal flags; some notes naming the patient.
  const TESTS = [["GLU", "GLUCOSE", "mg/dL", "70-99"], ["K", "POTASSIUM", "mmol/L", "3.5-5.1"], [
    "HGB",
    "HEMOGLOBIN",
    "g/dL",
    "12.0-16.0",
  ], ["NA", "SODIUM", "mmol/L", "136-145"]];
  const labResults: SmatMsg[] = times(DAY0, 4, 300).map((t, i) => {
    const p = pick(r, patients);
    const segs = [
      `MSH|^~\\&|LABSYS|GENHOSP|LABHUB|GENHOSP|${ts(t)}||ORU^R01|LAB${String(i + 1).padStart(6, "0")}|P|2.5`,
      pidOf(p),
      `OBR|1|ORD${70000 + i}|FIL${70000 + i}|CHEM^CHEMISTRY PANEL|||${ts(t)}`,
    ];
    const k = 1 + Math.floor(r() * 3);
    for (let j = 0; j < k; j++) {
      const [code, name, unit, range] = TESTS[(i + j) % TESTS.length];
      const x = r();
      const flag = x < 0.015 ? "HH" : x < 0.03 ? "LL" : x < 0.05 ? "H" : x < 0.065 ? "L" : x < 0.5 ? "N" : "";
      segs.push(
        `OBX|${j + 1}|NM|${code}^${name}||${(5 + r() * 100).toFixed(1)}|${unit}|${range}|${flag}|||F`,
      );
    }
    if (r() < 0.1) segs.push(`NTE|1||Called ${p.given} ${p.family} at ${p.phone} about this result`);
    return {
      mid: 30_000 + i,
      time: t,
      source: "lab_results_in",
      context: "inbound",
      content: segs.join("\r") + "\r",
    };
  });
  const { billIn, billInHistory } = billTraffic(mulberry32(seed + 1), patients);
  const canaries = [
    ...new Set(patients.flatMap((p) => [p.mrn, p.family, p.given, p.dob, p.phone, p.street])),
  ];
  return {
    regAdt,
    regAdtHistory,
    labAdtOut,
    labAdtAck,
    labResults,
    billIn,
    billInHistory,
    patients,
    canaries,
  };
}

/**
 * Seconds lab takes to ACK the i-th message of lab_adt_out: whole seconds (1-4, so SMAT's second or
 * millisecond times give the same wait), one slow reply of 24 s. No PRNG draw, so the rest of the
 * traffic is what it was before waits varied.
 */
export const SLOW_ACK_INDEX = 287;
function ackDelay(i: number): number {
  return i === SLOW_ACK_INDEX ? 24_000 : 1000 * (1 + ((i * 7919) % 4));
}

/** pharmbill's site zone (siteInfo `timezone=`): its days start at 06:00 UTC in November. */
export const PHARMBILL_TZ = "America/Chicago";
/** bill_in's current file starts at 2026-11-24 09:00 UTC; its SmatHistory copy runs to 15:00 UTC. */
export const BILL_CYCLE = DAY0 + DAY + 9 * HOUR, BILL_HISTORY_END = DAY0 + DAY + 15 * HOUR;
export const FACILITIES = ["GENHOSP", "NORTHCLINIC", "EASTCAMPUS", "WESTSURGERY"];

/**
 * bill_in's DFT^P03 charges and ADT^A08 updates from four sending facilities (MSH-4), 2026-11-22 to
 * 11-27 UTC, from their own PRNG (so the traffic above is unchanged). The messages of 11-24
 * 09:00-15:00 UTC are in both the current file and the SmatHistory copy (same MID, time, content).
 */
function billTraffic(r: () => number, patients: Patient[]): { billIn: SmatMsg[]; billInHistory: SmatMsg[] } {
  const from = DAY0 - DAY, days = 5;
  const all: SmatMsg[] = Array.from({ length: 420 }, () => from + Math.floor(r() * days * DAY)).sort((a, b) =>
    a - b
  ).map((t, i) => {
    const x = r();
    const fac = x < 0.5 ? FACILITIES[0] : x < 0.75 ? FACILITIES[1] : x < 0.92 ? FACILITIES[2] : FACILITIES[3];
    const dft = r() < 0.7;
    const p = pick(r, patients);
    const segs = [
      `MSH|^~\\&|PATACCT|${fac}|BILLING|PHARMBILL|${ts(t)}||${dft ? "DFT^P03" : "ADT^A08"}|BIL${
        String(i + 1).padStart(6, "0")
      }|P|2.3`,
      `EVN|${dft ? "P03" : "A08"}|${ts(t)}`,
      pidOf(p),
    ];
    if (dft) {
      segs.push(`FT1|1|||${ts(t)}||CG|${pick(r, ["RX100", "RX220", "LAB310", "SUP040"])}|||1`);
    }
    return {
      mid: 60_000 + i,
      time: t,
      source: "bill_in",
      context: "inbound",
      content: segs.join("\r") + "\r",
    };
  });
  return {
    billIn: all.filter((m) => m.time >= BILL_CYCLE),
    billInHistory: all.filter((m) => m.time < BILL_HISTORY_END),
  };
}
