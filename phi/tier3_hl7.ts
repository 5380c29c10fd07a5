/**
 * Tier 3 (hl7) of the spec's "Auto-PHI detection model": a PHI value on a line that names a PHI
 * field, decided by what follows the field reference (phi/hl7_listing.ts):
 *
 * - field listings printed by the HL7 tools, the path first on its line (`PID.7  19640304`,
 *   `PID.5.1  DOE -> ROE`, TSV with a header row of paths);
 * - a path anywhere in a line followed by its value: `PID.11 is 12 ELM ST`, `PID.11 = ...`,
 *   `PID.11: ...`, `PID.11 -> ...`, hcixlttest traces `PID.7 <- 1964-10-28` and `PID.5.1 <- SMITH`,
 *   a quoted value, or a caret or number value right after the path (`PID.3 12345678^^^H^MR`).
 *
 * The value is read by the field policy: a field path by its rule (an XAD value gives each address
 * component its ADDRESS value, as in the message; a PID-19 value is an SSN, a PID-18 value an
 * ACCOUNT), a component path as one value of the component's category. Every field with a policy
 * rule counts, not only the spec's PID.3/5/7/11/13/18/19, NK1, GT1 and IN1.16-20 list. Nothing else
 * on the line is read: counts, sizes, control ids, log timestamps and dates elsewhere on it stay
 * (`PID.18 empty in 12 of 4,310 messages (MSH.10 ctl 20261123083000417)` has no value).
 */
import { findFieldListings } from "./hl7_listing.ts";
import type { Candidate } from "./candidate.ts";

/**
 * Tier 3 (hl7) candidates: values written after a PHI field's path.
 *
 * @example
 * ```ts
 * import { findHl7Lines } from "./tier3_hl7.ts";
 * findHl7Lines("PID.5 = SMITH^JOHN").map((c) => [c.value, c.category]); // [["SMITH^JOHN", "NAME"]]
 * ```
 */
export function findHl7Lines(text: string): Candidate[] {
  return findFieldListings(text);
}
