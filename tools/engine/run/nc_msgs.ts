/** nc_msgs: list and search messages in SMAT archives (.smatdb and .idx/.msg), newest first. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncMsgsTool as def } from "../nc_msgs_tool.ts";
import type { ncMsgsTool } from "../nc_msgs_tool.ts";
import { expandTilde } from "../../../core/tilde.ts";
import { posix, win32 } from "../../../core/path.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { toolError } from "../../types.ts";
import { engineFor, failure } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { localEngineFs } from "../engine_fs.ts";
import {
  archiveThread,
  canBeAnswered,
  checkPath,
  contentMatches,
  fieldRows,
  groupStats,
  headerOf,
  inRange,
  isReply,
  type Joined,
  joinReplies,
  type MessageFilter,
  namedSmatFile,
  parseCondition,
  parseTime,
  readSampleTsv,
  readSmatDb,
  readSmatFiles,
  siteSmatFiles,
  type SmatFile,
  type SmatMessage,
  SmatQueryError,
  threadSmatFiles,
  valuesOf,
} from "../smat/mod.ts";
import { renderTable } from "../table.ts";
import { utf8Length } from "../../../core/bytes.ts";
import { resolveThread } from "../thread_ref.ts";
import type { Site } from "../sites.ts";
import { formatTime, TIME_FORMS } from "../../../core/time.ts";
import { type SiteZone, siteZone, windowText } from "../site_zone.ts";

function filterOf(input: InputOf<typeof ncMsgsTool>, zone: string): MessageFilter {
  const f: MessageFilter = {};
  for (const [key, end] of [["since", false], ["until", true]] as const) {
    const v = input[key];
    if (v === undefined) continue;
    const t = parseTime(v, end, Date.now(), zone);
    if (t === undefined) {
      throw new EngineInputError(
        "bad_time",
        `--${key} ${v}: expected ${TIME_FORMS}`,
      );
    }
    f[key] = t;
  }
  if (input.text !== undefined && input.text !== "") f.text = input.text;
  f.ignoreCase = input.ignore_case;
  const conds = input.hl7 ?? [];
  if (conds.length) f.hl7 = conds.map(parseCondition);
  f.otherForms = new Map();
  return f;
}

export async function run(input: InputOf<typeof ncMsgsTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const limit = input.limit;
    const utc = input.utc === true;
    // Questions over every match (a count, counts per value, replies joined) read every match;
    // a listing reads one more than it shows (to know whether more matched).
    const wide = input.count || input.group_by !== undefined || input.join_replies;
    // A window with a start may reach back into the cycled copies: they are read too, and said so.
    const history = input.history || input.since !== undefined;
    for (
      const [what, path] of [["group_by", input.group_by], ...(input.fields ?? []).map((f) => ["fields", f])]
    ) {
      const bad = path === undefined ? undefined : checkPath(path, what === "fields" ? "fields" : "group_by");
      if (bad) throw new EngineInputError("usage", bad);
    }
    let files: SmatFile[];
    // SmatHistory copies there are but this call does not read (said in a note).
    let unread = 0;
    let fs;
    let siteName: string | undefined;
    let siteDir: string | undefined;
    let scope: string;
    let tz: SiteZone;
    /** The site of each archive read (none for --file). */
    const siteOf = new Map<string, Site>();
    if (input.file) {
      fs = localEngineFs(ctx);
      const lib = Deno.build.os === "windows" ? win32 : posix;
      const path = lib.resolve(ctx.cwd, expandTilde(input.file));
      const f = await namedSmatFile(fs, path);
      if (!f) {
        return toolError("not_found", `no SMAT archive at ${input.file} (.smatdb, .idx/.msg)`, { path });
      }
      files = [f];
      scope = path;
      tz = await siteZone(undefined, undefined, input.tz);
    } else {
      const engine = await engineFor(input, ctx);
      fs = engine.fs;
      const siteArg = input.site;
      const threadArg = input.thread;
      if (!siteArg?.trim() && !threadArg?.trim()) {
        // Neither a site nor a thread: every site's archives, with a SITE column.
        const sites = (await engine.sites()).sites.filter((s) => s.hasNetConfig);
        files = [];
        for (const site of sites) {
          for (const f of await siteSmatFiles(fs, site, history)) {
            files.push(f);
            siteOf.set(f.path, site);
          }
          if (!history) unread += historyOnly(await siteSmatFiles(fs, site, true));
        }
        scope = `${sites.length} site${sites.length === 1 ? "" : "s"}`;
        tz = await siteZone(engine, undefined, input.tz);
        if (files.length === 0) {
          return toolError("no_smat", `no SMAT archives in any site's exec/processes under ${engine.root}`);
        }
      } else {
        const { site, entry } = await resolveThread(
          engine,
          siteArg,
          threadArg,
        );
        siteName = site.name;
        siteDir = site.dir;
        tz = await siteZone(engine, site, input.tz);
        if (entry) {
          const thread = entry;
          const r = await threadSmatFiles(
            fs,
            site,
            thread,
            input.direction,
            history,
          );
          files = r.files;
          if (!history) {
            unread += historyOnly((await threadSmatFiles(fs, site, thread, input.direction, true)).files);
          }
          scope = `thread ${thread.name} of site ${site.name}`;
          if (files.length === 0) {
            const proc = (thread.config.str("PROCESSNAME") ?? "?").trim();
            return toolError(
              "no_smat",
              r.names.length
                ? `no SMAT archive for ${thread.name}: SAVEMSGS names ${
                  r.names.join(", ")
                }, but no .smatdb or .idx of ` +
                  `that name is in ${fs.join(site.dir, "exec", "processes", proc)}`
                : `${thread.name} saves no messages (SAVEMSGS has no INFILE or OUTFILE)`,
              { thread: thread.name },
            );
          }
        } else {
          files = await siteSmatFiles(fs, site, history);
          if (!history) unread += historyOnly(await siteSmatFiles(fs, site, true));
          scope = `site ${site.name}`;
          if (files.length === 0) {
            return toolError("no_smat", `no SMAT archives in ${fs.join(site.dir, "exec", "processes")}`);
          }
        }
        for (const f of files) siteOf.set(f.path, site);
      }
    }
    const matchFilter = filterOf(input, tz.zone);
    // Replies are joined whatever the conditions say (they select the originals), within the
    // window and an hour after it.
    const filter: MessageFilter = input.join_replies
      ? {
        since: matchFilter.since,
        until: matchFilter.until === undefined ? undefined : matchFilter.until + 3_600_000,
      }
      : matchFilter;
    const zone = tz.zone;
    const notes: string[] = [];
    const all: Array<SmatMessage & { order: number }> = [];
    let read = 0;
    const readLimit = wide ? Number.MAX_SAFE_INTEGER : limit + 1;
    for (const [order, f] of files.entries()) {
      // One more than shown: whether more matched than the limit lets through is then known.
      const r = f.format === "smatdb"
        ? await readSmatDb(fs, f.path, filter, readLimit, siteOf.get(f.path)?.name ?? siteName)
        : f.format === "tsv"
        ? await readSampleTsv(fs, f.path, filter, readLimit)
        : await readSmatFiles(fs, f.path, filter, readLimit);
      if (r.skipped) {
        if (files.length === 1) {
          return toolError(
            r.skipped.kind === "encrypted" ? "smat_encrypted" : "smat_unreadable",
            r.skipped.message,
            { path: f.path },
          );
        }
        notes.push(r.skipped.message);
        continue;
      }
      if ("bad" in r && r.bad) {
        notes.push(`${f.path}: ${r.bad} unreadable index record${r.bad === 1 ? "" : "s"} skipped`);
      }
      read++;
      for (const m of r.messages) all.push({ ...m, order });
    }
    if (read === 0) return toolError("smat_unreadable", notes.join("; "));
    all.sort((a, b) => (b.time ?? -Infinity) - (a.time ?? -Infinity) || a.order - b.order || b.seq - a.seq);
    // A message kept in a live archive and in a cycled copy (or two copies) is one message.
    const copies = dedupe(all);
    const historyRead = files.filter((f) => f.role === "history").length;
    if (historyRead > 0 && !input.history) {
      notes.push(
        `${historyRead} SmatHistory cop${
          historyRead === 1 ? "y" : "ies"
        } read too: the window has a start (--since)`,
      );
    }
    if (unread > 0) {
      notes.push(
        `${unread} SmatHistory cop${unread === 1 ? "y" : "ies"} not read (older, cycled messages): ` +
          "history, or a since, reads them",
      );
    }
    if (copies > 0) {
      notes.push(
        `${copies} cop${copies === 1 ? "y" : "ies"} of messages found in more than one archive counted once`,
      );
    }
    if (wide) {
      return answer(input, all, matchFilter, { scope, zone, utc, tz, read, notes, limit, siteOf });
    }
    const shown = all.slice(0, limit);
    if (input.fields && input.fields.length > 0) {
      return fieldsTable(input.fields, shown, all.length, {
        scope,
        zone,
        utc,
        tz,
        read,
        notes,
        limit,
        siteOf,
      }, matchFilter);
    }
    for (const m of shown) for (const n of m.charsetNotes ?? []) notes.push(`MID ${m.mid}: ${n}`);
    // Archive paths relative to their site's folder.
    const rel = (p: string) => {
      const dir = siteOf.get(p)?.dir ?? siteDir;
      return dir && p.startsWith(dir) ? p.slice(dir.length).replace(/^[\\/]+/, "") : p;
    };
    const many = new Set([...siteOf.values()].map((s) => s.name)).size > 1;
    const output = input.output;
    if (output === "json") {
      return {
        text: JSON.stringify(
          {
            scope,
            files: files.map((f) => f.path),
            messages: shown.map((m) => ({
              ...(many ? { site: siteOf.get(m.file)?.name } : {}),
              time: formatTime(m.time, { utc, zone }),
              mid: m.mid,
              file: m.file,
              source: m.source,
              dest: m.dest,
              type: m.type,
              context: m.context,
              content: m.content,
            })),
            notes,
          },
          null,
          2,
        ),
      };
    }
    const lines: string[] = [];
    if (output === "raw") {
      for (const m of shown) {
        lines.push(
          `=== ${formatTime(m.time, { utc, zone })}  MID ${m.mid}  ${
            many ? `${siteOf.get(m.file)?.name}/` : ""
          }${rel(m.file)}  ${m.source || "-"} -> ${m.dest || "-"}  ` +
            `(${m.context || m.type || "?"}, ${m.bytes ?? utf8Length(m.content)} bytes)`,
          m.content.replace(/\r\n?/g, "\n").replace(/\n+$/, ""),
          "",
        );
      }
    } else if (shown.length) {
      const rows = shown.map((m) => {
        const { type: msgType, control } = headerOf(m.content);
        return [
          ...(many ? [siteOf.get(m.file)?.name ?? "-"] : []),
          formatTime(m.time, { utc, zone }),
          m.mid,
          rel(m.file),
          m.context || m.type || "-",
          m.source || "-",
          m.dest || "-",
          msgType || "-",
          control || "-",
          String(m.bytes ?? utf8Length(m.content)),
        ];
      });
      lines.push(
        renderTable(
          [
            ...(many ? ["SITE"] : []),
            "TIME",
            "MID",
            "FILE",
            "CONTEXT",
            "SOURCE",
            "DEST",
            "MSGTYPE",
            "CONTROL",
            "BYTES",
          ],
          rows,
          "text",
        ),
        "",
      );
    }
    const conds = [
      windowText(filter, zone),
      filter.text ? `text "${filter.text}"${filter.ignoreCase ? " (any case)" : ""}` : "",
      ...(filter.hl7 ?? []).map((c) => `${c.path}${c.op}${c.value}`),
    ].filter((x) => x !== "");
    lines.push(
      `[nc_msgs: ${shown.length} message${shown.length === 1 ? "" : "s"} from ${scope}, newest first` +
        `${conds.length ? `, matching ${conds.join(", ")}` : ""}; ${read} archive${
          read === 1 ? "" : "s"
        } read; times in ${utc ? "UTC" : `${zone} (${tz.source})`}` +
        `${
          all.length > shown.length
            ? `; more matched: the newest ${limit} shown (--limit, at most 1000, or narrow with --since or --text)`
            : ""
        }]`,
    );
    for (const [cond, n] of filter.otherForms ?? []) {
      lines.push(
        `[note: ${cond} also matched ${n} message${
          n === 1 ? "" : "s"
        } where the value is written another way ` +
          "(with or without leading zeros, or with an assigning-authority suffix)]",
      );
    }
    for (const n of notes) lines.push(`[note: ${n}]`);
    return { text: lines.join("\n") };
  } catch (err) {
    if (err instanceof SmatQueryError) return toolError(err.kind, err.message);
    return failure(err);
  }
}

