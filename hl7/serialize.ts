/**
 * Writing messages back. A parsed message or document is written exactly as it was read; the
 * `encode*` functions build segment text from values, escaping each leaf.
 *
 * @module
 */
import { DEFAULT_DELIMITERS, type Delimiters, encodingCharacters, HEADER_IDS } from "./delimiters.ts";
import { escape, unescape } from "./escape.ts";
import type { Hl7Document, Message } from "./message.ts";
import { splitComponents, splitRepetitions } from "./segment.ts";

/**
 * The text of a message: each segment followed by its own terminator.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const text = "MSH|^~\\&|A\r\nPID|1\n";
 * serializeMessage(parseMessage(text)) === text; // true
 * ```
 */
export function serializeMessage(message: Message): string {
  return message.toString();
}

/**
 * The text of a whole document: messages, batch segments, framing and text between messages, in
 * order. `serializeDocument(parseMessages(x)) === x` for every string `x` that parses.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIMITERS, parseMessage, parseMessages, parsePath } from "./mod.ts";
 * const x = "\x0bMSH|^~\\&|A\rPID|1\r\x1c\r";
 * serializeDocument(parseMessages(x)) === x; // true
 * ```
 */
export function serializeDocument(doc: Hl7Document): string {
  let text = "";
  for (const part of doc.parts) {
    switch (part.kind) {
      case "message":
        text += part.message.toString();
        break;
      case "batch":
        text += part.segment.raw + part.segment.terminator;
        break;
      default:
        text += part.text;
    }
  }
  return text;
}

/**
 * A field's value as a tree of unescaped leaves: repetitions, each a list of components, each a
 * list of subcomponents. Every level has at least one element (`[[[""]]]` is an empty field).
 */
export type FieldTree = readonly (readonly (readonly string[])[])[];

/** A field for {@link encodeSegment}: raw text written as is, a tree to encode, or empty. */
export type FieldInput = string | FieldTree | undefined;

/**
 * Encodes a field tree with delimiters `d`, escaping each leaf. Throws a RangeError when the tree
 * needs a delimiter `d` does not have (a second subcomponent without a subcomponent character).
 *
 * @example
 * ```ts
 * encodeField([[["DOE"], ["JOHN"]], [["ROE"]]]); // "DOE^JOHN~ROE"
 * encodeField([[["O^BRIEN"]]]); // "O\\S\\BRIEN"
 * ```
 */
export function encodeField(tree: FieldTree, d: Delimiters = DEFAULT_DELIMITERS): string {
  if (tree.length > 1 && d.repetition === "") {
    throw new RangeError("the delimiters declare no repetition character");
  }
  return tree.map((rep) =>
    rep.map((comp) => {
      if (comp.length > 1 && d.subcomponent === "") {
        throw new RangeError("the delimiters declare no subcomponent character");
      }
      return comp.map((leaf) => escape(leaf, d)).join(d.subcomponent);
    }).join(d.component)
  ).join(d.repetition);
}

/**
 * The inverse of {@link encodeField}: splits a raw field and unescapes its leaves.
 *
 * @example
 * ```ts
 * decodeField("DOE^JOHN~ROE"); // [[["DOE"], ["JOHN"]], [["ROE"]]]
 * ```
 */
export function decodeField(raw: string, d: Delimiters = DEFAULT_DELIMITERS): string[][][] {
  // Fast path: most fields (ids, dates, codes, names without components) hold no encoding
  // character at all, so they are one leaf as written: no split and no unescape to do.
  if (!encodingCharacterIn(raw, d)) return [[[raw]]];
  const reps = splitRepetitions(raw, d);
  const tree: string[][][] = new Array(reps.length);
  for (let r = 0; r < reps.length; r++) {
    const comps = splitComponents(reps[r], d);
    const rep: string[][] = new Array(comps.length);
    for (let c = 0; c < comps.length; c++) {
      const comp = comps[c];
      if (d.subcomponent === "" || comp.indexOf(d.subcomponent) === -1) {
        rep[c] = [unescape(comp, d)];
        continue;
      }
      const subs = comp.split(d.subcomponent);
      for (let k = 0; k < subs.length; k++) subs[k] = unescape(subs[k], d);
      rep[c] = subs;
    }
    tree[r] = rep;
  }
  return tree;
}

/** Per delimiter set, a test for any of its repetition, component, subcomponent or escape characters. */
const encodingTests = new WeakMap<Delimiters, RegExp | null>();

/**
 * Whether `raw` may hold something decodeField must act on: one of the delimiters' characters, or
 * any text at all under delimiters the test cannot cover (an empty component character, which
 * splits every character apart, or a delimiter longer than one UTF-16 unit).
 */
function encodingCharacterIn(raw: string, d: Delimiters): boolean {
  const test = encodingTestFor(d);
  return test === null || test.test(raw);
}

function encodingTestFor(d: Delimiters): RegExp | null {
  let test = encodingTests.get(d);
  if (test === undefined) {
    const chars = [d.repetition, d.component, d.subcomponent, d.escape].filter((c) => c !== "");
    if (d.component === "" || chars.some((c) => c.length !== 1)) test = null;
    else {
      // Code units, as String.prototype.split matches them.
      const units = chars.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
      test = new RegExp(`[${units.join("")}]`);
    }
    encodingTests.set(d, test);
  }
  return test;
}

/**
 * Builds the text of one segment (without terminator). `fields[i]` is field i+1. For MSH, FHS and
 * BHS the first two fields are the delimiters themselves: give `undefined` for them and they are
 * written from `d`.
 *
 * @example
 * ```ts
 * encodeSegment("PID", ["1", undefined, [[["123"], [""], [""], ["MRN"]]]]); // "PID|1||123^^^MRN"
 * encodeSegment("MSH", [undefined, undefined, "APP"]); // "MSH|^~\\&|APP"
 * ```
 */
export function encodeSegment(
  id: string,
  fields: readonly FieldInput[],
  d: Delimiters = DEFAULT_DELIMITERS,
): string {
  const header = HEADER_IDS.includes(id);
  let text = id;
  let i = 0;
  if (header) {
    for (; i < 2 && i < fields.length; i++) {
      if (fields[i] !== undefined) {
        throw new RangeError(`${id}-${i + 1} is written from the delimiters; pass undefined`);
      }
    }
    text += d.field + encodingCharacters(d);
  }
  for (; i < fields.length; i++) {
    const f = fields[i];
    text += d.field + (f === undefined ? "" : typeof f === "string" ? f : encodeField(f, d));
  }
  return text;
}
