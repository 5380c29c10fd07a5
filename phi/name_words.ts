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
 * outside every chosen value and every protected range (paths, fenced code the operator typed). A
 * word the same text also writes in lower case (`server`) is an ordinary word there: never alone.
 */
import { type Candidate, candidate } from "./candidate.ts";
import { protectedRanges, protectedSpans } from "./exclusions.ts";
import { type Span, SpanSet } from "./spans.ts";
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
  // A name element of a record format read by structure (FHIR, CDA, X12, NCPDP, extracts): its
  // context is the format's own path, not an HL7 field.
  if (!m) return c.category === "NAME";
  const kind = HL7_FIELD_POLICY[m[1]]?.[+m[2]]?.kind;
  return kind === "name" || kind === "xcn" || kind === "ndl";
}

/**
 * The context of a lone name word's candidate: part of a name whose token it gets, so the engine
 * never takes it for the token's prose form (detokenize gives the whole name back).
 */
export const NAME_WORD = "name word";

/** The words of a name canonical that may stand alone (computed once per name, bounded). */
const ELIGIBLE = new Map<string, string[]>();

/** A word: letters, with inner apostrophes and hyphens (`O'Brien`, `Smith-Jones`). */
const WORD = /\p{L}+(?:['\u2019-]\p{L}+)*/gu;

const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();

/**
 * Candidates for the lone words of the names among `chosen` (sorted or not), outside `chosen`.
 * `fences`: fenced code is the operator's (prompts only). `regions`: only these parts of the text
 * (sorted; an HL7 text's free text: what lies outside segments, and free-text fields).
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
export function nameWordsOf(
  text: string,
  chosen: readonly Candidate[],
  fences: boolean,
  regions?: readonly Span[],
): Candidate[] {
  /** Lowercase word → the name candidate it comes from, and whether that name was in lower case. */
  const words = new Map<string, { c: Candidate; lower: boolean }>();
  let vocab: ReadonlySet<string> | undefined;
  for (const c of chosen) {
    if ((c.category !== "NAME" && c.category !== "presidio_PERSON") || !nameSource(c)) continue;
    if (c.value.includes("[[")) continue;
    const lower = c.value === c.value.toLowerCase();
    let eligible = ELIGIBLE.get(c.canonical);
    if (eligible === undefined) {
      eligible = [];
      for (const w of c.canonical.split(" ")) {
        if (w.length < 3 || !/^\p{L}[\p{L}'\u2019-]*$/u.test(w) || COMMON.has(w)) continue;
        if ((vocab ??= nameVocabulary()).has(w)) continue;
        eligible.push(w);
      }
      if (ELIGIBLE.size >= 50_000) ELIGIBLE.clear();
      ELIGIBLE.set(c.canonical, eligible);
    }
    for (const w of eligible) if (!words.has(w)) words.set(w, { c, lower });
  }
  if (words.size === 0) return [];
  let taken: SpanSet | undefined; // built at the first word that is a name word
  let protect: SpanSet | undefined;
  let lineStart = 0, lineEnd = 0;
  // Fenced code spans lines: read once for the whole text, only when there is a fence.
  const hasFence = fences && text.indexOf("```") !== -1;
  const fenced = hasFence
    ? SpanSet.union(protectedRanges(text, false, true).filter((p) => p.kind === "fence"))
    : undefined;
  const out: Candidate[] = [];
  let ordinary: Set<string> | undefined;
  // One pass over the words of the text, or of its regions (a word: letters, inner `'` and `-`),
  // each looked up.
  const parts = regions ?? [{ start: 0, end: text.length }];
  let r = 0;
  WORD.lastIndex = parts.length > 0 ? parts[0].start : text.length;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    while (r < parts.length && m.index >= parts[r].end) r++;
    if (r === parts.length) break;
    if (m.index < parts[r].start) {
      WORD.lastIndex = parts[r].start;
      continue;
    }
    const w = m[0];
    if (w.length < 3) continue;
    const key = w.toLowerCase();
    const hit = words.get(key);
    if (hit === undefined) continue;
    const start = m.index, end = start + w.length;
    if (start > 0 && /[\p{N}_]/u.test(text[start - 1])) continue;
    if (end < text.length && /[\p{N}_]/u.test(text[end])) continue;
    if (!hit.lower && !isUpper(w[0])) {
      // Written in lower case here: an ordinary word of this text (`server`), so not a name alone.
      if (w === key) (ordinary ??= new Set()).add(key);
      continue;
    }
    // Inside a token (`[[NAME_1]]` holds no name word, but a custom category could).
    taken ??= SpanSet.union(chosen.map((c) => ({ start: c.start, end: c.end })));
    if (taken.overlaps(start, end)) continue;
    const before = text.slice(Math.max(0, start - 80), start);
    if (before.lastIndexOf("[[") > before.lastIndexOf("]]")) continue;
    // The never-tokenize list, read on the word's own line (one line at a time, as needed).
    if (start >= lineEnd) {
      lineStart = text.lastIndexOf("\n", start) + 1;
      lineEnd = text.indexOf("\n", start);
      if (lineEnd === -1) lineEnd = text.length;
      protect = undefined;
    }
    protect ??= protectedSpans(text.slice(lineStart, lineEnd), fences && !hasFence);
    if (protect.overlaps(start - lineStart, end - lineStart) || (hasFence && fenced!.overlaps(start, end))) {
      continue;
    }
    if (!taken.add(start, end)) continue;
    out.push(candidate(start, end, w, hit.c.category, hit.c.canonical, "known", NAME_WORD));
  }
  return ordinary === undefined ? out : out.filter((c) => !ordinary!.has(c.value.toLowerCase()));
}
