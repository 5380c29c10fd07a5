/**
 * HL7-shape detection for the PHI gate (spec, Tool-result surface): every tool result is tested,
 * and a hit sends it through the HL7 sanitizer. A miss costs little (the text still passes the
 * other PHI tiers) but a miss on real HL7 leaks structure-aware PHI, so the test leans to "yes".
 *
 * `isHl7Shaped(text)` is true when any of these occurs:
 *
 * 1. A segment header at a segment start: a segment id directly followed by `|`, where the id is
 *    a standard HL7 v2 segment id (MSH, PID, EVN, PV1, OBX, NTE, ... about 150 of them) or a
 *    Z-segment (`Z` and two capitals or digits). A segment start is:
 *    - the start of the text, or just after `\r` or `\n`, optionally followed by spaces or tabs;
 *    - just after the two characters `\r` or `\n` as written inside JSON strings and logs;
 *    - just after 0x0B (MLLP start block);
 *    - just after a 10-digit len10 length prefix that itself stands at a segment start;
 *    - just after `:` (grep-style `file:line:` prefixes).
 * 2. `MSH|^~`, `FHS|^~` or `BHS|^~` anywhere (a message header embedded in a log line or JSON).
 * 3. A header segment with other delimiters at a segment start (or where rule 4 allows one):
 *    `MSH`, `FHS` or `BHS`, a field separator (not a letter, digit or white space), one to five
 *    distinct encoding characters (same rule, different from the separator), then the separator
 *    again (`MSH#^~\&#`).
 * 4. A segment embedded in a line: a known segment id (or Z-segment) followed by `|`, right after
 *    white space, `>`, `=`, `"`, `+`, `-` or `:`, when the line holds at least three `|` from the
 *    id on (`  + NK1  NK1|1|DOE^JANE|SPO` in hl7_diff output, `[adt_in] PID|1||123|...` in logs).
 *
 * Not accepted: a segment id in running prose with fewer than three pipes (`the PID| field`), a lower-case id (`pid|`), an id
 * not followed by its separator (`PID.5`, `PID-3`), an unknown three-letter word (`ABC|`).
 *
 * Cost (measured, bench/hl7_shape.bench.ts): one native `indexOf` for `|`; when there is one, a
 * single global regex pass for `[A-Z][A-Z0-9]{2}\|` with O(1) work per candidate (a manual
 * charCodeAt loop was 20 times slower on prose, repeated `indexOf` 4 times slower on pipe-dense
 * text); then two `indexOf` scans for `SH` and `HS`. Gigabytes per second on ordinary text,
 * hundreds of megabytes per second on text that is nearly all pipes.
 *
 * @module
 */

// Segment ids of HL7 v2.1-2.8 (chapter segment tables); Z-segments are matched by rule.
const IDS = ("ABS ACC ADD ADJ AFF AIG AIL AIP AIS AL1 APR ARQ ARV AUT BHS BLC BLG BPO BPX BTS BTX BUI " +
  "CDM CDO CER CM0 CM1 CM2 CNS CON CSP CSR CSS CTD CTI CTR DB1 DEV DG1 DMI DON DPS DRG DSC DSP DST ECD ECR " +
  "EDU EQP EQU ERQ ERR EVN FAC FHS FT1 FTS GOL GP1 GP2 GT1 IAM IAR IIM ILT IN1 IN2 IN3 INV IPC IPR ISD ITM " +
  "IVC IVT LAN LCC LCH LDP LOC LRL MFA MFE MFI MRG MSA MSH NCK NDS NK1 NPU NSC NST NTE OBR OBX ODS ODT OM1 " +
  "OM2 OM3 OM4 OM5 OM6 OM7 ORC ORG OVR PAC PCE PCR PD1 PDA PDC PEO PES PID PKG PMT PR1 PRA PRB PRC PRD PRT " +
  "PSG PSH PSL PSS PTH PV1 PV2 PYE QAK QID QPD QRD QRF QRI RCP RDF RDT REL RF1 RFI RGS RMI ROL RQ1 RQD RXA " +
  "RXC RXD RXE RXG RXO RXR RXV SAC SCD SCH SCP SDD SFT SGH SGT SHP SID SLT SPM SPR STF STZ TCC TCD TQ1 " +
  "TQ2 TXA UAC UB1 UB2 URD URS VAR VND").split(" ");

const KNOWN = new Set(IDS.map((id) => key(id.charCodeAt(0), id.charCodeAt(1), id.charCodeAt(2))));

/** A segment id candidate: a capital, two capitals or digits, then "|". */
const CANDIDATE = /[A-Z][A-Z0-9]{2}\|/g;

function key(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}

