import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { detectAuto, findContextual, findDefinite, findHl7Lines, KnownIndex } from "../../phi/detect.ts";
import { protectedRanges, protectedSpans } from "../../phi/exclusions.ts";
import { LookupTable, type TokenRequest } from "../../phi/lookup.ts";
import { tempDir } from "../support/run_assist.ts";
import { mulberry32, pick, randomText } from "../support/prng.ts";

const auto = (text: string, known?: KnownIndex) =>
  detectAuto(text, { protect: protectedSpans(text), known }).map((c) => [c.tier, c.category, c.value]);

/** A tier-4 index over a fresh lookup table holding `rows` (its folder removed on dispose). */
async function knownOf(rows: TokenRequest[], options?: { longList?: number }) {
  const tmp = await tempDir();
  const table = await LookupTable.open(`${tmp.path}/lookup.tsv`);
  await table.assign(rows);
  return {
    table,
    k: new KnownIndex(table, options),
    [Symbol.asyncDispose]: () => tmp[Symbol.asyncDispose](),
  };
}

/** MANUAL rows whose canonical and original are the form itself. */
const manual = (forms: readonly string[]): TokenRequest[] =>
  forms.map((f) => ({ category: "MANUAL", canonical: f, original: f }));

Deno.test("tier 1: SSN, e-mail, formatted phones, NPI after NPI:", () => {
  const t = "ssn 123-45-6789 mail Jane.Doe+x@mail.example.org. ph (555) 123-4567, 555-234-5678, " +
    "555.345.6789, +1 555-456-7890 and NPI: 1234567893; not 555 123 4567, not 1234-56-789";
  // (`ph` is a phone cue, but 555 123 4567 is 60 characters after it.)
  assertEquals(findDefinite(t).map((c) => [c.category, c.value]).sort(), [
    ["EMAIL", "Jane.Doe+x@mail.example.org"],
    ["NPI", "1234567893"],
    ["PHONE", "(555) 123-4567"],
    ["PHONE", "+1 555-456-7890"],
    ["PHONE", "555-234-5678"],
    ["PHONE", "555.345.6789"],
    ["SSN", "123-45-6789"],
  ]);
  assertEquals(
    auto("NPI: 1234567893"),
    [["definite", "NPI", "1234567893"]],
    "NPI: label beats the epoch shape",
  );
});

Deno.test("tier 2: a number with a keyword in the 20 characters before it, on its line", () => {
  assertEquals(auto("MRN 1234567"), [["contextual", "MRN", "1234567"]]);
  assertEquals(auto("Patient: E1234567"), [["contextual", "MRN", "E1234567"]]);
  assertEquals(auto("acct#99887766"), [["contextual", "ACCOUNT", "99887766"]]);
  assertEquals(auto("DOB 03/15/1980"), [["contextual", "DOB", "03/15/1980"]]);
  assertEquals(auto("Date of Birth: 1980-03-15"), [["contextual", "DOB", "1980-03-15"]]);
  const exactly20 = "Visit" + " ".repeat(15) + "7654321";
  const past20 = "Visit" + " ".repeat(16) + "7654321";
  assertEquals(auto(exactly20).length, 1, "keyword starting 20 characters before");
  assertEquals(auto(past20).length, 0, "21 characters before: outside the window");
  assertEquals(auto("MRN\n7654321").length, 1, "a keyword ending the line before counts");
  assertEquals(auto("MRN\n\n7654321").length, 0, "but not two lines before");
  assertEquals(auto("MRN for\nthe 7654321").length, 0, "nor when the number is not first on its line");
  assertEquals(auto("Patient 123").length, 0, "fewer than 4 digits");
  assertEquals(auto("order 7654321").length, 0, "no keyword");
  assertEquals(findContextual("record 123-45").length, 1);
});

