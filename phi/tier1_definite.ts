/**
 * Tier 1 (definite) of the spec's "Auto-PHI detection model": values whose shape alone makes them
 * PHI. SSN `123-45-6789`; e-mail; formatted phone `(555) 123-4567`, `555-123-4567`, `555.123.4567`
 * with an optional `+1`/`1-`; NPI digits after an explicit `NPI:`.
 *
 * Phones written with spaces only (`555 123 4567`) are not tier 1: too many tables of numbers look
 * like that.
 */
import type { Candidate } from "./candidate.ts";
import { cand } from "./_tier_common.ts";

const TIER1: Array<{ re: RegExp; category: string; group?: number }> = [
  { re: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g, category: "SSN" },
  {
    re:
      /(?<![\w.+-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)[\s.-]?\d{3}[\s.-]\d{4}|\d{3}-\d{3}-\d{4}|\d{3}\.\d{3}\.\d{4})(?![\w-]|\.\d)/g,
    category: "PHONE",
  },
  { re: /\bNPI\s*:\s*(\d{10})(?!\d)/gi, category: "NPI", group: 1 },
];

const EMAIL_LOCAL = /[A-Za-z0-9._%+-]/;
const EMAIL_HOST = /[A-Za-z0-9.-]/;
const EMAIL_RE =
  /^[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/;

/** E-mail addresses, found from each `@` outwards (a plain regex scan is slow on large texts). */
function findEmails(text: string, skip?: (start: number, end: number) => boolean): Candidate[] {
  const out: Candidate[] = [];
  let at = text.indexOf("@");
  let last = 0;
  while (at !== -1) {
    let s = at;
    while (s > last && EMAIL_LOCAL.test(text[s - 1])) s--;
    // The local part starts with a letter or digit.
    while (s < at && !/[A-Za-z0-9]/.test(text[s])) s++;
    let e = at + 1;
    while (e < text.length && EMAIL_HOST.test(text[e])) e++;
    // Trailing dots and hyphens end a sentence, not the address.
    while (e > at + 1 && (text[e - 1] === "." || text[e - 1] === "-")) e--;
    const next = e < text.length ? text[e] : "";
    if (s < at && e > at + 1 && !/[\w@]/.test(next) && !skip?.(s, e) && EMAIL_RE.test(text.slice(s, e))) {
      const c = cand(text, s, e, "EMAIL", "definite");
      if (c) out.push(c);
      last = e;
    }
    at = text.indexOf("@", at + 1);
  }
  return out;
}

/**
 * Tier 1 (definite) candidates of a text, unfiltered (but for the ranges `skip` rejects, which are
 * dropped before any work is done on them).
 *
 * @example
 * ```ts
 * import { findDefinite } from "./tier1_definite.ts";
 * findDefinite("call 555-123-4567").map((c) => c.category); // ["PHONE"]
 * ```
 */
export function findDefinite(text: string, skip?: (start: number, end: number) => boolean): Candidate[] {
  const out: Candidate[] = findEmails(text, skip);
  for (const { re, category, group } of TIER1) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const g = group === undefined ? m[0] : m[group];
      const start = m.index + (group === undefined ? 0 : m[0].lastIndexOf(g));
      if (skip?.(start, start + g.length)) continue;
      const c = cand(text, start, start + g.length, category, "definite");
      if (c) out.push(c);
    }
  }
  return out;
}
