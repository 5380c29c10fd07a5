/**
 * The fast path of the NetConfig reader: one left-to-right pass over a record's configuration in
 * the form the engine's writers produce (`{ KEY value }` pairs, nested keyed lists and lists of
 * them in braces), building the keyed lists as it goes, with no second look at any character.
 *
 * It agrees with Tcl's list rules exactly when no bare word contains a brace or a backslash and no
 * element is in quotes (then brace counting and element splitting see the same structure). On
 * anything else (those cases, a pair that is not exactly a key and a value, a syntax error) it gives
 * up with {@link FAST_FAIL} and the caller reads the record the general way (keyed_list.ts), which
 * handles every case and reports errors and issues precisely.
 *
 * @module
 */
import { KeyedList, type KlValue } from "./keyed_list.ts";
import type { Shape } from "./schema.ts";

/** Thrown (one shared object, no stack) when the fast path does not apply. */
export const FAST_FAIL: { fastFail: true } = { fastFail: true };

const LBRACE = 0x7b, RBRACE = 0x7d, QUOTE = 0x22, BSL = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function skip(t: string, i: number, end: number): number {
  while (i < end && isSpace(t.charCodeAt(i))) i++;
  return i;
}

/** A braced scalar: counting braces; returns the closing brace's index. */
function braceEnd(t: string, open: number, end: number): number {
  let depth = 1;
  for (let i = open + 1; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c === LBRACE) depth++;
    else if (c === RBRACE) {
      if (--depth === 0) return i;
    } else if (c === BSL) i++;
  }
  throw FAST_FAIL;
}

/** After an element: white space, or the closing brace of the enclosing list. */
function checkAfter(t: string, i: number, end: number): void {
  if (i < end) {
    const c = t.charCodeAt(i);
    if (!isSpace(c) && c !== RBRACE) throw FAST_FAIL;
  }
}

const NO_FIELDS: Readonly<Record<string, Shape>> = Object.create(null);
const SCALAR: Shape = { kind: "scalar" };

/**
 * Interned short strings: NetConfig repeats a few hundred keys and values (`PROCS`, `ARGS`, `0`,
 * `ASCII`, `localdomain`) hundreds of thousands of times; giving each occurrence its own string is
 * most of the garbage a parse makes. A direct-mapped table (4,096 slots, keyed by length and four
 * characters) is checked in place, so a hit allocates nothing; a miss takes the slot.
 */
const SLOTS = 4096;
const table: Array<string | undefined> = new Array(SLOTS).fill(undefined);
const INTERN_MAX = 24;

/** A copy that does not keep the whole file alive (a slice may be a view into it). */
function own(s: string): string {
  return s.length < 13 ? s : s.split("").join("");
}

function sliceInterned(t: string, from: number, to: number): string {
  const len = to - from;
  if (len === 0) return "";
  if (len > INTERN_MAX) return t.slice(from, to);
  const h = (len * 31 + t.charCodeAt(from) * 7 + t.charCodeAt(from + (len >> 1)) * 13 +
    t.charCodeAt(to - 1) * 17 + t.charCodeAt(from + (len > 1 ? 1 : 0)) * 3) & (SLOTS - 1);
  const c = table[h];
  if (c !== undefined && c.length === len) {
    let j = 0;
    while (j < len && c.charCodeAt(j) === t.charCodeAt(from + j)) j++;
    if (j === len) return c;
  }
  const s = t.slice(from, to);
  table[h] = own(s);
  return s;
}

/** The field stack of fastKeyedList (see there); `top` is its height. */
const stack: Array<string | number | KlValue> = [];
let top = 0;

/** Where the last list read by fastKeyedList or fastList closed (saves allocating a result pair). */
export let fastClose = 0;

/**
 * Reads the keyed list whose opening brace is at `open`; returns it, with the index of its closing
 * brace in {@link fastClose}. Throws FAST_FAIL when the fast path does not apply.
 */
