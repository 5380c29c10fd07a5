/** nc_revisions (spec): a thread's or a whole NetConfig's revision timeline, or the diffs between them. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRevisionsTool as def } from "../nc_revisions_tool.ts";
import type { ncRevisionsTool } from "../nc_revisions_tool.ts";
import { formatTime, TIME_FORMS } from "../../../core/time.ts";
import { siteZone, windowText } from "../site_zone.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { type NetConfig, NetConfigError, parseNetConfig } from "../netconfig/mod.ts";
import { type Change, changeLine, diffConfig } from "../diff.ts";
import { listSnapshots, liveMatch, sinceKey, type Snapshot } from "../revisions.ts";
import type { Site } from "../sites.ts";
import { renderTable } from "../table.ts";
import { resolveThread } from "../thread_ref.ts";

interface Event {
  snap: Snapshot;
  prev?: Snapshot;
  /** One-line summary for the timeline. */
  change: string;
  /** Sections of key changes for the diff format (a title per record in system scope). */
  sections: Array<{ title?: string; changes: Change[] }>;
}

function who(s: Snapshot): string {
  return s.who ?? "?";
}

function snapshotLabel(s: Snapshot): string {
  const c = s.checkIn?.comment ? ` ("${s.checkIn.comment}")` : "";
  return s.aliases.join(" = ") + c;
}

/**
 * Which saved version the live NetConfig is (`the live NetConfig is version 1.10`), or that it is
 * none of them; empty when the site has no saved versions or no live file.
 */
function liveText(site: string, snapshots: readonly Snapshot[], named: boolean): string {
  const m = liveMatch(snapshots);
  if (!m || snapshots.length < 2) return "";
  const where = named ? ` of ${site}` : "";
  if (m.labels.length === 0) return `the live NetConfig${where} matches none of the saved snapshots`;
  return m.exact
    ? `the live NetConfig${where} is ${m.labels.join(" = ")}`
    : `the live NetConfig${where} has the records of ${m.labels.join(" = ")} (only its prologue differs)`;
}

/** Longest value shown in a timeline row; the diff format shows every value whole. */
const VALUE_SHOWN = 80;

function shortValue(v: string | undefined): string {
  const one = (v ?? "").replace(/\s+/g, " ");
  return one.length > VALUE_SHOWN ? `${one.slice(0, VALUE_SHOWN - 1)}…` : one;
}

/** Every change of a timeline row with its values (`~PROTOCOL.PORT: 36110 -> 36111`), none left out. */
function changesSummary(changes: Change[]): string {
  return changes.map((c) =>
    c.op === "~"
      ? `~${c.path}: ${shortValue(c.old)} -> ${shortValue(c.new)}`
      : c.op === "+"
      ? `+${c.path}: ${shortValue(c.new)}`
      : `-${c.path}: ${shortValue(c.old)}`
  ).join("; ");
}

/** True when two NetConfigs hold the same records with the same settings (COORDS and the like aside). */
function sameRecords(a: NetConfig, b: NetConfig): boolean {
  if (a.entries.length !== b.entries.length) return false;
  const key = (t: string, n: string) => `${t}\0${n.toLowerCase()}`;
  const other = new Map(b.entries.map((e) => [key(e.type, e.name), e]));
  for (const e of a.entries) {
    const o = other.get(key(e.type, e.name));
    if (!o || diffConfig(o.config, e.config).length > 0) return false;
  }
  return true;
}

/**
 * The earlier saved version a snapshot's records equal when it is not simply the one before it: a
 * save that rolls the NetConfig back (`restores version 1.1`). The latest such version is named.
 */
function restoredFrom(
  earlier: ReadonlyArray<{ snap: Snapshot; nc: NetConfig }>,
  nc: NetConfig,
): Snapshot | undefined {
  for (let j = earlier.length - 2; j >= 0; j--) {
    if (sameRecords(earlier[j].nc, nc) && !sameRecords(earlier[earlier.length - 1].nc, nc)) {
      return earlier[j].snap;
    }
  }
  return undefined;
}

function restores(snap: Snapshot | undefined): string {
  return snap ? ` (this save restores ${snapshotLabel(snap)})` : "";
}

function parsed(s: Snapshot): NetConfig | string {
  try {
    return parseNetConfig(s.text, { source: s.label });
  } catch (err) {
    if (err instanceof NetConfigError) return err.message;
    throw err;
  }
}

