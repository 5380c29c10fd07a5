/**
 * Rate-limit readings from response headers (research/model-api.md §5), both families:
 * API-key headers (`anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-*`, resets in
 * RFC 3339, converted to epoch seconds) and the unified OAuth headers (`-unified-5h-*`, `-7d-*`,
 * resets already epoch strings, used as is). Neither family is required.
 */
import { stripCr } from "../../core/clean.ts";

export interface Bucket {
  /** 0..1 (may exceed 1). */
  utilization?: number;
  /** Epoch seconds. */
  reset?: number;
  status?: string;
  limit?: number;
  remaining?: number;
}

export interface RateLimitReading {
  /** The unified (OAuth) buckets. */
  fiveHour?: Bucket;
  sevenDay?: Bucket;
  unifiedStatus?: string;
  representativeClaim?: string;
  /** API-key buckets by name: requests, tokens, input-tokens, output-tokens. */
  perMinute: Record<string, Bucket>;
  /** retry-after in seconds (retry-after-ms preferred). */
  retryAfter?: number;
}

const PREFIX = "anthropic-ratelimit-";

function num(v: string | null): number | undefined {
  if (v === null) return undefined;
  const t = stripCr(v).trim();
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** RFC 3339 → epoch seconds; an epoch-seconds string is taken as is. */
export function resetToEpoch(v: string | null): number | undefined {
  if (v === null) return undefined;
  const t = stripCr(v).trim();
  if (/^\d{9,11}$/.test(t)) return Number(t);
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** Seconds to wait from `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const ms = num(headers.get("retry-after-ms"));
  if (ms !== undefined && ms >= 0) return ms / 1000;
  const raw = headers.get("retry-after");
  if (raw === null) return undefined;
  const s = num(raw);
  if (s !== undefined) return s >= 0 ? s : undefined;
  const date = Date.parse(stripCr(raw));
  return Number.isFinite(date) ? Math.max(0, (date - now) / 1000) : undefined;
}

export function readRateLimits(headers: Headers): RateLimitReading {
  const g = (name: string) => headers.get(PREFIX + name);
  const unified = (w: string): Bucket | undefined => {
    const b: Bucket = {
      utilization: num(g(`unified-${w}-utilization`)),
      reset: resetToEpoch(g(`unified-${w}-reset`)),
      status: g(`unified-${w}-status`)?.trim() ?? undefined,
    };
    return b.utilization === undefined && b.reset === undefined && b.status === undefined ? undefined : b;
  };
  const perMinute: Record<string, Bucket> = {};
  for (const name of ["requests", "tokens", "input-tokens", "output-tokens"]) {
    const b: Bucket = {
      limit: num(g(`${name}-limit`)),
      remaining: num(g(`${name}-remaining`)),
      reset: resetToEpoch(g(`${name}-reset`)),
    };
    if (b.limit !== undefined || b.remaining !== undefined || b.reset !== undefined) {
      if (b.limit && b.remaining !== undefined) b.utilization = 1 - b.remaining / b.limit;
      perMinute[name] = b;
    }
  }
  return {
    fiveHour: unified("5h"),
    sevenDay: unified("7d"),
    unifiedStatus: g("unified-status")?.trim() ?? undefined,
    representativeClaim: g("unified-representative-claim")?.trim() ?? undefined,
    perMinute,
    retryAfter: retryAfterSeconds(headers),
  };
}

/**
 * The rail that tripped, readable: the representative claim if given, else a rejected unified
 * bucket, else the exhausted per-minute bucket.
 */
export function trippedRail(r: RateLimitReading): string | undefined {
  const pct = (b?: Bucket) => (b?.utilization !== undefined ? ` ${Math.round(b.utilization * 100)}%` : "");
  const claim = r.representativeClaim;
  if (claim === "five_hour") return `5h window${pct(r.fiveHour)}`;
  if (claim?.startsWith("seven_day")) return `7d window${pct(r.sevenDay)}`;
  if (claim) return claim;
  if (r.fiveHour?.status === "rejected") return `5h window${pct(r.fiveHour)}`;
  if (r.sevenDay?.status === "rejected") return `7d window${pct(r.sevenDay)}`;
  for (const [name, b] of Object.entries(r.perMinute)) {
    if (b.remaining === 0) return `${name} per minute`;
  }
  return undefined;
}

/**
 * Only vendor rate-limit headers (`anthropic-ratelimit-*`) and `retry-after` lines are kept in
 * headers.log (spec, "Captured response headers"): not the Priority Tier's `anthropic-priority-*`
 * nor the vendor's `retry-after-ms` (a 429's whole raw block is logged separately).
 */
export function isLoggedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith(PREFIX) || n === "retry-after";
}
