/** nc_diff_interface: one thread's configuration in two NetConfigs, sites or engine roots, key by key. */
// The definition, so one load gives `assist tools <name>` both (tools/by_name.ts).
export { ncDiffInterfaceTool as def } from "../nc_diff_interface_tool.ts";
import type { ncDiffInterfaceTool } from "../nc_diff_interface_tool.ts";
import type { InputOf, ToolContext, ToolResult } from "../../types.ts";
import { engineFor, failure, loadNetConfig } from "../engine.ts";
import { EngineInputError } from "../errors.ts";
import { localEngineFs } from "../engine_fs.ts";
import { valueToJSON } from "../netconfig/mod.ts";
import type { NcEntry } from "../netconfig/mod.ts";
import { changeLine, diffConfig } from "../diff.ts";
import { namesSite, requireEntryIn, resolveThread, splitThreadName, type ThreadRef } from "../thread_ref.ts";

interface Side {
  label: string;
  where: string;
  entry: NcEntry;
  identity: string;
  site?: string;
}

/**
 * One side: a thread of a NetConfig file, or of a site of an engine root (`site` given, else the
 * `near` site when it has the thread, else the one site that has it: ../thread_ref.ts).
 */
async function side(
  ctx: ToolContext,
  thread: string,
  site: string | undefined,
  near: string | undefined,
  hciroot: string | undefined,
  netconfig: string | undefined,
  alias: string | undefined,
): Promise<Side> {
  if (netconfig) {
    const fs = localEngineFs(ctx);
    const nc = await loadNetConfig(fs, netconfig, netconfig);
    const entry = requireEntryIn(nc, thread, `the NetConfig ${netconfig}`);
    return {
      label: `${entry.name}`,
      where: netconfig,
      entry,
      identity: `file\0${netconfig}\0${entry.name.toLowerCase()}`,
    };
  }
  const engine = await engineFor({ alias, hciroot }, ctx);
  const named = await splitThreadName(engine, thread, site);
  let ref: ThreadRef | undefined;
  if (named.site === undefined && near !== undefined) {
    const sites = (await engine.sites()).sites;
    if (sites.some((s) => s.name.toLowerCase() === near.toLowerCase())) {
      const loaded = await engine.load(near);
      const entry = loaded.nc.protocol(named.thread);
      if (entry) ref = { ...loaded, entry };
    }
  }
  ref ??= await resolveThread(engine, named.site, named.thread);
  const { site: s, entry } = ref as Required<ThreadRef>;
  const where = alias ? `${alias}:${engine.root}` : engine.root;
  return {
    label: `${s.name}/${entry.name}`,
    where,
    entry,
    identity: `${where}\0${s.name}\0${entry.name.toLowerCase()}`,
    site: s.name,
  };
}

