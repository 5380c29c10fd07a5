/**
 * Tabular output shared by the engine tools: `text` (aligned columns, two spaces apart, the last
 * column not padded), `tsv` (a header row, tabs and newlines inside cells replaced by spaces) and
 * `json` (an array of objects keyed by lower-cased column names).
 *
 * @module
 */

export type TableFormat = "text" | "tsv" | "json";

/** A cell fit for one line of a TSV row. */
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
  const widths = columns.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? "")].length)));
  return all.map((r) =>
    r.map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i] - [...c].length))).join("  ").trimEnd()
  ).join("\n");
}
