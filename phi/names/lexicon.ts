/**
 * The name lexicon of the built-in tier 5 (phi/names/recognizer.ts): given names and family names of
 * every locale of `@faker-js/faker` (about 22,000 given and 19,000 family names, many cultures), the
 * people-names dictionary of CSpell (`@cspell/dict-people-names`, about 39,000 name parts, given and
 * family alike, mostly from census lists), and the words that must never count as a name on their
 * own: English stop words (`@orama/stopwords`), English month and weekday names (faker's `en` dates).
 *
 * Nothing here is typed by hand: the lists come from the pinned packages (deno.json, deno.lock). The
 * module is loaded only when the built-in tier 5 first runs (phi/tier5.ts loads it lazily), so the
 * start-up of the program never parses it.
 *
 * @module
 */
import { allLocales } from "@faker-js/faker";
import { stopwords } from "@orama/stopwords/english";

/** The lexicon, every entry lowercase. */
export interface NameLexicon {
  /** Given names. */
  readonly first: ReadonlySet<string>;
  /** Family names. */
  readonly last: ReadonlySet<string>;
  /** Name parts of either kind (the CSpell dictionary): weaker evidence than `first` and `last`. */
  readonly any: ReadonlySet<string>;
  /** Never a name by itself: stop words, months, weekdays. */
  readonly common: ReadonlySet<string>;
}

function collect(into: Set<string>, v: unknown): void {
  if (typeof v === "string") {
    // One-word entries only: multi-word entries ("de la Cruz") are matched word by word.
    const lc = v.toLowerCase();
    if (lc.indexOf(" ") === -1) {
      if (lc.length >= 2) into.add(lc);
    } else for (const w of lc.split(" ")) if (w.length >= 2) into.add(w);
  } else if (Array.isArray(v)) { for (const x of v) collect(into, x); }
  else if (v !== null && typeof v === "object") { for (const x of Object.values(v)) collect(into, x); }
}

/** English month and weekday names, from faker's `en` locale (cheaper than starting `Intl`). */
function calendarWords(): Set<string> {
  const out = new Set<string>();
  const date =
    (allLocales.en as { date?: { month?: { wide?: unknown }; weekday?: { wide?: unknown } } }).date;
  collect(out, date?.month?.wide);
  collect(out, date?.weekday?.wide);
  return out;
}

/**
 * Never called: the literal import puts the dictionary package into the module graph, so `deno`
 * installs it and `deno compile` embeds it. Its data is a plain text file read below.
 */
export const _inGraph = () => import("@cspell/dict-people-names", { with: { type: "json" } });

/** The CSpell people-names dictionary's entries (one a line; `#` lines are comments). */
async function cspellNames(): Promise<Set<string>> {
  const out = new Set<string>();
  const ext = import.meta.resolve("@cspell/dict-people-names");
  const text = await Deno.readTextFile(new URL("./dict/people-names.txt", ext));
  for (const line of text.split("\n")) {
    const w = line.trim().toLowerCase();
    if (w.length >= 2 && w[0] !== "#" && w.indexOf(" ") === -1) out.add(w);
  }
  return out;
}

let cached: Promise<NameLexicon> | undefined;

/**
 * The lexicon (built once per process, about 30 ms after the packages are parsed).
 *
 * @example
 * ```ts
 * import { nameLexicon } from "./lexicon.ts";
 * const lex = await nameLexicon();
 * lex.first.has("john"); // true
 * ```
 */
export function nameLexicon(): Promise<NameLexicon> {
  cached ??= build();
  return cached;
}

async function build(): Promise<NameLexicon> {
  const any = await cspellNames();
  const first = new Set<string>();
  const last = new Set<string>();
  for (const def of Object.values(allLocales)) {
    const person = (def as { person?: { first_name?: unknown; last_name?: unknown } }).person;
    if (!person) continue;
    collect(first, person.first_name);
    collect(last, person.last_name);
  }
  const common = calendarWords();
  for (const w of stopwords) common.add(w.toLowerCase());
  return { first, last, any, common };
}
