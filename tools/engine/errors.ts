/**
 * The engine tools' input error: bad or unresolvable input (no root, unknown site or thread). The
 * tools turn it into a structured tool error whose `error` field is the kind (engine.ts `failure`).
 *
 * @module
 */

/**
 * Bad or unresolvable input: becomes a structured tool error.
 *
 * @example
 * ```ts
 * const err = new EngineInputError("unknown_site", 'no site "lab"', { site: "lab" });
 * err.kind; // "unknown_site"
 * ```
 */
import { AssistError } from "../../core/errors.ts";
export class EngineInputError extends AssistError {
  readonly kind: string;
  readonly extra: Record<string, unknown>;
  constructor(kind: string, message: string, extra: Record<string, unknown> = {}) {
    super(message, { level: "input" });
    this.name = "EngineInputError";
    this.kind = kind;
    this.extra = extra;
  }
}
