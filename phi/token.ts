/**
 * The token format. A token stands for one canonical PHI value in text bound for the model:
 *
 *     [[<CATEGORY>_<N>]]      e.g. [[NAME_1]], [[MRN_12]], [[presidio_PERSON_3]], [[EMP_2]]
 *
 * `<CATEGORY>` is the lookup-table category as written in column 2 (letters, digits and `_`, starting
 * with a letter); `<N>` is a decimal counter, 1 + the highest N already used for that category in the
 * lookup table. The lookup table (sanitize/lookup.tsv) is the source of truth: a token is only ever
 * minted under its lock, so the same canonical value gets the same token in every process.
 *
 * Rows written by other tools (legacy tables) may hold tokens of any shape; they are still reversed
 * when they appear in text as `[[...]]`, and they never collide with new tokens because the counter
 * only looks at tokens of this shape.
 */

/** Any `[[...]]` token-shaped text: what the detokenizer and the never-tokenize list look for. */
export const ANY_TOKEN_RE = /\[\[([^\[\]\s]{1,80})\]\]/g;

/** Longest token text the stream detokenizer ever holds back, brackets included. */
export const MAX_TOKEN_LENGTH = 84;

const OURS_RE = /^\[\[([A-Za-z][A-Za-z0-9_]*)_(\d{1,9})\]\]$/;

/** Tokens of the form this program mints (`[[CATEGORY_N]]`), anywhere in a text. */
export const MINTED_TOKEN_RE = /\[\[[A-Za-z][A-Za-z0-9_]*_\d{1,9}\]\]/g;

/** A category name usable in a token: a letter, then letters, digits or `_` (at most 40). */
export const CATEGORY_RE = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/**
 * The token text for a category and counter.
 *
 * @example
 * ```ts
 * formatToken("NAME", 3); // "[[NAME_3]]"
 * ```
 */
export function formatToken(category: string, n: number): string {
  return `[[${category}_${n}]]`;
}

/**
 * Reads a token of our own shape back into category and counter; undefined for anything else.
 *
 * @example
 * ```ts
 * parseToken("[[presidio_PERSON_2]]"); // { category: "presidio_PERSON", n: 2 }
 * parseToken("[[foo]]"); // undefined
 * ```
 */
export function parseToken(token: string): { category: string; n: number } | undefined {
  const m = OURS_RE.exec(token);
  if (!m) return undefined;
  return { category: m[1], n: Number(m[2]) };
}

/**
 * True when `value` holds a token of ours and no letter or digit outside its tokens: text sanitized
 * once (a /load attachment, a message the model wrote back). Such a value is never tokenized again;
 * `[[55120987]]` typed in a field is a value.
 *
 * @example
 * ```ts
 * isTokensOnly("[[NAME_1]]^^^DR"); // false (DR is text)
 * isTokensOnly("[[MRN_1]]^^^"); // true
 * isTokensOnly("[[55120987]]"); // false
 * ```
 */
export function isTokensOnly(value: string): boolean {
  if (value.indexOf("[[") === -1) return false;
  const rest = value.replace(MINTED_TOKEN_RE, "");
  return rest !== value && !/[\p{L}\p{N}]/u.test(rest);
}
