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
  headerOf,
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
    let files: SmatFile[];
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
          for (const f of await siteSmatFiles(fs, site, input.history)) {
            files.push(f);
            siteOf.set(f.path, site);
          }
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
            input.history,
          );
          files = r.files;
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
          files = await siteSmatFiles(fs, site, input.history);
          scope = `site ${site.name}`;
          if (files.length === 0) {
            return toolError("no_smat", `no SMAT archives in ${fs.join(site.dir, "exec", "processes")}`);
          }
        }
        for (const f of files) siteOf.set(f.path, site);
      }
    }
    const filter = filterOf(input, tz.zone);
    const zone = tz.zone;
    const notes: string[] = [];
    const all: Array<SmatMessage & { order: number }> = [];
    let read = 0;
    for (const [order, f] of files.entries()) {
      // One more than shown: whether more matched than the limit lets through is then known.
      const r = f.format === "smatdb"
        ? await readSmatDb(fs, f.path, filter, limit + 1, siteOf.get(f.path)?.name ?? siteName)
        : f.format === "tsv"
        ? await readSampleTsv(fs, f.path, filter, limit + 1)
        : await readSmatFiles(fs, f.path, filter, limit + 1);
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
    const shown = all.slice(0, limit);
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
