/**
 * Whether a position of a text is inside a double-quoted string opened on its line (a JSON string
 * value holding a record): the X12 and NCPDP readers end a record at its closing quote.
 */

/** True when `text[i]` is `"` not escaped by a backslash. */
export function isQuote(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 34) return false;
  let b = 0;
  while (i - b - 1 >= 0 && text.charCodeAt(i - b - 1) === 92) b++;
  return (b & 1) === 0;
}

/**
 * The unescaped quotes from each line start, counted incrementally for increasing positions (one
 * long JSON line with many records is read once, not once per record); a smaller position starts
 * the count again from the beginning.
 *
 * @example
 * ```ts
 * const q = new QuoteTracker('{"a":"ISA*00"}');
 * q.at(6); // true
 * ```
 */
export class QuoteTracker {
  #text: string;
  #pos = 0;
  #odd = false;
  constructor(text: string) {
    this.#text = text;
  }
  /** True when `pos` is inside a quoted string opened on its line. */
  at(pos: number): boolean {
    const text = this.#text;
    if (pos < this.#pos) {
      this.#pos = 0;
      this.#odd = false;
    }
    for (let i = this.#pos; i < pos; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) this.#odd = false;
      else if (c === 34 && isQuote(text, i)) this.#odd = !this.#odd;
    }
    this.#pos = pos;
    return this.#odd;
  }
}
