/** core/time.ts: the one reading of --since/--until, and the one way times are shown. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { formatTime, parseTimeArg, zoneName } from "../../core/time.ts";

const NOW = Date.UTC(2024, 10, 20, 12, 0, 0);

Deno.test("parseTimeArg: dates, date-times, zones, ages and epochs", () => {
  assertEquals(parseTimeArg("2024-11-20T08:05Z"), Date.UTC(2024, 10, 20, 8, 5));
  assertEquals(parseTimeArg("2024-11-20 8:05:30-06:00"), Date.UTC(2024, 10, 20, 14, 5, 30));
  assertEquals(parseTimeArg("2024-11-20T08:05:30.25+0100"), Date.UTC(2024, 10, 20, 7, 5, 30, 250));
  // No zone: local time.
  assertEquals(parseTimeArg("2024-11-20"), new Date(2024, 10, 20).getTime());
  assertEquals(parseTimeArg("2024-3-5T08:05"), new Date(2024, 2, 5, 8, 5).getTime());
  assertEquals(parseTimeArg("2024-11-20", { end: true }), new Date(2024, 10, 20).getTime() + 86_399_999);
  assertEquals(parseTimeArg("7d", { now: NOW }), NOW - 7 * 86_400_000);
  assertEquals(parseTimeArg("36h", { now: NOW }), NOW - 36 * 3_600_000);
  assertEquals(parseTimeArg("90m", { now: NOW }), NOW - 90 * 60_000);
  assertEquals(parseTimeArg("2w", { now: NOW }), NOW - 14 * 86_400_000);
  assertEquals(parseTimeArg("1732089600"), 1732089600000);
});

Deno.test("parseTimeArg: impossible dates and times are no dates (never rolled over)", () => {
  for (
    const bad of [
      "2024-13-45",
      "2024-02-30",
      "2023-02-29",
      "2024-00-10",
      "2024-11-00",
      "2024-11-20T24:00",
      "2024-11-20T08:60",
      "2024-11-20T08:05:61",
      "2024-11-20T08:05+15:00",
      "yesterday",
      "7 days",
      "",
    ]
  ) {
    assertEquals(parseTimeArg(bad), undefined, bad);
  }
  assertEquals(parseTimeArg("2024-02-29"), new Date(2024, 1, 29).getTime());
});

Deno.test("formatTime: UTC on request; the local zone with its offset otherwise", () => {
  const t = Date.UTC(2024, 10, 20, 8, 11, 0);
  assertEquals(formatTime(t, { utc: true }), "2024-11-20T08:11:00Z");
  assertEquals(formatTime(undefined), "?");
  const shown = formatTime(t);
  // Whatever the zone, the text is ISO 8601 with an offset and names the same instant.
  assertEquals(Date.parse(shown), t);
  const offset = -new Date(t).getTimezoneOffset();
  if (offset === 0) assertEquals(shown, "2024-11-20T08:11:00Z");
  else assertEquals(/[+-]\d{2}:\d{2}$/.test(shown), true);
});

Deno.test("parseTimeArg and formatTime in a named zone: the site's wall clock, DST included", () => {
  const chicago = "America/Chicago";
  // Monday in Chicago starts at 06:00Z in winter, 05:00Z in summer, whatever this machine's zone.
  assertEquals(parseTimeArg("2026-11-23", { zone: chicago }), Date.UTC(2026, 10, 23, 6));
  assertEquals(parseTimeArg("2026-07-06T08:30", { zone: chicago }), Date.UTC(2026, 6, 6, 13, 30));
  // An explicit zone in the text wins over the site's.
  assertEquals(parseTimeArg("2026-11-23T00:00Z", { zone: chicago }), Date.UTC(2026, 10, 23));
  // A bare date as --until: its last millisecond there (the fall-back day has 25 hours).
  assertEquals(parseTimeArg("2026-11-01", { zone: chicago, end: true }), Date.UTC(2026, 10, 2, 6) - 1);
  assertEquals(formatTime(Date.UTC(2026, 10, 23, 6), { zone: chicago }), "2026-11-23T00:00:00-06:00");
  assertEquals(formatTime(Date.UTC(2026, 6, 6, 13, 30), { zone: chicago }), "2026-07-06T08:30:00-05:00");
  assertEquals(
    formatTime(Date.UTC(2026, 6, 6, 13, 30), { zone: chicago, utc: true }),
    "2026-07-06T13:30:00Z",
  );
  assertEquals(zoneName("/usr/share/zoneinfo/America/Chicago"), chicago);
  assertEquals(zoneName(":Etc/UTC"), "UTC");
  assertEquals(zoneName("Mars/Olympus_Mons"), undefined);
});