Deno.test("tier 3: PHI-shaped values on lines that mention PHI fields", () => {
  assertEquals(findHl7Lines("PID.5 = SMITH^JOHN^A").map((c) => [c.category, c.value]), [[
    "NAME",
    "SMITH^JOHN^A",
  ]]);
  assertEquals(findHl7Lines("PID.5.1: SMITH").map((c) => [c.category, c.value]), [["NAME", "SMITH"]]);
  assertEquals(findHl7Lines("PID.3 12345678^^^HOSP^MR").map((c) => [c.category, c.value]), [[
    "MRN",
    "12345678",
  ]]);
  assertEquals(findHl7Lines("PID.7 value 19800315").map((c) => [c.category, c.value]), [["DOB", "19800315"]]);
  assertEquals(findHl7Lines("PID-13: 5551234567").map((c) => [c.category, c.value]), [[
    "PHONE",
    "5551234567",
  ]]);
  assertEquals(findHl7Lines("NK1.4: 12 ELM ST^^SPRINGDALE, see above").map((c) => [c.category, c.value]), [
    ["ADDRESS", "12 ELM ST"],
    ["ADDRESS", "SPRINGDALE"],
  ]);
  assertEquals(findHl7Lines("PID.3: 7654321 for Jane Doe").map((c) => [c.category, c.value]), [[
    "MRN",
    "7654321",
  ]]);
  assertEquals(findHl7Lines("PV1.7: 1234^WHO^DOC today").map((c) => [c.category, c.value]), [
    ["NPI", "1234"],
    ["NAME", "WHO^DOC"],
  ]);
  // The value after a field is read by the field's rule: IN1.17 (relationship) and IN1.21 are codes.
  assertEquals(findHl7Lines("IN1.17 = SEL 12345").length, 0, "IN1.17 holds a code: nothing to tokenize");
  assertEquals(findHl7Lines("IN1.21 = 12345678").length, 0, "IN1.21 has no PHI rule");
  assertEquals(findHl7Lines("IN1.16 = SMITH^JOHN").map((c) => c.category), ["NAME"]);
  assertEquals(findHl7Lines("PID.30 = 12345678").length, 0);
  assertEquals(findHl7Lines("the 12345678 of PV1.19").length, 0);
  assertEquals(
    auto("PID.18: 12345678"),
    [["hl7", "ACCOUNT", "12345678"]], // PID-18 is an account number (issue #24 item 7)
    "the reference itself is never tokenized",
  );
});

Deno.test("tier 4: values in the lookup table, in their other spellings", async () => {
  await using tmp = await tempDir();
  const table = await LookupTable.open(`${tmp.path}/lookup.tsv`);
  await table.assign([
    { category: "NAME", canonical: "a jane doe", original: "DOE^JANE^A" },
    { category: "MRN", canonical: "A7654321", original: "A7654321" },
    { category: "ADDRESS", canonical: "springdale", original: "SPRINGDALE" },
    { category: "MANUAL", canonical: "Fairhaven", original: "Fairhaven" },
  ]);
  const k = new KnownIndex(table);
  assertEquals(auto("seen Jane A Doe and Doe, Jane and DOE^JANE^A today", k), [
    ["known", "NAME", "Jane A Doe"],
    ["known", "NAME", "Doe, Jane"],
    ["known", "NAME", "DOE^JANE^A"],
  ]);
  assertEquals(auto("id a7654321 here, not A76543210", k), [["known", "MRN", "a7654321"]]);
  assertEquals(auto("moved to Springdale, then Fairhaven", k), [["known", "MANUAL", "Fairhaven"]]);
  await table.assign([{ category: "ADDRESS", canonical: "62704", original: "62704" }]);
  assertEquals(auto("pid 62704 running", k), [], "short numbers are not searched (process ids, sizes)");
  await table.assign([{ category: "MRN", canonical: "1112223", original: "1112223" }]);
  assertEquals(auto("late 1112223", k), [["known", "MRN", "1112223"]], "the index follows the table");
});

