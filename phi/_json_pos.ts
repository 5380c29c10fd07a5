/**
 * A small JSON reader that keeps positions (JSON.parse loses them), for the record formats that
 * read JSON by structure (phi/fhir.ts) and find records inside JSON strings (phi/cda.ts). Private to
 * phi/.
 *
 * - `parseJsonAt` reads one value from a position and never throws: a truncated or malformed text
 *   gives the part that parsed (open containers end where the text or the error is).
 * - `decodeJsonString` decodes a JSON string from its opening quote with, for each decoded
 *   character, its position in the source: a record found in the decoded text maps back exactly.
 */

/** Kinds of a JSON node. */
export const OBJ = 0, ARR = 1, STR = 2, LIT = 3;

/** One value of a JSON text with its place: `[start, end)` (a string's quotes included). */
export interface JNode {
  kind: number;
  start: number;
  end: number;
  /** Object keys (string nodes), in order; undefined for other kinds. */
  keys: JNode[] | undefined;
  /** Object values (parallel to `keys`) or array items; undefined for strings and literals. */
  vals: JNode[] | undefined;
}

/** What `parseJsonAt` read: the value (if any) and where reading stopped. */
export interface JParse {
  node: JNode | undefined;
  /** Where the value ended, or where the error or the end of the text stopped it. */
  end: number;
  /** True when the value parsed whole (no error, not truncated). */
  ok: boolean;
}

const MAX_DEPTH = 256;

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

class Reader {
  pos: number;
  ok = true;
  constructor(readonly text: string, start: number, readonly limit: number) {
    this.pos = start;
  }

  ws(): void {
    const t = this.text;
    while (this.pos < this.limit && isWs(t.charCodeAt(this.pos))) this.pos++;
  }

  str(): JNode {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    const lim = this.limit;
    for (;;) {
      const q = t.indexOf('"', i);
      if (q === -1 || q >= lim) {
        this.ok = false;
        this.pos = lim;
        return { kind: STR, start, end: lim, keys: undefined, vals: undefined };
      }
      // The quote is escaped when an odd number of backslashes stand before it.
      let n = 0;
      while (q - n - 1 > start && t.charCodeAt(q - n - 1) === 92) n++;
      if ((n & 1) === 0) {
        this.pos = q + 1;
        return { kind: STR, start, end: q + 1, keys: undefined, vals: undefined };
      }
      i = q + 1;
    }
  }

  value(depth: number): JNode | undefined {
    this.ws();
    if (this.pos >= this.limit) {
      this.ok = false;
      return undefined;
    }
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 34) return this.str();
    if (c === 123 || c === 91) {
      if (depth >= MAX_DEPTH) {
        this.ok = false;
        return undefined;
      }
      return c === 123 ? this.obj(depth) : this.arr(depth);
    }
    // A number, true, false or null: a run of their characters.
    const start = this.pos;
    let i = start;
    while (i < this.limit) {
      const d = t.charCodeAt(i);
      if (
        (d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || (d >= 97 && d <= 122) || d === 69
      ) i++;
      else break;
    }
    if (i === start) {
      this.ok = false;
      return undefined;
    }
    this.pos = i;
    return { kind: LIT, start, end: i, keys: undefined, vals: undefined };
  }

  obj(depth: number): JNode {
    const t = this.text;
    const node: JNode = { kind: OBJ, start: this.pos, end: this.pos, keys: [], vals: [] };
    this.pos++;
    for (;;) {
      this.ws();
      if (this.pos >= this.limit) break;
      let c = t.charCodeAt(this.pos);
      if (c === 125) {
        this.pos++;
        node.end = this.pos;
        return node;
      }
      if (c === 44 && node.keys!.length > 0) {
        this.pos++;
        this.ws();
        if (this.pos >= this.limit) break;
        c = t.charCodeAt(this.pos);
      }
      if (c !== 34) {
        this.ok = false;
        break;
      }
      const key = this.str();
      if (!this.ok) break;
      this.ws();
      if (this.pos >= this.limit || t.charCodeAt(this.pos) !== 58) {
        this.ok = false;
        break;
      }
      this.pos++;
      const v = this.value(depth + 1);
      if (v === undefined) break;
      node.keys!.push(key);
      node.vals!.push(v);
      if (!this.ok) break;
    }
    this.ok = false;
    node.end = this.pos;
    return node;
  }

  arr(depth: number): JNode {
    const t = this.text;
    const node: JNode = { kind: ARR, start: this.pos, end: this.pos, keys: undefined, vals: [] };
    this.pos++;
    for (;;) {
      this.ws();
      if (this.pos >= this.limit) break;
      const c = t.charCodeAt(this.pos);
      if (c === 93) {
        this.pos++;
        node.end = this.pos;
        return node;
      }
      if (c === 44 && node.vals!.length > 0) {
        this.pos++;
        continue;
      }
      const v = this.value(depth + 1);
      if (v === undefined) break;
      node.vals!.push(v);
      if (!this.ok) break;
    }
    this.ok = false;
    node.end = this.pos;
    return node;
  }
}

