/**
 * The HL7 tools' structured errors for exceptions from the HL7 library; their input comes through
 * tools/input.ts. Private to the HL7 tools' bodies.
 */
import { Hl7ParseError, Hl7PathError } from "../../../hl7/errors.ts";
import { toolError, type ToolResult } from "../../types.ts";
export { readInput } from "../../input.ts";

/**
 * The structured error for an exception from the HL7 library (parse and path errors), or
 * undefined for anything else (which the caller rethrows).
 */
export function hl7Error(err: unknown, label: string): ToolResult | undefined {
  if (err instanceof Hl7ParseError) {
    return toolError("hl7_parse_error", `${label}: ${err.message}`, { line: err.line, column: err.column });
  }
  if (err instanceof Hl7PathError) return toolError("bad_path", err.message, { path: err.path });
  return undefined;
}