export async function run(input: InputOf<typeof ncDiffInterfaceTool>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const aliasA = input.alias || undefined;
    const aliasB = input.to_alias || aliasA;
    const rootA = input.hciroot;
    // Another host's engine root is its own: the first side's --hciroot carries over only on one host.
    const rootB = input.to_hciroot ?? (aliasB === aliasA ? rootA : undefined);
    let fileA = input.netconfig;
    let fileB = input.to_netconfig;
    let threadA = input.thread?.trim() || undefined;
    let other = input.other?.trim() || undefined;
    let siteA = input.site?.trim() || undefined;
    // A site and no thread, against another place: every thread of the site, compared.
    if (
      threadA === undefined && other === undefined && siteA !== undefined && !fileA && !fileB &&
      (input.to_hciroot || input.to_alias || input.to_site) &&
      await namesSite(await engineFor({ alias: aliasA, hciroot: rootA }, ctx), siteA).catch(() => false)
    ) {
      return await siteDiff(input, ctx, siteA, { aliasA, aliasB, rootA, rootB });
    }
    // By hand the words are `[site] thread [other]`: a first word that names no site of the first
    // side's engine root (or any first word, against a NetConfig file) is the thread.
    if (siteA !== undefined && other === undefined) {
      const isSite = threadA !== undefined &&
        await namesSite(await engineFor({ alias: aliasA, hciroot: rootA }, ctx), siteA).catch(() => false);
      if (!isSite) [siteA, threadA, other] = [undefined, siteA, threadA];
      else if (
        fileA !== undefined && fileB === undefined && !input.to_site && !input.to_hciroot && !input.to_alias
      ) {
        // `--site adt --thread adt_in --netconfig F`: the live thread of that site against the file.
        [fileA, fileB] = [undefined, fileA];
      }
    }
    // The named form `{thread: site, other: thread}` (a site put first without `site`) reads as before.
    if (siteA === undefined && threadA !== undefined && other !== undefined && fileA === undefined) {
      if (await namesSite(await engineFor({ alias: aliasA, hciroot: rootA }, ctx), threadA)) {
        [siteA, threadA, other] = [threadA, other, undefined];
      }
    }
    if (threadA === undefined) {
      throw new EngineInputError(
        "usage",
        "name the thread to compare (nc_diff_interface [site] <thread> [other]), or a site alone with " +
          "--to-hciroot, --to-alias or --to-site to compare all its threads",
      );
    }
    const left = await side(ctx, threadA, siteA, undefined, rootA, fileA, aliasA);
    const siteB = input.to_site?.trim() || undefined;
    const right = await side(
      ctx,
      other ?? left.entry.name,
      siteB,
      left.site,
      rootB,
      fileB ?? (input.to_hciroot || input.to_alias || siteB || other?.includes(".") ? undefined : fileA),
      aliasB,
    );
    if (left.identity === right.identity) {
      throw new EngineInputError(
        "same_sides",
        "both sides are the same thread of the same NetConfig: give another thread, --to-site, --to-hciroot, --to-alias or --to-netconfig",
      );
    }
    const namesDiffer = left.entry.name.toLowerCase() !== right.entry.name.toLowerCase();
    const cosmetic = input.cosmetic;
    const status: { exitCode?: number } = {};
    const changes = diffConfig(left.entry.config, right.entry.config, {
      cosmetic,
      ignore: namesDiffer ? new Set(["SYMNAME"]) : undefined,
    });
    if (input.exit_code === true && changes.length > 0) status.exitCode = 1;
    if (input.format === "json") {
      return {
        text: JSON.stringify(
          {
            a: { thread: left.label, where: left.where, line: left.entry.line },
            b: { thread: right.label, where: right.where, line: right.entry.line },
            changes,
            cosmetic,
            a_config: valueToJSON(left.entry.config),
            b_config: valueToJSON(right.entry.config),
          },
          null,
          2,
        ),
        ...status,
      };
    }
    const showWhere = left.where !== right.where;
    const lines = [
      `--- ${left.label}${showWhere ? ` (${left.where})` : ""}`,
      `+++ ${right.label}${showWhere ? ` (${right.where})` : ""}`,
      ...changes.map(changeLine),
      "",
    ];
    const ignored = [
      cosmetic ? "" : "COORDS and BITMAP ignored (--cosmetic shows them)",
      namesDiffer ? "SYMNAME ignored" : "",
    ]
      .filter((x) => x !== "").join("; ");
    lines.push(
      `[nc_diff_interface: ${changes.length ? changes.length : "no"} difference${
        changes.length === 1 ? "" : "s"
      }` +
        `${ignored ? `; ${ignored}` : ""}]`,
    );
    return { text: lines.join("\n"), ...status };
  } catch (err) {
    return failure(err);
  }
}

/**
 * Every record of a site (threads, then inter-site destinations and processes) against the same
 * site, or `to_site`, in another engine root or host: the records only one side has, the changes of
 * each record that differs, and the names of those that are the same.
 */
