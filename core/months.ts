/**
 * English month names and abbreviations (lowercase) to month numbers, for the date forms seen in
 * HL7 free text, US dates and NetConfig prologues ("Mon Sep 15 10:02:11 EDT 2025").
 *
 * @example
 * ```ts
 * MONTHS["sept"]; // 9
 * ```
 */
export const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