function threadEvents(snaps: Snapshot[], thread: string): Event[] {
  const events: Event[] = [];
  let prevCfg: ReturnType<NetConfig["protocol"]>;
  let prev: Snapshot | undefined;
  let seen = false;
  const earlier: Array<{ snap: Snapshot; nc: NetConfig }> = [];
  for (const s of snaps) {
    const nc = parsed(s);
    if (typeof nc === "string") {
      events.push({ snap: s, prev, change: `unreadable: ${nc}`, sections: [] });
      continue;
    }
    const cur = nc.protocol(thread);
    const back = restores(restoredFrom(earlier, nc));
    if (!seen) {
      if (cur) {
        events.push({ snap: s, prev, change: (prev ? "added" : "first snapshot") + back, sections: [] });
        seen = true;
      }
    } else if (prevCfg && !cur) {
      events.push({ snap: s, prev, change: `removed${back}`, sections: [] });
    } else if (!prevCfg && cur) {
      events.push({ snap: s, prev, change: `added again${back}`, sections: [] });
    } else if (prevCfg && cur) {
      const changes = diffConfig(prevCfg.config, cur.config);
      if (changes.length) {
        events.push({
          snap: s,
          prev,
          change: `${changes.length} change${changes.length === 1 ? "" : "s"}: ${
            changesSummary(changes)
          }${back}`,
          sections: [{ changes }],
        });
      }
    }
    earlier.push({ snap: s, nc });
    prevCfg = cur;
    prev = s;
  }
  return events;
}

/**
 * The changes to a whole NetConfig, snapshot by snapshot. A snapshot that changes no record (saved
 * again as it was, or only moved in the IDE: COORDS) is no revision: it is counted in `unchanged`,
 * not listed.
 */
function systemEvents(snaps: Snapshot[], unchanged: { n: number; labels: string[] }): Event[] {
  const events: Event[] = [];
  let prevNc: NetConfig | undefined;
  let prev: Snapshot | undefined;
  const earlier: Array<{ snap: Snapshot; nc: NetConfig }> = [];
  for (const s of snaps) {
    const nc = parsed(s);
    if (typeof nc === "string") {
      events.push({ snap: s, prev, change: `unreadable: ${nc}`, sections: [] });
      continue;
    }
    if (!prevNc) {
      events.push({
        snap: s,
        prev,
        change:
          `first snapshot: ${nc.protocols.length} threads, ${nc.processes.length} process${
            nc.processes.length === 1 ? "" : "es"
          }, ` +
          `${nc.destinations.length} destination${nc.destinations.length === 1 ? "" : "s"}`,
        sections: [],
      });
    } else {
      const added: string[] = [], removed: string[] = [], changed: string[] = [];
      const sections: Event["sections"] = [];
      const key = (t: string, n: string) => `${t}\0${n.toLowerCase()}`;
      const before = new Map(prevNc.entries.map((e) => [key(e.type, e.name), e]));
      const after = new Map(nc.entries.map((e) => [key(e.type, e.name), e]));
      for (const e of nc.entries) {
        const old = before.get(key(e.type, e.name));
        if (!old) {
          added.push(e.name);
          sections.push({ title: `+ ${e.type} ${e.name}`, changes: [] });
          continue;
        }
        const changes = diffConfig(old.config, e.config);
        if (changes.length) {
          changed.push(`${e.name} (${changesSummary(changes)})`);
          sections.push({ title: `~ ${e.type} ${e.name}`, changes });
        }
      }
      for (const e of prevNc.entries) {
        if (!after.has(key(e.type, e.name))) {
          removed.push(e.name);
          sections.push({ title: `- ${e.type} ${e.name}`, changes: [] });
        }
      }
      const parts = [
        added.length ? `added ${added.join(", ")}` : "",
        removed.length ? `removed ${removed.join(", ")}` : "",
        changed.length ? `changed ${changed.join(", ")}` : "",
      ].filter((p) => p !== "");
      if (parts.length === 0) {
        unchanged.n++;
        unchanged.labels.push(s.aliases.join(" = "));
      } else {events.push({
          snap: s,
          prev,
          change: parts.join("; ") + restores(restoredFrom(earlier, nc)),
          sections,
        });}
    }
    earlier.push({ snap: s, nc });
    prevNc = nc;
    prev = s;
  }
  return events;
}

