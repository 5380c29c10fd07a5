/**
 * Prices ($ per million tokens) and context windows by model. The spec's tier constants are the
 * defaults (mid 3/15, large 15/75, small 1/5; cache write 1.25× input, cache read 0.1× input);
 * models known from research/model-api.md §7 are priced as listed there. Unknown models: mid-tier
 * prices and a 200,000-token window.
 */
import type { Usage } from "./types.ts";

export interface Price {
  input: number;
  output: number;
  /** Multiplier of input for 5-minute cache writes. */
  cacheWrite: number;
  /** Multiplier of input for cache reads. */
  cacheRead: number;
  contextWindow: number;
}

const M = 1_000_000;
const K200 = 200_000;

/** Longest matching prefix wins; dated ids (`-20250929`) match their alias. */
const TABLE: Array<[string, Price]> = [
  // Spec tiers (defaults by family).
  ["claude-opus", { input: 15, output: 75, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-sonnet", { input: 3, output: 15, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-haiku", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  // Known models (research/model-api.md §7).
  ["claude-opus-4-5", { input: 5, output: 25, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-opus-4-6", { input: 5, output: 25, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-opus-4-7", { input: 5, output: 25, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-opus-4-8", { input: 5, output: 25, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-opus-5", { input: 5, output: 25, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-opus-5-5", { input: 4, output: 20, cacheWrite: 1.25, cacheRead: 0.05, contextWindow: M }],
  ["claude-sonnet-4-5", { input: 3, output: 15, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-sonnet-4-6", { input: 3, output: 15, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-sonnet-5", { input: 2, output: 10, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-sonnet-5-5", { input: 2, output: 10, cacheWrite: 1.25, cacheRead: 0.05, contextWindow: M }],
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-haiku-5-5", { input: 0.1, output: 0.5, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 }],
  ["claude-fable-5", { input: 10, output: 50, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: M }],
  ["claude-fable-5-1", { input: 10, output: 50, cacheWrite: 1.25, cacheRead: 0.025, contextWindow: M }],
];

const UNKNOWN: Price = { input: 3, output: 15, cacheWrite: 1.25, cacheRead: 0.1, contextWindow: K200 };

/**
 * The price row of a model id: the longest prefix ending at a `-` boundary (so a dated id such as
 * `claude-sonnet-4-5-20250929` finds its alias, and an unlisted `claude-opus-4-9` its family tier),
 * or the unknown default.
 */
export function priceOf(model: string): Price & { known: boolean } {
  let best: [string, Price] | undefined;
  for (const row of TABLE) {
    const [prefix] = row;
    if (model === prefix || model.startsWith(`${prefix}-`)) {
      if (!best || prefix.length > best[0].length) best = row;
    }
  }
  return best ? { ...best[1], known: true } : { ...UNKNOWN, known: false };
}

/** Context in use: input + cache creation + cache read (spec, status line rules). */
export function contextUsed(u: Usage): number {
  return u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
}

export interface Cost {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  total: number;
}

/** Dollar cost of one response's usage. */
export function costOf(model: string, u: Usage): Cost {
  const p = priceOf(model);
  const input = (u.input_tokens * p.input) / M;
  const output = (u.output_tokens * p.output) / M;
  const cacheWrite = (u.cache_creation_input_tokens * p.input * p.cacheWrite) / M;
  const cacheRead = (u.cache_read_input_tokens * p.input * p.cacheRead) / M;
  return { input, output, cacheWrite, cacheRead, total: input + output + cacheWrite + cacheRead };
}

/** Session totals: tokens and dollars per stream (response) and overall, for /cost and the status line. */
export class CostMeter {
  readonly streams: Array<{ model: string; usage: Usage; cost: Cost }> = [];

  add(model: string, usage: Usage): Cost {
    const cost = costOf(model, usage);
    this.streams.push({ model, usage, cost });
    return cost;
  }

  get total(): Cost & { tokens: Usage } {
    const t: Cost = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0, total: 0 };
    const tokens: Usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    for (const s of this.streams) {
      for (const k of Object.keys(t) as Array<keyof Cost>) t[k] += s.cost[k];
      tokens.input_tokens += s.usage.input_tokens;
      tokens.output_tokens += s.usage.output_tokens;
      tokens.cache_creation_input_tokens += s.usage.cache_creation_input_tokens;
      tokens.cache_read_input_tokens += s.usage.cache_read_input_tokens;
    }
    return { ...t, tokens };
  }

  /** The latest context use and its window, for `ctx <pct>% (<used>/<window>)`. */
  context(): { used: number; window: number } | undefined {
    const last = this.streams[this.streams.length - 1];
    if (!last) return undefined;
    return { used: contextUsed(last.usage), window: priceOf(last.model).contextWindow };
  }
}
