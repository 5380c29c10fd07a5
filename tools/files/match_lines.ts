/**
 * grep_files' line matching, shared by the in-process path and the worker (run/_match_worker.ts),
 * and the test of which patterns may run in-process: a pattern without quantifiers or
 * backreferences tries a bounded amount of work at each position, so it cannot backtrack
 * catastrophically and needs no worker (whose start costs more than a small search).
 */

/**
 * The lines of `text`: ended by LF, CRLF or a lone CR, so the segments of an HL7 file (CR-ended)
 * are lines of their own, as they are on the engine's own screens.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

/** The 0-based numbers of the lines of `text` (splitLines) that `re` matches, up to `limit`. */
export function matchLines(re: RegExp, text: string, limit: number): number[] {
  const hits: number[] = [];
  const lines = splitLines(text);
  for (let i = 0; i < lines.length && hits.length < limit; i++) {
    if (re.test(lines[i])) hits.push(i);
  }
  return hits;
}

/** More alternatives than this may multiply (`(a|a)(a|a)...`): such a pattern goes to the worker. */
const MAX_ALTERNATIVES = 16;

/**
 * Whether `pattern` runs in bounded time per position: no quantifier (`*`, `+`, `?`, `{n}`), no
 * backreference (`\1`, `\k<name>`) and few alternatives. Escapes and character classes are read as
 * such (`\*` and `[*+?]` are literal). Conservative: a pattern it cannot vouch for is not bounded.
 *
 * @example
 * ```ts
 * boundedPattern("MSH\\|.*ADT"); // false: `.*` can backtrack over a long line
 * boundedPattern("ICLSERVERPORT|PROTOCOL\\.PORT"); // true
 * ```
 */
export function boundedPattern(pattern: string): boolean {
  let alternatives = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) return false;
      if (!inClass && (/[1-9]/.test(next) || next === "k")) return false;
      // \p{...}, \u{...} and \x.. are single characters; skip a braced body whole.
      if ((next === "p" || next === "P" || next === "u") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        if (end === -1) return false;
        i = end;
        continue;
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      continue;
    }
    if (c === "*" || c === "+" || c === "{") return false;
    // `?` is a quantifier unless it opens a group's modifier: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<name>`.
    if (c === "?" && pattern[i - 1] !== "(") return false;
    if (c === "|" && ++alternatives > MAX_ALTERNATIVES) return false;
  }
  return !inClass;
}
