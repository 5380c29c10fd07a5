/**
 * One word of a person's name standing alone (`Vanderhoeven called back`, `Horatio said`) in a text
 * where the whole name was tokenized in the same pass (an HL7 name field, a cue, a known name): the
 * word gets the name's token. Only in the same text: a name word alone is too weak a sign on its own
 * (tier 4 does not match single name words from the lookup table).
 *
 * A word counts when it has three letters or more, is written capitalized or in capitals (`horatio`
 * in running text is left alone unless the name itself was written in lower case), is not a month,
 * a weekday, a common English word that is also a given name (`May`, `Will`, `Grant`), an HL7 term
 * or a vendor's name (phi/names/vocabulary.ts), and stands
 * outside every chosen value and every protected range (paths, fenced code the operator typed).
 */
import { type Candidate, candidate } from "./candidate.ts";
import { protectedSpans } from "./exclusions.ts";
import { SpanSet } from "./spans.ts";
import { HL7_FIELD_POLICY } from "./hl7_policy.ts";
import { hl7Vocabulary, VENDOR_WORDS } from "./names/vocabulary.ts";
import { BUILTIN_SEGMENTS, componentsOf, segmentDef } from "../hl7/schema.ts";

/** Name words that are also ordinary words or dates: never matched alone. */
const COMMON = new Set([
  "jan",
  "january",
  "feb",
  "february",
  "mar",
  "march",
  "apr",
  "april",
  "may",
  "jun",
  "june",
  "jul",
  "july",
  "aug",
  "august",
  "sep",
  "sept",
  "september",
  "oct",
  "october",
  "nov",
  "november",
  "dec",
  "december",
  "mon",
  "monday",
  "tue",
  "tuesday",
  "wed",
  "wednesday",
  "thu",
  "thursday",
  "fri",
  "friday",
  "sat",
  "saturday",
  "sun",
  "sunday",
  "will",
  "grant",
  "bill",
  "mark",
  "rose",
  "hope",
  "faith",
  "joy",
  "chase",
  "page",
  "bell",
  "ray",
  "dean",
  "art",
  "pat",
  "sue",
  "don",
  "van",
  "von",
  "del",
  "della",
  "der",
  "den",
  "des",
  "das",
  "dos",
  "the",
  "and",
  "for",
  "son",
  "jr",
  "sr",
  "iii",
  "mrs",
  "miss",
  "king",
  "may",
  "summer",
  "winter",
  "autumn",
  "spring",
  "young",
  "long",
  "little",
  "brown",
  "green",
  "white",
  "black",
  "gray",
  "grey",
  "price",
  "cash",
  "case",
  "lane",
  "street",
  "hall",
  "wood",
  "field",
  "stone",
  "page",
  "mary",
  "patient",
  "doctor",
  "nurse",
  "test",
  "tests",
  "new",
  "old",
  "west",
  "east",
  "north",
  "south",
]);

let vocabWords: Set<string> | undefined;

/** HL7 terms (`State`, `Family`, `Name`: a caret value such as `STATE^PI` may pass for a name) and vendor names. */
export function nameVocabulary(): ReadonlySet<string> {
  if (vocabWords) return vocabWords;
  const out = new Set([...hl7Vocabulary(), ...VENDOR_WORDS]);
  // Component names too (`State or Province`, `Family Name`), of every field type of the schema.
  const types = new Set<string>();
  for (const id of BUILTIN_SEGMENTS) for (const f of segmentDef(id)?.fields ?? []) types.add(f.type);
  for (const t of types) {
    for (const c of componentsOf(t) ?? []) {
      for (const w of c.name.toLowerCase().split(/[^a-z0-9]+/)) if (w.length >= 3) out.add(w);
    }
  }
  return vocabWords = out;
}

/**
 * Whether a name candidate is a person's name for sure enough to lend its words: from HL7 only a
 * name field of the policy (`PID.5`, `NK1.2`, an XCN); a caret value in free text (`STATE^PI` in a
 * rendered listing) is not, whoever found it.
 */
function nameSource(c: Candidate): boolean {
  // The built-in recognizer's caret pairs outside segments are its weakest finds.
  if (c.tier === "names") return !c.value.includes("^");
  if (c.tier !== "hl7" && c.tier !== "hl7_pipeline") return true;
  const m = /^([A-Z][A-Z0-9]{2})[.-](\d+)/.exec(c.context ?? "");
  const kind = m ? HL7_FIELD_POLICY[m[1]]?.[+m[2]]?.kind : undefined;
  return kind === "name" || kind === "xcn" || kind === "ndl";
}

const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();

/**
 * Candidates for the lone words of the names among `chosen` (sorted or not), outside `chosen`.
 * `fences`: fenced code is the operator's (prompts only).
 *
 * @example
 * ```ts
 * import { nameWordsOf } from "./name_words.ts";
 * import { candidate } from "./candidate.ts";
 * const text = "PID|1||1^^^H||VANDERHOEVEN^HORATIO\nVanderhoeven called";
 * const name = candidate(14, 35, "VANDERHOEVEN^HORATIO", "NAME", "horatio vanderhoeven", "hl7");
 * nameWordsOf(text, [name], false).map((c) => c.value); // ["Vanderhoeven"]
 * ```
 */
export function nameWordsOf(text: string, chosen: readonly Candidate[], fences: boolean): Candidate[] {
  /** Lowercase word → the name candidate it comes from, and whether that name was in lower case. */
  const words = new Map<string, { c: Candidate; lower: boolean }>();
  let vocab: ReadonlySet<string> | undefined;
  for (const c of chosen) {
    if ((c.category !== "NAME" && c.category !== "presidio_PERSON") || !nameSource(c)) continue;
    if (c.value.includes("[[")) continue;
    const lower = c.value === c.value.toLowerCase();
    for (const w of c.canonical.split(" ")) {
      if (w.length < 3 || !/^\p{L}[\p{L}'\u2019-]*$/u.test(w) || COMMON.has(w) || words.has(w)) continue;
      if ((vocab ??= nameVocabulary()).has(w)) continue;
      words.set(w, { c, lower });
    }
  }
  if (words.size === 0) return [];
  const list = [...words.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}_'\u2019-])(?:${
      list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")
    })(?![\\p{L}\\p{N}_]|['\u2019-]\\p{L})`,
    "giu",
  );
  const taken = SpanSet.union(chosen.map((c) => ({ start: c.start, end: c.end })));
  let protect: SpanSet | undefined;
  const out: Candidate[] = [];
  for (const m of text.matchAll(re)) {
    const start = m.index, end = start + m[0].length;
    const hit = words.get(m[0].toLowerCase());
    if (hit === undefined) continue;
    if (!hit.lower && !isUpper(m[0][0])) continue;
    // Inside a token (`[[NAME_1]]` holds no name word, but a custom category could).
    if (text.lastIndexOf("[[", start) > text.lastIndexOf("]]", start)) continue;
    protect ??= protectedSpans(text, fences);
    if (protect.overlaps(start, end) || !taken.add(start, end)) continue;
    const c = candidate(start, end, m[0], hit.c.category, hit.c.canonical, "known", "name word");
    c.partial = true;
    out.push(c);
  }
  return out;
}
