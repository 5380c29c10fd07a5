/**
 * PHI markers in a prompt (spec, "PHI markers in a prompt"): the operator marks a value by hand.
 *
 * | Form | Value |
 * |---|---|
 * | `{{phi:VALUE}}` | everything between `{{phi:` and `}}` on one line, trimmed |
 * | `@@VALUE@@` | may contain spaces; the closing `@@` must not be followed by a letter, digit or `@` |
 * | `@@VALUE` | up to the next white space; trailing `. , ; : ! ? ) ] } ' "` are not part of it |
 *
 * Bracketed forms are matched first, then unbracketed ones; a marker's category comes from the
 * auto-detection table (phi/normalize.ts `detectCategory`). Manual markers win over every automatic
 * tier. A prompt that starts with `!nophi ` skips the automatic tiers for that turn (markers still
 * apply; the prefix is removed from the text sent).
 */
import { SpanSet } from "./spans.ts";

export interface Marker {
  /** Start of the marker syntax. */
  start: number;
  /** End of the marker syntax (exclusive). */
  end: number;
  /** The marked value, trimmed. */
  value: string;
}

const CURLY = /\{\{phi:([^\r\n]*?)\}\}/g;
const AT_BRACKETED = /(?<![\w@])@@(?!@)((?:(?!@@)[^\r\n])+?)@@(?![\w@])/g;
const AT_BARE = /(?<![\w@])@@(?!@)(\S+)/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/**
 * The markers of `text`, in text order, never overlapping.
 *
 * @example
 * ```ts
 * findMarkers("patient @@John Smith@@ mrn @@12345678.").map((m) => m.value); // ["John Smith", "12345678"]
 * ```
 */
export function findMarkers(text: string): Marker[] {
  if (text.indexOf("@@") === -1 && text.indexOf("{{phi:") === -1) return [];
  const taken = new SpanSet();
  const out: Marker[] = [];
  const scan = (re: RegExp, bare: boolean) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let raw = m[1];
      let end = m.index + m[0].length;
      if (bare) {
        const cut = raw.replace(TRAILING, "");
        end -= raw.length - cut.length;
        raw = cut;
      }
      const value = raw.trim();
      if (/^@*$/.test(value)) continue;
      if (taken.add(m.index, end)) out.push({ start: m.index, end, value });
      else re.lastIndex = m.index + 1; // overlapped an earlier form: look again just after its start
    }
  };
  scan(CURLY, false);
  scan(AT_BRACKETED, false);
  scan(AT_BARE, true);
  return out.sort((a, b) => a.start - b.start);
}

/** The `!nophi ` prefix that skips the automatic tiers for one turn. */
export const NOPHI_PREFIX = "!nophi ";

/**
 * Splits off the `!nophi ` prefix.
 *
 * @example
 * ```ts
 * stripNoPhi("!nophi show PID.3"); // { text: "show PID.3", nophi: true }
 * ```
 */
export function stripNoPhi(text: string): { text: string; nophi: boolean } {
  return text.startsWith(NOPHI_PREFIX)
    ? { text: text.slice(NOPHI_PREFIX.length), nophi: true }
    : { text, nophi: false };
}

/**
 * The info-string word that marks a fence as an attachment (`@file`, `/load`): its content is the
 * operator's file, not code they typed, so it is scanned like any other text, fences inside the file
 * included (a file's fenced block is file content too). Only fences this program writes carry it
 * (cli/file_refs.ts).
 */
export const ATTACHED_FENCE_TAG = "assist-attached-file";
