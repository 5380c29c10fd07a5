/**
 * The time zone an engine site's dates are read and shown in: bare dates and times given to a tool
 * (`--since 2026-11-23`) mean the site's wall clock, not this machine's. The zone comes from, in
 * order: the operator's `tz` argument; the site's settings (`timezone=` or `TZ=` in siteInfo); the
 * engine host's `TZ` (its login shell's over SSH); the host's clock (`/etc/localtime` over SSH,
 * this machine's zone for a local root). Over SSH with none of these, this machine's zone, said so.
 *
 * @module
 */
import { formatTime, zoneName } from "../../core/time.ts";
import type { Engine } from "./engine.ts";
import { EngineInputError } from "./errors.ts";
import { readSiteInfo, type Site } from "./sites.ts";

export interface SiteZone {
  /** An IANA name (or offset) Intl reads. */
  zone: string;
  /** Where it came from, in words (`the host's TZ`). */
  source: string;
}

/** This machine's zone. */
export function machineZone(): string {
  return zoneName(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
}

/**
 * The zone of a site (or of the engine root when no site is named; this machine's for a file read
 * with no engine). Throws EngineInputError `bad_tz` for a `tz` argument Intl does not know.
 */
export async function siteZone(
  engine: Engine | undefined,
  site: Site | undefined,
  tz?: string,
): Promise<SiteZone> {
  if (tz !== undefined && tz.trim() !== "") {
    const zone = zoneName(tz);
    if (!zone) {
      throw new EngineInputError(
        "bad_tz",
        `--tz ${tz.trim().slice(0, 40)}: expected a zone such as America/Chicago, UTC or -06:00`,
      );
    }
    return { zone, source: "--tz" };
  }
  if (!engine) return { zone: machineZone(), source: "this machine's zone (no engine site)" };
  if (site) {
    const info = await readSiteInfo(engine.fs, site).catch(() => undefined);
    for (const key of ["timezone", "TZ", "tz"]) {
      const zone = zoneName(info?.get(key));
      if (zone) return { zone, source: `${site.name}/siteInfo ${key}` };
    }
  }
  if (!engine.isLocal) {
    const fromTz = zoneName(engine.hostVar("TZ"));
    if (fromTz) return { zone: fromTz, source: "the engine host's TZ" };
    const fromClock = zoneName(engine.hostVar("ZONE"));
    if (fromClock) return { zone: fromClock, source: "the engine host's clock" };
    return { zone: machineZone(), source: "this machine's zone: the engine host's is unknown (pass --tz)" };
  }
  return { zone: machineZone(), source: "the engine host's clock" };
}

/**
 * A window in the site's zone and in UTC, for footers: `since 2026-11-23T00:00:00-06:00
 * (06:00:00Z)`; the UTC date is written only when it differs.
 *
 * @example
 * ```ts
 * windowText({ since: Date.UTC(2026, 10, 23, 6) }, "America/Chicago");
 * // "since 2026-11-23T00:00:00-06:00 (2026-11-23T06:00:00Z)"
 * ```
 */
export function windowText(w: { since?: number; until?: number }, zone: string): string {
  const one = (ms: number) => {
    const local = formatTime(ms, { zone });
    const utc = formatTime(ms, { utc: true });
    return local === utc ? utc : `${local} (${utc})`;
  };
  return [
    w.since !== undefined ? `since ${one(w.since)}` : "",
    w.until !== undefined ? `until ${one(w.until)}` : "",
  ].filter((x) => x !== "").join(" ");
}
