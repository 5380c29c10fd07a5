/** nc_revisions (spec): a thread's or a whole NetConfig's revision timeline, or the diffs between them. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncRevisionsTool as def } from "../nc_revisions_tool.ts";
import { formatTime, TIME_FORMS } from "../../../core/time.ts";
import { siteZone, windowText } from "../site_zone.ts";
import type { ToolContext, ToolInput, ToolResult } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { type NetConfig, NetConfigError, parseNetConfig } from "../netconfig/mod.ts";
import { type Change, changeLine, diffConfig } from "../diff.ts";
import { listSnapshots, sinceKey, type Snapshot } from "../revisions.ts";
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

function pathsSummary(changes: Change[]): string {
  const shown = changes.slice(0, 3).map((c) => `${c.op}${c.path}`);
  return shown.join(", ") + (changes.length > 3 ? `, +${changes.length - 3} more` : "");
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
  for (const s of snaps) {
    const nc = parsed(s);
    if (typeof nc === "string") {
      events.push({ snap: s, prev, change: `unreadable: ${nc}`, sections: [] });
      continue;
    }
    const cur = nc.protocol(thread);
    if (!seen) {
      if (cur) {
        events.push({ snap: s, prev, change: prev ? "added" : "first snapshot", sections: [] });
        seen = true;
      }
    } else if (prevCfg && !cur) {
      events.push({ snap: s, prev, change: "removed", sections: [] });
    } else if (!prevCfg && cur) {
      events.push({ snap: s, prev, change: "added again", sections: [] });
    } else if (prevCfg && cur) {
      const changes = diffConfig(prevCfg.config, cur.config);
      if (changes.length) {
        events.push({
          snap: s,
          prev,
          change: `${changes.length} change${changes.length === 1 ? "" : "s"}: ${pathsSummary(changes)}`,
          sections: [{ changes }],
        });
      }
    }
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
function systemEvents(snaps: Snapshot[], unchanged: { n: number }): Event[] {
  const events: Event[] = [];
  let prevNc: NetConfig | undefined;
  let prev: Snapshot | undefined;
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
          changed.push(`${e.name} (${changes.length})`);
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
      if (parts.length === 0) unchanged.n++;
      else events.push({ snap: s, prev, change: parts.join("; "), sections });
    }
    prevNc = nc;
    prev = s;
  }
  return events;
}

export async function run(input: ToolInput, ctx: ToolContext): Promise<ToolResult> {
  try {
    const engine = await engineFor(input, ctx);
    const system = input.system as boolean;
    const siteArg = input.site as string | undefined;
    const threadArg = input.thread as string | undefined;
    if (!system && !threadArg && !siteArg) {
      throw new EngineInputError(
        "usage",
        "name a thread (<site> <thread>, <thread>.<site> or <thread>) or pass --system",
      );
    }
    if (system && threadArg) throw new EngineInputError("usage", "give a thread or --system, not both");
    const utc = input.utc === true;
    const limit = input.limit as number;
    const format = input.format as "timeline" | "diff";

    let sites: Site[];
    let thread: string | undefined;
    if (threadArg || (siteArg && !system)) {
      const ref = await resolveThread(engine, siteArg, threadArg);
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
      input.tz as string | undefined,
    );
    const bound = (key: "since" | "until") => {
      const v = input[key] as string | undefined;
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
    const unchanged = { n: 0 };
    let events: Event[] = [];
    const notes: string[] = [];
    let snapCount = 0;
    for (const site of sites) {
      const { snapshots, notes: n } = await listSnapshots(engine.fs, site);
      snapCount += snapshots.length;
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
        }${unchanged.n ? `; ${unchanged.n} saved without a change to any record, not counted` : ""}]`,
    );
    for (const n of notes) lines.push(`[note: ${n}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    return failure(err);
  }
}
