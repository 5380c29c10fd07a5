/**
 * Case folding as tier 4 compares text (phi/tier4_known.ts, phi/known_index.ts): one code point at a
 * time, with no context, so a known value always matches its own spelling whatever surrounds it.
 */

/**
 * One character (a code point), case-folded the way tier 4 compares: lowercased on its own, with no
 * context (so `Σ` is always `σ`), and final sigma `ς` read as `σ`. A character whose lowercase is
 * more than one character (`İ`) stays as it is, so a letter always folds to one letter.
 */
export function foldChar(ch: string): string {
  if (ch === "\u03c2") return "\u03c3";
  const l = ch.toLowerCase();
  return l.length === (l.codePointAt(0)! > 0xffff ? 2 : 1) ? l : ch;
}

/** The character of `w` units at `i` of `s`, folded (ASCII by char code). */
export function foldAt(s: string, i: number, w: number): string {
  const c = s.charCodeAt(i);
  if (c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[i];
  return foldChar(s.slice(i, i + w));
}

/** `foldChar` over a whole form, character by character (ASCII simply lowercased). */
export function foldForm(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 128) {
      let out = "";
      for (let j = 0; j < s.length;) {
        const c = s.charCodeAt(j);
        const w = c >= 0xd800 && c <= 0xdbff && j + 1 < s.length ? 2 : 1;
        out += foldAt(s, j, w);
        j += w;
      }
      return out;
    }
  }
  return s.toLowerCase();
}
