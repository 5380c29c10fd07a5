/**
 * The built-in tier 5's entry point, loaded lazily by phi/tier5.ts the first time it runs: the
 * lexicon, the never-a-name vocabulary (vendors, HL7 terms, the engine root's names) and the
 * recognizer, built once per process.
 *
 * @module
 */
import { readEnv } from "../../core/env.ts";
import { nameLexicon } from "./lexicon.ts";
import { findNames, type NameSpan } from "./recognizer.ts";
import { engineVocabulary, hl7Vocabulary, VENDOR_WORDS } from "./vocabulary.ts";

export type { NameSpan } from "./recognizer.ts";

/** Finds person names in a text. */
export type NameFinder = (text: string) => NameSpan[];

const built = new Map<string, Promise<NameFinder>>();

/**
 * The recognizer for an engine root (default `$HCIROOT`; none: vendors and HL7 terms only).
 *
 * @example
 * ```ts
 * import { nameFinder } from "./mod.ts";
 * const find = await nameFinder();
 * find("spoke with Dana Whitfield"); // [{ start: 11, end: 25, rule: "cue" }]
 * ```
 */
export function nameFinder(root: string | undefined = readEnv("HCIROOT")): Promise<NameFinder> {
  const key = root ?? "";
  let p = built.get(key);
  if (!p) {
    p = (async () => {
      const lex = await nameLexicon();
      const never = await engineVocabulary(root);
      for (const w of VENDOR_WORDS) never.add(w);
      const vocab = { never, hl7: hl7Vocabulary() };
      return (text: string) => findNames(text, lex, vocab);
    })();
    built.set(key, p);
  }
  return p;
}
