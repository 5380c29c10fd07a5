/**
 * Generators of large synthetic inputs for the HL7 benchmarks (no giant checked-in files).
 * Deterministic: the same arguments give the same text. Synthetic data only.
 */

const FAMILY = ["TESTPATIENT", "SAMPLE", "EXAMPLE", "DEMO", "PLACEHOLDER", "FICTION", "MOCK", "DUMMY"];
const GIVEN = ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL"];

/**
 * One ADT^A01 of about 1 KB (1,000-1,100 bytes), segments ended by `\r`, varying with `i`.
 */
export function adtA01(i: number): string {
  const id = String(100000 + i);
  const fam = FAMILY[i % FAMILY.length];
  const giv = GIVEN[(i >> 3) % GIVEN.length];
  return [
    `MSH|^~\\&|SYNTHADT|SYNTH HOSP|CLOVERLEAF|SYNTH HOSP|20240301${
      String(i % 240000).padStart(6, "0")
    }||ADT^A01^ADT_A01|MSG${id}|P|2.5.1|||AL|NE`,
    `EVN|A01|20240301083000|||OPER01^OPERATOR^OLIVE^^^^^^SYNTH|20240301082500`,
    `PID|1||MRN${id}^^^SYNTH^MR~9000${id}^^^SSA^SS||${fam}^${giv}^Q^JR^^^L~NICK^AL^^^^^A||19800215|F||2106-3^White^HL70005|${
      i % 997
    } MAIN ST^APT 4\\S\\B^SPRINGFIELD^IL^62701^USA^H||^PRN^PH^^1^217^555${
      String(i % 10000).padStart(4, "0")
    }~^NET^Internet^pt${id}@example.org|||M||ACCT${id}^^^SYNTH^AN||||||N`,
    `NK1|1|${fam}^BETA^^^^^L|SPO^Spouse^HL70063|100 MAIN ST^^SPRINGFIELD^IL^62701^USA|^PRN^PH^^1^217^5550101`,
    `PV1|1|I|4N^4${
      String(i % 100).padStart(2, "0")
    }^A^SYNTH&1.2.840.99999.1&ISO^^^MAIN^4|E|||1234^ATTEND^ALAN^^^DR^MD|5678^REFER^RITA^^^DR||MED||||7|||1234^ATTEND^ALAN^^^DR^MD|IP|VN${id}^^^SYNTH^VN|||||||||||||||||||||||||20240301080000`,
    `AL1|1|DA|70618^Penicillin^RXNORM|SV|Hives`,
    `DG1|1||R07.9^Chest pain, unspecified^I10||20240301|A`,
    `IN1|1|PLAN01^Synthetic PPO|INS001^^^SYNTH|SYNTHETIC INSURANCE CO|PO BOX 1^^SPRINGFIELD^IL^62799|||GRP77||||||||${fam}^${giv}^Q|SEL^Self^HL70063|19800215`,
    "",
  ].join("\r");
}

/** `n` ADT^A01 messages, one after the other, each ended by `\r` and separated by `\n`. */
export function adtFile(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(adtA01(i));
  return parts.join("\n");
}

const WORDS = ("the interface engine routes each inbound message through its thread and translation to " +
  "the outbound destination while the operator watches queue depth error counts and the recovery database " +
  "for stuck messages that need a resend after the remote system comes back online").split(" ");

/**
 * About `bytes` of ordinary non-HL7 tool output: prose lines, log lines, a JSON line and now and then a
 * markdown table row with `|` (so the detector's `|` scan has work to do).
 */
export function nonHl7Text(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  let k = 0;
  while (size < bytes) {
    let line: string;
    switch (k % 8) {
      case 0:
        line = `| thread_${k % 50} | up | ${k % 1000} msgs | ${k % 7} errors |`;
        break;
      case 1:
        line = `2024-03-01 12:${String(k % 60).padStart(2, "0")}:00 INFO engine: processed batch ${k} in ${
          k % 97
        } ms`;
        break;
      case 2:
        line = `{"site":"prod${k % 5}","process":"adt_in","state":"running","queued":${k % 300}}`;
        break;
      default: {
        const words: string[] = [];
        for (let w = 0; w < 14; w++) words.push(WORDS[(k * 7 + w * 3) % WORDS.length]);
        line = words.join(" ") + ".";
      }
    }
    lines.push(line);
    size += line.length + 1;
    k++;
  }
  return lines.join("\n") + "\n";
}
