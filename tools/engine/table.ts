/**
 * Tabular output shared by the engine tools: `text` (aligned columns, two spaces apart, the last
 * column not padded), `tsv` (a header row, tabs and newlines inside cells replaced by spaces) and
 * `json` (an array of objects keyed by lower-cased column names).
 *
 * @module
 */

export type TableFormat = "text" | "tsv" | "json";

/** A cell fit for one line of a TSV row. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** A cell's width in code points (a table of thousands of rows counts without making arrays). */
function codePoints(s: string): number {
  return SURROGATE.test(s) ? [...s].length : s.length;
}

export function tsvCell(value: string): string {
  return value.replace(/[\t\r\n]+/g, " ");
}

/**
 * @example
 * ```ts
 * renderTable(["SITE", "THREAD"], [["adt", "adt_in"]], "text"); // "SITE  THREAD\nadt   adt_in"
 * ```
 */
export function renderTable(
  columns: readonly string[],
  rows: readonly string[][],
  format: TableFormat,
): string {
  if (format === "json") {
    const keys = columns.map((c) => c.toLowerCase());
    return JSON.stringify(rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i] ?? ""]))), null, 2);
  }
  if (format === "tsv") {
    return [columns, ...rows].map((r) => r.map((c) => tsvCell(c ?? "")).join("\t")).join("\n");
  }
  const all = [columns, ...rows].map((r) => r.map((c) => tsvCell(c ?? "")));
  const widths = columns.map((_, i) => Math.max(...all.map((r) => codePoints(r[i] ?? ""))));
  return all.map((r) =>
    r.map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i] - codePoints(c)))).join("  ").trimEnd()
  ).join("\n");
}