Deno.test("never tokenized: each kind of the spec's list, even on a tier match", () => {
  const cases: Array<[string, string]> = [
    ["Patient file /hci/prod/site1/data/12345678.hl7", "path"],
    ["Patient file ./data/12345678.hl7", "path"],
    ["Patient file C:\\hci\\Account\\12345678.tcl", "path"],
    ["see https://example.org/mrn/12345678", "path"],
    ["MRN index data/mrn/12345678/x", "path"],
    ["Patient list PID.18 and PID-3.1 and OBX.5[2].1", "field_ref"],
    ["Patient module v2.9.6 and 12.1.0.4", "version"],
    ["MRN service version 12345678", "version"],
    ["Patient admitted 2024-01-15T10:00:00Z", "iso_date"],
    ["Patient feed port 41189", "port"],
    ["Record service at engine01.example.org:41189", "port"],
    ["Account sync error 40412", "status_code"],
    ["Record HTTP/1.1 503 status=50321", "status_code"],
    ['{"MRN 12345678": 1, "555-123-4567": 2}', "json_key"],
    ["Patient ts 1700000000123 and 1700000000", "timestamp"],
    ["Already [[MRN_1]] and [[NAME_2]]", "token"],
    ["```\nMRN 12345678 SSN 123-45-6789\n```", "fence"],
  ];
  for (const [text, kind] of cases) {
    assertEquals(auto(text), [], text);
    const kinds = new Set(protectedRanges(text).map((r) => r.kind));
    assertEquals(kinds.has(kind as never), true, `${text}: ${[...kinds]}`);
  }
  assertEquals(auto("DOB: 1980-03-15").length, 1, "ISO date with DOB context is tokenized");
  assertEquals(auto("Birth 1980-03-15").length, 1, "ISO date with Birth context is tokenized");
  assertEquals(auto("call 555.123.4567").length, 1, "a dotted phone is not a version");
  assertEquals(
    auto("```\nMRN 12345678\n"),
    [["contextual", "MRN", "12345678"]],
    "an unclosed fence protects nothing",
  );
});

Deno.test("tier 4: the word filter passes every known word in any case, non-ASCII words, and a table read anew", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  const table = await LookupTable.open(path);
  const rand = mulberry32(11);
  const word = () =>
    Array.from(
      { length: 4 + Math.floor(rand() * 6) },
      () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(rand() * 26)],
    )
      .join("");
  const names = Array.from({ length: 300 }, () => [word(), word()]);
  const ids = Array.from({ length: 300 }, (_, i) => `QX${100000 + i * 7}`);
  await table.assign([
    ...names.map(([f, g]) => ({
      category: "NAME",
      canonical: [f, g].sort().join(" "),
      original: `${f.toUpperCase()}^${g.toUpperCase()}`,
    })),
    ...ids.map((id) => ({ category: "MRN", canonical: id, original: id })),
    { category: "NAME", canonical: "zoë ångström", original: "ÅNGSTRÖM^ZOË" },
  ]);
  const k = new KnownIndex(table);
  for (let i = 0; i < names.length; i += 37) {
    const [f, g] = names[i];
    const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
    assertEquals(auto(`saw ${cap(g)} ${f.toUpperCase()} today`, k), [[
      "known",
      "NAME",
      `${cap(g)} ${f.toUpperCase()}`,
    ]]);
    assertEquals(auto(`see ${ids[i].toLowerCase()} ok`, k), [["known", "MRN", ids[i].toLowerCase()]]);
  }
  assertEquals(auto("seen Zoë Ångström and Ångström, Zoë", k), [
    ["known", "NAME", "Zoë Ångström"],
    ["known", "NAME", "Ångström, Zoë"],
  ]);
  assertEquals(auto("nothing here but ordinary words and numbers 123456", k), []);
  // The file replaced by hand (shrunk): the index, filter included, starts again from the new rows.
  await Deno.writeTextFile(path, "[[MRN_1]]\tMRN\tZZ998877\tZZ998877\n");
  await table.refresh();
  assertEquals(auto(`see ${ids[0]} and ZZ998877`, k), [["known", "MRN", "ZZ998877"]]);
});