function isCapOrDigit(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A delimiter candidate: printable, not a letter, digit or space. */
function isDelim(c: number): boolean {
  return c > 32 && c < 127 && !isCapOrDigit(c) && !(c >= 97 && c <= 122);
}

/**
 * True when a segment may start right after index `i` (the character before the id); `len10`
 * allows a 10-digit length prefix there.
 */
function segmentStartAfter(text: string, i: number, len10: boolean): boolean {
  if (i < 0) return true;
  const c = text.charCodeAt(i);
  if (c === 13 || c === 10 || c === 11 || c === 58 /* : */) return true;
  if ((c === 114 /* r */ || c === 110 /* n */) && i > 0 && text.charCodeAt(i - 1) === 92 /* \ */) return true;
  if (c === 32 || c === 9) {
    let j = i - 1;
    while (j >= 0 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
    return j < 0 || text.charCodeAt(j) === 13 || text.charCodeAt(j) === 10;
  }
  if (len10 && isDigit(c) && i >= 9) {
    for (let j = i - 9; j < i; j++) if (!isDigit(text.charCodeAt(j))) return false;
    return segmentStartAfter(text, i - 10, false);
  }
  return false;
}

/**
 * True when the character at `i` may stand before a segment embedded in a line (rule 4): white
 * space, `>`, `=`, `"`, `+`, `-` or `:` (diff listings, log lines, JSON strings).
 */
function embeddedStart(text: string, i: number): boolean {
  if (i < 0) return false;
  const c = text.charCodeAt(i);
  return c === 32 || c === 9 || c === 62 || c === 61 || c === 34 || c === 43 || c === 45 || c === 58;
}

/** At least three `|` from `p` (the id's own separator included) before the end of the line. */
function pipesAhead(text: string, p: number): boolean {
  let n = 0;
  for (let i = p; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 124) {
      if (++n === 3) return true;
    } else if (c === 10 || c === 13) return false;
  }
  return false;
}

/**
 * True when `text` looks like HL7 v2; see the module notes for exactly what is accepted.
 *
 * @example
 * ```ts
 * isHl7Shaped("MSH|^~\\&|LAB|...\rPID|1||123"); // true
 * isHl7Shaped("PID|1||12345^^^MRN||DOE^JOHN"); // true
 * isHl7Shaped("Check the PID| segment for the MRN."); // false
 * ```
 */
export function isHl7Shaped(text: string): boolean {
  // Rules 1 and 2. No "|" at all (most text) is settled by one native scan; otherwise one global
  // regex pass finds the candidates, skipping runs of pipes that follow no capitals in native code.
  const firstPipe = text.indexOf("|", 3);
  if (firstPipe !== -1) {
    CANDIDATE.lastIndex = firstPipe - 3;
    for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
      const p = m.index + 3;
      const a = text.charCodeAt(p - 3);
      const b = text.charCodeAt(p - 2);
      const c = text.charCodeAt(p - 1);
      if (a !== 90 /* Z */ && !KNOWN.has(key(a, b, c))) continue;
      if (segmentStartAfter(text, p - 4, true)) return true;
      if (embeddedStart(text, p - 4) && pipesAhead(text, p)) return true;
      const header = (a === 77 && b === 83 && c === 72) || ((a === 70 || a === 66) && b === 72 && c === 83);
      if (header && text.charCodeAt(p + 1) === 94 && text.charCodeAt(p + 2) === 126) return true; // "^~"
    }
  }
  // Rule 3: a header with other delimiters. "SH" ends MSH; "HS" ends FHS and BHS.
  return headerScan(text, "SH", 77, 77) || headerScan(text, "HS", 70, 66);
}

/** Looks for `pair` preceded by the capital `x` or `y`, opening a header with other delimiters. */
function headerScan(text: string, pair: string, x: number, y: number): boolean {
  let h = text.indexOf(pair, 1);
  while (h !== -1) {
    const a = text.charCodeAt(h - 1);
    if (
      (a === x || a === y) && oddHeader(text, h - 1) &&
      (segmentStartAfter(text, h - 2, true) || embeddedStart(text, h - 2))
    ) return true;
    h = text.indexOf(pair, h + 2);
  }
  return false;
}

/**
 * A three-letter header id at `s` followed by sep, 1-5 distinct encoding characters, sep (a doubled
 * backslash, as JSON writes the escape character, counts once).
 */
function oddHeader(text: string, s: number): boolean {
  const sep = text.charCodeAt(s + 3);
  if (!isDelim(sep)) return false;
  let n = 0;
  const seen: number[] = [];
  for (let i = s + 4; i < text.length && n <= 5; i++, n++) {
    const c = text.charCodeAt(i);
    if (c === sep) return n >= 1;
    if (!isDelim(c) || seen.includes(c)) return false;
    seen.push(c);
    if (c === 92 && text.charCodeAt(i + 1) === 92) i++; // "\\" inside a JSON string is one "\"
  }
  return false;
}