function fastKeyedList(t: string, open: number, end: number, shape: Shape): KeyedList {
  const shapes = shape.kind === "kl" ? shape.fields : NO_FIELDS;
  // Fields collect on a shared stack (nested lists above ours) and are copied out at the end, so
  // each keyed list gets one exactly-sized array and no growth garbage.
  const base = top;
  let i = open + 1;
  for (;;) {
    i = skip(t, i, end);
    if (i >= end) throw FAST_FAIL;
    let c = t.charCodeAt(i);
    if (c === RBRACE) {
      fastClose = i;
      const flat = stack.slice(base, top);
      top = base;
      return new KeyedList(undefined, flat);
    }
    if (c !== LBRACE) throw FAST_FAIL;
    const at = i;
    // The key: a plain word.
    i = skip(t, i + 1, end);
    const k0 = i;
    while (i < end) {
      c = t.charCodeAt(i);
      if (isSpace(c) || c === RBRACE) break; // a closing brace ends the word (it closes the pair)
      if (c === LBRACE || c === QUOTE || c === BSL) throw FAST_FAIL;
      i++;
    }
    if (i === k0) throw FAST_FAIL;
    const key = sliceInterned(t, k0, i);
    let sub = shapes[key];
    if (sub === undefined) {
      // A key in lower case may still be a schema key (keys are case-insensitive): general path.
      for (let j = k0; j < i; j++) {
        const d = t.charCodeAt(j);
        if (d >= 0x61 && d <= 0x7a) throw FAST_FAIL;
      }
      sub = SCALAR;
    }
    i = skip(t, i, end);
    if (i >= end) throw FAST_FAIL;
    c = t.charCodeAt(i);
    let value: KlValue;
    if (c === LBRACE) {
      if (sub.kind === "kl") {
        value = fastKeyedList(t, i, end, sub);
        i = fastClose + 1;
      } else if (sub.kind === "list") {
        value = fastList(t, i, end, sub.item);
        i = fastClose + 1;
      } else {
        const close = braceEnd(t, i, end);
        value = sliceInterned(t, i + 1, close);
        i = close + 1;
      }
      checkAfter(t, i, end);
    } else {
      if (c === RBRACE || c === QUOTE) throw FAST_FAIL; // a key alone, or a quoted value
      const v0 = i;
      while (i < end) {
        c = t.charCodeAt(i);
        if (isSpace(c) || c === RBRACE) break;
        if (c === LBRACE || c === BSL) throw FAST_FAIL;
        i++;
      }
      value = sliceInterned(t, v0, i);
      if (sub.kind !== "scalar") throw FAST_FAIL; // a structure written as a bare word: general path
    }
    // The pair's closing brace, then white space or the list's end.
    i = skip(t, i, end);
    if (i >= end || t.charCodeAt(i) !== RBRACE) throw FAST_FAIL;
    i++;
    checkAfter(t, i, end);
    stack[top++] = key;
    stack[top++] = value;
    stack[top++] = at;
  }
}

/**
 * A record's configuration (a keyed list whose opening brace is at `open`), closing index in
 * {@link fastClose}. Throws FAST_FAIL when the fast path does not apply.
 */
export function fastConfig(t: string, open: number, end: number, shape: Shape): KeyedList {
  top = 0;
  try {
    return fastKeyedList(t, open, end, shape);
  } finally {
    top = 0;
  }
}

/** Lets go of what the field stack still points at (call when a file is done). */
export function fastRelease(): void {
  stack.length = 0;
  top = 0;
}

/** A list of keyed lists whose opening brace is at `open`. */
function fastList(t: string, open: number, end: number, item: Shape): KeyedList[] {
  const items: KeyedList[] = [];
  let i = open + 1;
  for (;;) {
    i = skip(t, i, end);
    if (i >= end) throw FAST_FAIL;
    const c = t.charCodeAt(i);
    if (c === RBRACE) {
      fastClose = i;
      return items;
    }
    if (c !== LBRACE) throw FAST_FAIL;
    items.push(fastKeyedList(t, i, end, item));
    i = fastClose + 1;
    checkAfter(t, i, end);
  }
}