Deno.test("line-by-line scans (protected ranges, tier 2) find exactly what a whole-text scan finds (fuzz)", () => {
  const pieces = [
    "host",
    "localhost",
    "10.0.0.1",
    "a.b.com",
    "]",
    ":",
    ":8080",
    " :80",
    "\n",
    "\r",
    "\r\n",
    "/",
    "//",
    "://",
    "http",
    "./x",
    "../y",
    "~/z",
    "a/b",
    "C:\\x",
    "\\\\srv",
    "@",
    "-",
    ".",
    " ",
    "x",
    "12",
    "v1.2",
    "1.2.3",
    "port 80",
    "error 5",
    '"k":',
    "2024-01-02",
    "1700000000",
    "[[T_1]]",
    "PID.3",
    "```\n",
    "MRN",
    "mrn:",
    "Patient ",
    "dob ",
    "03/15/1980",
    "1234567",
    "E1234567",
    "acct#",
    "birth",
    "record 12345",
  ];
  const rand = mulberry32(2024);
  const key = (a: Array<{ start: number; end: number; kind?: string; value?: string }>) =>
    a.map((r) => `${r.start},${r.end},${r.kind ?? r.value}`).sort().join(";");
  for (let i = 0; i < 40000; i++) {
    const t = randomText(rand, pieces, 40);
    assertEquals(key(protectedRanges(t)), key(protectedRanges(t, false)), JSON.stringify(t));
    assertEquals(key(findContextual(t)), key(findContextual(t, false)), JSON.stringify(t));
  }
  // Lines that start with a colon: a host:port match may cross the line break before it, and a
  // match that crossed one already consumed the start of the next line ("a.b\n:1.x\n:2").
  const bits = [
    "a.b",
    "1",
    ".x",
    "1.2.3.4",
    ":",
    " ",
    "]",
    "localhost",
    "x",
    ":1",
    "12",
    "443.tls",
    "/",
    "a/b",
  ];
  const breaks = ["\n", "\r", "\r\n"];
  for (let i = 0; i < 40000; i++) {
    const lines = Array.from(
      { length: 1 + Math.floor(rand() * 4) },
      () => (rand() < 0.5 ? ":" : "") + randomText(rand, bits, 4),
    );
    const t = lines.reduce((acc, l) => acc + pick(rand, breaks) + l);
    assertEquals(key(protectedRanges(t)), key(protectedRanges(t, false)), JSON.stringify(t));
  }
  // ":1" is the host port of "a.b" (across the break); ":2" first on its line is a bare port.
  assertEquals(key(protectedRanges("a.b\n:1.x\n:2")), "10,11,port;5,6,port");
});

Deno.test("tier 4: forms with letters outside the BMP, and a first word ending in Σ, are found as the text spells them", async () => {
  await using known = await knownOf(manual(["ab𝐀cd", "陳大𠀀明", "ΟΔΟΣ.ΑΘΗΝΩΝ"]));
  const k = known.k;
  assertEquals(auto("see ab𝐀cd now", k), [["known", "MANUAL", "ab𝐀cd"]]);
  assertEquals(auto("患者 陳大𠀀明 入院", k), [["known", "MANUAL", "陳大𠀀明"]]);
  assertEquals(auto("στην ΟΔΟΣ.ΑΘΗΝΩΝ 12", k), [["known", "MANUAL", "ΟΔΟΣ.ΑΘΗΝΩΝ"]]);
});

