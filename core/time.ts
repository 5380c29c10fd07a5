/**
 * Times as operators give and read them, the same in every tool: `--since`/`--until` take a date
 * (`2024-11-20`), a date and time (`2024-11-20T08:05[:30]`, in the zone the caller names, such as
 * the engine site's, else local time, unless a zone `Z` or `±hh:mm` is given), epoch seconds or
 * milliseconds, or an age before now (`90m`, `36h`, `7d`, `2w`, `30s`).
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
  options: { end?: boolean; now?: number; zone?: string } = {},
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
  } else if (options.zone !== undefined) {
    at = wallTimeIn(options.zone, y, mo, d, h, mi, s, ms);
  } else {
    const local = new Date(y, mo - 1, d, h, mi, s, ms);
    local.setFullYear(y); // years 0-99 are not 1900-1999
    at = local.getTime();
  }
  if (Number.isNaN(at)) return undefined;
  if (!hasTime && options.end) {
    // The day's last millisecond: the next midnight less one (a day of 23 or 25 hours in a zone with DST).
    return options.zone !== undefined && !m[8]
      ? wallTimeIn(options.zone, y, mo, d + 1, 0, 0, 0, 0) - 1
      : at + 86_399_999;
  }
  return at;
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
export function formatTime(ms: number | undefined, options: { utc?: boolean; zone?: string } = {}): string {
  if (ms === undefined || !Number.isFinite(ms)) return "?";
  if (options.zone !== undefined && !options.utc) {
    const offset = zoneOffset(options.zone, ms);
    if (offset === 0) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    const w = new Date(ms + offset * 60_000);
    const a = Math.abs(offset);
    return `${String(w.getUTCFullYear()).padStart(4, "0")}-${two(w.getUTCMonth() + 1)}-${
      two(w.getUTCDate())
    }T` +
      `${two(w.getUTCHours())}:${two(w.getUTCMinutes())}:${two(w.getUTCSeconds())}${offset > 0 ? "+" : "-"}` +
      `${two(Math.floor(a / 60))}:${two(a % 60)}`;
  }
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

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(zone, f);
  }
  return f;
}

/**
 * A time zone as the host or a setting names it, in the form Intl reads: an IANA name
 * (`America/Chicago`, also written `:America/Chicago` or as a `/usr/share/zoneinfo/...` path), a
 * POSIX legacy name Intl knows (`CST6CDT`), `UTC`, or an offset (`-06:00`); undefined when none.
 *
 * @example
 * ```ts
 * zoneName("/usr/share/zoneinfo/America/Chicago"); // "America/Chicago"
 * zoneName("Etc/UTC"); // "UTC" (the canonical name)
 * zoneName("Mars/Olympus"); // undefined
 * ```
 */
export function zoneName(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let t = text.trim().replace(/^:/, "");
  const at = t.indexOf("zoneinfo/");
  if (at >= 0) t = t.slice(at + "zoneinfo/".length);
  if (t === "" || t.length > 64) return undefined;
  if (/^z$/i.test(t)) t = "UTC";
  try {
    return zoneFormat(t).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Minutes east of UTC of `zone` at the instant `ms` (0 for a zone Intl does not know). */
export function zoneOffset(zone: string, ms: number): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = zoneFormat(zone).formatToParts(new Date(ms));
  } catch {
    return 0;
  }
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant a wall-clock time in `zone` names (the earlier one in a repeated hour). */
function wallTimeIn(
  zone: string,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
) {
  const wall = new Date(0);
  wall.setUTCFullYear(y, mo - 1, d);
  wall.setUTCHours(h, mi, s, ms);
  const guess = wall.getTime();
  const first = guess - zoneOffset(zone, guess) * 60_000;
  const second = guess - zoneOffset(zone, first) * 60_000;
  return Math.min(first, second);
}
