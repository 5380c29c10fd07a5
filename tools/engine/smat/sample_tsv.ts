/**
 * The sampled TSV that `ssh_pull_smat --days-back` writes (ssh/smat.ts `rowsToTsv`): a header row
 * `mid time_in time_iso content_base64`, then one message a row, newest first, the content in
 * base64. Read like an archive, so nc_msgs, hl7_show and hl7_field take it as they take a .smatdb.
 *
 * @module
 */
import type { EngineFs } from "../engine_fs.ts";
import { contentMatches, inRange, type MessageFilter, type SmatMessage } from "./message.ts";
import type { ReadResult } from "./smatdb.ts";

/** The header row of a sampled TSV. */
export const SAMPLE_TSV_HEADER = "mid\ttime_in\ttime_iso\tcontent_base64";

/** Does this text (or the start of it) open a sampled TSV? */
export function isSampleTsv(head: string): boolean {
  return head.replace(/^\uFEFF/, "").startsWith(SAMPLE_TSV_HEADER);
}

const decoder = new TextDecoder();

/**
 * The messages of a sampled TSV's text, in file order (newest first), that pass `filter`.
 *
 * @example
 * ```ts
 * const text = "mid\ttime_in\ttime_iso\tcontent_base64\n7\t1732089600000\t-\tTVNIfA==\n";
 * parseSampleTsv(text, "s.tsv", {}, 10)[0].content; // "MSH|"
 * ```
 */
export function parseSampleTsv(
  text: string,
  path: string,
  filter: MessageFilter,
  limit: number,
): SmatMessage[] {
  const out: SmatMessage[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 1; i < lines.length && out.length < limit; i++) {
    const cols = lines[i].split("\t");
    if (cols.length < 4) continue;
    let content: string;
    try {
      content = decoder.decode(Uint8Array.fromBase64(cols[3].trim()));
    } catch {
      continue;
    }
    const t = Number(cols[1]);
    const time = cols[1].trim() === "" || !Number.isFinite(t) ? undefined : t < 1e11 ? t * 1000 : t;
    if (!inRange(time, filter) || !contentMatches(content, filter)) continue;
    out.push({
      file: path,
      mid: cols[0] || String(i),
      time,
      source: "",
      dest: "",
      type: "",
      context: "",
      content,
      seq: lines.length - i,
    });
  }
  return out;
}

/** Reads a sampled TSV through the seam, as readSmatDb reads a .smatdb. */
export async function readSampleTsv(
  fs: EngineFs,
  path: string,
  filter: MessageFilter,
  limit: number,
): Promise<ReadResult> {
  const text = await fs.readText(path);
  if (!isSampleTsv(text)) {
    return {
      messages: [],
      skipped: {
        kind: "not_smat",
        message: `${path} is not a sampled SMAT TSV (no ${SAMPLE_TSV_HEADER} header)`,
      },
    };
  }
  return { messages: parseSampleTsv(text, path, filter, limit) };
}