async function siteDiff(
  input: InputOf<typeof ncDiffInterfaceTool>,
  ctx: ToolContext,
  siteA: string,
  p: { aliasA?: string; aliasB?: string; rootA?: string; rootB?: string },
): Promise<ToolResult> {
  const engineA = await engineFor({ alias: p.aliasA, hciroot: p.rootA }, ctx);
  const engineB = await engineFor({ alias: p.aliasB, hciroot: p.rootB }, ctx);
  const a = await engineA.load(siteA);
  const b = await engineB.load(input.to_site?.trim() || a.site.name);
  const whereA = p.aliasA ? `${p.aliasA}:${engineA.root}` : engineA.root;
  const whereB = p.aliasB ? `${p.aliasB}:${engineB.root}` : engineB.root;
  if (whereA === whereB && a.site.name === b.site.name) {
    throw new EngineInputError(
      "same_sides",
      "both sides are the same site of the same engine root: give --to-hciroot, --to-alias or --to-site",
    );
  }
  const cosmetic = input.cosmetic;
  const lines = [`--- site ${a.site.name} (${whereA})`, `+++ site ${b.site.name} (${whereB})`];
  const json: unknown[] = [];
  const same: string[] = [], differ: string[] = [], onlyA: string[] = [], onlyB: string[] = [];
  for (const type of ["protocol", "destination", "process"] as const) {
    const listA = a.nc.entries.filter((e) => e.type === type);
    const listB = b.nc.entries.filter((e) => e.type === type);
    const byName = new Map(listB.map((e) => [e.name.toLowerCase(), e]));
    const label = (n: string) => (type === "protocol" ? n : `${type} ${n}`);
    for (const ea of listA) {
      const eb = byName.get(ea.name.toLowerCase());
      byName.delete(ea.name.toLowerCase());
      if (!eb) {
        onlyA.push(label(ea.name));
        lines.push(`- ${label(ea.name)}: only in ${a.site.name} (${whereA})`);
        json.push({ record: ea.name, type, only: "a" });
        continue;
      }
      const changes = diffConfig(ea.config, eb.config, { cosmetic });
      if (changes.length === 0) {
        same.push(label(ea.name));
        continue;
      }
      differ.push(label(ea.name));
      lines.push(`${label(ea.name)}:`, ...changes.map((c) => `    ${changeLine(c)}`));
      json.push({ record: ea.name, type, changes });
    }
    for (const eb of byName.values()) {
      onlyB.push(label(eb.name));
      lines.push(`+ ${label(eb.name)}: only in ${b.site.name} (${whereB})`);
      json.push({ record: eb.name, type, only: "b" });
    }
  }
  const status: { exitCode?: number } = {};
  if (input.exit_code === true && differ.length + onlyA.length + onlyB.length > 0) status.exitCode = 1;
  if (input.format === "json") {
    return {
      text: JSON.stringify(
        {
          a: { site: a.site.name, where: whereA },
          b: { site: b.site.name, where: whereB },
          records: json,
          same,
        },
        null,
        2,
      ),
      ...status,
    };
  }
  const threadsA = a.nc.protocols.length;
  lines.push(
    "",
    `[nc_diff_interface: site ${a.site.name}: ${differ.length} ${
      differ.length === 1 ? "record differs" : "records differ"
    }` +
      `${differ.length ? ` (${differ.join(", ")})` : ""}` +
      `${onlyA.length ? `; only in the first: ${onlyA.join(", ")}` : ""}` +
      `${onlyB.length ? `; only in the second: ${onlyB.join(", ")}` : ""}` +
      // A big site's unchanged records by number, not by name (a model reads every word).
      `; the same: ${
        same.length === 0 ? "none" : same.length <= 30 ? same.join(", ") : `${same.length} records`
      }` +
      ` (${threadsA} threads in the first)` +
      `${cosmetic ? "" : "; COORDS and BITMAP ignored (--cosmetic shows them)"}]`,
  );
  return { text: lines.join("\n"), ...status };
}
