/**
 * The value of an element of a record, as the formats read by structure (phi/x12.ts, phi/ncpdp.ts)
 * take it. Private to phi/.
 */
import { isTokensOnly } from "./token.ts";

/**
 * The value of an element at `[start, end)` with the spaces around it left out, or undefined when
 * nothing is left or it is tokens already (a text sanitized once is never tokenized again; only
 * tokens of our shape count: `[[55120987]]` typed in a field is a value). The formats' one trimmer.
 *
 * @example
 * ```ts
 * import { elementValue } from "./_element.ts";
 * elementValue("NM1* DOE *JANE", 4, 9); // { start: 5, end: 8, value: "DOE" }
 * ```
 */
export function elementValue(
  text: string,
  start: number,
  end: number,
): { start: number; end: number; value: string } | undefined {
  while (end > start && text.charCodeAt(end - 1) === 32) end--;
  while (start < end && text.charCodeAt(start) === 32) start++;
  if (end <= start) return undefined;
  const value = text.slice(start, end);
  if (isTokensOnly(value)) return undefined;
  return { start, end, value };
}
