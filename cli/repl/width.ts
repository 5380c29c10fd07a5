/**
 * Display width of text on a terminal, by grapheme (Intl.Segmenter): East Asian wide and fullwidth
 * characters and emoji take 2 columns; combining marks, ZWJ sequences and variation selectors join
 * their base; control characters take 0. The wide table below is our own compact copy of the
 * Unicode 15 East Asian Width W/F ranges plus emoji presentation ranges.
 */

// Sorted [first, last] pairs, flattened.
const WIDE: readonly number[] = [
  0x1100,
  0x115f,
  0x231a,
  0x231b,
  0x2329,
  0x232a,
  0x23e9,
  0x23ec,
  0x23f0,
  0x23f0,
  0x23f3,
  0x23f3,
  0x25fd,
  0x25fe,
  0x2614,
  0x2615,
  0x2648,
  0x2653,
  0x267f,
  0x267f,
  0x2693,
  0x2693,
  0x26a1,
  0x26a1,
  0x26aa,
  0x26ab,
  0x26bd,
  0x26be,
  0x26c4,
  0x26c5,
  0x26ce,
  0x26ce,
  0x26d4,
  0x26d4,
  0x26ea,
  0x26ea,
  0x26f2,
  0x26f3,
  0x26f5,
  0x26f5,
  0x26fa,
  0x26fa,
  0x26fd,
  0x26fd,
  0x2705,
  0x2705,
  0x270a,
  0x270b,
  0x2728,
  0x2728,
  0x274c,
  0x274c,
  0x274e,
  0x274e,
  0x2753,
  0x2755,
  0x2757,
  0x2757,
  0x2795,
  0x2797,
  0x27b0,
  0x27b0,
  0x27bf,
  0x27bf,
  0x2b1b,
  0x2b1c,
  0x2b50,
  0x2b50,
  0x2b55,
  0x2b55,
  0x2e80,
  0x303e,
  0x3041,
  0x33ff,
  0x3400,
  0x4dbf,
  0x4e00,
  0x9fff,
  0xa000,
  0xa4cf,
  0xa960,
  0xa97f,
  0xac00,
  0xd7a3,
  0xf900,
  0xfaff,
  0xfe10,
  0xfe19,
  0xfe30,
  0xfe6f,
  0xff00,
  0xff60,
  0xffe0,
  0xffe6,
  0x16fe0,
  0x16fe4,
  0x17000,
  0x18cff,
  0x1b000,
  0x1b2ff,
  0x1f004,
  0x1f004,
  0x1f0cf,
  0x1f0cf,
  0x1f18e,
  0x1f18e,
  0x1f191,
  0x1f19a,
  0x1f200,
  0x1f202,
  0x1f210,
  0x1f23b,
  0x1f240,
  0x1f248,
  0x1f250,
  0x1f251,
  0x1f260,
  0x1f265,
  0x1f300,
  0x1f320,
  0x1f32d,
  0x1f335,
  0x1f337,
  0x1f37c,
  0x1f37e,
  0x1f393,
  0x1f3a0,
  0x1f3ca,
  0x1f3cf,
  0x1f3d3,
  0x1f3e0,
  0x1f3f0,
  0x1f3f4,
  0x1f3f4,
  0x1f3f8,
  0x1f43e,
  0x1f440,
  0x1f440,
  0x1f442,
  0x1f4fc,
  0x1f4ff,
  0x1f53d,
  0x1f54b,
  0x1f54e,
  0x1f550,
  0x1f567,
  0x1f57a,
  0x1f57a,
  0x1f595,
  0x1f596,
  0x1f5a4,
  0x1f5a4,
  0x1f5fb,
  0x1f64f,
  0x1f680,
  0x1f6c5,
  0x1f6cc,
  0x1f6cc,
  0x1f6d0,
  0x1f6d2,
  0x1f6d5,
  0x1f6d7,
  0x1f6dc,
  0x1f6df,
  0x1f6eb,
  0x1f6ec,
  0x1f6f4,
  0x1f6fc,
  0x1f7e0,
  0x1f7eb,
  0x1f7f0,
  0x1f7f0,
  0x1f90c,
  0x1f93a,
  0x1f93c,
  0x1f945,
  0x1f947,
  0x1f9ff,
  0x1fa70,
  0x1faff,
  0x20000,
  0x2fffd,
  0x30000,
  0x3fffd,
];

