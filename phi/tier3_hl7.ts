/**
 * Tier 3 (hl7) of the spec's "Auto-PHI detection model": field listings (a value printed after its
 * path, phi/hl7_listing.ts) by the HL7 field policy; and on a line mentioning PID.3/5/7/11/13/18/19,
 * NK1.*, GT1.* or IN1.16–20: caret values (`SMITH^JOHN`), numbers of 4+ digits (not a count such as
 * `4455667 bytes`), dates, and the value after `<ref>:` or `<ref> =`. A number on a PID.19 line is
 * an SSN.
 */
import { detectCategory, isDateShaped } from "./normalize.ts";
import { findFieldListings } from "./hl7_listing.ts";
import type { Candidate } from "./candidate.ts";
import { cand, digitCount, NUMBER_RE } from "./_tier_common.ts";
import { UNIT_RE } from "./tier2_contextual.ts";

const REF_RE =
  /(?<![A-Za-z0-9])(PID[.\-](?:3|5|7|11|13|18|19)|NK1[.\-]\d{1,2}|GT1[.\-]\d{1,2}|IN1[.\-](?:1[6-9]|20))(?![0-9])/;

const HINTS: Record<string, string> = {
  "PID.3": "MRN",
  "PID.5": "NAME",
  "PID.7": "DOB",
  "PID.11": "ADDRESS",
  "PID.13": "PHONE",
  "PID.18": "MRN",
  "PID.19": "SSN",
  "NK1.2": "NAME",
  "NK1.4": "ADDRESS",
  "NK1.5": "PHONE",
  "NK1.6": "PHONE",
  "NK1.16": "DOB",
  "NK1.30": "NAME",
  "NK1.31": "PHONE",
  "NK1.32": "ADDRESS",
  "GT1.2": "MRN",
  "GT1.3": "NAME",
  "GT1.4": "NAME",
  "GT1.5": "ADDRESS",
  "GT1.6": "PHONE",
  "GT1.7": "PHONE",
  "GT1.8": "DOB",
  "IN1.16": "NAME",
  "IN1.18": "DOB",
  "IN1.19": "ADDRESS",
};

const CARET_RUN = /[^\s"'=:,;()\[\]|<>{}]*\^[^\s"'=:,;()\[\]|<>{}]*/g;
const ALPHA_WORDS = /^\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,4}$/u;

/**
 * Tier 3 (hl7) candidates: PHI-shaped values on lines that mention a PHI field.
 *
 * @example
 * ```ts
 * import { findHl7Lines } from "./tier3_hl7.ts";
 * findHl7Lines("PID.5 = SMITH^JOHN").map((c) => [c.value, c.category]); // [["SMITH^JOHN", "NAME"]]
 * ```
 */
export function findHl7Lines(text: string): Candidate[] {
  const all: Candidate[] = findFieldListings(text);
  if (!/PID|NK1|GT1|IN1/.test(text)) return all;
  const out = {
    push(c: Candidate) {
      if (!all.some((x) => x.start < c.end && c.start < x.end)) all.push(c);
    },
  };
  const lineRe = /[^\r\n]+/g;
  for (let lm = lineRe.exec(text); lm; lm = lineRe.exec(text)) {
    const line = lm[0];
    const ref = REF_RE.exec(line);
    if (!ref) continue;
    const base = lm.index;
    const hint = HINTS[ref[1].replace("-", ".")];
    // The value after `<ref>:` / `<ref> =`.
    const after = new RegExp(
      `${
        ref[1].replace(/[.\-]/, "[.\\-]")
      }(?:[.\\-]\\d{1,3})*(?:\\s*\\([^)]*\\))?\\s*[:=]\\s*("?)([^"\\r\\n|,;]+)\\1`,
    )
      .exec(line);
    if (after) {
      const raw = after[2];
      const value = raw.trim();
      const at = base + after.index + after[0].length - (after[1] ? 1 : 0) - raw.length + raw.indexOf(value);
      if (value && hint === "ADDRESS") {
        const c = cand(text, at, at + value.length, "ADDRESS", "hl7");
        if (c) out.push(c);
      } else if (value && ALPHA_WORDS.test(value)) {
        const category = hint === "NAME" ? "NAME" : detectCategory(value);
        const c = cand(text, at, at + value.length, category, "hl7");
        if (c) out.push(c);
      }
    }
    // Caret values: an id first component, or the name components.
    CARET_RUN.lastIndex = 0;
    for (let m = CARET_RUN.exec(line); m; m = CARET_RUN.exec(line)) {
      if (!/[\p{L}\p{N}]/u.test(m[0])) continue;
      const comps = m[0].split("^");
      if (/\d/.test(comps[0]) && /^[A-Za-z]{0,3}-?\d[\w-]*$/.test(comps[0])) {
        const c = cand(
          text,
          base + m.index,
          base + m.index + comps[0].length,
          isDateShaped(comps[0]) ? "DOB" : "MRN",
          "hl7",
        );
        if (c) out.push(c);
        continue;
      }
      let k = 0;
      while (k < comps.length && /^\p{L}[\p{L}'.-]*$/u.test(comps[k])) k++;
      if (k === 0) continue;
      const len = comps.slice(0, k).join("^").length;
      const c = cand(
        text,
        base + m.index,
        base + m.index + len,
        hint === "ADDRESS" ? "ADDRESS" : "NAME",
        "hl7",
      );
      if (c) out.push(c);
    }
    // Numbers and dates.
    NUMBER_RE.lastIndex = 0;
    for (let m = NUMBER_RE.exec(line); m; m = NUMBER_RE.exec(line)) {
      if (digitCount(m[0]) < 4) continue;
      const e = m.index + m[0].length;
      if (UNIT_RE.test(line.slice(e, e + 16))) continue;
      const category = isDateShaped(m[0]) ? "DOB" : hint === "PHONE" || hint === "SSN" ? hint : "MRN";
      const c = cand(text, base + m.index, base + m.index + m[0].length, category, "hl7");
      if (c) out.push(c);
    }
  }
  return all.sort((a, b) => a.start - b.start);
}