/** Drops the later copies of a message found in several archives (live and SmatHistory); returns how many. */
function dedupe(all: Array<SmatMessage & { order: number }>): number {
  const seen = new Set<string>();
  let w = 0;
  for (const m of all) {
    const key = `${m.mid}\u0000${
      m.time ?? ""
    }\u0000${m.context}\u0000${m.source}\u0000${m.dest}\u0000${m.content}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all[w++] = m;
  }
  const dropped = all.length - w;
  all.length = w;
  return dropped;
}

interface Scope {
  scope: string;
  zone: string;
  utc: boolean;
  tz: SiteZone;
  read: number;
  notes: string[];
  limit: number;
  siteOf: Map<string, Site>;
}

/** The conditions of a filter, as the footers say them. */
function conditionsText(filter: MessageFilter, zone: string): string {
  const conds = [
    windowText(filter, zone),
    filter.text ? `text "${filter.text}"${filter.ignoreCase ? " (any case)" : ""}` : "",
    ...(filter.hl7 ?? []).map((c) => `${c.path}${c.op}${c.value}`),
  ].filter((x) => x !== "");
  return conds.length ? `, matching ${conds.join(", ")}` : "";
}

function footer(what: string, s: Scope, filter: MessageFilter): string {
  return `[nc_msgs: ${what} from ${s.scope}${conditionsText(filter, s.zone)}; ${s.read} archive${
    s.read === 1 ? "" : "s"
  } read; times in ${s.utc ? "UTC" : `${s.zone} (${s.tz.source})`}]`;
}

function withNotes(lines: string[], s: Scope): ToolResult {
  for (const n of s.notes) lines.push(`[note: ${n}]`);
  return { text: lines.join("\n") };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How many of `files` are SmatHistory copies. */
function historyOnly(files: readonly SmatFile[]): number {
  return files.filter((f) => f.role === "history").length;
}

/** A count, counts per value, or replies joined: questions over every matching message. */
function answer(
  input: InputOf<typeof ncMsgsTool>,
  all: SmatMessage[],
  filter: MessageFilter,
  s: Scope,
): ToolResult {
  if (input.join_replies) {
    const replyCodes = input.reply_codes?.trim()
      ? new Set(input.reply_codes.split(/[|,\s]+/).filter((c) => c !== "").map((c) => c.toUpperCase()))
      : undefined;
    return joined(all, filter, s, { slowerThan: input.slower_than, replyCodes, countOnly: input.count });
  }
  const matched = all;
  if (input.group_by !== undefined) {
    const stats = groupStats(matched, input.group_by, s.utc ? "UTC" : s.zone);
    const groups = stats.map((g) => [g.key, g.count] as const);
    // Per value, its first and last message too ("when did each facility last send"); an hour or a
    // day is its own time.
    const timed0 = ["hour", "day"].includes(input.group_by.toLowerCase());
    const at = (
      t: number | undefined,
    ) => (t === undefined ? "-" : formatTime(t, { utc: s.utc, zone: s.zone }));
    const lines = groups.length
      ? [
        renderTable(
          [input.group_by.toUpperCase(), "COUNT", ...(timed0 ? [] : ["FIRST", "LAST"])],
          stats.map((g) => [g.key, String(g.count), ...(timed0 ? [] : [at(g.first), at(g.last)])]),
          "text",
        ),
        "",
      ]
      : [];
    // Hours and days are listed in time order: the busiest is said, ties and all.
    const timed = ["hour", "day"].includes(input.group_by.toLowerCase()) && groups.length > 1;
    let top = 0;
    if (timed) { for (const [, n] of groups) top = Math.max(top, n); }
    const tops = groups.filter(([, n]) => n === top).map(([k]) => k);
    const busiest = timed
      ? `; busiest ${input.group_by.toLowerCase()} ${tops.join(", ")} (${plural(top, "message")}${
        tops.length > 1 ? " each" : ""
      })`
      : "";
    lines.push(
      footer(
        `${plural(matched.length, "message")} in ${plural(groups.length, "group")}${busiest}`,
        s,
        filter,
      ),
    );
    return withNotes(lines, s);
  }
  return withNotes([footer(`count ${plural(matched.length, "message")}`, s, filter)], s);
}

/** Each matching original with the reply that answers it, newest first, and the tally by MSA-1. */
function joined(
  all: SmatMessage[],
  filter: MessageFilter,
  s: Scope,
  opts: { slowerThan?: number; replyCodes?: ReadonlySet<string>; countOnly: boolean },
): ToolResult {
  const originals = all.filter((m) =>
    !isReply(m) && inRange(m.time, filter) && contentMatches(m.content, filter)
  );
  const replies = all.filter(isReply);
  // Originals no reply read could answer (an inbound copy on a thread that saves no replies) are
  // left out and said, not counted as never answered.
  const replyBy = new Set(replies.map((r) => r.source.trim().toLowerCase()).filter((x) => x !== ""));
  const anonymous = replies.some((r) => r.source.trim() === "");
  const unanswerable = new Map<string, string[]>();
  const answerable = originals.filter((o) => {
    if (canBeAnswered(o, replyBy, anonymous || replies.length === 0)) return true;
    const t = archiveThread(o.file);
    const list = unanswerable.get(t) ?? unanswerable.set(t, []).get(t)!;
    list.push(`${headerOf(o.content).control || `MID ${o.mid}`} ${headerOf(o.content).type || "?"}`);
    return false;
  });
  const waitOf = (p: Joined) =>
    p.reply?.time !== undefined && p.original.time !== undefined
      ? (p.reply.time - p.original.time) / 1000
      : undefined;
  const every = joinReplies(answerable, replies);
  // The slowest reply of all joined (before slower_than), so one call answers "which waited longest".
  let slowest: Joined | undefined, slowestWait = -Infinity;
  for (const p of every) {
    const w = waitOf(p);
    if (w !== undefined && w > slowestWait) [slowest, slowestWait] = [p, w];
  }
  const limitWait = opts.slowerThan;
  const codeOf = (p: Joined) => (p.reply ? (valuesOf(p.reply, "MSA.1")[0] || "").toUpperCase() : "NONE");
  const codes = opts.replyCodes;
  const pairs = every.filter((p) => {
    if (codes && !codes.has(codeOf(p))) return false;
    if (limitWait === undefined) return true;
    const w = waitOf(p);
    return w === undefined ? p.reply === undefined : w > limitWait;
  });
  const tally = new Map<string, number>();
  for (const p of pairs) {
    const k = p.reply ? valuesOf(p.reply, "MSA.1")[0] || "(no MSA-1)" : "no reply";
    tally.set(k, (tally.get(k) ?? 0) + 1);
  }
  const time = (
    t: number | undefined,
  ) => (t === undefined ? "-" : formatTime(t, { utc: s.utc, zone: s.zone }));
  const shown = opts.countOnly ? [] : pairs.slice(0, s.limit);
  // Originals from several threads' archives (an inbound copy and the outbound one): say which.
  const threads = new Set(shown.map((p) => archiveThread(p.original.file)));
  const withThread = threads.size > 1;
  const lines = shown.length
    ? [
      renderTable(
        [
          ...(withThread ? ["THREAD"] : []),
          "TIME",
          "MSGTYPE",
          "CONTROL",
          "REPLY_TIME",
          "MSA_1",
          "MSA_3",
          "SECONDS",
        ],
        shown.map((p) => {
          const { original: o, reply: r } = p;
          const { type, control } = headerOf(o.content);
          const w = waitOf(p);
          return [
            ...(withThread ? [archiveThread(o.file)] : []),
            time(o.time),
            type || "-",
            control || "-",
            r ? time(r.time) : "-",
            r ? valuesOf(r, "MSA.1")[0] || "-" : "no reply",
            r ? valuesOf(r, "MSA.3")[0] || "-" : "-",
            w === undefined ? "-" : w.toFixed(1),
          ];
        }),
        "text",
      ),
      "",
    ]
    : [];
  const counts = [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const slow = slowest
    ? `; slowest reply ${headerOf(slowest.original.content).control || `MID ${slowest.original.mid}`} after ${
      slowestWait.toFixed(1)
    } s (${valuesOf(slowest.reply!, "MSA.1")[0] || "no MSA-1"})`
    : "";
  const over = [
    codes ? ` whose reply is ${[...codes].map((c) => (c === "NONE" ? "none" : c)).join(" or ")}` : "",
    limitWait === undefined ? "" : ` whose reply took over ${limitWait} s or never came`,
  ].filter((x) => x).join(" and") + (codes || limitWait !== undefined ? `, of ${every.length}` : "");
  lines.push(
    footer(
      `${plural(pairs.length, "message")} joined to their replies${over} (${counts || "none"})${
        pairs.length > shown.length && shown.length > 0 ? `, the newest ${shown.length} shown` : ""
      }${slow}`,
      s,
      filter,
    ),
  );
  if (unanswerable.size > 0) {
    s.notes.push(
      `left out of the join: ${
        [...unanswerable].map(([t, list]) =>
          // A few by control ID and type (a lookup by MSH-10 sees where each one stands).
          `${plural(list.length, "message")} of ${t}${list.length <= 10 ? ` (${list.join(", ")})` : ""}`
        ).join(", ")
      }, whose replies no archive read holds (an inbound copy, or a thread that saves no replies)`,
    );
  }
  return withNotes(lines, s);
}

/** The named fields of each shown message as TSV, one row per occurrence of a repeating segment. */
function fieldsTable(
  paths: readonly string[],
  shown: SmatMessage[],
  matched: number,
  s: Scope,
  filter: MessageFilter,
): ToolResult {
  const many = new Set([...s.siteOf.values()].map((x) => x.name)).size > 1;
  const head = [...(many ? ["SITE"] : []), "TIME", "MID", ...paths];
  const rows: string[][] = [];
  let omitted = 0, apart = 0;
  const filteredBy = new Set<string>();
  for (const m of shown) {
    const t = m.time === undefined ? "-" : formatTime(m.time, { utc: s.utc, zone: s.zone });
    const f = fieldRows(m, paths, filter.hl7 ?? []);
    omitted += f.omitted;
    if (f.rows.length === 0) apart++;
    if (f.filteredBy) filteredBy.add(f.filteredBy);
    for (const r of f.rows) {
      rows.push([...(many ? [s.siteOf.get(m.file)?.name ?? "-"] : []), t, m.mid, ...r]);
    }
  }
  if (omitted > 0) {
    s.notes.push(
      `rows are the ${[...filteredBy].join(", ")} occurrences the --hl7 conditions matched; ${
        plural(omitted, "other occurrence")
      } of the same messages left out${
        apart > 0
          ? `; ${plural(apart, "message")} matched only with the conditions in different occurrences (no row)`
          : ""
      }`,
    );
  }
  const lines = [renderTable(head, rows, "tsv"), ""];
  lines.push(
    footer(
      `${plural(shown.length, "message")}${
        matched > shown.length ? ` (the newest ${shown.length} of more)` : ""
      }, ${plural(rows.length, "row")}`,
      s,
      filter,
    ),
  );
  return withNotes(lines, s);
}
