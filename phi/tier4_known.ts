/**
 * Tier 4 (known) of the spec's "Auto-PHI detection model", the matching half: whether one known form
 * (a needle) matches at a place of a text, case-insensitively and with flexible spaces. Which needles
 * to try where is the job of the index, phi/known_index.ts.
 */
import { canonicalize } from "./normalize.ts";
import type { LookupRow } from "./lookup.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { isSpace, isWordChar, letterOrDigitAt } from "./_chars.ts";
import { foldAt, foldChar } from "./fold.ts";

export interface Needle {
  /** Lowercased form; one space stands for any run of white space, ", " for a comma and any. */
  lower: string;
  row: LookupRow;
  /** The match keeps the row's canonical value (false: canonicalize what matched). */
  exact: boolean;
}

/** Length of the match of `needle` at `at` in `text`, or -1 (case-insensitive, flexible spaces). */
export function matchAt(text: string, at: number, needle: string): number {
  let i = at;
  for (let k = 0; k < needle.length;) {
    const nc = needle.charCodeAt(k);
    if (nc === 32) {
      const comma = k > 0 && needle.charCodeAt(k - 1) === 44;
      if (!comma && (i >= text.length || !isSpace(text.charCodeAt(i)))) return -1;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      k++;
      continue;
    }
    if (i >= text.length) return -1;
    const tc = text.charCodeAt(i);
    if (tc < 128) {
      if (tc !== nc && (tc < 65 || tc > 90 || tc + 32 !== nc)) return -1;
      i++;
      k++;
      continue;
    }
    // A whole code point of the text, case-folded, against as many units of the needle.
    const w = tc >= 0xd800 && tc <= 0xdbff && i + 1 < text.length ? 2 : 1;
    const f = foldChar(text.slice(i, i + w));
    if (!needle.startsWith(f, k)) return -1;
    i += w;
    k += f.length;
  }
  if (i < text.length && isWordChar(text, i)) return -1;
  return i - at;
}

/** The first of `list` that matches at `at` (pushed to `out`): its length, or -1. */
export function tryList(list: Needle[] | undefined, text: string, at: number, out: Candidate[]): number {
  if (list === undefined) return -1;
  for (const n of list) {
    const len = tryNeedle(n, text, at, out);
    if (len !== -1) return len;
  }
  return -1;
}

/**
 * What follows the first word of a needle: its separator and second word ("-03" of "1980-03-15",
 * " smith" of "john smith", ", jane" of "doe, jane"); "" for a one-word needle, or one with no
 * letter or digit after its separator ("acme_").
 */
export function needleSecondKey(lower: string): string {
  let i = 0;
  for (let l = letterOrDigitAt(lower, i); l > 0; l = letterOrDigitAt(lower, i)) i += l;
  const first = i;
  while (i < lower.length && letterOrDigitAt(lower, i) === 0) i++;
  const second = i;
  for (let l = letterOrDigitAt(lower, i); l > 0; l = letterOrDigitAt(lower, i)) i += l;
  // No letter or digit after the separator ("acme_"): the needle matches whatever follows its
  // separator, so it goes with the one-word needles, which are tried after the second-word group.
  return i > second ? lower.slice(first, i) : "";
}

/**
 * The same key read from a text after a first word ending at `at`, the way `matchAt` compares: a
 * run of white space is one space, a comma and the white space after it are ", ", other characters
 * are themselves; characters are folded by `foldChar`, as `matchAt` reads them. "" at the end of the text;
 * undefined when the separator runs on too long to be worth a key (the caller tries the whole list).
 */
export function textSecondKey(text: string, at: number): string | undefined {
  let key = "";
  let i = at;
  while (i < text.length && letterOrDigitAt(text, i) === 0) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      key += " ";
    } else if (c === 44) {
      i++;
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      key += ", ";
    } else {
      const w = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
      key += foldAt(text, i, w);
      i += w;
    }
    if (key.length > 256) return undefined;
  }
  if (key === "") return "";
  for (let l = letterOrDigitAt(text, i); l > 0; l = letterOrDigitAt(text, i)) {
    key += foldAt(text, i, l);
    i += l;
  }
  return key;
}

/** A sorted list split by `needleSecondKey`, each part in the list's order. */
export function splitBySecond(list: readonly Needle[]): Map<string, Needle[]> {
  const out = new Map<string, Needle[]>();
  for (const n of list) {
    const k = needleSecondKey(n.lower);
    const part = out.get(k);
    if (part) part.push(n);
    else out.set(k, [n]);
  }
  return out;
}

/** A tier-4 candidate when `n` matches at `at` (pushed to `out`); the matched length, or -1. */
export function tryNeedle(n: Needle, text: string, at: number, out: Candidate[]): number {
  const len = matchAt(text, at, n.lower);
  if (len === -1) return -1;
  const value = text.slice(at, at + len);
  const canonical = n.exact ? n.row.canonical : canonicalize(n.row.category, value);
  if (canonical) out.push(candidate(at, at + len, value, n.row.category, canonical, "known"));
  return len;
}
