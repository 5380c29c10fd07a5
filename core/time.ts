/**
 * Times as operators give and read them, the same in every tool: `--since`/`--until` take a date
 * (`2024-11-20`), a date and time (`2024-11-20T08:05[:30]`, local time unless a zone `Z` or `±hh:mm`
 * is given), epoch seconds or milliseconds, or an age before now (`90m`, `36h`, `7d`, `2w`, `30s`).
 * An impossible date (`2024-13-45`, `2024-02-30`, `25:00`) is no date: it is never rolled over.
 * Times are shown in the local zone with its offset (`2024-11-20T02:11:00-06:00`; `Z` when the zone
 * is UTC), or in UTC on request.
 *
 * @module
 */

/** The accepted forms, for usage errors. */
export const TIME_FORMS = "a date (2024-11-20), a date and time (2024-11-20T08:05, local time unless a " +
  "zone such as Z or -06:00 is given), epoch seconds, or an age (90m, 36h, 7d)";

const AGE_MS: Record<string, number> = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 };

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A time bound in epoch milliseconds, or undefined when the text is no time of the forms above (or
 * an impossible one). `end` makes a bare date mean its last millisecond (for `--until`).
 *
 * @example
 * ```ts
 * parseTimeArg("2024-11-20T08:05Z"); // 1732089900000
 * parseTimeArg("2h", { now: Date.UTC(2024, 0, 1) }); // 2023-12-31T22:00Z
 * parseTimeArg("2024-13-45"); // undefined
 * ```
 */
export function parseTimeArg(
  text: string,
  options: { end?: boolean; now?: number } = {},
): number | undefined {
  const t = text.trim();
  const now = options.now ?? Date.now();
  let m = t.match(/^(\d+(?:\.\d+)?)\s*([smhdw])$/i);
  if (m) return now - Number(m[1]) * AGE_MS[m[2].toLowerCase()];
  if (/^\d{10}$/.test(t)) return Number(t) * 1000;
  if (/^\d{13}$/.test(t)) return Number(t);
  m = t.match(
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i,
  );
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return undefined;
  const hasTime = m[4] !== undefined;
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = m[7] ? Number(m[7].padEnd(3, "0")) : 0;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  if (m[8] && !hasTime) return undefined;
  let at: number;
  if (m[8]) {
    const zone = m[8].toUpperCase();
    let offset = 0;
    if (zone !== "Z") {
      const z = zone.match(/^([+-])(\d{2}):?(\d{2})$/)!;
      if (Number(z[2]) > 14 || Number(z[3]) > 59) return undefined;
      offset = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
    }
    at = Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset * 60_000;
  } else {
    const local = new Date(y, mo - 1, d, h, mi, s, ms);
    local.setFullYear(y); // years 0-99 are not 1900-1999
    at = local.getTime();
  }
  if (Number.isNaN(at)) return undefined;
  return !hasTime && options.end ? at + 86_399_999 : at;
}

const two = (n: number) => String(n).padStart(2, "0");

/**
 * `2024-11-20T02:11:00-06:00` in the local zone (`Z` when it is UTC), or `2024-11-20T08:11:00Z`
 * with `utc`; `?` for no time.
 *
 * @example
 * ```ts
 * formatTime(Date.UTC(2024, 10, 20, 8, 11), { utc: true }); // "2024-11-20T08:11:00Z"
 * ```
 */
export function formatTime(ms: number | undefined, options: { utc?: boolean } = {}): string {
  if (ms === undefined || !Number.isFinite(ms)) return "?";
  const d = new Date(ms);
  const offset = options.utc ? 0 : -d.getTimezoneOffset();
  if (offset === 0) return d.toISOString().replace(/\.\d{3}Z$/, "Z");
  const sign = offset > 0 ? "+" : "-";
  const a = Math.abs(offset);
  return `${String(d.getFullYear()).padStart(4, "0")}-${two(d.getMonth() + 1)}-${two(d.getDate())}T` +
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}${sign}${two(Math.floor(a / 60))}:${
      two(a % 60)
    }`;
}
