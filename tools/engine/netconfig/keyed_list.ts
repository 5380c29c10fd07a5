/**
 * TclX keyed lists (`{ {KEY value} {KEY2 {nested keyed list}} }`) read with a schema: each element
 * is a key and a value; the schema says which values are keyed lists themselves or lists of keyed
 * lists. Keys are matched case-insensitively, as TclX's `keylget` does in the engine's loader.
 *
 * Irregular elements (a key without a value, more than two parts) do not stop the reading: they are
 * reported as issues with their offset, and kept as well as they can be.
 *
 * @module
 */
import { type Elem, ElemKind, newElem, TclSource } from "./tcl_list.ts";
import { SCALAR, type Shape } from "./schema.ts";

/** A value: a scalar (Tcl word or list as written), a keyed list, or a list of keyed lists. */
export type KlValue = string | KeyedList | KeyedList[];

export interface KlField {
  /** The key as written. */
  key: string;
  value: KlValue;
  /** Offset of the field in the source text (for line numbers). */
  offset: number;
}

/** Something odd found while reading; `offset` is into the source text. */
export interface KlIssue {
  offset: number;
  message: string;
}

/**
 * A keyed list: fields in file order, looked up case-insensitively.
 *
 * @example
 * ```ts
 * declare const thread: { config: KeyedList };
 * const proto = thread.config.kl("PROTOCOL");
 * proto?.str("PORT"); // "5001"
 * thread.config.at("PROTOCOL.PORT"); // "5001"
 * ```
 */
export class KeyedList {
  /**
   * The fields as one flat array `[key, value, offset, key, value, offset, ...]`: a NetConfig has
   * hundreds of thousands of fields, and one array per keyed list instead of an object per field
   * roughly halves what a parse allocates.
   */
  readonly #flat: Array<string | number | KlValue>;
  #fields: KlField[] | undefined;

  /** From fields, or (with `flat`) over a flat `[key, value, offset, ...]` array, taken as is. */
  constructor(fields: KlField[] = [], flat?: Array<string | number | KlValue>) {
    if (flat) {
      this.#flat = flat;
      return;
    }
    const f: Array<string | number | KlValue> = new Array(fields.length * 3);
    for (let i = 0; i < fields.length; i++) {
      f[3 * i] = fields[i].key;
      f[3 * i + 1] = fields[i].value;
      f[3 * i + 2] = fields[i].offset;
    }
    this.#flat = f;
  }

  /** Offset of the first field in the source, if there is one. */
  get firstOffset(): number | undefined {
    return this.#flat.length ? this.#flat[2] as number : undefined;
  }

  /** Number of fields. */
  get size(): number {
    return this.#flat.length / 3;
  }

  /** The fields in file order (built on first use). */
  get fields(): KlField[] {
    if (this.#fields) return this.#fields;
    const f = this.#flat;
    const out: KlField[] = new Array(f.length / 3);
    for (let i = 0; i < out.length; i++) {
      out[i] = { key: f[3 * i] as string, value: f[3 * i + 1] as KlValue, offset: f[3 * i + 2] as number };
    }
    return this.#fields = out;
  }

  /** Index (into the flat array) of the key, case-insensitive; -1 when absent. */
  #find(key: string): number {
    const f = this.#flat;
    for (let i = 0; i < f.length; i += 3) if (f[i] === key) return i;
    const upper = key.toUpperCase();
    for (let i = 0; i < f.length; i += 3) if ((f[i] as string).toUpperCase() === upper) return i;
    return -1;
  }

  /** The field of that key (case-insensitive), or undefined. */
  field(key: string): KlField | undefined {
    const i = this.#find(key);
    if (i === -1) return undefined;
    const f = this.#flat;
    return { key: f[i] as string, value: f[i + 1] as KlValue, offset: f[i + 2] as number };
  }

  get(key: string): KlValue | undefined {
    const i = this.#find(key);
    return i === -1 ? undefined : this.#flat[i + 1] as KlValue;
  }

  /** A scalar value; undefined when missing or not a scalar. */
  str(key: string): string | undefined {
    const v = this.get(key);
    return typeof v === "string" ? v : undefined;
  }

  /** A keyed-list value; a scalar that reads as a keyed list is read as one (unknown nested keys). */
  kl(key: string): KeyedList | undefined {
    const v = this.get(key);
    if (v instanceof KeyedList) return v;
    if (typeof v === "string") return asKeyedList(v);
    return undefined;
  }

  /** A list-of-keyed-lists value; empty when missing. */
  list(key: string): KeyedList[] {
    const v = this.get(key);
    return Array.isArray(v) ? v : [];
  }

