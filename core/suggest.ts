/**
 * "Did you mean": the candidates closest to a mistyped name, for one-line errors. A candidate that
 * contains the name (or is contained in it) counts as closest; otherwise the edit distance must be
 * small for the name's length. Case-insensitive; at most three, closest first.
 *
 * @example
 * ```ts
 * closestNames("read_fil", ["read_file", "list_dir"]); // ["read_file"]
 * ```
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const n = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((c) => {
      const l = c.toLowerCase();
      return { c, d: l.includes(n) || n.includes(l) ? 0 : editDistance(n, l) };
    })
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .slice(0, max)
    .map((s) => s.c);
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}
