/**
 * The status line (spec, Status line rules and Session turn counter), pure:
 *
 * - OAuth rail: `ctx 6% (12.3k/200k) · 5h 42% reset 14:05 · 7d 59% reset Nov 24`
 * - API-key rail: `ctx 6% (12.3k/200k) · $0.042 · 3 turns`
 *
 * Context use is input + cache-creation + cache-read tokens of the last request, against the
 * model's window (cli/model/pricing.ts). A missing value is an em-dash; a reset already passed is
 * `stale`; under 100 columns the reset times are left out. Nothing is rendered before the first
 * completed turn unless forced (`/status`). The line is dim (`ESC[2m` … `ESC[0m`) or plain, with
 * no cursor-control sequence; the caller prints it (and honours ASSIST_NO_STATUS).
 *
 * @module
 */
import { contextUsed, priceOf } from "../model/pricing.ts";
import type { RateLimitReading } from "../model/ratelimit.ts";
import type { Usage } from "../model/types.ts";

/** Between the parts of the line. */
export const STATUS_SEPARATOR = " · ";
/** A value that is not known (yet). */
export const MISSING = "—";
/** Below this width the reset times are dropped. */
export const NARROW_COLUMNS = 100;

export interface StatusInput {
  rail: "api-key" | "oauth";
  /** Usage of the last request, if any. */
  lastUsage?: Usage;
  model: string;
  sessionCostUsd: number;
  /** Completed turns. */
  turns: number;
  rateLimits?: RateLimitReading;
  columns: number;
  /** Epoch milliseconds. */
  now: number;
  color: boolean;
  /** `/status`: render even before the first completed turn. */
  force?: boolean;
}

/**
 * A token count in a few characters: `950`, `12.3k`, `200k`, `1.2M`, `1M`.
 *
 * @example
 * ```ts
 * import { compactNumber } from "./status.ts";
 * compactNumber(12_345); // "12.3k"
 * ```
 */
export function compactNumber(n: number): string {
  if (!Number.isFinite(n)) return MISSING;
  const v = Math.max(0, Math.round(n));
  if (v < 1000) return String(v);
  const k = Math.round(v / 100) / 10;
  if (k < 1000) return `${trimZero(k)}k`;
  return `${trimZero(Math.round(v / 100_000) / 10)}M`;
}

function trimZero(x: number): string {
  return x.toFixed(1).replace(/\.0$/, "");
}

/** `42%`, `<1%` for a small non-zero share, em-dash when unknown. */
function percent(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return MISSING;
  const p = Math.round(ratio * 100);
  return p === 0 && ratio > 0 ? "<1%" : `${p}%`;
}

/** Dollars: `$0.042` under a dollar, `$1.23` under a hundred, `$123` above. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return MISSING;
  if (usd >= 99.995) return `$${Math.round(usd)}`;
  if (usd >= 0.9995) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(3)}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A reset (epoch seconds) as local `HH:MM` or `Mon D`; `stale` once passed; em-dash when unknown. */
export function formatReset(resetSeconds: number | undefined, now: number, as: "time" | "date"): string {
  if (resetSeconds === undefined || !Number.isFinite(resetSeconds)) return MISSING;
  if (resetSeconds * 1000 <= now) return "stale";
  const d = new Date(resetSeconds * 1000);
  if (as === "date") return `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The status line, or undefined when there is nothing to show yet (turn 0, not forced). */
export function renderStatus(o: StatusInput): string | undefined {
  if (o.turns <= 0 && !o.force) return undefined;
  const window = priceOf(o.model).contextWindow;
  const used = o.lastUsage ? contextUsed(o.lastUsage) : undefined;
  const parts = [
    `ctx ${percent(used === undefined ? undefined : used / window)} (${
      used === undefined ? MISSING : compactNumber(used)
    }/${compactNumber(window)})`,
  ];
  const wide = o.columns >= NARROW_COLUMNS;
  if (o.rail === "oauth") {
    const bucket = (
      label: string,
      b: { utilization?: number; reset?: number } | undefined,
      as: "time" | "date",
    ) => `${label} ${percent(b?.utilization)}` + (wide ? ` reset ${formatReset(b?.reset, o.now, as)}` : "");
    parts.push(bucket("5h", o.rateLimits?.fiveHour, "time"), bucket("7d", o.rateLimits?.sevenDay, "date"));
  } else {
    parts.push(formatCost(o.sessionCostUsd), `${o.turns} ${o.turns === 1 ? "turn" : "turns"}`);
  }
  let line = parts.join(STATUS_SEPARATOR);
  // Every character here is one column wide; a line wider than the terminal would wrap.
  const room = Math.max(1, o.columns - 1);
  if ([...line].length > room) line = [...line].slice(0, room - 1).join("") + "…";
  return o.color ? `\x1b[2m${line}\x1b[0m` : line;
}