export async function run(input: InputOf<typeof ncRevisionsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const system = input.system;
    const siteArg = input.site;
    const threadArg = input.thread;
    if (!system && !threadArg && !siteArg) {
      throw new EngineInputError(
        "usage",
        "name a thread (<site> <thread>, <thread>.<site> or <thread>) or pass --system",
      );
    }
    if (system && threadArg) throw new EngineInputError("usage", "give a thread or --system, not both");
    const utc = input.utc === true;
    const limit = input.limit;
    const format = input.format;

    let sites: Site[];
    let thread: string | undefined;
    if (threadArg || (siteArg && !system)) {
      const ref = await resolveThread(engine, siteArg, threadArg).catch(async (err) => {
        // A thread the live NetConfig no longer has (removed, or a rollback to a version without it)
        // is what its history is asked for most: its site's saved versions are read for it.
        if (!(err instanceof EngineInputError) || err.kind !== "unknown_thread" || !siteArg || !threadArg) {
          throw err;
        }
        return { site: await engine.site(siteArg), entry: { name: threadArg } };
      });
      if (ref.entry) {
        if (system) throw new EngineInputError("usage", "give a thread or --system, not both");
        thread = ref.entry.name;
      } else if (!system) {
        throw new EngineInputError(
          "usage",
          `name a thread of site ${ref.site.name} (nc_revisions ${ref.site.name} <thread>) or pass --system`,
        );
      }
      sites = [ref.site];
    } else if (siteArg !== undefined && siteArg.trim() !== "*") {
      sites = [await engine.site(siteArg)];
    } else if (siteArg === undefined && engine.defaultSiteName() !== undefined) {
      // --site defaults to $HCISITE, as in every engine tool; `--site '*'` asks for every site.
      sites = [await engine.site()];
    } else {
      sites = (await engine.sites()).sites.filter((s) => s.hasNetConfig);
    }

    // Bare dates and times mean the site's wall clock (the engine root's with several sites).
    const tz = await siteZone(
      engine,
      sites.length === 1 ? sites[0] : undefined,
      input.tz,
    );
    const bound = (key: "since" | "until") => {
      const v = input[key];
      if (v === undefined) return undefined;
      const k = sinceKey(v, key === "until", Date.now(), tz.zone);
      if (k === undefined) throw new EngineInputError("bad_time", `--${key} ${v}: expected ${TIME_FORMS}`);
      return k;
    };
    const since = bound("since");
    const until = bound("until");
    const isKey = (key: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(key);
    const when = (key: string) =>
      isKey(key) ? formatTime(Date.parse(key), { utc, zone: tz.zone }) : key || "?";
    const unchanged = { n: 0, labels: [] as string[] };
    let events: Event[] = [];
    const notes: string[] = [];
    let snapCount = 0;
    const live: string[] = [];
    for (const site of sites) {
      const { snapshots, notes: n } = await listSnapshots(engine.fs, site);
      snapCount += snapshots.length;
      live.push(liveText(site.name, snapshots, sites.length > 1));
      notes.push(...n.map((x) => `${site.name}: ${x}`));
      events.push(...(thread ? threadEvents(snapshots, thread) : systemEvents(snapshots, unchanged)));
    }
    if (thread && events.length === 0) {
      throw new EngineInputError(
        "unknown_thread",
        `thread "${thread}" is in no saved NetConfig of site ${sites[0].name}`,
      );
    }
    events.sort((a, b) => (a.snap.sortKey < b.snap.sortKey ? 1 : a.snap.sortKey > b.snap.sortKey ? -1 : 0));
    if (since) events = events.filter((e) => e.snap.sortKey >= since);
    if (until) events = events.filter((e) => e.snap.sortKey <= until);
    const total = events.length;
    events = events.slice(0, limit);
    const scope = thread
      ? `thread ${thread} of site ${sites[0].name}`
      : `the NetConfig of ${sites.map((s) => s.name).join(", ")}`;

    const lines: string[] = [];
    if (format === "timeline") {
      if (events.length) {
        lines.push(
          renderTable(
            ["WHEN", "WHO", "SITE", "SNAPSHOT", "CHANGE"],
            events.map((
              e,
            ) => [when(e.snap.sortKey), who(e.snap), e.snap.site, snapshotLabel(e.snap), e.change]),
            "text",
          ),
          "",
        );
      }
    } else {
      for (const e of events) {
        const head = `=== ${e.snap.site}: ${snapshotLabel(e.snap)} (${who(e.snap)}, ${
          e.snap.when ?? when(e.snap.sortKey)
        })`;
        lines.push(
          e.prev
            ? `${head}\n    vs ${snapshotLabel(e.prev)} (${who(e.prev)}, ${
              e.prev.when ?? when(e.prev.sortKey)
            })`
            : head,
        );
        if (e.sections.length === 0) lines.push(e.change);
        for (const s of e.sections) {
          if (s.title) lines.push(s.title);
          for (const c of s.changes) lines.push((s.title ? "    " : "") + changeLine(c));
        }
        lines.push("");
      }
    }
    const shown = total > events.length ? `${events.length} of ${total}` : `${total}`;
    lines.push(
      `[nc_revisions: ${shown} change${total === 1 ? "" : "s"} to ${scope}, newest first, ` +
        `from ${snapCount} distinct snapshot${snapCount === 1 ? "" : "s"}${
          since || until
            ? ` ${
              windowText({
                since: since && isKey(since) ? Date.parse(since) : undefined,
                until: until && isKey(until) ? Date.parse(until) : undefined,
              }, tz.zone)
            } (dates in ${tz.zone}, ${tz.source})`
            : ""
        }${
          unchanged.n
            ? `; ${unchanged.n} saved without a change to any record, not counted (${
              unchanged.labels.slice(0, 8).join(", ")
            }${unchanged.labels.length > 8 ? ", ..." : ""})`
            : ""
        }${live.filter(Boolean).map((l) => `; ${l}`).join("")}]`,
    );
    for (const n of notes) lines.push(`[note: ${n}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
