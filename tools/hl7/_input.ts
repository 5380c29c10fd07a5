/**
 * The HL7 tools' structured errors for exceptions from the HL7 library; their input comes through
 * tools/input.ts. Loaded only when an HL7 tool runs.
 */
import { lazy } from "../../core/lazy.ts";
import { toolError, type ToolResult } from "../types.ts";
export { readInput } from "../input.ts";

/**
 * The structured error for an exception from the HL7 library (parse and path errors), or
 * undefined for anything else (which the caller rethrows).
 */
export async function hl7Error(err: unknown, label: string): Promise<ToolResult | undefined> {
  const { Hl7ParseError, Hl7PathError } = await lazy<typeof import("../../hl7/mod.ts")>(
    import.meta.url,
    "../../hl7/mod.ts",
  );
  if (err instanceof Hl7ParseError) {
    return toolError("hl7_parse_error", `${label}: ${err.message}`, { line: err.line, column: err.column });
  }
  if (err instanceof Hl7PathError) return toolError("bad_path", err.message, { path: err.path });
  return undefined;
}
