/**
 * The "never tokenized" list of the spec ("Auto-PHI detection model"): places in a text where no
 * automatic tier (1 to 5) may put a token, even on a tier match. Manual markers and the HL7 field
 * sanitizer are not automatic tiers and are not bound by it. Each rule below is a kind of span; a
 * candidate that shares any character with a protected span is dropped.
 *
 * | Kind | What is protected |
 * |---|---|
 * | fenced code | what the operator typed, from an opening ``` or ~~~ fence line to its closing fence (an unclosed fence protects nothing); never in tool results, nor anywhere inside attached file content (`@file`, `/load`: fences tagged `assist-attached-file`) |
 * | token | an existing `[[...]]` token (so tokens are never nested) |
 * | field reference | `PID.3`, `PID-5.1`, `OBX.5[2].1`, `IN1.16` (dash form only for known segment ids and Z-segments) |
 * | version | `v1.2`, `1.2.3[.4...]` with an optional `-suffix`, a number after `version`/`ver`/`release`/`build`/`rev`; a `555.123.4567` phone shape (also with a `-Fax` suffix), a dotted number after a `+CC` country code or a `123.45.6789` SSN shape is not a version, nor a date with DOB context (`M.D.YYYY`, `YYYY.M.D`) |
 * | ISO date | `YYYY-MM-DD[THH:MM[:SS][Z]]` with a real month and day, unless a birth cue (`DOB`, `D.O.B.`, `Birth`, `born`, `b.` right before it) occurs in the 20 characters before it |
 * | port | numbers after `port`/`ports`/`--port`, `host:port` where the host is `localhost`, an IPv4 address, a dotted name or `[v6]`, and a bare `:8080` after white space |
 * | error/status code | a number after `error`, `err`, `errno`, `status`, `code`, `rc`, `exit`, `returned`, `HTTP/x.y` |
 * | JSON key | a quoted string followed by `:` |
 * | timestamp | epoch milliseconds (13 or more digits) and epoch seconds (10 digits starting with 1), except right after an `NPI` label, an HL7 timestamp (`YYYYMMDDHHMMSS`) after a birth cue, and a Luhn-valid run of up to 19 digits after a card cue |
 * | path | URLs, `/abs`, `./rel`, `../rel`, `~/x`, `C:\x`, `\\unc`, and `a/b` runs with a letter in them; an e-mail address inside one (query string, path segment) is not protected |
 * | base64 run | `[A-Za-z0-9+/=]` runs of 200+ characters, length divisible by 4 (the base64 pass owns them) |
 */
import { KNOWN_SEGMENTS } from "./_hl7.ts";
import { lineStart } from "./_chars.ts";
import { ATTACHED_FENCE_TAG } from "./markers.ts";
import { type Span, SpanSet } from "./spans.ts";
import { base64Runs, MIN_RUN } from "./base64.ts";
import { cardCueBefore, luhnValid } from "./tier1_definite.ts";
import { contextWindow } from "./_tier_common.ts";
export { contextWindow };

export type ProtectedKind =
  | "fence"
  | "token"
  | "field_ref"
  | "version"
  | "iso_date"
  | "port"
  | "status_code"
  | "json_key"
  | "timestamp"
  | "path"
  | "base64";

// Birth cues: DOB (also `D.O.B.`), birth (birthdate, date of birth, birth_date), born, and `b.`
// right before the date.
const DOB_CONTEXT = /(?<![A-Za-z])(?:d\.?o\.?b(?![a-z])|born(?![a-z])|b\.[ \t]*$)|birth/i;

/**
 * True when a birth cue (`DOB`, `D.O.B.`, `Birth`, `born`) occurs in the 20 characters before `pos`
 * (same line).
 */
export function hasDobContext(text: string, pos: number): boolean {
  return DOB_CONTEXT.test(contextWindow(text, pos));
}

interface Rule {
  kind: ProtectedKind;
  re: RegExp;
  /** Which capture group is protected (default the whole match). */
  group?: number;
  keep?: (text: string, m: RegExpExecArray) => boolean;
  /** A cheap test on the whole text: false means the rule cannot match (skips the scan). */
  need?: (text: string) => boolean;
  /**
   * The rule's matches never span lines and always hold this text: only lines that hold it are
   * scanned (the same matches as a scan of the whole text, at a fraction of the cost on large tool
   * output). Lines end at `\n` or `\r` (scanned with their line break, which look-aheads see).
   */
  line?: string;
  /** With `line`: a match may also begin on the line before when the text is first on its line. */
  spillBack?: boolean;
}