function inWide(cp: number): boolean {
  let lo = 0;
  let hi = WIDE.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[mid * 2]) hi = mid - 1;
    else if (cp > WIDE[mid * 2 + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const ZERO = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

/** Columns of one code point on its own: 0 (control, combining, format), 1 or 2. */
export function codePointWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return cp === 0xad ? 0 : 1;
  if (inWide(cp)) return 2;
  if (cp >= 0x1160 && cp <= 0x11ff) return 0; // Hangul medial vowels and final consonants
  if (ZERO.test(String.fromCodePoint(cp))) return 0;
  return 1;
}

/** Columns of one grapheme cluster: its base's width, 2 for an emoji presentation sequence. */
export function graphemeWidth(g: string): number {
  const first = g.codePointAt(0)!;
  if (g.length === 1 || (g.length === 2 && first > 0xffff)) return codePointWidth(first);
  // Two regional indicators make a flag.
  if (first >= 0x1f1e6 && first <= 0x1f1ff) return 2;
  let base = 0;
  for (const ch of g) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfe0f) {
      // VS16 asks for emoji presentation: keycaps and text-default pictographs become 2 wide.
      if (PICTOGRAPHIC.test(String.fromCodePoint(first)) || g.includes("\u20e3")) return 2;
      continue;
    }
    const w = codePointWidth(cp);
    if (base === 0 && w > 0) {
      base = w;
      if (cp === 0xfe0e) return 1;
    }
  }
  return base;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** One grapheme of a string: its UTF-16 offset, its text and its columns. */
export interface Grapheme {
  index: number;
  text: string;
  width: number;
}

/**
 * "Simple" characters: never part of a larger grapheme cluster with what precedes them, never
 * extended by another simple character, and of a known width (printable ASCII and Latin-1 and
 * spacing Latin letters 1; kana, CJK ideographs, Hangul syllables and fullwidth forms 2).
 */
function simpleWidth(c: number): number {
  if (c >= 0x20 && c < 0x7f) return 1;
  if (c >= 0xa0 && c < 0x300) return c === 0xad ? 0 : 1;
  if (
    (c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa) || (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xff01 && c <= 0xff60)
  ) return 2;
  return 0;
}

/**
 * The graphemes of `s` with their widths. Simple characters (see `simpleWidth`) followed by another
 * simple one are taken one at a time without the segmenter, so long plain or CJK lines are cheap;
 * the stretches between go through Intl.Segmenter.
 */
export function* graphemes(s: string): Generator<Grapheme> {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const w = simpleWidth(s.charCodeAt(i));
    if (w > 0 && (i + 1 === n || simpleWidth(s.charCodeAt(i + 1)) > 0)) {
      yield { index: i, text: s[i], width: w };
      i++;
      continue;
    }
    // A stretch up to a run of simple characters (a grapheme boundary always falls before a simple
    // character); close stretches are joined so the segmenter is called rarely.
    let j = i + 1;
    for (let run = 0; j < n; j++) {
      if (simpleWidth(s.charCodeAt(j)) === 0) run = 0;
      else if (++run === 32) {
        j -= 31;
        break;
      }
    }
    if (j === n) {
      // Trailing simple characters are left to the fast path.
      while (j - 1 > i && simpleWidth(s.charCodeAt(j - 1)) > 0 && simpleWidth(s.charCodeAt(j - 2)) > 0) j--;
    }
    for (const seg of segmenter.segment(s.slice(i, j))) {
      yield { index: i + seg.index, text: seg.segment, width: graphemeWidth(seg.segment) };
    }
    i = j;
  }
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes ANSI escape sequences (SGR colours, OSC titles) from a string. */
export function stripAnsi(s: string): string {
  return s.indexOf("\x1b") === -1 ? s : s.replace(ANSI, "");
}

/** Display width of `s` in terminal columns (ANSI escape sequences count 0). */
export function stringWidth(s: string): number {
  const plain = stripAnsi(s);
  let w = 0;
  for (const g of graphemes(plain)) w += g.width;
  return w;
}

/** The grapheme boundary after `pos` (`pos` on a boundary); `s.length` at the end. */
export function nextBoundary(s: string, pos: number): number {
  if (pos >= s.length) return s.length;
  for (let win = 32;; win *= 4) {
    const end = Math.min(s.length, pos + win);
    const first = segmenter.segment(s.slice(pos, end))[Symbol.iterator]().next().value;
    const len = first ? first.segment.length : 1;
    if (pos + len < end || end === s.length) return pos + len;
  }
}

/** The grapheme boundary before `pos` (`pos` on a boundary); 0 at the start. */
export function prevBoundary(s: string, pos: number): number {
  if (pos <= 0) return 0;
  for (let win = 32;; win *= 4) {
    const start = Math.max(0, pos - win);
    let last = start;
    for (const seg of segmenter.segment(s.slice(start, pos))) last = start + seg.index;
    if (last > start || start === 0) return last;
  }
}