/**
 * The JSON value that starts at `start` of `text` (white space first allowed), read no further than
 * `limit`. Never throws.
 *
 * @example
 * ```ts
 * import { parseJsonAt } from "./_json_pos.ts";
 * const r = parseJsonAt('x {"a": [1, "b"', 2);
 * r.ok; // false (truncated)
 * r.node?.keys?.length; // 1
 * ```
 */
export function parseJsonAt(text: string, start: number, limit = text.length): JParse {
  const r = new Reader(text, start, Math.min(limit, text.length));
  let node: JNode | undefined;
  try {
    node = r.value(0);
  } catch {
    return { node: undefined, end: start, ok: false };
  }
  return { node, end: node ? Math.max(node.end, r.pos) : r.pos, ok: r.ok };
}

const ESC: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * The text of a JSON string whose content is `[s, e)` of `text` (escapes decoded; a bad escape is
 * kept as written).
 */
export function jsonContent(text: string, s: number, e: number): string {
  const raw = text.slice(s, e);
  const r = raw.indexOf("\\");
  if (r === -1) return raw;
  const i = s + r;
  let out = text.slice(s, i);
  for (let k = i; k < e; k++) {
    const c = text[k];
    if (c !== "\\" || k + 1 >= e) {
      out += c;
      continue;
    }
    const n = text[k + 1];
    if (n === "u" && k + 5 < e + 0 && /^[0-9a-fA-F]{4}$/.test(text.slice(k + 2, k + 6))) {
      out += String.fromCharCode(parseInt(text.slice(k + 2, k + 6), 16));
      k += 5;
    } else if (ESC[n] !== undefined) {
      out += ESC[n];
      k++;
    } else {
      out += c;
    }
  }
  return out;
}

/** The text of a string node (its content decoded). */
export function strValue(text: string, n: JNode): string {
  const e = text.charCodeAt(n.end - 1) === 34 && n.end - 1 > n.start ? n.end - 1 : n.end;
  return jsonContent(text, n.start + 1, e);
}

/** A decoded JSON string with, for each decoded character, its source position (`map[len]` = end). */
export interface Decoded {
  text: string;
  map: Int32Array;
  /** Source position of the closing quote (or of the end when the string is not closed). */
  end: number;
}

/**
 * Decodes the JSON string whose content starts at `s` of `text` (after its opening quote), up to its
 * closing quote or `limit`.
 *
 * @example
 * ```ts
 * import { decodeJsonString } from "./_json_pos.ts";
 * const d = decodeJsonString('"a\\"b"', 1);
 * d.text; // 'a"b'
 * d.map[2]; // 3 (the b)
 * ```
 */
export function decodeJsonString(text: string, s: number, limit = text.length): Decoded {
  // The closing quote first (a quote after an even run of backslashes): the map is sized to the string.
  let lim = Math.min(limit, text.length);
  for (let q = text.indexOf('"', s); q !== -1 && q < lim; q = text.indexOf('"', q + 1)) {
    let b = 0;
    while (q - b - 1 >= s && text.charCodeAt(q - b - 1) === 92) b++;
    if ((b & 1) === 0) {
      lim = q + 1;
      break;
    }
  }
  const map = new Int32Array(Math.max(0, lim - s) + 1);
  const parts: string[] = [];
  let n = 0;
  let run = s; // start of the current run of plain characters
  let k = s;
  for (; k < lim; k++) {
    const c = text.charCodeAt(k);
    if (c === 34) break;
    if (c !== 92 || k + 1 >= lim) {
      map[n++] = k;
      continue;
    }
    if (k > run) parts.push(text.slice(run, k));
    const e = text[k + 1];
    map[n++] = k;
    if (e === "u" && k + 5 < lim && /^[0-9a-fA-F]{4}$/.test(text.slice(k + 2, k + 6))) {
      parts.push(String.fromCharCode(parseInt(text.slice(k + 2, k + 6), 16)));
      k += 5;
    } else if (ESC[e] !== undefined) {
      parts.push(ESC[e]);
      k++;
    } else {
      parts.push("\\");
    }
    run = k + 1;
  }
  if (k > run) parts.push(text.slice(run, k));
  map[n] = k;
  return { text: parts.join(""), map: map.subarray(0, n + 1), end: k };
}

/** The source position of the opening quote of the JSON string that holds position `p`, or -1. */
export function openingQuoteBefore(text: string, p: number, floor = 0): number {
  for (let i = p - 1; i >= floor; i--) {
    if (text.charCodeAt(i) !== 34) continue;
    let n = 0;
    while (i - n - 1 >= floor && text.charCodeAt(i - n - 1) === 92) n++;
    if ((n & 1) === 0) return i;
  }
  return -1;
}