const has = (s: string) => (t: string) => t.indexOf(s) !== -1;

const PHONE_DOTTED = /^(?:\+?1\.)?\d{3}\.\d{3}\.\d{4}$/;
const SSN_DOTTED = /^\d{3}\.\d{2}\.\d{4}$/;
// A country code right before a dotted number makes it an international phone (`+49 689.55.4270`).
const INTL_PHONE_BEFORE = /(?<![\w+])\+\d{1,3}[ \t.-]?(?:\(\d{1,4}\)[ \t.-]?)?$/;
const DOTTED_DATE = /^(?:\d{1,2}\.\d{1,2}\.(?:\d{2}|\d{4})|(?:18|19|20)\d{2}\.\d{1,2}\.\d{1,2})$/;

const RULES: Rule[] = [
  { kind: "token", re: /\[\[[^\[\]\s]{1,80}\]\]/g, need: has("[[") },
  {
    kind: "field_ref",
    re:
      /(?<![A-Za-z0-9])([A-Z][A-Z0-9]{2})([.-])\d{1,3}(?:\[\d{1,4}\])?(?:[.-]\d{1,3}(?:\[\d{1,4}\])?)*(?![A-Za-z0-9])/g,
    keep: (_t, m) => m[2] === "." || KNOWN_SEGMENTS.has(m[1]) || m[1][0] === "Z",
    need: (t) => /[A-Z0-9][.-]\d/.test(t),
  },
  {
    kind: "version",
    re: /(?<![\w.])v\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.]+)?(?![\w])/gi,
    need: (t) => /v\d/i.test(t),
  },
  {
    kind: "version",
    re: /(?<![\w.])\d+\.\d+\.\d+(?:\.\d+)*(?:[-+][0-9A-Za-z.]+)?(?![\w]|\.\d)/g,
    keep: (t, m) =>
      !PHONE_DOTTED.test(m[0].replace(/-[A-Za-z].*$/, "")) && !SSN_DOTTED.test(m[0]) &&
      !INTL_PHONE_BEFORE.test(t.slice(Math.max(0, m.index - 12), m.index)) &&
      !(DOTTED_DATE.test(m[0]) && hasDobContext(t, m.index)),
    need: (t) => /\d\.\d+\./.test(t),
  },
  {
    kind: "version",
    re: /\b(?:version|ver|release|build|rev)\b["']?\s*[:=]?\s*["']?(v?\d[\w.+-]*)/gi,
    group: 1,
    need: (t) => /ver|release|build|rev/i.test(t),
  },
  {
    kind: "iso_date",
    re:
      /(?<![\w-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/g,
    // A real month and day (`0971-81-40` is the tail of a phone number, not a date).
    keep: (t, m) =>
      /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])/.test(m[0]) && !hasDobContext(t, m.index),
    need: (t) => /\d-\d\d-\d/.test(t),
  },
  {
    kind: "port",
    re: /\b(?:--?)?ports?\b["']?\s*[:=#]?\s*["']?(\d{1,5}(?:\s*[-,]\s*\d{1,5})*)/gi,
    group: 1,
    need: (t) => /port/i.test(t),
  },
  {
    kind: "port",
    re:
      /(?:\blocalhost|(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}|\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z][A-Za-z0-9-]*|\])\s?:(\d{1,5})(?![\d:])/g,
    group: 1,
    need: (t) => /:\d/.test(t),
    // `\s?:` may cross a line break: a colon first on its line also scans the line before.
    line: ":",
    spillBack: true,
  },
  {
    // A bare `:8080` after white space (or first on its line) is a port.
    kind: "port",
    re: /(?<=^|[ \t]):(\d{1,5})(?![\w:.\/-])/gm,
    group: 1,
    keep: (_t, m) => Number(m[1]) <= 65535,
    need: (t) => /(?:^|[ \t]):\d/m.test(t),
  },
  {
    kind: "status_code",
    re:
      /\b(?:error|err|errno|status|code|rc|exit|returned|HTTP\/\d(?:\.\d)?)\b["']?\s*(?:code\s*)?[:=#]?\s*["']?(-?\d+)/gi,
    group: 1,
    need: (t) => /err|status|code|rc|exit|returned|http/i.test(t),
  },
  { kind: "json_key", re: /"(?:[^"\\\n]|\\.){0,200}"(?=\s*:)/g, need: (t) => /"\s*:/.test(t) },
  {
    kind: "timestamp",
    re: /(?<![\w.])(?:\d{13,}|1\d{9})(?:\.\d+)?(?![\w])/g,
    // An NPI label wins over the epoch-seconds shape (NPIs are 10 digits starting with 1 or 2), a
    // birth cue over an HL7 timestamp (`DOB: 19800101000000`), a card cue over a 13-19 digit run
    // that passes the Luhn check (tier 1 decides whether it is a card).
    keep: (t, m) =>
      !/\bNPI(?:\s*[:#=-]\s*|\s*(?:no\.?|number|is)\s*|\s+)$/i.test(
        t.slice(Math.max(0, m.index - 16), m.index),
      ) &&
      !(m[0].length >= 14 && /^(?:1[89]|20)\d{12}/.test(m[0]) && hasDobContext(t, m.index)) &&
      !(m[0].length <= 19 && !m[0].includes(".") && luhnValid(m[0]) && cardCueBefore(t, m.index)),
    need: (t) => /\d{10}/.test(t),
  },
  { kind: "path", re: /(?<![\w@])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g, need: has("://"), line: "://" },
  {
    kind: "path",
    re: /(?<![\w.@\/-])(?:~|\.{1,2})?\/(?![\/\s])[^\s"'<>|,;()\[\]{}]*/g,
    need: has("/"),
    line: "/",
  },
  { kind: "path", re: /(?<![\w@])[A-Za-z]:[\\\/][^\s"'<>|,;]*/g, need: (t) => /:[\\/]/.test(t) },
  { kind: "path", re: /(?<![\w\\])\\\\[^\s"'<>|,;]+/g, need: has("\\\\") },
  {
    kind: "path",
    re: /(?<![\w.@\/%-])[\w.-]+(?:\/[\w.-]+)+\/?/g,
    keep: (_t, m) => /[A-Za-z]/.test(m[0]),
    need: has("/"),
    line: "/",
  },
];

/** One protected range and its kind (what `phi_scan` reports, and tests check). */
export interface ProtectedSpan extends Span {
  kind: ProtectedKind;
}

function fencedBlocks(text: string, out: ProtectedSpan[]): void {
  if (text.indexOf("```") === -1 && text.indexOf("~~~") === -1) return;
  const re = /^ {0,3}(`{3,}|~{3,})[^\n]*$/gm;
  let open: { start: number; fence: string } | undefined;
  let attached: string | undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const fence = m[1];
    const bare = m[0].trim() === fence;
    // The attachment's own closing fence (longer than any backtick run inside it): it ends the
    // attachment, and a fence left open inside the file protects nothing (it was never closed).
    if (attached && bare && fence[0] === attached[0] && fence.length >= attached.length) {
      attached = undefined;
      open = undefined;
      continue;
    }
    // An attachment starts: whatever fence was left open before it (typed by the operator, or a
    // stray line in an earlier file) is unclosed and protects nothing; the attachment is scanned.
    if (!bare && m[0].includes(ATTACHED_FENCE_TAG)) {
      attached = fence;
      open = undefined;
      continue;
    }
    if (attached) continue; // inside an attachment: its fences protect nothing
    if (!open) {
      if (fence[0] === "`" && m[0].slice(m[0].indexOf(fence) + fence.length).includes("`")) continue;
      open = { start: m.index, fence };
    } else if (fence[0] === open.fence[0] && fence.length >= open.fence.length && bare) {
      out.push({ start: open.start, end: m.index + m[0].length, kind: "fence" });
      open = undefined;
    }
  }
}

/**
 * Every protected range of `text`, by kind (overlapping; for display and tests). `byLine` false
 * scans every rule over the whole text (the reference the line-by-line scan is tested against).
 * `fences` false leaves fenced code out: the fence rule is for what the operator types, so text that
 * did not come from the operator's keyboard (tool results) is read with it off.
 *
 * @example
 * ```ts
 * protectedRanges("see /var/log/x 12345").map((s) => s.kind); // ["path"]
 * ```
 */
export function protectedRanges(text: string, byLine = true, fences = true): ProtectedSpan[] {
  const out: ProtectedSpan[] = [];
  if (fences) fencedBlocks(text, out);
  if (text.length >= MIN_RUN) { for (const r of base64Runs(text)) out.push({ ...r, kind: "base64" }); }
  for (const rule of RULES) {
    if (rule.need && !rule.need(text)) continue;
    if (rule.line === undefined || !byLine) {
      scanRule(rule, text, 0, text, out);
      continue;
    }
    // Only the lines holding the rule's text, each scanned once, left to right like a scan of the
    // whole text: a region starts no earlier than the end of the rule's last match (so nothing it
    // consumed is read again), with one character before it for the look-behinds.
    let done = 0;
    let lastEnd = 0;
    for (let at = text.indexOf(rule.line); at !== -1; at = text.indexOf(rule.line, done)) {
      let ls = lineStart(text, at);
      let le = at;
      while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
      if (rule.spillBack && at === ls && ls > 0) ls = lineStart(text, ls - 1);
      const from = Math.max(ls, lastEnd);
      const ctx = from > 0 ? 1 : 0;
      // The line break is part of the scanned text: look-aheads such as `(?![\/\s])` must see it.
      const end = scanRule(rule, text.slice(from - ctx, le + 1), from - ctx, text, out, ctx);
      if (end > lastEnd) lastEnd = end;
      done = le;
    }
  }
  return out;
}

/**
 * The matches of one rule in `part`, which starts at `offset` of `text`, searched from index `from`
 * of `part`; returns the end (in `text`) of the last match, kept or not (0 when none).
 */
function scanRule(
  rule: Rule,
  part: string,
  offset: number,
  text: string,
  out: ProtectedSpan[],
  from = 0,
): number {
  const re = rule.re;
  let lastEnd = 0;
  re.lastIndex = from;
  for (let m = re.exec(part); m; m = re.exec(part)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    lastEnd = offset + m.index + m[0].length;
    if (rule.keep) {
      if (offset !== 0) m.index += offset;
      const keep = rule.keep(text, m);
      if (offset !== 0) m.index -= offset;
      if (!keep) continue;
    }
    if (rule.group !== undefined) {
      const g = m[rule.group];
      if (g === undefined) continue;
      const at = offset + m.index + m[0].lastIndexOf(g);
      out.push({ start: at, end: at + g.length, kind: rule.kind });
    } else if (rule.kind === "path" && (m[0].indexOf("@") !== -1 || m[0].indexOf("%40") !== -1)) {
      pushPathAroundEmails(m[0], offset + m.index, out);
    } else {
      out.push({ start: offset + m.index, end: offset + m.index + m[0].length, kind: rule.kind });
    }
  }
  return lastEnd;
}

// An e-mail inside a URL query string or path (`?to=jane@example.com`, `%40` for the `@`).
const EMAIL_IN_PATH =
  /[A-Za-z0-9][A-Za-z0-9._+-]*(?:@|%40)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![A-Za-z0-9])/g;

/**
 * A path's protected span with the e-mail addresses inside it left out: an address in a query string
 * or a path segment is PHI (tier 1), the rest of the path stays protected. A URL's user part
 * (`ssh://hci@engine01`) is not an address and stays protected.
 */
function pushPathAroundEmails(path: string, at: number, out: ProtectedSpan[]): void {
  let from = 0;
  EMAIL_IN_PATH.lastIndex = 0;
  for (let m = EMAIL_IN_PATH.exec(path); m; m = EMAIL_IN_PATH.exec(path)) {
    if (path.slice(Math.max(0, m.index - 3), m.index) === "://") continue;
    if (m.index > from) out.push({ start: at + from, end: at + m.index, kind: "path" });
    from = m.index + m[0].length;
  }
  if (from < path.length) out.push({ start: at + from, end: at + path.length, kind: "path" });
}

/**
 * The protected ranges of `text`, merged, for overlap checks.
 *
 * @example
 * ```ts
 * protectedSpans("port 41189").overlaps(5, 10); // true
 * ```
 */
export function protectedSpans(text: string, fences = true): SpanSet {
  return SpanSet.union(protectedRanges(text, true, fences));
}