Deno.test("tier 4: long needle lists split by second word find exactly what the whole list finds (fuzz)", async () => {
  await using tmp = await tempDir();
  const table = await LookupTable.open(`${tmp.path}/lookup.tsv`);
  const rand = mulberry32(31);
  const one = <T>(a: readonly T[]) => pick(rand, a);
  const firsts = ["555", "1980", "123", "Main", "Ünïc", "ΟΔΟΣ", "ACME"];
  const seps = ["-", " ", ", ", ".", "/", "  ", " - ", "_", "", "-_", "_ ", "__"];
  const words = ["03", "15", "123", "st", "Elm", "x", "Ab", "4567", "ΣΑ", "𝐀b", "12a"];
  const forms = new Set<string>();
  while (forms.size < 400) {
    let f = one(firsts);
    for (let k = Math.floor(rand() * 3); k > 0; k--) f += one(seps) + one(words);
    forms.add(f);
  }
  await table.assign([...forms].map((f) => ({ category: "MANUAL", canonical: f, original: f })));
  const split = new KnownIndex(table, { longList: 2 });
  const whole = new KnownIndex(table, { longList: Infinity });
  const noise = [" ", "\n", "\t", ",", ", ", "-", ".", ":", "a", "Z", "9", "\u00a0", "(", ")"];
  const key = (k: KnownIndex, t: string) =>
    k.find(t).map((c) => `${c.start}-${c.end}:${c.canonical}`).join(" ");
  let hits = 0;
  for (let i = 0; i < 3000; i++) {
    let t = "";
    for (let k = Math.floor(rand() * 8); k >= 0; k--) {
      t += rand() < 0.5 ? one(noise) : "";
      t += rand() < 0.6 ? [...forms][Math.floor(rand() * forms.size)] : one(firsts) + one(seps) + one(words);
      if (rand() < 0.3) t = t.toUpperCase();
    }
    const a = key(split, t), b = key(whole, t);
    assertEquals(a, b, JSON.stringify(t));
    if (a !== "") hits++;
  }
  assertEquals(hits > 1500, true, `${hits} texts with a match`);
  // A needle ending in "_" after its first word matches whatever follows.
  const more = Array.from({ length: 9 }, (_, i) => `ACME-100${i}`);
  await table.assign(["ACME_", ...more].map((f) => ({ category: "MANUAL", canonical: f, original: f })));
  assertEquals(key(split, "user ACME_ logged in"), "5-10:ACME_");
  assertEquals(key(split, "user ACME_. logged in"), "5-10:ACME_");
});

Deno.test("tier 4: a lone surrogate next to a known value is not a letter (text cut in the middle of an emoji)", async () => {
  await using known = await knownOf([
    { category: "MRN", canonical: "E1234567", original: "E1234567" },
    { category: "NAME", canonical: "jane sample", original: "SAMPLE^JANE" },
  ]);
  const k = known.k;
  assertEquals(auto("id E1234567\uD83Dx", k), [["known", "MRN", "E1234567"]]);
  assertEquals(auto("id \uD83DE1234567 x", k), [["known", "MRN", "E1234567"]]);
  assertEquals(auto("Jane Sample\uD83Dx", k), [["known", "NAME", "Jane Sample"]]);
  assertEquals(auto("id E1234567𝐀 x", k), [], "a letter outside the BMP continues the word");
});

Deno.test("tier 4: forms whose lowercase depends on context (final sigma, İ, capitals outside the BMP) match their own spelling", async () => {
  const forms = ["ΟΔΟΣ ΑΘΗΝΩΝ", "ΣΑΣ-12", "İSTANBUL-5", "𐐀BC-12"];
  await using known = await knownOf(manual(forms));
  for (const longList of [8, 0]) {
    const k = new KnownIndex(known.table, { longList });
    for (const f of forms) assertEquals(auto(`at ${f} today`, k), [["known", "MANUAL", f]], f);
    assertEquals(auto("στην οδος αθηνων", k), [["known", "MANUAL", "οδος αθηνων"]], "lowercase, final sigma");
    assertEquals(auto("σας-12 ok", k), [["known", "MANUAL", "σας-12"]]);
  }
});
