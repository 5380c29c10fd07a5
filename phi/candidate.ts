/**
 * A value found in a text, not yet replaced: what every tier, the HL7 sanitizer and the field
 * listings produce, and what the engine assigns tokens to.
 */
import type { LookupRow } from "./lookup.ts";

/** Audit tiers (spec, "Auto-PHI audit record"), plus `sidecar` for tier 5 and `manual` for markers. */
export type Tier =
  | "definite"
  | "contextual"
  | "hl7"
  | "known"
  | "sidecar"
  | "names"
  | "hl7_pipeline"
  | "manual";

/** A value found in a text, not yet replaced. */
export interface Candidate {
  start: number;
  end: number;
  /** The exact text at `[start, end)`. */
  value: string;
  category: string;
  canonical: string;
  tier: Tier;
  /** Where it was found, for the audit record (a field path, a tool name). */
  context?: string;
  /** The token it gets, once assigned by the engine. */
  token?: string;
  /** The lookup-table row of that token (engine internal). */
  row?: LookupRow;
  /**
   * An exact field-policy decision (an HL7 field listing): the never-tokenize heuristics do not
   * apply, only "never inside an existing token".
   */
  exact?: boolean;
}

/**
 * A candidate with every field set (token and row empty), so all candidates share one object shape
 * whichever tier made them: the engine's per-value loops stay monomorphic on large tool results.
 */
export function candidate(
  start: number,
  end: number,
  value: string,
  category: string,
  canonical: string,
  tier: Tier,
  context?: string,
  exact = false,
): Candidate {
  return { start, end, value, category, canonical, tier, context, token: undefined, row: undefined, exact };
}