  /**
   * The value at a dotted path (`PROTOCOL.PORT`, `SMS.IN_DATA.PROCS`); list elements may be picked
   * by 1-based index (`DATAXLATE.2.TRXID`). Undefined when the path does not exist.
   */
  at(path: string): KlValue | undefined {
    const parts = path.split(".").filter((p) => p !== "");
    let cur: KlValue | undefined = this as KeyedList;
    for (const part of parts) {
      if (cur === undefined) return undefined;
      if (Array.isArray(cur)) {
        const n = Number(part);
        cur = Number.isInteger(n) && n >= 1 && n <= cur.length ? cur[n - 1] : undefined;
        continue;
      }
      const list: KeyedList | undefined = cur instanceof KeyedList ? cur : asKeyedList(cur);
      if (list === undefined) return undefined;
      cur = list.get(part);
    }
    return cur;
  }

  /** A plain object (keyed lists become objects, lists arrays, scalars strings). */
  toJSON(): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    const f = this.#flat;
    for (let i = 0; i < f.length; i += 3) o[f[i] as string] = valueToJSON(f[i + 1] as KlValue);
    return o;
  }
}

export function valueToJSON(v: KlValue): unknown {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((x) => x.toJSON());
  return v.toJSON();
}

/**
 * Reads a scalar as a keyed list when it has that form (every element a two-part list with a
 * word-like key); undefined otherwise. Used for keys the schema does not know.
 */
export function asKeyedList(text: string): KeyedList | undefined {
  try {
    const src = new TclSource(text);
    const issues: KlIssue[] = [];
    const kl = readKeyedList(src, 0, text.length, SCALAR_KL, issues);
    if (issues.length > 0 || kl.fields.length === 0) return undefined;
    for (const f of kl.fields) if (!/^[A-Za-z_][\w.-]*$/.test(f.key)) return undefined;
    return kl;
  } catch {
    return undefined;
  }
}

/**
 * A scalar of a key the schema does not know, read as a keyed list when the writer laid it out as
 * one: over several lines, every element a `{KEY value}` pair. A newer engine's nested block is then
 * shown and compared key by key instead of as one blob; a one-line value (`COORDS {0 0}`,
 * `GROUPS {a b}`) stays a scalar.
 */
export function structuredScalar(text: string): KeyedList | undefined {
  return text.includes("\n") ? asKeyedList(text) : undefined;
}

const SCALAR_KL: Shape = { kind: "kl", fields: Object.create(null) };

const FIELDS_NONE: Readonly<Record<string, Shape>> = Object.create(null);

/**
 * Reads the keyed list in `src.text[start, end)` with `shape` (a keyed-list shape). Throws
 * TclListError on a Tcl syntax error; irregular elements go to `issues`.
 */
export function readKeyedList(
  src: TclSource,
  start: number,
  end: number,
  shape: Shape,
  issues: KlIssue[],
): KeyedList {
  const fieldShapes = shape.kind === "kl" ? shape.fields : FIELDS_NONE;
  const flat: Array<string | number | KlValue> = [];
  const e = newElem();
  const k = newElem();
  const v = newElem();
  const extra = newElem();
  let pos = start;
  while (src.next(pos, end, e)) {
    pos = e.next;
    // The element is a two-part list {KEY value}; braced (the writer's form) is read in place.
    let s = src, ps = e.start, pe = e.end;
    if (e.kind !== ElemKind.Braced) {
      const text = src.value(e);
      s = new TclSource(text, src.where(e.at));
      ps = 0;
      pe = text.length;
    }
    const at = src.where(e.at);
    if (!s.next(ps, pe, k)) {
      issues.push({ offset: at, message: "empty element in a keyed list" });
      continue;
    }
    const key = s.value(k);
    let value: KlValue;
    if (!s.next(k.next, pe, v)) {
      issues.push({ offset: at, message: `keyed-list key ${key} has no value` });
      value = "";
    } else if (s.next(v.next, pe, extra)) {
      // Read the rest too: a syntax error in it is one to Tcl as well.
      for (let p = extra.next; s.next(p, pe, extra);) p = extra.next;
      issues.push({ offset: at, message: `keyed-list element ${key} has more than a key and a value` });
      value = s.text.slice(v.at, pe).trim();
    } else {
      const fs = fieldShapes[key] ?? fieldShapes[key.toUpperCase()] ?? SCALAR;
      value = readValue(s, v, fs, issues);
    }
    flat.push(key, value, at);
  }
  return new KeyedList(undefined, flat);
}

function readValue(s: TclSource, v: Elem, shape: Shape, issues: KlIssue[]): KlValue {
  if (shape.kind === "scalar") return s.value(v);
  let src = s, start = v.start, end = v.end;
  if (v.kind !== ElemKind.Braced) {
    const text = s.value(v);
    src = new TclSource(text, s.where(v.at));
    start = 0;
    end = text.length;
  }
  if (shape.kind === "kl") return readKeyedList(src, start, end, shape, issues);
  const items: KeyedList[] = [];
  const e = newElem();
  let pos = start;
  while (src.next(pos, end, e)) {
    pos = e.next;
    if (e.kind === ElemKind.Braced) {
      items.push(readKeyedList(src, e.start, e.end, shape.item, issues));
    } else {
      const text = src.value(e);
      items.push(readKeyedList(new TclSource(text, src.where(e.at)), 0, text.length, shape.item, issues));
    }
  }
  return items;
}
